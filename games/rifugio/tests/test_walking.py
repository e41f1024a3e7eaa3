"""Walking, visits, Rifugi and extra steps (§7-§10, checklist 17-24, Example 2)."""
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


def _ex2():
    state = position(players=3, tiles={(1, 0): "FL1", (2, 0): "F01", (3, 0): "BR1"})
    state["rifugi"]["2,0"] = B
    seat(state, B)["rifugi_left"] -= 1
    seat(state, A)["extra_step_cards"] = 1
    return state


def test_example_2_walking_items_and_a_rifugio_paying_once_per_turn():
    state = _ex2()
    state = act(state, A, {"type": "step", "to": [1, 0]})
    assert seat(state, A)["items"] == ["FL1"] and (steps(state), seat(state, A)["extra_step_cards"]) == (1, 1)
    state = act(state, A, {"type": "step", "to": [2, 0]})
    assert seat(state, B)["rifugio_cards"] == 1
    assert (steps(state), seat(state, A)["extra_step_cards"]) == (0, 2)
    refused(state, A, {"type": "step", "to": [3, 0]}, "no steps left")
    state = act(state, A, {"type": "use_extra_step"})
    assert (steps(state), seat(state, A)["extra_step_cards"]) == (1, 1)
    state = act(state, A, {"type": "step", "to": [1, 0]})
    assert seat(state, A)["items"] == ["FL1"] and (steps(state), seat(state, A)["extra_step_cards"]) == (0, 1)
    state = act(state, A, {"type": "use_extra_step"})
    state = act(state, A, {"type": "step", "to": [2, 0]})
    assert seat(state, B)["rifugio_cards"] == 1
    assert (steps(state), seat(state, A)["extra_step_cards"]) == (0, 0)
    refused(state, A, {"type": "use_extra_step"}, "no extra-step cards")
    state = act(state, A, {"type": "end_turn"})
    assert state["seats"][A]["walker"]["at"] == [2, 0]
    assert seat(state, B)["rifugio_cards"] == 1

    # B and C take their turns (tiles go elsewhere), then A's next turn
    state = pass_turn(state)
    state = pass_turn(state)
    assert state["active"] == A and steps(state) == 2
    refused(state, A, {"type": "build_rifugio"}, "already stands")
    assert steps(state) == 2
    state = act(state, A, {"type": "step", "to": [3, 0]})
    assert seat(state, A)["bears"] == ["BR1"] and steps(state) == 1
    state = act(state, A, {"type": "step", "to": [2, 0]})
    assert seat(state, B)["rifugio_cards"] == 2 and seat(state, A)["extra_step_cards"] == 1
    state = act(state, A, {"type": "use_extra_step"})
    state = act(state, A, {"type": "step", "to": [3, 0]})
    assert seat(state, A)["bears"] == ["BR1"]
    assert (steps(state), seat(state, A)["extra_step_cards"]) == (0, 0)
    totals = [s["total"] for s in RULES.scores(state)]
    assert totals[A] == -1 and totals[B] == 4


def test_example_2_no_rifugio_on_the_start_tile():
    state = _ex2()
    refused(state, A, {"type": "build_rifugio"}, "No Rifugio may be built on the start tile.")


def test_step_moves_only_to_adjacent_tiles():
    state = position(players=3, tiles={(1, 0): "F01", (2, 0): "F02"})
    refused(state, A, {"type": "step", "to": [2, 0]}, "neighbouring tile")
    refused(state, A, {"type": "step", "to": [0, 0]}, "neighbouring tile")
    refused(state, A, {"type": "step", "to": [0, 1]}, "no tile there")
    assert [a for a in RULES.legal_actions(state, A) if a["type"] == "step"] == [
        {"type": "step", "to": [1, 0]}]


def test_water_without_raft_and_full_rafts_are_refused_with_reasons():
    state = position(players=3, tiles={(1, 0): "WA01", (-1, 0): "WA02"})
    refused(state, A, {"type": "step", "to": [1, 0]}, "cannot walk on water")
    add_raft(state, B, -1, 0, riders=[B, C])
    refused(state, A, {"type": "step", "to": [-1, 0]}, "That raft already carries two hikers.")


def test_items_once_per_player_another_player_can_collect_it_and_passing_through_counts():
    state = position(players=3, tiles={(1, 0): "AN1", (2, 0): "F01"})
    state = act(state, A, {"type": "step", "to": [1, 0]})
    state = act(state, A, {"type": "step", "to": [2, 0]})  # walked through AN1
    assert seat(state, A)["items"] == ["AN1"]
    state = place_away(act(state, A, {"type": "end_turn"}))
    assert state["active"] == B
    state = act(state, B, {"type": "step", "to": [1, 0]})
    assert seat(state, B)["items"] == ["AN1"]
    assert seat(state, A)["items"] == ["AN1"]


def test_a_bear_gives_minus_3_once_per_bear_tile_per_player():
    state = position(players=3, tiles={(1, 0): "BR2", (2, 0): "BR3"}, steps=5)
    state = act(state, A, {"type": "step", "to": [1, 0]})
    state = act(state, A, {"type": "step", "to": [0, 0]})
    state = act(state, A, {"type": "step", "to": [1, 0]})
    assert seat(state, A)["bears"] == ["BR2"]
    state = act(state, A, {"type": "step", "to": [2, 0]})
    assert seat(state, A)["bears"] == ["BR2", "BR3"]
    assert RULES.scores(state)[A]["breakdown"]["bears"] == -6


def test_standing_carried_or_building_are_not_visits():
    # standing on a special tile at turn start, or building there, gives nothing
    state = position(players=3, tiles={(1, 0): "FL2"})
    put(state, A, 1, 0)
    state = act(state, A, {"type": "build_rifugio"})
    assert seat(state, A)["items"] == []
    # being carried on a raft is not a visit of the raft
    state = position(players=3, tiles={(1, 0): "WA01", (2, 0): "WA02"})
    add_raft(state, B, 1, 0, riders=[B, C])
    state["active"] = C
    state = act(state, C, {"type": "sail", "to": [2, 0]})
    assert seat(state, B)["raft_cards"] == 0 and seat(state, C)["extra_step_cards"] == 0


def test_rifugio_visit_pays_owner_and_visitor_but_own_rifugio_pays_nothing():
    state = position(players=3, tiles={(1, 0): "F01", (-1, 0): "F02"})
    state["rifugi"].update({"1,0": B, "-1,0": A})
    seat(state, A)["rifugi_left"] -= 1
    seat(state, B)["rifugi_left"] -= 1
    state = act(state, A, {"type": "step", "to": [-1, 0]})
    assert seat(state, A)["rifugio_cards"] == 0 and seat(state, A)["extra_step_cards"] == 0
    state = act(state, A, {"type": "step", "to": [0, 0]})
    state["turn"]["steps"] = 1
    state = act(state, A, {"type": "step", "to": [1, 0]})
    assert seat(state, B)["rifugio_cards"] == 1 and seat(state, A)["extra_step_cards"] == 1


def test_build_rifugio_costs_one_and_its_refusals():
    state = position(players=3, tiles={(1, 0): "F01", (-1, 0): "WA01"})
    put(state, A, 1, 0)
    built = act(state, A, {"type": "build_rifugio"})
    assert built["rifugi"] == {"1,0": A} and steps(built) == 1 and seat(built, A)["rifugi_left"] == 2
    refused(built, A, {"type": "build_rifugio"}, "A Rifugio already stands here.")
    none_left = position(players=3, tiles={(1, 0): "F01"})
    put(none_left, A, 1, 0)
    seat(none_left, A)["rifugi_left"] = 0
    none_left["rifugi"] = {"9,9": A, "9,8": A, "9,7": A}
    refused(none_left, A, {"type": "build_rifugio"}, "no Rifugi left")
    no_steps = position(players=3, tiles={(1, 0): "F01"}, steps=0)
    put(no_steps, A, 1, 0)
    refused(no_steps, A, {"type": "build_rifugio"}, "no steps left")
    on_water = position(players=3, tiles={(1, 0): "WA01"})
    add_raft(on_water, A, 1, 0, riders=[A])
    refused(on_water, A, {"type": "build_rifugio"}, "only be built on land")


def test_extra_step_cards_carry_over_between_turns_and_score_nothing():
    state = position(players=3, tiles={(1, 0): "F01"})
    seat(state, A)["extra_step_cards"] = 2
    state = act(state, A, {"type": "use_extra_step"})
    assert steps(state) == 3
    state = act(state, A, {"type": "end_turn"})
    assert seat(state, A)["extra_step_cards"] == 1
    assert RULES.scores(state)[A]["total"] == 0
    refused(position(players=3), A, {"type": "use_extra_step"}, "no extra-step cards")


def test_with_the_option_off_expansion_actions_are_illegal_and_no_water_exists():
    state = position(players=3, rr=False, tiles={(1, 0): "F01"})
    for action in ({"type": "sail", "to": [1, 0]}, {"type": "build_raft", "at": [1, 0]},
                   {"type": "swim", "via": [1, 0], "to": [2, 0]}, {"type": "continue_swim"}):
        refused(state, A, action, "Rivers & Rafts")
    setup = RULES.setup(4, {"rivers_and_rafts": False}, 1)
    assert not any(t.startswith("WA") for t in setup["stack"] + [setup["hand"]])
    assert all(p["rafts_left"] == 0 for p in setup["seats"])
