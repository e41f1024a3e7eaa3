"""Stale pages in Roll to the Top: a page from an earlier turn is refused (409) even for an
action that is legal now; another seat writing in the same turn never makes a page stale."""
from __future__ import annotations

import json

import pytest

from games import engine
from games.engine import STALE_MESSAGE
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"
DONE = {"type": "done"}


def post(client, game, action, turn):
    return client.post(f"/play/{game.pk}/act/", {"action": json.dumps(action), "token": "", "turn": turn})


def test_a_page_from_the_last_turn_cannot_act_in_this_one(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], seed=3)
    old_key = game.rules.seat_turn(game.state, 0)
    for user in (alice, bob):
        engine.submit(game.pk, user, DONE)
    game.refresh_from_db()
    resolver = game.state["action"]["seat"]
    engine.submit(game.pk, [alice, bob][resolver], game.rules.legal_actions(game.state, resolver)[0])
    game.refresh_from_db()
    assert game.state["turn"] == 2 and DONE in game.rules.legal_actions(game.state, 0)
    version = game.version

    response = post(client_for(alice), game, DONE, old_key)

    assert response.status_code == 409 and STALE_MESSAGE in response.content.decode()
    game.refresh_from_db()
    assert game.version == version


def test_a_page_stays_fresh_while_another_seat_writes_in_the_same_turn(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], seed=3, options={"start_pool": "all"})
    alice_key = game.rules.seat_turn(game.state, 0)
    bob_place = next(a for a in game.rules.legal_actions(game.state, 1) if a["type"] == "place")
    engine.submit(game.pk, bob, bob_place)
    engine.submit(game.pk, bob, DONE)
    game.refresh_from_db()
    place = next(a for a in game.rules.legal_actions(game.state, 0) if a["type"] == "place")

    response = post(client_for(alice), game, place, alice_key)

    assert response.status_code == 200
    game.refresh_from_db()
    assert game.state["pending"][0] and game.version == 3


def test_a_finished_board_does_not_say_the_player_is_done_automatically(start_game, alice):
    """Issue 19, row 7: "No number fits this turn: you are done automatically." stayed on
    the finished page when the last turn had left the player nothing to write."""
    from tests.browser.boards import advance

    game = advance(start_game(SLUG, [alice, None], seed=3), alice, 600)
    assert not game.is_active
    game.state = {**game.state, "auto_done": [True, False]}    # as the last turn can leave it
    game.save(update_fields=["state"])
    html = client_for(alice).get(f"/play/{game.pk}/").content.decode()
    assert "done automatically" not in html
