"""Bots of every level at real tables (issue 25 items 2-3): the host picks a level, the
bot's name shows it; levels 1-3 answer inside the request, levels 4-5 search under their
time budget in the task worker, never inside a player's request, while the page says the
bot is thinking; a timed-out player's stand-in is the greedy bot, answering at once."""
from __future__ import annotations

from dataclasses import replace

import pytest
from django_tasks_db.models import DBTaskResult

from games import engine
from games.engine import SeatPlan
from games.models import Game
from games.rules import levels
from lobby import services as lobby

from tests.fixtures import post_action

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"


@pytest.fixture(autouse=True)
def quick_search(monkeypatch):
    """The levels' own limits, with a budget small enough for a test (the ladder measures
    the real ones: docs/bots.md)."""
    monkeypatch.setattr(levels, "SEARCH", {level: replace(limits, iterations=4, budget=0.05)
                                           for level, limits in levels.SEARCH.items()})


def bot_turn_tasks() -> int:
    return DBTaskResult.objects.filter(task_path__endswith=".play_bot_turn", status="READY").count()


def start_against(user, level):
    return engine.start_game(SLUG, [SeatPlan(user=user), SeatPlan(is_bot=True, bot_level=level)], {},
                             seed=3, shuffle=False)


def first_legal(game, seat=0):
    return game.rules.legal_actions(game.state, seat)[0]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_weaker_bots_answer_inside_the_request(alice, alice_client, level):
    game = start_against(alice, level)
    before = game.version
    post_action(alice_client, game, first_legal(game))
    game.refresh_from_db()
    assert game.version > before + 1 or 1 not in game.to_act(), "the bot has answered already"
    assert bot_turn_tasks() == 0


@pytest.mark.parametrize("level", [4, 5])
def test_searching_bots_think_in_the_worker_and_the_page_says_so(alice, alice_client, run_tasks, level):
    game = start_against(alice, level)
    assert game.seats.get(index=1).name == f"Bot 2 (level {level})"
    for _ in range(6):  # a few turns each way: every bot turn goes through the worker
        game.refresh_from_db()
        if 0 in game.to_act():
            assert bot_turn_tasks() == 0
            assert post_action(alice_client, game, first_legal(game)).status_code == 200
            continue
        assert 1 in game.to_act()
        assert bot_turn_tasks() == 1, "the bot's turn went to the worker, not the request"
        assert "The bot is thinking…" in alice_client.get(f"/play/{game.pk}/").content.decode()
        before = game.version
        run_tasks(only="play_bot_turn")
        game.refresh_from_db()
        assert game.version > before and game.moves.filter(by_bot=True).exists()
    assert game.moves.filter(by_bot=False).exists() and game.moves.filter(by_bot=True).exists()


def test_a_game_of_searching_bots_only_is_played_to_its_end_by_the_worker(alice, run_tasks):
    game = engine.start_game(SLUG, [SeatPlan(is_bot=True, bot_level=4), SeatPlan(is_bot=True, bot_level=5)], {},
                             seed=5, shuffle=False)
    assert game.is_active and game.version == 0, "nothing searched inside the call that started it"
    for _ in range(400):
        if not run_tasks(only="play_bot_turn"):
            break
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_the_host_picks_the_level_of_the_bot_they_add(alice, alice_client):
    table = lobby.create_table(alice, game_slug="roll-to-the-top", seats_count=3, options={}, is_private=False,
                               pace="live", days_per_move=None)
    page = alice_client.get(f"/tables/{table.pk}/").content.decode()
    assert 'name="level"' in page and ">5: strong</option>" in page
    alice_client.post(f"/tables/{table.pk}/bots/add/", {"level": "1"})
    refused = alice_client.post(f"/tables/{table.pk}/bots/add/", {"level": "9"}, follow=True).content.decode()
    assert "Choose a bot level from 1 to 5." in refused
    alice_client.post(f"/tables/{table.pk}/bots/add/", {"level": "4"})
    table.refresh_from_db()
    game = table.game
    assert sorted(s.bot_level for s in game.seats.all() if s.is_bot) == [1, 4]
    assert {s.name for s in game.seats.all() if s.is_bot} >= {"Bot 2 (level 1)"} or \
        any("(level 1)" in s.name for s in game.seats.all())


def test_a_timed_out_players_stand_in_is_the_greedy_bot_and_answers_at_once(alice, bob, start_game):
    from games import core

    game = start_game(SLUG, [alice, bob])
    seat = game.seats.get(index=0)
    seat.bot_since = 0
    assert core.bot_level(seat) == core.STAND_IN_LEVEL == levels.GREEDY
