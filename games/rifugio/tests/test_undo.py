"""Take-backs within a turn: walking reveals nothing, drawing a tile does."""
import random

from games.rifugio.rules import RULES


def walking_state():
    state = RULES.setup(3, RULES.validate_options(3, {}), 11)
    rng = random.Random(2)
    while state["phase"] != "walk":
        seat = RULES.to_act(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    return state


def test_a_step_can_be_taken_back_within_the_turn():
    state = walking_state()
    seat = RULES.to_act(state)[0]
    step = next(a for a in RULES.legal_actions(state, seat) if a["type"] != "end_turn")
    assert RULES.undoable(state, seat, step, RULES.apply(state, seat, step))


def test_ending_the_turn_cannot_be_taken_back():
    state = walking_state()
    seat = RULES.to_act(state)[0]
    end = {"type": "end_turn"}
    assert not RULES.undoable(state, seat, end, RULES.apply(state, seat, end))


def test_placing_a_tile_cannot_be_taken_back():
    state = RULES.setup(3, RULES.validate_options(3, {}), 11)
    seat = RULES.to_act(state)[0]
    place = RULES.legal_actions(state, seat)[0]
    assert place["type"] == "place_tile"
    assert not RULES.undoable(state, seat, place, RULES.apply(state, seat, place))
