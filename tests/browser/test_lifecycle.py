"""The lifecycle matrix (issue 17 build 6): for each way a game ends, two players in two
browser contexts take it there, and the board, the result, the profile, the record
(exported, then replayed by `import_record`) and the rating events all tell the same
account. On PostgreSQL + Redis, so changes made by this test's process (a deadline run by
the worker, moves played for speed) reach the server's sockets as the worker's would.

Moves between the interesting moments are played through the engine (fast, and the board
tests of each game cover clicking them); every ending a player causes is a click.
"""
from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from tests.browser.boards import settled, signed_in
from tests.browser.checks import DESKTOP
from tests.fixtures import run_due_tasks

SLUG = "nanga-parbat"
pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]
TIMEOUT = 15_000


def play(game, users: dict, until, limit=3000):
    from games import engine
    from games.models import Game
    from games.rules import bot_for

    for step in range(limit):
        game = Game.objects.get(pk=game.pk)
        if until(game) or not game.is_active:
            return game
        seat = game.to_act()[0]
        engine.submit(game.pk, users[seat], bot_for(SLUG).choose(game.state, seat, random.Random(step)))
    raise AssertionError("never reached")


def open_pages(browser, live_site, game, users):
    pages = {}
    for seat, user in users.items():
        page = signed_in(browser, live_site, user, width=DESKTOP)
        page.on("dialog", lambda dialog: dialog.accept())  # hx-confirm's "Resign?" / "Abort?"
        page.goto(f"{live_site}/play/{game.pk}/")
        pages[seat] = page
    return pages


def run_out_of_time(game, seat: int) -> None:
    """The seat's flag falls and the worker's deadline task runs."""
    from games.models import Seat

    clock = Seat.objects.get(game=game, index=seat)
    clock.running_since -= timedelta(days=30)
    clock.save(update_fields=["running_since"])
    run_due_tasks(only="expire_clock")


# Each ending: how to reach it, and the account every page must give.
def end_normally(game, users, pages, admin):
    return play(game, users, lambda g: False), None


def end_by_resignation(game, users, pages, admin):
    game = play(game, users, lambda g: set(g.seats_moved) == {0, 1})
    pages[1].reload()
    pages[1].get_by_role("button", name="Resign").click()
    expect(pages[1].locator(".status-line")).to_contain_text("resigned on move", timeout=TIMEOUT)
    return game, 1


def end_by_timeout(game, users, pages, admin):
    game = play(game, users, lambda g: set(g.seats_moved) == {0, 1})
    [late] = game.to_act()
    run_out_of_time(game, late)
    return play(game, users, lambda g: False), late


def end_by_no_show(game, users, pages, admin):
    [first] = game.to_act()
    run_out_of_time(game, first)
    return game, first


def end_by_abort(game, users, pages, admin):
    pages[0].get_by_role("button", name="Abort the game").click()
    expect(pages[0].locator(".status-line")).to_contain_text("aborted the game", timeout=TIMEOUT)
    return game, 0


def end_by_staff(game, users, pages, admin):
    from games import engine

    engine.abort_game(game.pk, by=admin, reason="test")
    return game, None


ENDINGS = {
    "normal": (end_normally, "The game was played to the end.", True),
    "resigned": (end_by_resignation, "{who} resigned on move", True),
    "timeout": (end_by_timeout, "{who} ran out of time on move", True),
    "no_show": (end_by_no_show, "{who} never moved before the clock ran out: the game was aborted, unrated", False),
    "aborted": (end_by_abort, "{who} aborted the game on move", False),
    "staff": (end_by_staff, "The game was aborted by the site's staff", False),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ending", list(ENDINGS))
def test_every_ending_reads_the_same_on_the_board_the_profile_the_record_and_the_ratings(
        ending, live_site, browser, start_game, make_user):
    from accounts.models import RatingEvent
    from games.models import Game
    from games.record import import_record

    reach, sentence, rated = ENDINGS[ending]
    ann, ben = make_user("ann"), make_user("ben")
    admin = make_user("staff")
    users = {0: ann, 1: ben}
    pace = {"clock_minutes": 5} if ending == "no_show" else {"pace": "correspondence", "days_per_move": 1}
    game = start_game(SLUG, [ann, ben], **pace)
    pages = open_pages(browser, live_site, game, users)
    game, leaver = reach(game, users, pages, admin)
    game = Game.objects.get(pk=game.pk)
    assert game.ending == ending
    expected = sentence.format(who=users[leaver].username if leaver is not None else "")

    for page in pages.values():  # the board (pushed live, or on the next visit)
        page.goto(f"{live_site}/play/{game.pk}/")
        settled(page)
        expect(page.locator(".status-line")).to_contain_text(expected, timeout=TIMEOUT)
        if rated and leaver is not None:
            winner = users[1 - leaver].username
            expect(page.locator(".status-line")).to_contain_text(f"{winner} win")
            ranking = page.locator(".final-result .ranking li")
            expect(ranking.first).to_contain_text(winner)

    profile = pages[0]
    profile.goto(f"{live_site}/accounts/u/{(users[leaver] if leaver is not None else ann).username}/")
    if rated and ending != "normal":
        expect(profile.locator("main")).to_contain_text(expected)

    record = json.loads(pages[0].request.get(f"{live_site}/play/{game.pk}/record.json").text())
    assert record["ending"]["kind"] == ending
    replayed = import_record(record)
    assert replayed.ending == ending
    events = {e.user_id: e.rank for e in RatingEvent.objects.filter(game=game)}
    if rated:
        assert set(events) == {ann.pk, ben.pk}
        if leaver is not None:
            assert events[users[leaver].pk] == 2 and events[users[1 - leaver].pk] == 1
    else:
        assert events == {} and not game.rated and replayed.ranking == []


@pytest.mark.django_db(transaction=True)
def test_a_rematch_offer_reaches_the_other_page_live_and_both_go_to_the_new_game(
        live_site, browser, start_game, make_user):
    from games.models import RematchOffer

    ann, ben = make_user("ann"), make_user("ben")
    users = {0: ann, 1: ben}
    game = start_game(SLUG, [ann, ben], pace="correspondence", days_per_move=1)
    pages = open_pages(browser, live_site, game, users)
    end_by_resignation(game, users, pages, None)
    expect(pages[0].locator(".status-line")).to_contain_text("ben resigned on move", timeout=TIMEOUT)

    pages[0].get_by_role("button", name="Offer a rematch").click()
    expect(pages[1].get_by_role("button", name="Accept the rematch")).to_be_visible(timeout=TIMEOUT)
    pages[1].get_by_role("button", name="Accept the rematch").click()
    elsewhere = re.compile(rf"/play/(?!{game.pk}/)\d+/$")
    expect(pages[1]).to_have_url(elsewhere, timeout=TIMEOUT)  # the accepting page: HX-Redirect
    new_game = RematchOffer.objects.get(game=game).new_game
    assert new_game is not None and new_game.is_active
    for page in pages.values():  # the offerer's page follows the pushed panel's data-redirect
        expect(page).to_have_url(f"{live_site}/play/{new_game.pk}/", timeout=TIMEOUT)
