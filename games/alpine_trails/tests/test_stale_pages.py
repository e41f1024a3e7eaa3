"""Stale pages in Alpine Trails: a page from an earlier round is refused (409) even for an
action that is legal now; another seat's moves in the same round never make a page stale."""
from __future__ import annotations

import json

import pytest

from games import engine
from games.engine import STALE_MESSAGE
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db
SLUG = "alpine-trails"


def post(client, game, action, turn):
    return client.post(f"/play/{game.pk}/act/", {"action": json.dumps(action), "token": "", "turn": turn})


def finish_round(game, users):
    round_ = game.state["round"]
    while game.state["round"] == round_:
        seat = game.to_act()[0]
        engine.submit(game.pk, users[seat], game.rules.legal_actions(game.state, seat)[0])
        game.refresh_from_db()
    return game


def test_a_page_from_the_last_round_cannot_act_in_this_one(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], seed=2)
    old_key = game.rules.seat_turn(game.state, 0)
    game = finish_round(game, [alice, bob])
    action = game.rules.legal_actions(game.state, 0)[0]
    version = game.version

    response = post(client_for(alice), game, action, old_key)

    assert response.status_code == 409 and STALE_MESSAGE in response.content.decode()
    game.refresh_from_db()
    assert game.version == version


def test_a_page_stays_fresh_while_another_seat_places_in_the_same_round(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], seed=2)
    alice_key = game.rules.seat_turn(game.state, 0)
    for _ in range(2):
        engine.submit(game.pk, bob, game.rules.legal_actions(game.state, 1)[0])
        game.refresh_from_db()
    action = game.rules.legal_actions(game.state, 0)[0]

    response = post(client_for(alice), game, action, alice_key)

    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version == 3


def test_a_finished_board_gives_the_goal_as_scored_not_worth_now(start_game, alice):
    """Issue 19, row 7: the finished page said "Worth now: 1" of the personal goal."""
    from tests.browser.boards import advance

    game = advance(start_game(SLUG, [alice, None], seed=3), alice, 600)
    assert not game.is_active
    html = client_for(alice).get(f"/play/{game.pk}/").content.decode()
    assert "Worth now" not in html and "Scored:" in html
