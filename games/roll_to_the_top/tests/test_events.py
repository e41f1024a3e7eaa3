"""Events as data: what the rules emit, how the presenter words it, and `seat_turn`."""
from __future__ import annotations

import json

import pytest

from games import presenters
from games.roll_to_the_top.presenter import DESCRIBE, describe
from games.roll_to_the_top.rules import RULES
from games.rules import bot_for
from tests.rules.contract import random_playout

from .helpers import full_sheet, place, write_state

NAMES = ["Ann", "Bob", "Cy", "Dee"]
DONE = {"type": "done"}


def _collect(players: int, seed: int, options: dict, chooser=None) -> list[dict]:
    events: list[dict] = []

    def keep(state, seat, action, rng):
        events.extend(state["events"])

    final, _ = random_playout(RULES, players, seed, options, chooser=chooser, on_step=keep)
    return events + final["events"]


def _filled_events() -> list[dict]:
    """A seat that fills its last box ends the game with a `filled` event."""
    state = write_state("giza", players=2, sheets=[full_sheet("giza", missing=["5,5"]), {}],
                        roll={"d4": 4, "d6": 6, "d8": 8, "d12": 12, "d20": 20})
    for action in RULES.legal_actions(state, 0):
        if action["type"] == "place" and action["box"] == [5, 5]:
            state = RULES.apply(state, 0, action)
            break
    state = RULES.apply(RULES.apply(state, 0, DONE), 1, DONE)
    return state["events"]


@pytest.fixture(scope="module")
def events() -> list[dict]:
    bot = bot_for("roll-to-the-top")
    found = _collect(3, 1, {"games": 2, "max_turns": 20})
    found += _collect(2, 5, {"max_turns": 40}, chooser=bot.choose)
    found += _collect(1, 3, {"max_turns": 20, "start_pool": "all"})
    found += _collect(4, 7, {"max_turns": 60})
    return found + _filled_events()


def test_a_playout_emits_every_event_type_the_presenter_describes(events):
    assert {e["type"] for e in events} == set(DESCRIBE)


def test_every_event_type_is_described_in_words_with_the_names(events):
    for event in events:
        text = describe(event, NAMES)
        assert text and "{" not in text and "_" not in text, (event, text)
        if isinstance(event["seat"], int) and event["type"] != "game_end":
            assert NAMES[event["seat"]] in text, (event, text)


def test_the_action_die_is_worded_not_shown_as_an_enum_name(events):
    rolls = [e for e in events if e["type"] in ("roll", "must")]
    assert rolls
    for event in rolls:
        assert "ADD" not in describe(event, NAMES) and "REMOVE" not in describe(event, NAMES)


def test_events_carry_int_turns_and_only_json_values(events):
    for event in events:
        assert isinstance(event["turn"], int) and isinstance(event["type"], str)
        assert event["seat"] is None or isinstance(event["seat"], int)
        assert json.loads(json.dumps(event)) == event


def test_an_unknown_event_gets_a_sensible_fallback():
    assert describe({"type": "meteor_strike", "seat": 1, "turn": 3}, NAMES) == "Bob: Meteor strike."
    assert describe({"type": "roll", "seat": 0, "turn": 1}, NAMES) == "Ann: Roll."


def test_the_platform_history_words_the_views_events():
    state = RULES.setup(2, RULES.default_options(), 4)
    lines = [entry["text"] for entry in presenters.history("roll-to-the-top", RULES.view(state, 0), NAMES[:2])]
    assert lines[0].startswith("Giza.") and any("rolled" in line for line in lines)


def test_pending_numbers_stay_out_of_the_events_until_the_turn_resolves():
    state = write_state("giza", players=2, roll={"d4": 3})
    state = RULES.apply(state, 0, place((0, 0), ["d4"]))
    assert not any(e["type"] == "wrote" for e in RULES.view(state, 1)["events"])
    state = RULES.apply(RULES.apply(state, 0, DONE), 1, DONE)
    wrote = [e for e in state["events"] if e["type"] == "wrote"]
    assert wrote == [{"type": "wrote", "seat": 0, "turn": 1, "game": 1,
                      "numbers": [{"box": [0, 0], "value": 3, "dice": ["d4"]}]}]


# seat_turn ---------------------------------------------------------------------------------

def test_seat_turn_stays_when_another_seat_writes_or_finishes_in_the_same_turn():
    state = write_state("giza", players=3, roll={"d4": 3, "d6": 2})
    before = RULES.seat_turn(state, 0)
    state = RULES.apply(state, 1, place((0, 0), ["d4"]))
    state = RULES.apply(state, 2, DONE)
    assert RULES.seat_turn(state, 0) == before


def test_seat_turn_changes_with_the_seats_own_placement():
    state = write_state("giza", players=2, roll={"d4": 3, "d6": 2})
    before = RULES.seat_turn(state, 0)
    assert RULES.seat_turn(RULES.apply(state, 0, place((0, 0), ["d4"])), 0) != before


def test_seat_turn_changes_with_the_action_die_and_the_next_roll():
    state = write_state("giza", players=2, roll={"d4": 3, "d6": 2})
    write_key = RULES.seat_turn(state, 1)
    state = RULES.apply(RULES.apply(state, 0, DONE), 1, DONE)
    assert state["phase"] == "action"
    action_key = RULES.seat_turn(state, 1)
    assert action_key != write_key
    state = RULES.apply(state, 1, RULES.legal_actions(state, 1)[0])
    assert state["phase"] == "write" and RULES.seat_turn(state, 1) not in (write_key, action_key)


def test_seat_turn_is_short_and_the_same_after_json():
    state = RULES.setup(4, RULES.default_options(), 9)
    for seat in range(4):
        key = RULES.seat_turn(state, seat)
        assert len(key) <= 64 and RULES.seat_turn(json.loads(json.dumps(state)), seat) == key
