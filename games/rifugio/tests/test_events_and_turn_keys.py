"""Events as data (what happened, put into words only by the presenter) and the seat_turn key."""
from __future__ import annotations

import json
import random

import pytest

from games.rifugio.presenter import EVENT_WORDS, describe
from games.rifugio.rules import RULES, bot
from games.rifugio.rules.rules import copy_state

from .helpers import act


def new_game(players: int, seed: int = 2) -> dict:
    return RULES.setup(players, None, seed)

NAMES = ["Ada", "Bea", "Cleo", "Dan", "Eli"]

# (seed, players, who plays) chosen so that together they reach every event type, swims and the
# removal of tiles that fit nowhere included.
# Seeds chosen so every event type turns up (21/3 swims, 40/2 removes tiles; re-chosen when
# the bot stopped riding the other seat's rafts, issue 25, and its games went elsewhere).
PLAYOUTS = [(0, 2, "random"), (0, 5, "random"), (40, 2, "random"), (1, 2, "bot"), (11, 5, "bot"),
            (21, 3, "bot"), (39, 2, "bot")]


def _playout_events(seed: int, players: int, who: str) -> list[dict]:
    rng = random.Random(seed)
    state = RULES.setup(players, None, seed)
    collected: list[dict] = []
    while not RULES.is_over(state):
        seat = RULES.to_act(state)[0]
        action = bot.choose(state, seat, rng) if who == "bot" else rng.choice(RULES.legal_actions(state, seat))
        before = len(state["events"])
        state = RULES.apply(state, seat, action)
        grown = len(state["events"]) - before
        collected.extend(state["events"][-max(grown, 1):] if grown > 0 else state["events"][-1:])
    return collected


@pytest.fixture(scope="module")
def all_events() -> list[dict]:
    return [e for args in PLAYOUTS for e in _playout_events(*args)]


def test_playouts_emit_every_event_type_the_presenter_describes(all_events):
    assert {e["type"] for e in all_events} == set(EVENT_WORDS)


def test_describe_gives_a_sentence_with_names_for_every_event(all_events):
    for event in all_events:
        text = describe(event, NAMES)
        assert text and text.endswith((".", "!")), event
        assert "Seat " not in text, (event, text)
        if event["seat"] is not None:
            assert NAMES[event["seat"]] in text, (event, text)


def test_events_carry_a_turn_number_and_only_json_values(all_events):
    for event in all_events:
        assert isinstance(event["turn"], int) and not isinstance(event["turn"], bool) and event["turn"] >= 1
        assert event["seat"] is None or isinstance(event["seat"], int)
        assert json.loads(json.dumps(event)) == event


def test_the_turn_number_of_events_grows_turn_by_turn():
    state = new_game(3)
    seat = state["active"]
    first_tile = state["turn"]["placed"]
    assert first_tile == []
    place = RULES.legal_actions(state, seat)[0]
    state = act(state, seat, place)
    state = act(state, seat, {"type": "end_turn"})
    placed, ended = [e for e in state["events"] if e["type"] in ("placed", "turn_ended")]
    assert placed["turn"] == ended["turn"] == 1 and placed["seat"] == ended["seat"] == seat
    state = act(state, state["active"], RULES.legal_actions(state, state["active"])[0])
    assert state["events"][-1]["turn"] == 2


def test_describe_has_a_fallback_for_unknown_or_malformed_events():
    assert describe({"type": "rockfall", "seat": 1, "turn": 3}, NAMES) == "Bea: rockfall."
    assert describe({"type": "rockfall", "seat": None, "turn": 3}, NAMES) == "Rockfall."
    assert describe({"type": "placed", "seat": 0, "turn": 1}, NAMES) == "Ada: placed."


def test_the_rules_keep_no_prose_in_the_state():
    state = new_game(2)
    state = act(state, state["active"], RULES.legal_actions(state, state["active"])[0])
    assert "log" not in state
    assert all(isinstance(e, dict) for e in state["events"])


def test_apply_leaves_its_input_untouched_with_the_structural_copy():
    rng = random.Random(3)
    state = RULES.setup(5, None, 3)
    for _ in range(120):
        seat = RULES.to_act(state)[0]
        frozen = json.dumps(state, sort_keys=True)
        state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
        copy = copy_state(state)
        assert copy == state and copy is not state
        assert json.loads(frozen) != state


# --- seat_turn ---------------------------------------------------------------------------------

def test_seat_turn_changes_when_the_turn_passes():
    state = new_game(3)
    seat = state["active"]
    state = act(state, seat, RULES.legal_actions(state, seat)[0])
    keys_before = [RULES.seat_turn(state, s) for s in range(3)]
    state = act(state, seat, {"type": "end_turn"})
    assert all(RULES.seat_turn(state, s) != k for s, k in enumerate(keys_before))


def test_seat_turn_changes_when_a_tile_is_placed_and_the_next_revealed():
    state = new_game(2)                     # two tiles per turn with two players
    seat = state["active"]
    before = RULES.seat_turn(state, seat)
    state = act(state, seat, RULES.legal_actions(state, seat)[0])
    assert state["phase"] == "place" and state["hand"] is not None
    assert RULES.seat_turn(state, seat) != before


def test_seat_turn_stays_while_the_active_seat_walks():
    rng = random.Random(5)
    state = RULES.setup(3, None, 5)
    while state["phase"] != "walk":
        state = RULES.apply(state, state["active"], rng.choice(RULES.legal_actions(state, state["active"])))
    seat = state["active"]
    other = (seat + 1) % 3
    keys = RULES.seat_turn(state, seat), RULES.seat_turn(state, other)
    walk = [a for a in RULES.legal_actions(state, seat) if a["type"] != "end_turn"]
    assert walk, "the seed gives the walker a move"
    state = RULES.apply(state, seat, walk[0])
    assert (RULES.seat_turn(state, seat), RULES.seat_turn(state, other)) == keys
