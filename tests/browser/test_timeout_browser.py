"""In a browser: a correspondence player times out, the bot plays the seat, the player
comes back and takes the seat back with one click."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.browser.fixtures import sign_up
from tests.browser.live import as_the_worker
from tests.fixtures import run_due_tasks


def make_due(task: str) -> None:
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.filter(status="READY", task_path__endswith=f".{task}").update(run_after=timezone.now())

SLUG = "nanga-parbat"


def both_move_once(game, users):
    """Each player moves once: a player whose clock runs out before their first move is a
    no-show, and the game is aborted instead of handed to a bot."""
    import random

    from games import engine
    from games.models import Game
    from games.rules import bot_for

    for step in range(100):
        game = Game.objects.get(pk=game.pk)
        if set(game.seats_moved) == {0, 1}:
            return game
        seat = game.to_act()[0]
        engine.submit(game.pk, users[seat], bot_for(SLUG).choose(game.state, seat, random.Random(step)))
    raise AssertionError("some seat never moved")


@pytest.mark.browser
def test_a_timed_out_player_finds_the_bot_in_their_seat_and_takes_it_back(live_site, browser, start_game):
    from accounts.models import User
    from games.models import Game, Seat

    pages = {}
    for name in ("ann", "ben"):
        page = browser.new_context().new_page()
        sign_up(page, live_site, name)
        pages[name] = page
    ann, ben = User.objects.get(username="ann"), User.objects.get(username="ben")
    game = start_game(SLUG, [ann, ben], pace="correspondence", days_per_move=1)
    game = both_move_once(game, {0: ann, 1: ben})
    [absent_seat] = game.to_act()
    absent, present = ("ann", "ben") if absent_seat == 0 else ("ben", "ann")

    # A day and a bit passes; the worker finds the deadline and the bot plays.
    Seat.objects.filter(game=game, index=absent_seat).update(running_since=timezone.now() - timedelta(days=1, hours=1))
    run_due_tasks(only="expire_clock")
    game.refresh_from_db()
    move = Seat.objects.get(game=game, index=absent_seat).bot_since
    assert move is not None and game.moves.filter(seat=absent_seat, by_bot=True).exists()

    watcher = pages[present]
    watcher.goto(f"{live_site}/play/{game.pk}/")
    assert watcher.get_by_text(f"played by a bot since move {move}", exact=True).is_visible()

    player = pages[absent]
    player.goto(f"{live_site}/play/{game.pk}/")
    assert player.get_by_text(f"played by a bot since move {move}", exact=True).is_visible()
    player.get_by_role("button", name="Take my seat back from the bot").click()
    player.get_by_text("the seat is yours again").wait_for()
    assert player.get_by_text("played by a bot since").count() == 0
    assert Seat.objects.get(game=game, index=absent_seat).bot_since is None
    assert Game.objects.get(pk=game.pk).is_active


@pytest.mark.browser
def test_a_page_whose_clock_runs_out_shows_the_bot_without_a_reload(live_site, browser, start_game):
    """The worker's live push cannot reach a page served by another process on the
    in-memory layer (make run): the page polls its game's fingerprint (lobby.live) and
    fetches the board again when the worker has handed the seat to the bot."""
    from accounts.models import User
    from games.models import Seat

    pages = {}
    for name in ("ann", "ben"):
        page = browser.new_context().new_page()
        sign_up(page, live_site, name)
        pages[name] = page
    ann, ben = User.objects.get(username="ann"), User.objects.get(username="ben")
    game = start_game(SLUG, [ann, ben], pace="correspondence", days_per_move=1)
    game = both_move_once(game, {0: ann, 1: ben})
    [absent_seat] = game.to_act()
    watcher = pages["ben" if absent_seat == 0 else "ann"]
    # Two seconds are left on the absent seat's clock when the page is drawn.
    Seat.objects.filter(game=game, index=absent_seat).update(
        running_since=timezone.now() - timedelta(days=1) + timedelta(seconds=2))
    watcher.goto(f"{live_site}/play/{game.pk}/")
    assert watcher.get_by_text("played by a bot since").count() == 0
    watcher.wait_for_timeout(2500)
    make_due("expire_clock")
    as_the_worker(live_site, "db_worker", "--batch", "--no-startup-delay", "--interval", "0")
    assert Seat.objects.get(game=game, index=absent_seat).bot_since is not None
    watcher.get_by_text("played by a bot since", exact=False).first.wait_for(timeout=15_000)
