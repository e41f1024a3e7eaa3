"""Stale pages (issue 11): a Nanga Parbat page carries the seat_turn key it was drawn under, and
a submission from an older page is refused (409) even when its action is legal now."""
from __future__ import annotations

import html
import json
import re

import pytest

from games.engine import STALE_MESSAGE
from games.rules import get as get_rules
from tests.fixtures import client_for

from .helpers import held, hiker, position

pytestmark = pytest.mark.django_db
RULES = get_rules("nanga-parbat")


def post(client, game, action, turn):
    return client.post(f"/play/{game.pk}/act/", {"action": json.dumps(action), "token": "",
                                                 "version": game.version, "turn": turn})


@pytest.fixture
def game(alice, bob, start_game):
    """Alice (seat 0) in her act phase with a tahr to use and hikers next to animals."""
    game = start_game("nanga-parbat", [alice, bob], seed=424242)
    game.state = position(phase="act", current=0, board={12: hiker(0), 13: hiker(1)},
                          seats={0: {"animals": held("tahr", "yak")}})
    game.save(update_fields=["state"])
    return game


def test_the_board_buttons_carry_the_seat_turn_key(game, alice):
    page = client_for(alice).get(f"/play/{game.pk}/").content.decode()
    turns = {json.loads(html.unescape(v))["turn"] for v in re.findall(r'hx-vals="([^"]+)"', page)}
    assert turns == {RULES.seat_turn(game.state, 0)}


def test_a_page_drawn_before_our_own_last_action_is_refused_even_if_its_action_is_legal_now(game, alice):
    old_key = RULES.seat_turn(game.state, 0)
    client = client_for(alice)
    assert post(client, game, {"type": "activate", "animal": "tahr", "a": 12, "b": 11}, old_key).status_code == 200
    game.refresh_from_db()
    assert {"type": "end_turn"} in RULES.legal_actions(game.state, 0)

    response = post(client, game, {"type": "end_turn"}, old_key)

    assert response.status_code == 409 and STALE_MESSAGE in response.content.decode()
    game.refresh_from_db()
    assert game.state["phase"] == "act" and game.state["current"] == 0


def test_a_fresh_page_in_the_same_turn_is_accepted(game, alice):
    client = client_for(alice)
    post(client, game, {"type": "activate", "animal": "tahr", "a": 12, "b": 11}, RULES.seat_turn(game.state, 0))
    game.refresh_from_db()
    response = post(client, game, {"type": "end_turn"}, RULES.seat_turn(game.state, 0))
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.state["current"] == 1


def test_the_board_is_a_selection_root_keyed_by_seat_turn(game, alice, charlie):
    page = client_for(alice).get(f"/play/{game.pk}/panel/", {"sel": "a:tahr.s:12"}).content.decode()
    root = re.search(r'<section class="card board np[^>]*>', page).group(0)
    assert 'data-sel-root' in root and 'data-sel="a:tahr.s:12"' in root
    assert f'data-sel-key="{RULES.seat_turn(game.state, 0)}"' in root
    assert f'data-panel-url="/play/{game.pk}/panel/"' in root
    assert "data-sel-cancel" in page
    spectator = client_for(charlie).get(f"/play/{game.pk}/").content.decode()
    assert 'data-sel=""' in spectator and "sel-target" not in spectator
