"""Rifugio's greedy bot (level 3): the two weaknesses issue 25 found, as positions from real
bot-against-bot games. Each position is a seed and the moves the old bot made up to the
move it got wrong (bot_positions.json; replayed, so later changes to the bot cannot move it).
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games import rules as registry
from games.rifugio.rules.rules import key

RULES = registry.get("rifugio")
BOT = registry.bot_for("rifugio")
POSITIONS = json.loads((Path(__file__).parent / "bot_positions.json").read_text())


def position(name):
    entry = POSITIONS[name]
    players = entry["players"]
    state = RULES.setup(players, RULES.validate_options(players, RULES.default_options()), entry["seed"])
    for seat, action in entry["moves"]:
        state = RULES.apply(state, seat, action)
    return state, entry["bot_seat"]


def gifts(state, seat):
    """Points the other seats hold from this seat's visits (raft and Rifugio cards)."""
    return sum(p["raft_cards"] + p["rifugio_cards"] for i, p in enumerate(state["seats"]) if i != seat)


@pytest.mark.parametrize("name", ["gift_seed_1", "gift_seed_1_later", "gift_seed_44"])
def test_it_does_not_hand_the_other_seat_two_points_for_an_extra_step_card(name):
    """The old bot stepped onto the other seat's raft here (a card for it, 2 points for the
    raft's owner), and back and forth turn after turn: 16 such gifts in seed 1's game."""
    state, seat = position(name)
    for salt in range(5):
        action = BOT.choose(state, seat, random.Random(salt))
        after = RULES.apply(state, seat, action)
        assert gifts(after, seat) == gifts(state, seat), action


def _special_one_step_away(state, seat):
    held = set(state["seats"][seat]["items"])
    for action in RULES.legal_actions(state, seat):
        if action["type"] == "step":
            cell = state["board"].get(key(*action["to"]))
            tile = cell and cell["tile"]
            if tile and tile not in held and _is_special(tile):
                return action
    return None


def _is_special(tile):
    from games.rifugio.rules import data as D
    return D.TILES[tile]["category"] is not None


@pytest.mark.parametrize("name", ["stop_short_seed_0", "stop_short_seed_0_later"])
def test_it_does_not_end_its_turn_one_step_from_a_special_place_it_can_take(name):
    """The old bot ended its turn here beside a special place it had the steps to take: its
    evaluation valued the place one step away above the points of taking it."""
    state, seat = position(name)
    assert _special_one_step_away(state, seat) is not None, "the position shows the case"
    assert BOT.choose(state, seat, random.Random(0))["type"] != "end_turn"
