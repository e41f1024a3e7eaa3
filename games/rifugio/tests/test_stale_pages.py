"""Stale pages on the Rifugio board: a page carries seat_turn, which changes when a tile goes down
(the next one is revealed) and when the turn passes, but not while the same seat walks."""
from __future__ import annotations

import json

import pytest

from games import engine
from games.models import Game
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db


def post(client, game, action, *, turn):
    return client.post(f"/play/{game.pk}/act/", {"action": json.dumps(action), "token": "",
                                                 "version": game.version, "turn": turn})


def _seated(start_game, alice, bob):
    game = start_game("rifugio", [alice, bob], seed=8)
    users = [alice, bob]
    return game, users[game.state["active"]]


def test_a_page_drawn_before_the_last_tile_went_down_cannot_place_the_next(start_game, alice, bob):
    game, mover = _seated(start_game, alice, bob)
    seat = game.state["active"]
    old_key = game.rules.seat_turn(game.state, seat)
    engine.submit(game.pk, mover, game.rules.legal_actions(game.state, seat)[0])
    game.refresh_from_db()
    assert game.state["phase"] == "place", "two players place two tiles a turn"
    place = game.rules.legal_actions(game.state, seat)[0]

    response = post(client_for(mover), game, place, turn=old_key)

    assert response.status_code == 409
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_fresh_page_after_the_tile_went_down_places_the_next(start_game, alice, bob):
    game, mover = _seated(start_game, alice, bob)
    seat = game.state["active"]
    engine.submit(game.pk, mover, game.rules.legal_actions(game.state, seat)[0])
    game.refresh_from_db()
    place = game.rules.legal_actions(game.state, seat)[0]

    response = post(client_for(mover), game, place, turn=game.rules.seat_turn(game.state, seat))

    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_walking_on_from_the_same_page_in_the_same_turn_is_accepted(start_game, alice, bob):
    game, mover = _seated(start_game, alice, bob)
    seat = game.state["active"]
    for _ in range(2):
        engine.submit(game.pk, mover, game.rules.legal_actions(game.state, seat)[0])
        game.refresh_from_db()
    assert game.state["phase"] == "walk"
    key = game.rules.seat_turn(game.state, seat)
    engine.submit(game.pk, mover, _a_walk(game, seat))
    game.refresh_from_db()

    response = post(client_for(mover), game, {"type": "end_turn"}, turn=key)

    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).state["active"] != seat


def _a_walk(game, seat):
    walks = [a for a in game.rules.legal_actions(game.state, seat) if a["type"] != "end_turn"]
    assert walks, "seed 8 gives the first walker a move"
    return walks[0]
