"""Events as data: what the rules emit, who may see it, how the presenter words it; seat_turn."""
from __future__ import annotations

import ast
import inspect
import json

import pytest

from games import presenters
from games.alpine_trails.presenter import DESCRIBE, describe
from games.alpine_trails.rules import RULES, view as view_module
from tests.rules.contract import random_playout

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def _playout_events(players: int, seed: int) -> list[dict]:
    events: list[dict] = []

    def keep(state, seat, action, rng):
        events.extend(RULES.view(state, seat)["events"])

    final, _ = random_playout(RULES, players, seed, None, on_step=keep)
    return events + final["events"]


@pytest.fixture(scope="module")
def events() -> list[dict]:
    found = _playout_events(1, 0) + _playout_events(1, 1) + _playout_events(2, 0) + _playout_events(3, 5)
    # The two rare ones, as the rules record them (test_placement checks waterfall_lost's shape):
    found.append({"type": "discard", "seat": 1, "turn": 4, "tile": "T003"})
    found.append({"type": "waterfall_lost", "seat": 0, "turn": 2, "count": 1})
    return found


def test_playouts_emit_every_event_type_the_presenter_describes(events):
    assert {e["type"] for e in events} == set(DESCRIBE)


def test_every_event_is_described_in_words_with_the_players_names(events):
    for event in events:
        text = describe(event, NAMES)
        assert text.endswith(".") and "{" not in text and "Seat" not in text, (event, text)
        if isinstance(event["seat"], int):
            assert NAMES[event["seat"]] in text, (event, text)


def test_events_carry_int_turns_and_only_json_values(events):
    for event in events:
        assert isinstance(event["turn"], int) and event["turn"] >= 1
        assert event["seat"] is None or isinstance(event["seat"], int)
        assert json.loads(json.dumps(event)) == event


def test_an_unknown_or_malformed_event_gets_a_fallback():
    assert describe({"type": "avalanche", "seat": 2, "turn": 3}, NAMES) == "Cy: Avalanche."
    assert describe({"type": "place", "seat": 0, "turn": 3}, NAMES) == "Ann: Place."


def test_a_seats_moves_stay_hidden_from_the_others_until_the_round_resolves():
    state = RULES.setup(2, {}, 6)
    action = next(a for a in RULES.legal_actions(state, 0) if a["type"] == "place")
    state = RULES.apply(state, 0, action)
    mine = [e for e in RULES.view(state, 0)["events"] if e["type"] == "place"]
    assert len(mine) == 1 and mine[0]["seat"] == 0 and mine[0]["turn"] == 1
    assert (mine[0]["tile"], mine[0]["x"], mine[0]["y"]) == (action["tile"], action["x"], action["y"])
    for viewer in (1, None):
        assert not any(e["type"] == "place" for e in RULES.view(state, viewer)["events"])


def test_the_platform_history_words_the_events():
    state = RULES.setup(2, {}, 6)
    entries = presenters.history("alpine-trails", RULES.view(state, 0), NAMES[:2])
    assert [entry["text"] for entry in entries] == [f"Round 1 of {state['rounds']} begins."]


def test_the_view_module_does_not_import_the_rules_module():
    """rules.py builds the view; view.py must not reach back into rules.py (no import cycle)."""
    tree = ast.parse(inspect.getsource(view_module))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "rules" not in imported and not any(m and m.endswith(".rules") for m in imported)


# seat_turn ---------------------------------------------------------------------------------

def _first_place(state, seat):
    return next(a for a in RULES.legal_actions(state, seat) if a["type"] == "place")


def test_seat_turn_stays_when_another_seat_moves_in_the_same_round():
    state = RULES.setup(3, {}, 2)
    before = RULES.seat_turn(state, 0)
    state = RULES.apply(state, 1, _first_place(state, 1))
    state = RULES.apply(state, 2, _first_place(state, 2))
    assert RULES.seat_turn(state, 0) == before


def test_seat_turn_changes_with_the_seats_own_move():
    state = RULES.setup(2, {}, 2)
    before = RULES.seat_turn(state, 0)
    assert RULES.seat_turn(RULES.apply(state, 0, _first_place(state, 0)), 0) != before


def test_seat_turn_changes_when_a_new_round_deals_new_tiles():
    state = RULES.setup(2, {}, 3)
    before = {seat: RULES.seat_turn(state, seat) for seat in (0, 1)}
    while state["round"] == 1:
        seat = RULES.to_act(state)[0]
        state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])
    for seat in (0, 1):
        assert RULES.seat_turn(state, seat) != before[seat]


def test_seat_turn_is_short_and_the_same_after_json():
    state = RULES.setup(5, {}, 9)
    for seat in range(5):
        key = RULES.seat_turn(state, seat)
        assert len(key) <= 64 and RULES.seat_turn(json.loads(json.dumps(state)), seat) == key
