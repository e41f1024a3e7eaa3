"""Rivers & Rafts: rafts, sailing and swimming (§11, checklist 25-34, Examples 3 and 4)."""
from __future__ import annotations

from games.rifugio.rules import RULES

from .helpers import (
    A,
    B,
    C,
    act,
    add_raft,
    pass_turn,
    place_away,
    position,
    put,
    refused,
    seat,
    steps,
)


def _ex3():
    return position(players=2, tiles={(1, 0): "WA01", (2, 0): "WA02", (3, 0): "WA03", (4, -1): "WA04",
                                      (5, -1): "R01", (2, 1): "F01", (-1, 1): "WA05"})


def _raft(state, rid):
    return state["rafts"][rid]


def test_example_3_rafts_build_visit_carry_sail_and_take():
    state = _ex3()
    # A1
    state = act(state, A, {"type": "build_raft", "at": [1, 0]})
    assert _raft(state, 0) == {"id": 0, "owner": A, "at": [1, 0], "riders": [A]}
    assert seat(state, A)["rafts_left"] == 2 and steps(state) == 0
    assert seat(state, A)["walker"] == {"at": [1, 0], "raft": 0, "swim": None}
    state = pass_turn(state)
    # B1
    assert state["active"] == B
    refused(state, B, {"type": "build_raft", "at": [1, 0]}, "Another raft lies on that water tile.")
    state = act(state, B, {"type": "step", "to": [1, 0]})
    assert seat(state, A)["raft_cards"] == 1 and seat(state, B)["extra_step_cards"] == 1 and steps(state) == 1
    state = act(state, B, {"type": "sail", "to": [4, -1]})
    assert _raft(state, 0)["at"] == [4, -1] and sorted(_raft(state, 0)["riders"]) == [A, B]
    assert seat(state, A)["walker"]["at"] == [4, -1] and seat(state, B)["walker"]["at"] == [4, -1]
    assert seat(state, A)["raft_cards"] == 1 and seat(state, B)["extra_step_cards"] == 1 and steps(state) == 0
    refused(state, B, {"type": "step", "to": [5, -1]}, "no steps left")
    state = act(state, B, {"type": "use_extra_step"})
    state = act(state, B, {"type": "step", "to": [5, -1]})
    assert steps(state) == 0 and seat(state, B)["extra_step_cards"] == 0
    state = pass_turn(state)
    assert _raft(state, 0)["riders"] == [A] and _raft(state, 0)["at"] == [4, -1]
    # A2
    state = act(state, A, {"type": "sail", "to": [2, 0]})
    state = act(state, A, {"type": "step", "to": [2, 1]})
    assert _raft(state, 0) == {"id": 0, "owner": A, "at": [2, 0], "riders": []}
    state = pass_turn(state)
    # B2
    state = act(state, B, {"type": "build_raft", "at": [4, -1]})
    assert _raft(state, 1) == {"id": 1, "owner": B, "at": [4, -1], "riders": [B]}
    assert seat(state, B)["rafts_left"] == 2 and steps(state) == 0
    state = pass_turn(state)
    # A3
    state = pass_turn(state)
    # B3
    refused(state, B, {"type": "sail", "to": [2, 0]}, "Another raft lies on that water tile.")
    state = act(state, B, {"type": "sail", "to": [1, 0]})
    assert seat(state, A)["raft_cards"] == 1 and seat(state, B)["extra_step_cards"] == 0
    state = act(state, B, {"type": "step", "to": [2, 0]})
    assert seat(state, A)["raft_cards"] == 2 and seat(state, B)["extra_step_cards"] == 1
    state = act(state, B, {"type": "use_extra_step"})
    state = act(state, B, {"type": "sail", "to": [4, -1]})
    assert _raft(state, 0) == {"id": 0, "owner": A, "at": [4, -1], "riders": [B]}
    assert _raft(state, 1) == {"id": 1, "owner": B, "at": [1, 0], "riders": []}
    state = pass_turn(state)
    # A4
    refused(state, A, {"type": "step", "to": [2, 0]}, "cannot walk on water")
    state = act(state, A, {"type": "build_raft", "at": [3, 0]})
    assert _raft(state, 2) == {"id": 2, "owner": A, "at": [3, 0], "riders": [A]}
    assert seat(state, A)["rafts_left"] == 1
    assert seat(state, A)["raft_cards"] == 2 and seat(state, B)["raft_cards"] == 0
    state = pass_turn(state)
    # B's next turn: board raft 2 (pays), sail it with A aboard, a second boarding pays nothing
    state = act(state, B, {"type": "step", "to": [3, 0]})
    assert seat(state, A)["raft_cards"] == 3 and seat(state, B)["extra_step_cards"] == 1
    state = act(state, B, {"type": "sail", "to": [2, 0]})
    assert sorted(_raft(state, 2)["riders"]) == [A, B] and seat(state, A)["walker"]["at"] == [2, 0]
    state = act(state, B, {"type": "use_extra_step"})
    state = act(state, B, {"type": "step", "to": [2, 1]})
    state["turn"]["steps"] = 1
    state = act(state, B, {"type": "step", "to": [2, 0]})
    assert seat(state, A)["raft_cards"] == 3 and seat(state, B)["extra_step_cards"] == 0


def test_example_3_a_raft_on_a_pond_cannot_sail():
    state = _ex3()
    state = act(state, A, {"type": "build_raft", "at": [-1, 1]})
    assert not [a for a in RULES.legal_actions(state, A) if a["type"] == "sail"]
    state["turn"]["steps"] = 1
    refused(state, A, {"type": "sail", "to": [1, 0]}, "not part of your raft's river")


def test_example_3_three_players_a_full_raft_cannot_be_boarded():
    state = position(players=3, tiles={(1, 0): "WA01"}, active=C)
    add_raft(state, A, 1, 0, riders=[A, B])
    refused(state, C, {"type": "step", "to": [1, 0]}, "That raft already carries two hikers.")


def test_build_raft_needs_two_steps_vacant_adjacent_water_and_supply():
    state = position(players=2, tiles={(1, 0): "WA01", (2, 0): "WA02", (-1, 0): "F01", (3, 0): "WA03"})
    one = dict(state, turn=dict(state["turn"], steps=1))
    refused(one, A, {"type": "build_raft", "at": [1, 0]}, "Building a raft needs 2 steps in this turn.")
    seat(one, A)["extra_step_cards"] = 1
    one = act(one, A, {"type": "use_extra_step"})
    assert {"type": "build_raft", "at": [1, 0]} in RULES.legal_actions(one, A)
    refused(state, A, {"type": "build_raft", "at": [2, 0]}, "neighbouring water")
    refused(state, A, {"type": "build_raft", "at": [-1, 0]}, "only be built on water")
    empty = position(players=2, tiles={(1, 0): "WA01"})
    empty["seats"][A]["rafts_left"] = 0
    empty["rafts"] = [{"id": i, "owner": A, "at": [9, i], "riders": []} for i in range(3)]
    refused(empty, A, {"type": "build_raft", "at": [1, 0]}, "no rafts left")
    swimmer = position(players=2, tiles={(1, 0): "WA01", (2, 0): "F02"})
    swimmer["seats"][B]["walker"] = {"at": [1, 0], "raft": None,
                                     "swim": {"from": [2, 0], "via": [1, 0], "to": [0, 0], "stage": 2}}
    refused(swimmer, A, {"type": "build_raft", "at": [1, 0]}, "Someone is swimming there.")


def test_build_raft_from_a_raft_leaves_the_old_raft_behind():
    state = position(players=2, tiles={(1, 0): "WA01", (2, 0): "WA02"})
    add_raft(state, B, 1, 0, riders=[A])
    state = act(state, A, {"type": "build_raft", "at": [2, 0]})
    assert state["rafts"][0]["riders"] == [] and state["rafts"][1]["riders"] == [A]
    assert seat(state, A)["walker"] == {"at": [2, 0], "raft": 1, "swim": None}


def test_boarding_costs_one_and_needs_room_capacity_two():
    state = position(players=3, tiles={(1, 0): "WA01"})
    add_raft(state, B, 1, 0, riders=[B])
    state = act(state, A, {"type": "step", "to": [1, 0]})
    assert steps(state) == 1 and sorted(state["rafts"][0]["riders"]) == [A, B]


def test_boarding_an_unmanned_opponent_raft_pays_once_per_turn_and_own_raft_pays_nothing():
    state = position(players=3, tiles={(1, 0): "WA01", (-1, 0): "WA02"}, steps=6)
    add_raft(state, B, 1, 0)
    add_raft(state, A, -1, 0)
    state = act(state, A, {"type": "step", "to": [1, 0]})
    assert seat(state, B)["raft_cards"] == 1 and seat(state, A)["extra_step_cards"] == 1
    state = act(state, A, {"type": "step", "to": [0, 0]})
    state = act(state, A, {"type": "step", "to": [1, 0]})
    assert seat(state, B)["raft_cards"] == 1 and seat(state, A)["extra_step_cards"] == 1
    state = act(state, A, {"type": "step", "to": [0, 0]})
    state = act(state, A, {"type": "step", "to": [-1, 0]})
    assert seat(state, A)["raft_cards"] == 0 and seat(state, A)["extra_step_cards"] == 1


def test_jumping_onto_a_manned_opponent_raft_pays_the_owner():
    state = position(players=3, tiles={(1, 0): "WA01", (2, 0): "F01", (1, 1): "WA02"})
    add_raft(state, A, 1, 0, riders=[A])
    add_raft(state, B, 1, 1, riders=[B])
    state = act(state, A, {"type": "step", "to": [1, 1]})
    assert seat(state, B)["raft_cards"] == 1 and seat(state, A)["extra_step_cards"] == 1
    assert state["rafts"][0]["riders"] == [] and sorted(state["rafts"][1]["riders"]) == [A, B]


def test_sail_costs_one_anywhere_on_the_river_passing_rafts_and_swimmers():
    tiles = {(1, 0): "WA01", (2, 0): "WA02", (3, 0): "WA03", (4, 0): "WA04", (5, 0): "F01", (-1, 0): "WA05"}
    state = position(players=3, tiles=tiles)
    add_raft(state, A, 1, 0, riders=[A])
    add_raft(state, B, 2, 0)
    state["seats"][C]["walker"] = {"at": [3, 0], "raft": None,
                                   "swim": {"from": [2, -1], "via": [3, 0], "to": [4, -1], "stage": 1}}
    sails = [a["to"] for a in RULES.legal_actions(state, A) if a["type"] == "sail"]
    assert sails == [[4, 0]]
    refused(state, A, {"type": "sail", "to": [3, 0]}, "Someone is swimming there.")
    refused(state, A, {"type": "sail", "to": [2, 0]}, "Another raft lies on that water tile.")
    refused(state, A, {"type": "sail", "to": [-1, 0]}, "not part of your raft's river")
    state = act(state, A, {"type": "sail", "to": [4, 0]})
    assert steps(state) == 1 and state["rafts"][0]["at"] == [4, 0]
    assert seat(state, B)["raft_cards"] == 0 and seat(state, A)["extra_step_cards"] == 0


def test_sailing_another_players_raft_pays_nobody_and_keeps_its_owner():
    state = position(players=3, tiles={(1, 0): "WA01", (2, 0): "WA02"})
    add_raft(state, B, 1, 0)
    state = act(state, A, {"type": "step", "to": [1, 0]})
    cards = (seat(state, B)["raft_cards"], seat(state, A)["extra_step_cards"])
    state = act(state, A, {"type": "sail", "to": [2, 0]})
    assert (seat(state, B)["raft_cards"], seat(state, A)["extra_step_cards"]) == cards
    assert state["rafts"][0]["owner"] == B


def test_sailing_carries_every_hiker_aboard_including_the_owner():
    state = position(players=3, tiles={(1, 0): "WA01", (2, 0): "WA02"}, active=B)
    add_raft(state, A, 1, 0, riders=[A, B])
    state = act(state, B, {"type": "sail", "to": [2, 0]})
    assert seat(state, A)["walker"]["at"] == [2, 0] == seat(state, B)["walker"]["at"]


def test_taking_an_unmanned_raft_never_changes_its_owner_and_later_boardings_pay_the_owner():
    state = position(players=3, tiles={(1, 0): "WA01", (2, 0): "WA02", (3, 0): "F01"})
    add_raft(state, A, 1, 0)
    put(state, C, 3, 0)
    state["active"] = B
    state = act(state, B, {"type": "step", "to": [1, 0]})
    state = act(state, B, {"type": "sail", "to": [2, 0]})
    state = act(state, B, {"type": "use_extra_step"})
    state = act(state, B, {"type": "step", "to": [3, 0]})
    assert state["rafts"][0]["owner"] == A and state["rafts"][0]["riders"] == []
    state = place_away(act(state, B, {"type": "end_turn"}))
    assert state["active"] == C
    state = act(state, C, {"type": "step", "to": [2, 0]})
    assert seat(state, A)["raft_cards"] == 2 and seat(state, B)["raft_cards"] == 0


def test_stepping_off_a_raft_costs_one_and_runs_the_land_entry_effects():
    state = position(players=3, tiles={(1, 0): "WA01", (2, 0): "FL3"})
    add_raft(state, A, 1, 0, riders=[A])
    state = act(state, A, {"type": "step", "to": [2, 0]})
    assert steps(state) == 1 and seat(state, A)["items"] == ["FL3"]
    assert state["rafts"][0]["riders"] == []


# --- swimming -----------------------------------------------------------------------------

def _ex4(b_rafts_left=0, a_raft_at=(1, -1)):
    state = position(players=2, tiles={(1, -1): "WA01", (1, 0): "WA02", (1, 1): "WA03", (2, 0): "F01",
                                       (-1, 0): "WA04", (-2, 0): "WA05", (-3, 0): "WA06"}, active=B)
    add_raft(state, A, *a_raft_at, riders=[A])
    for q in range(-3, -3 + 3 - b_rafts_left):
        add_raft(state, B, q, 0)
    put(state, B, 2, 0)
    return state


def _swims(state, s):
    return [a for a in RULES.legal_actions(state, s) if a["type"] == "swim"]


def test_example_4_the_swim_across_two_turns():
    state = _ex4()
    assert _swims(state, B) == [{"type": "swim", "via": [1, 0], "to": [0, 0]}]
    state = act(state, B, {"type": "swim", "via": [1, 0], "to": [0, 0]})
    assert seat(state, B)["walker"] == {"at": [1, 0], "raft": None,
                                        "swim": {"from": [2, 0], "via": [1, 0], "to": [0, 0], "stage": 1}}
    assert steps(state) == 1
    assert RULES.legal_actions(state, B) == [{"type": "continue_swim"}, {"type": "end_turn"}]
    refused(state, B, {"type": "step", "to": [2, 0]}, "You are swimming: keep swimming or end your turn.")
    state = act(state, B, {"type": "continue_swim"})
    assert seat(state, B)["walker"]["swim"]["stage"] == 2 and steps(state) == 0
    state = act(state, B, {"type": "end_turn"})
    state = place_away(state)
    # A's turn
    assert state["active"] == A
    refused(state, A, {"type": "sail", "to": [1, 0]}, "Someone is swimming there.")
    refused(state, A, {"type": "build_raft", "at": [1, 0]}, "Someone is swimming there.")
    state = act(state, A, {"type": "sail", "to": [1, 1]})
    state = act(state, A, {"type": "end_turn"})
    # B's turn 2: tiles first, then the swim goes on
    assert state["phase"] == "place"
    state = place_away(state)
    assert seat(state, B)["walker"]["swim"]["stage"] == 2
    state = act(state, B, {"type": "continue_swim"})
    assert seat(state, B)["walker"]["swim"]["stage"] == 3 and steps(state) == 1
    state = act(state, B, {"type": "continue_swim"})
    assert seat(state, B)["walker"] == {"at": [0, 0], "raft": None, "swim": None}
    assert steps(state) == 0


def test_example_4_variant_with_a_raft_in_supply_swimming_is_illegal():
    state = _ex4(b_rafts_left=1)
    assert _swims(state, B) == []
    refused(state, B, {"type": "swim", "via": [1, 0], "to": [0, 0]}, "You may only swim when")
    assert {"type": "build_raft", "at": [1, 0]} in RULES.legal_actions(state, B)


def test_example_4_variant_with_a_raft_next_to_the_land_swimming_is_illegal():
    state = _ex4(a_raft_at=(1, 1))
    assert _swims(state, B) == []
    state = act(state, B, {"type": "step", "to": [1, 1]})
    assert seat(state, A)["raft_cards"] == 1 and seat(state, B)["extra_step_cards"] == 1


def test_example_4_variant_two_cards_finish_the_swim_in_one_turn():
    state = _ex4()
    seat(state, B)["extra_step_cards"] = 2
    for action in ("swim", "continue_swim", "use_extra_step", "continue_swim", "use_extra_step",
                   "continue_swim"):
        payload = {"type": "swim", "via": [1, 0], "to": [0, 0]} if action == "swim" else {"type": action}
        state = act(state, B, payload)
    assert seat(state, B)["walker"] == {"at": [0, 0], "raft": None, "swim": None}


def test_swim_landing_runs_the_land_entry_effects():
    state = position(players=2, tiles={(1, 0): "WA01", (2, 0): "F01", (-1, 0): "WA02", (-2, 0): "WA03",
                                       (-3, 0): "WA04", (0, 1): "AN1"}, active=B)
    for q in (-1, -2, -3):
        add_raft(state, B, q, 0)
    put(state, B, 2, 0)
    seat(state, B)["extra_step_cards"] = 2
    assert {"type": "swim", "via": [1, 0], "to": [0, 1]} in _swims(state, B)
    state = act(state, B, {"type": "swim", "via": [1, 0], "to": [0, 1]})
    for action in ("continue_swim", "use_extra_step", "continue_swim", "use_extra_step", "continue_swim"):
        state = act(state, B, {"type": action})
    assert seat(state, B)["items"] == ["AN1"]


def test_swim_destination_must_be_outside_the_region_and_via_must_touch_both():
    state = _ex4()
    refused(state, B, {"type": "swim", "via": [1, 1], "to": [2, 0]}, "You can walk there")
    refused(state, B, {"type": "swim", "via": [1, -1], "to": [0, 0]}, "water tile next to your tile")
    refused(state, B, {"type": "swim", "via": [1, 0], "to": [3, -2]}, "far side")
    refused(state, B, {"type": "swim", "via": [1, 1], "to": [0, 0]}, "far side")


def test_a_full_raft_next_to_the_land_does_not_forbid_swimming_but_blocks_its_tile():
    state = _ex4()
    state["seats"][A]["walker"] = {"at": [0, 0], "raft": None, "swim": None}
    state["rafts"][0].update(at=[1, 1], riders=[])
    # an available raft on useful water forbids swimming
    assert _swims(state, B) == []
    # two riders fill it: swimming is allowed again, but not through the raft's own tile
    state = position(players=3, tiles={(1, -1): "WA01", (1, 0): "WA02", (1, 1): "WA03", (2, 0): "F01",
                                       (-1, 0): "WA04", (-2, 0): "WA05"}, active=B)
    add_raft(state, A, 1, 1, riders=[A, C])
    for q in (-1, -2):
        add_raft(state, B, q, 0)
    put(state, B, 2, 0)
    assert _swims(state, B) == [{"type": "swim", "via": [1, 0], "to": [0, 0]}]


def test_enclosed_water_does_not_block_the_swim_and_swimmers_share_a_tile():
    # B still has a raft, but the only vacant water by B's land is a lake at (4,-1) that touches
    # nothing but B's own land; the river tile (1,0) already holds a swimmer (A)
    state = _ex4(b_rafts_left=1)
    state["board"]["3,0"] = {"tile": "F02", "rot": 0}
    state["board"]["1,1"] = {"tile": "F03", "rot": 0}
    state["seats"][A]["walker"] = {"at": [1, 0], "raft": None,
                                   "swim": {"from": [0, 0], "via": [1, 0], "to": [2, 0], "stage": 1}}
    state["rafts"][0]["riders"] = []
    state["board"]["4,-1"] = {"tile": "WA07", "rot": 0}
    assert _swims(state, B) == [{"type": "swim", "via": [1, 0], "to": [0, 0]}]
