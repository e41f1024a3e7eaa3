"""Drawing legality: EX7 (L1-L24) and checklist items 6, 10-19, 26 (spec section 6).

P is seat 0 and Q is seat 1 of a two-seat game; map b is owned by seat b."""
from __future__ import annotations

import copy
import json

import pytest

from games.rules.base import IllegalAction
from games.rift_valley_reserve.rules import RULES, data
from games.rift_valley_reserve.rules.board import empty_cells, score_map

from .helpers import blank, fresh, holding, legal, stop, tent, trail
from .test_scoring import ex3

P, Q = 0, 1


def S(r, c):
    return {"type": "stop", "cell": [r, c]}


def T(r, c):
    return {"type": "tent", "cell": [r, c]}


def TR(a, b, corner=None):
    return {"type": "trail", "from": list(a), "to": list(b), "corner": None if corner is None else list(corner)}


def refused(state, seat, action, words=""):
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, seat, action)
    assert words in str(info.value)
    assert action not in legal(state, seat)
    return str(info.value)


def accepted(state, seat, action):
    RULES.apply(state, seat, action)
    assert action in legal(state, seat)


def l3_state(holder=P):
    """ID9 owned by Q, turn 2 or later, only Q's turn-1 Stop (0,4) drawn; `holder` holds it."""
    return holding("ID9", Q, holder, build=lambda m: stop(m, Q, (0, 4)))[0]


# --- Turn 1 ---------------------------------------------------------------------------

def test_l1_first_turn_stop_beside_an_animal_diagonally_is_refused():
    refused(blank(), P, S(0, 0), "cannot touch an animal")


def test_l2_first_turn_stop_away_from_animals_is_legal():
    accepted(blank(), P, S(0, 3))


def test_first_turn_every_seat_holds_its_own_map_and_is_offered_19_stops_only():
    for players in range(2, 6):
        state = blank(players)
        assert RULES.to_act(state) == list(range(players))
        view = RULES.view(state, None)
        assert [s["holds"] for s in view["seats"]] == list(range(players))
        for seat in range(players):
            actions = legal(state, seat)
            assert len(actions) == 19
            assert all(a["type"] == "stop" for a in actions)


@pytest.mark.parametrize("action", [T(0, 3), TR((0, 3), (0, 5)), {"type": "pass"}])
def test_l23_first_turn_tent_trail_or_pass_is_refused(action):
    refused(blank(), P, action)


def test_first_turn_tent_message_says_only_stops():
    assert refused(blank(), P, T(0, 3)) == "On the first turn you can only draw a Stop."


# --- Stops ----------------------------------------------------------------------------

def test_l3_later_stop_next_to_an_animal_is_legal():
    accepted(l3_state(), P, S(0, 0))


def test_l4_stop_beside_another_colours_stop_is_refused():
    refused(l3_state(), P, S(0, 5), "directly above, below, left or right")


def test_l5_stop_diagonal_to_a_stop_is_legal():
    accepted(l3_state(), P, S(1, 5))


@pytest.mark.parametrize("action", [T(3, 4), S(3, 4)])
def test_l6_nothing_is_drawn_on_a_rift_cell(action):
    refused(l3_state(), P, action, "not empty")


def test_l7_pass_before_the_trigger_is_refused():
    refused(l3_state(), P, {"type": "pass"}, "only once the end of the game has been triggered")


def test_l8_stop_beside_the_map_owners_stop_is_refused():
    state, _ = holding("ID9", P, Q, build=lambda m: ex3())
    refused(state, Q, S(3, 7), "directly above")


def test_l8_is_legal_when_stop_spacing_counts_only_own_colour(monkeypatch):
    monkeypatch.setattr(data, "STOP_SPACING_ANY_COLOUR", False)
    state, _ = holding("ID9", P, Q, build=lambda m: ex3())
    accepted(state, Q, S(3, 7))


def test_own_stops_still_may_not_touch_when_spacing_counts_only_own_colour(monkeypatch):
    monkeypatch.setattr(data, "STOP_SPACING_ANY_COLOUR", False)
    state, _ = holding("ID9", P, P, build=lambda m: ex3())
    refused(state, P, S(3, 7), "directly above")


def test_no_stop_or_tent_on_animal_tree_water_rift_or_drawn_cells():
    def build(m):
        m = stop(m, P, (4, 0), (4, 4))
        m = trail(m, P, (4, 0), (4, 4))
        return tent(m, Q, (0, 0))
    state, _ = holding("AS1", P, P, build=build)
    targets = {"animal": (1, 1), "tree": (0, 2), "water": (1, 7), "rift": (4, 2), "stop": (4, 0),
               "trail": (4, 3), "tent": (0, 0)}
    for what, (r, c) in targets.items():
        for action in (S(r, c), T(r, c)):
            assert refused(state, P, action) == "That square is not empty.", what


# --- Trails ---------------------------------------------------------------------------

def test_l9_trail_through_another_players_trail_is_refused():
    state, _ = holding("ID9", P, Q, build=lambda m: stop(ex3(), Q, (2, 5), (4, 5)))
    refused(state, Q, TR((2, 5), (4, 5)), "another Trail")


def test_l10_owner_bridges_a_vertical_canyon_horizontally():
    state, _ = holding("ID9", P, P, build=lambda m: stop(m, P, (2, 3), (2, 5)))
    accepted(state, P, TR((2, 3), (2, 5)))


def test_l11_only_the_owner_may_bridge():
    state, _ = holding("ID9", P, Q, build=lambda m: stop(m, Q, (2, 3), (2, 5)))
    refused(state, Q, TR((2, 3), (2, 5)), "Only the owner of this Rift")


def test_l12_a_trail_may_not_run_along_the_canyon():
    state, _ = holding("ID9", P, P, build=lambda m: stop(m, P, (1, 4), (7, 4)))
    refused(state, P, TR((1, 4), (7, 4)), "right angle")


def test_l13_corner_on_the_rift_refused_other_corner_legal_no_corner_refused():
    state, _ = holding("ID9", P, P, build=lambda m: stop(m, P, (2, 3), (1, 4)))
    refused(state, P, TR((2, 3), (1, 4), (2, 4)), "cannot turn on the Rift")
    accepted(state, P, TR((1, 4), (2, 3), (1, 3)))
    refused(state, P, TR((2, 3), (1, 4)), "not in line: choose a corner")


def test_l14_trail_through_an_animal_is_refused():
    state, _ = holding("ID9", Q, P, build=lambda m: stop(m, P, (1, 0), (1, 2)))
    refused(state, P, TR((1, 0), (1, 2)), "an animal")


def test_l15_trail_through_a_tent_is_refused():
    state, _ = holding("T6", Q, P, build=lambda m: tent(stop(m, P, (1, 0), (1, 2)), Q, (1, 1)))
    refused(state, P, TR((1, 0), (1, 2)), "a Tent")


def test_trail_through_a_stop_tree_or_water_is_refused():
    def build(m):
        return stop(m, P, (0, 0), (0, 4), (0, 6), (2, 8), (4, 6), (4, 8))
    state, _ = holding("AS1", Q, P, build=build)
    refused(state, P, TR((0, 0), (0, 4)), "a tree")           # (0,2) tree
    refused(state, P, TR((0, 6), (2, 8), (0, 8)), "water")    # (1,8) water
    refused(state, P, TR((4, 6), (4, 8)), "an animal")        # (4,7) animal


def test_trail_through_a_stop_is_refused():
    state, _ = holding("T6", Q, P, build=lambda m: stop(stop(m, P, (0, 0), (0, 4)), Q, (0, 2)))
    refused(state, P, TR((0, 0), (0, 4)), "a Stop")


def test_l16_diagonal_neighbours_join_only_by_an_l_and_both_ls_may_be_drawn():
    state, turn = holding("T6", Q, P, build=lambda m: stop(m, P, (0, 0), (1, 1)))
    refused(state, P, TR((0, 0), (1, 1)), "choose a corner")
    trails = [a for a in legal(state, P) if a["type"] == "trail"]
    assert trails == [TR((0, 0), (1, 1), (0, 1)), TR((0, 0), (1, 1), (1, 0))]
    m = trail(state["maps"][Q], P, (0, 0), (1, 1), (0, 1))
    state, _ = holding("T6", Q, P, build=lambda _: m)
    accepted(state, P, TR((0, 0), (1, 1), (1, 0)))


def test_twin_trails_can_be_switched_off(monkeypatch):
    monkeypatch.setattr(data, "ALLOW_TWIN_TRAILS", False)
    m = trail(stop(fresh("T6", Q), P, (0, 0), (1, 1)), P, (0, 0), (1, 1), (0, 1))
    state, _ = holding("T6", Q, P, build=lambda _: m)
    refused(state, P, TR((0, 0), (1, 1), (1, 0)), "already joined")


def test_l17_a_trail_must_end_on_the_drawers_own_stops():
    state, _ = holding("ID9", P, P, build=lambda m: stop(ex3(), Q, (4, 5)))
    refused(state, P, TR((3, 6), (4, 5), (4, 6)), "two of your own Stops")


def test_trail_between_the_same_stop_is_refused():
    state, _ = holding("ID9", P, P, build=lambda m: ex3())
    refused(state, P, TR((3, 6), (3, 6)), "two different Stops")


def test_l18_used_cell_refused_and_a_stop_may_end_a_second_trail():
    state, _ = holding("ID9", P, P, build=lambda m: stop(ex3(), P, (2, 5)))
    refused(state, P, TR((2, 5), (3, 6), (3, 5)), "another Trail")
    accepted(state, P, TR((2, 5), (3, 6), (2, 6)))


def test_l19_only_the_owner_may_bridge_lakeside():
    state, _ = holding("AS1", P, Q, build=lambda m: stop(m, Q, (2, 1), (4, 1)))
    refused(state, Q, TR((2, 1), (4, 1)), "Only the owner")


def test_l20_corner_on_the_rift_refused_and_the_other_l_scores_three_areas():
    state, _ = holding("T6", P, P, build=lambda m: stop(m, P, (3, 0), (4, 2)))
    refused(state, P, TR((3, 0), (4, 2), (4, 0)), "cannot turn on the Rift")
    accepted(state, P, TR((3, 0), (4, 2), (3, 2)))
    m = trail(state["maps"][P], P, (3, 0), (4, 2), (3, 2))
    assert m["trails"][0]["path"] == [[3, 0], [3, 1], [3, 2], [4, 2]]
    assert score_map(m, 2)[P]["trails"] == 3


def test_l21_a_trail_may_bridge_the_rift_twice():
    state, _ = holding("AS1", P, P, build=lambda m: stop(m, P, (4, 1), (7, 4)))
    accepted(state, P, TR((4, 1), (7, 4), (4, 4)))
    refused(state, P, TR((4, 1), (7, 4), (7, 1)), "an animal")
    m = trail(state["maps"][P], P, (4, 1), (7, 4), (4, 4))
    assert m["trails"][0]["path"] == [[4, 1], [4, 2], [4, 3], [4, 4], [5, 4], [6, 4], [7, 4]]
    assert score_map(m, 2)[P]["trails"] == 3


def test_l22_the_double_bridge_is_refused_on_someone_elses_rift():
    state, _ = holding("AS1", Q, P, build=lambda m: stop(m, P, (4, 1), (7, 4)))
    refused(state, P, TR((4, 1), (7, 4), (4, 4)), "Only the owner")


def test_l24_a_reversed_trail_is_the_same_trail_listed_once():
    state, _ = holding("ID9", P, P, build=lambda m: stop(m, P, (2, 3), (2, 5)))
    trails = [a for a in legal(state, P) if a["type"] == "trail"]
    assert trails == [TR((2, 3), (2, 5))]
    after = RULES.apply(state, P, TR((2, 5), (2, 3)))
    assert after["pending"][str(P)] == TR((2, 3), (2, 5))


def test_trail_shape_wrong_corner_and_corner_on_a_straight_trail_are_refused():
    state, _ = holding("T6", Q, P, build=lambda m: stop(m, P, (0, 0), (2, 2), (0, 4)))
    refused(state, P, TR((0, 0), (2, 2), (1, 1)), "That corner does not join these Stops.")
    refused(state, P, TR((0, 0), (0, 4), (0, 2)), "a straight Trail has no corner")


def test_a_drawn_trail_occupies_exactly_its_interior_and_connects_its_stops():
    state, turn = holding("ID9", P, P, build=lambda m: stop(ex3(), P, (2, 5)))
    before = state["maps"][P]
    after = RULES.apply(state, P, TR((2, 5), (3, 6), (2, 6)))
    after = RULES.apply(after, Q, legal(after, Q)[0])   # Q draws too: the turn resolves
    m = after["maps"][P]
    new_cells = {k: v for k, v in m["cells"].items() if k not in before["cells"]}
    assert new_cells == {"2,6": {"kind": "trail", "seat": P, "trail": 2}}
    assert m["cells"]["2,5"] == {"kind": "stop", "seat": P}
    assert m["cells"]["3,6"] == {"kind": "stop", "seat": P}
    view_cells = RULES.view(after, None)["maps"][P]["cells"]
    assert view_cells["2,5"]["connected"] and view_cells["3,6"]["connected"]
    assert view_cells["7,3"]["connected"] is False


def test_tents_are_legal_on_every_empty_cell_from_turn_two_and_nowhere_else():
    state = l3_state()
    tents = [a["cell"] for a in legal(state, P) if a["type"] == "tent"]
    assert tents == [[r, c] for r, c in empty_cells(state["maps"][Q])]
    assert len(tents) == 81 - 7 - 5 - 1


def test_legal_actions_are_in_canonical_order():
    state, _ = holding("T6", Q, P, build=lambda m: stop(m, P, (0, 0), (1, 1), (0, 4)))
    kinds = [a["type"] for a in legal(state, P)]
    assert kinds == sorted(kinds, key=["stop", "tent", "trail", "pass"].index)
    stops = [a["cell"] for a in legal(state, P) if a["type"] == "stop"]
    assert stops == sorted(stops)


@pytest.mark.parametrize("any_colour", [True, False])
@pytest.mark.parametrize("boards", ["identical", "asymmetrical"])
def test_the_legal_stops_are_the_empty_squares_stop_error_accepts(monkeypatch, boards, any_colour):
    """legal_draws bars squares in one pass over the drawn Stops and animals (stop_barred):
    it offers exactly the squares stop_error, the check a submitted Stop meets, accepts, on
    every map and turn of a game played out (its first turn included)."""
    import random

    from games.rift_valley_reserve.rules.board import held_map, legal_draws, stop_error

    monkeypatch.setattr(data, "STOP_SPACING_ANY_COLOUR", any_colour)
    state, rng, checked = RULES.setup(3, {"boards": boards}, 5), random.Random(boards), 0
    while not state["over"]:
        turn = state["turn"]
        for seat in RULES.to_act(state):
            m = state["maps"][held_map(seat, turn, 3)]
            offered = [a["cell"] for a in legal_draws(m, seat, turn) if a["type"] == "stop"]
            assert offered == [[r, c] for r, c in empty_cells(m) if stop_error(m, seat, r, c, turn) is None]
            checked += 1
            state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    assert checked > 30


# --- Malformed actions ----------------------------------------------------------------

JUNK = [None, 0, 1.5, True, "stop", [], ["stop"], {}, {"type": None}, {"type": 3}, {"type": "fly"},
        {"type": "STOP", "cell": [0, 3]}, {"cell": [0, 3]},
        {"type": "stop"}, {"type": "stop", "cell": [0, 3], "extra": 1}, {"type": "stop", "cell": None},
        {"type": "stop", "cell": [0]}, {"type": "stop", "cell": [0, 3, 1]}, {"type": "stop", "cell": [True, 3]},
        {"type": "stop", "cell": ["0", "3"]}, {"type": "stop", "cell": [0.0, 3.0]},
        {"type": "stop", "cell": {"r": 0, "c": 3}}, {"type": "stop", "cell": [[0], [3]]},
        {"type": "stop", "cell": "0,3"}, {"type": "stop", "cell": [9, 0]}, {"type": "stop", "cell": [-1, 0]},
        {"type": "tent", "cell": [2, 99]}, {"type": "pass", "auto": True},
        {"type": "trail", "from": [0, 0], "to": [0, 4]},
        {"type": "trail", "from": [0, 0], "to": [0, 4], "corner": "none"},
        {"type": "trail", "from": None, "to": [0, 4], "corner": None},
        {"type": "trail", "from": [0, 0], "to": [0, 4], "corner": [False, 1]},
        {"type": "trail", "from": [0, 0], "to": [0, 4], "corner": None, "via": []}]


@pytest.mark.parametrize("action", JUNK, ids=[json.dumps(a) for a in JUNK])
def test_malformed_actions_raise_illegal_action_and_change_nothing(action):
    state = l3_state()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        RULES.apply(state, P, action)
    assert state == before


@pytest.mark.parametrize("seat", [None, "0", 0.0, True, -1, 2, 99, [0]])
def test_garbage_seats_raise_illegal_action(seat):
    with pytest.raises(IllegalAction):
        RULES.apply(blank(), seat, S(0, 3))
    assert RULES.legal_actions(blank(), seat) == []


def test_off_map_cells_say_so():
    assert refused(l3_state(), P, S(9, 0)) == "That square is not on the map."


def test_apply_never_mutates_its_input():
    state = l3_state()
    before = json.dumps(state, sort_keys=True)
    for action in legal(state, P)[:20] + legal(state, P)[-5:]:
        after = RULES.apply(state, P, action)
        RULES.apply(after, Q, legal(after, Q)[0])
    assert json.dumps(state, sort_keys=True) == before
