"""Tile placement (§6, checklist 10-15, Examples 1 and 7)."""
from __future__ import annotations

import itertools

import pytest

from games.rifugio.rules import RULES
from games.rifugio.rules import data as D
from games.rifugio.rules.rules import fits, legal_placements, placement_error

from .helpers import A, B, act, position, refused

ALLOWED = {"MM", "MF", "MW", "FF", "FR", "FW", "RR", "RP", "RW", "WW"}
PLAIN = {"M": "M01", "F": "F01", "R": "R01", "P": "PK1", "W": "WA01"}


@pytest.mark.parametrize("a,b", list(itertools.product("MFRPW", repeat=2)))
def test_every_pair_of_the_edge_table(a, b):
    expected = (a + b in ALLOWED) or (b + a in ALLOWED)
    assert fits(a, D.TILES[PLAIN[a]], b, D.TILES[PLAIN[b]]) is expected
    # and on a real board: a uniform tile next to another uniform tile
    board = {"0,0": {"tile": PLAIN[b], "rot": 0}}
    assert (placement_error(board, PLAIN[a], 1, 0, 0) is None) is expected


def test_mountaintops_never_touch_each_other_and_water_never_touches_a_mountaintop():
    board = {"0,0": {"tile": "PK1", "rot": 0}}
    assert "mountaintop" in placement_error(board, "PK2", 1, 0, 0)
    assert "water side would touch mountaintop" in placement_error(board, "WA01", 1, 0, 0)


def test_a_placement_must_touch_a_tile_and_may_not_overlap():
    board = {"0,0": {"tile": "START", "rot": 0}}
    assert placement_error(board, "F01", 0, 0, 0) == "That space is already taken."
    assert placement_error(board, "F01", 2, 0, 0) == "Tiles must touch a tile already on the map."
    assert placement_error(board, "F01", 1, 0, 0) is None


def _ex1a():
    return {"0,0": {"tile": "START", "rot": 0}, "1,0": {"tile": "R01", "rot": 0}}


@pytest.mark.parametrize("tile,q,r,legal", [
    ("M01", 0, 1, False), ("M01", 2, -1, False), ("M01", -1, 0, True), ("PK1", 2, 0, True),
    ("PK1", 1, -1, False), ("PS1", 0, -1, False), ("WA01", 1, -1, True), ("M01", 3, 0, False),
])
def test_example_1a_placement_rows(tile, q, r, legal):
    board = _ex1a()
    results = {placement_error(board, tile, q, r, k) is None for k in range(6)}
    assert results == {legal}


def test_example_1a_meadow_next_to_rock_names_the_reason():
    assert placement_error(_ex1a(), "M01", 0, 1, 0) == \
        "That tile does not fit there: its meadow side would touch rock."


def test_example_1a_water_next_to_a_placed_mountaintop_is_illegal():
    board = _ex1a()
    board["2,0"] = {"tile": "PK1", "rot": 0}
    assert all(placement_error(board, "WA01", 3, 0, k) for k in range(6))


def _ex1b():
    board = {"0,0": {"tile": "START", "rot": 0}}
    for (q, r), tile in [((0, -1), "F01"), ((-1, -1), "M01"), ((-1, -2), "M02"),
                         ((1, -2), "R01"), ((1, -3), "R02")]:
        assert placement_error(board, tile, q, r, 0) is None
        board[f"{q},{r}"] = {"tile": tile, "rot": 0}
    return board


def test_example_1b_pass_has_exactly_rotations_0_and_5():
    board = _ex1b()
    assert {k for k in range(6) if placement_error(board, "PS1", 0, -3, k) is None} == {0, 5}
    state = position(players=3)
    state.update(board=board, hand="PS1", phase="place")
    state["turn"]["tiles_to_place"] = 1
    at_spot = {a["rotation"] for a in RULES.legal_actions(state, A) if (a["q"], a["r"]) == (0, -3)}
    assert at_spot == {0, 5}


def test_example_1b_follow_up_at_0_minus_2():
    board = _ex1b()
    assert all(placement_error(board, "M01", 0, -2, k) for k in range(6))
    assert placement_error(board, "F02", 0, -2, 0) is None


def test_example_1b_follow_up_at_1_minus_4_after_the_pass():
    board = _ex1b()
    board["0,-3"] = {"tile": "PS1", "rot": 0}
    assert placement_error(board, "R03", 1, -4, 0) is None
    assert placement_error(board, "F02", 1, -4, 0)
    assert "pass" in placement_error(board, "WA01", 1, -4, 0)


@pytest.mark.parametrize("rot", range(6))
def test_water_never_touches_a_pass_in_any_rotation(rot):
    for side in range(6):
        q, r = D.DIRS[side]
        board = {"0,0": {"tile": "PS1", "rot": rot}}
        assert all(placement_error(board, "WA01", q, r, k) for k in range(6))
        # nor the other way round
        board = {"0,0": {"tile": "WA01", "rot": 0}}
        assert all(placement_error(board, "PS2", q, r, k) for k in range(6))


def test_place_phase_lists_every_legal_placement_including_equivalent_rotations():
    state = position(players=3, tiles={(1, 0): "R01"})
    state.update(hand="M01", phase="place")
    state["turn"]["tiles_to_place"] = 1
    actions = RULES.legal_actions(state, A)
    assert actions == [{"type": "place_tile", "q": q, "r": r, "rotation": k}
                       for q, r, k in legal_placements(state["board"], "M01")]
    cells = {(a["q"], a["r"]) for a in actions}
    for cell in cells:
        assert {a["rotation"] for a in actions if (a["q"], a["r"]) == cell} == set(range(6))
    for action in actions:
        new = RULES.apply(state, A, action)
        assert new["board"][f"{action['q']},{action['r']}"] == {"tile": "M01", "rot": action["rotation"]}
    refused(state, A, {"type": "place_tile", "q": 0, "r": 1, "rotation": 0}, "meadow side would touch rock")
    refused(state, A, {"type": "place_tile", "q": 1, "r": 0, "rotation": 0}, "already taken")
    refused(state, A, {"type": "place_tile", "q": 9, "r": 9, "rotation": 0}, "must touch")


def test_example_7_unplaceable_tile_goes_to_the_bottom_and_the_next_is_drawn():
    # stack top to bottom [PK1, F01]: PK1 is the only undrawn tile, F01 waits at the bottom
    state = position(players=3, active=B, first_seat=A, stack=["PK1"])
    state["bottom"] = ["F01"]
    state = act(state, B, {"type": "end_turn"})
    assert state["active"] == 2 and state["phase"] == "place"
    assert state["hand"] == "F01"
    assert state["turn"]["tried"] == ["PK1"]
    assert state["bottom"] == ["PK1"]
    assert {"type": "tile_to_bottom", "seat": 2, "tile": "PK1"}.items() <= state["events"][-1].items()
    assert any(e["type"] == "tile_to_bottom" and e["tile"] == "PK1" for e in RULES.view(state, None)["events"])
    state = act(state, 2, RULES.legal_actions(state, 2)[0])
    assert state["turn"]["tried"] == []


def test_example_7_when_every_remaining_tile_fails_they_are_removed():
    state = position(players=3, active=A, first_seat=A, stack=["PK1", "PK2"])
    state = act(state, A, {"type": "end_turn"})
    assert state["active"] == B
    assert sorted(state["removed"]) == ["PK1", "PK2"]
    assert state["stack"] == [] and state["bottom"] == []
    assert sorted(state["turn"]["tried"]) == ["PK1", "PK2"]
    assert state["phase"] == "walk" and state["hand"] is None
    assert RULES.view(state, B)["tiles_left"] == 0
    assert RULES.view(state, B)["removed"] == state["removed"]


def test_listed_placements_agree_with_the_single_placement_check_on_played_boards():
    import random

    from games.rifugio.rules.rules import frontier
    rng = random.Random(2)
    state = RULES.setup(3, None, 21)
    while not RULES.is_over(state):
        s = state["active"]
        if state["phase"] == "place" and len(state["board"]) % 5 == 0:
            for tile in ("PS2", "PK3", "WA05", "M03", state["hand"]):
                expected = [(q, r, k) for q, r in frontier(state["board"]) for k in range(6)
                            if placement_error(state["board"], tile, q, r, k) is None]
                assert legal_placements(state["board"], tile) == expected
        state = RULES.apply(state, s, rng.choice(RULES.legal_actions(state, s)))
