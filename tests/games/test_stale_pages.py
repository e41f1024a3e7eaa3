"""Stale pages (ARCHITECTURE.md, "The engine"): a page carries the `seat_turn` key it was
drawn under, and a submission drawn under another key is refused with 409, the message and
the fresh board, even when the action happens to be legal now."""
from __future__ import annotations

import html
import json

import pytest
from django.template import Context, Template

from games import engine
from games.engine import STALE_MESSAGE, Rejected
from games.models import Game
from games.panel import action_vals, panel_context
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db
RVR = "rift-valley-reserve"


def post(client, game, action, *, version, turn):
    return client.post(f"/play/{game.pk}/act/", {"action": json.dumps(action), "token": "",
                                                 "version": version, "turn": turn})


def both_draw_in_turn_one(game, users):
    """Each seat stops on its first legal cell: the maps rotate and turn 2 begins."""
    for seat in (0, 1):
        game.refresh_from_db()
        engine.submit(game.pk, users[seat], game.rules.legal_actions(game.state, seat)[0])
    game.refresh_from_db()
    return game


def test_the_issue_repro_a_turn_one_page_cannot_draw_in_turn_two(start_game, alice, bob):
    game = start_game(RVR, [alice, bob])
    turn_one_key = game.rules.seat_turn(game.state, 0)
    game = both_draw_in_turn_one(game, [alice, bob])
    assert game.version == 2
    stop = {"type": "stop", "cell": [0, 5]}
    assert stop in game.rules.legal_actions(game.state, 0), "the repro needs a move that is legal now"

    response = post(client_for(alice), game, stop, version=0, turn=turn_one_key)

    assert response.status_code == 409
    assert STALE_MESSAGE in response.content.decode()
    assert 'id="game-panel"' in response.content.decode(), "the answer carries the fresh board"
    game.refresh_from_db()
    assert game.version == 2


def test_a_fresh_page_in_the_same_turn_is_accepted(start_game, alice, bob):
    game = both_draw_in_turn_one(start_game(RVR, [alice, bob]), [alice, bob])
    key = game.rules.seat_turn(game.state, 0)
    response = post(client_for(alice), game, {"type": "stop", "cell": [0, 5]}, version=game.version, turn=key)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version == 3


def test_a_seat_is_not_refused_because_another_seat_chose_in_the_same_round(start_game, alice, bob):
    game = start_game(RVR, [alice, bob])
    bob_key = game.rules.seat_turn(game.state, 1)
    engine.submit(game.pk, alice, game.rules.legal_actions(game.state, 0)[0])
    game.refresh_from_db()
    outcome = engine.submit(game.pk, bob, game.rules.legal_actions(game.state, 1)[0], seen_version=0,
                            seen_turn=bob_key)
    assert outcome.applied


def test_the_engine_refuses_another_key_even_for_a_legal_action(start_game, alice, bob):
    game = start_game(RVR, [alice, bob])
    action = game.rules.legal_actions(game.state, 0)[0]
    with pytest.raises(Rejected) as refused:
        engine.submit(game.pk, alice, action, seen_turn="not-the-key")
    assert refused.value.status == 409 and refused.value.message == STALE_MESSAGE
    assert Game.objects.get(pk=game.pk).version == 0


def test_a_submission_without_a_key_keeps_the_old_behaviour(start_game, alice, bob):
    game = both_draw_in_turn_one(start_game(RVR, [alice, bob]), [alice, bob])
    response = client_for(alice).post(f"/play/{game.pk}/act/",
                                      {"action": json.dumps({"type": "stop", "cell": [0, 5]})})
    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).version == 3


def test_a_turn_key_with_control_characters_is_a_clear_400(start_game, alice, bob):
    game = start_game(RVR, [alice, bob])
    response = post(client_for(alice), game, {"type": "stop", "cell": [0, 5]}, version=0, turn="a\x01b")
    assert response.status_code == 400
    assert Game.objects.get(pk=game.pk).version == 0


def test_every_action_button_carries_the_seat_turn_key(start_game, alice, bob):
    game = start_game(RVR, [alice, bob])
    panel = panel_context(game, alice)
    vals = json.loads(action_vals(panel, {"type": "stop", "cell": [0, 5]}))
    assert vals["turn"] == game.rules.seat_turn(game.state, 0)
    rendered = Template("{% load game_tags %}{% action_vals act %}").render(Context(dict(panel, act={"type": "x"})))
    assert json.loads(html.unescape(rendered))["turn"] == vals["turn"]


def test_the_dice_board_sends_its_key_from_the_page(start_game, alice, bob):
    game = start_game("roll-to-the-top", [alice, bob])
    page = client_for(alice).get(f"/play/{game.pk}/").content.decode()
    assert f'data-turn="{html.escape(game.rules.seat_turn(game.state, 0))}"' in page
