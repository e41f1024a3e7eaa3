"""The worked examples of shared/rules/roll_to_the_top.md §17, one behaviour per test."""
from __future__ import annotations

import json

import pytest

from games.rules.base import IllegalAction
from games.roll_to_the_top.presenter import action_die
from games.roll_to_the_top.rules import RULES, effective_action

from .helpers import action_state, full_sheet, parse_sheet, place, places, script_dice, write_state

DONE = {"type": "done"}
UNPLACE = {"type": "unplace"}
RESET = {"type": "reset"}
TAKE_BACKS = [UNPLACE, RESET, DONE]


def legal(state, seat, action):
    return action in RULES.legal_actions(state, seat)


def refuse(state, seat, action, words=None):
    with pytest.raises(IllegalAction) as exc:
        RULES.apply(state, seat, action)
    if words:
        assert words in str(exc.value)
    return exc.value


# E1 -----------------------------------------------------------------------------------

def e1():
    return write_state("giza", sheets=[parse_sheet("(0,0)=2, (0,2)=5")], roll={"d4": 3, "d6": 4, "d8": 1})


def test_e1_legal_actions_are_31_places_and_done():
    actions = RULES.legal_actions(e1(), 0)
    assert len(actions) == 32 and actions[-1] == DONE
    dots = [a for a in actions if a["type"] == "place" and a["box"][0] == 0]
    assert len(dots) == 28
    assert {tuple(a["box"]) for a in dots} == {(0, 4), (0, 6), (0, 8), (0, 10)}
    assert [a for a in actions if a["type"] == "place" and a["box"] == [1, 1]] == [
        place((1, 1), ["d4", "d6"]), place((1, 1), ["d6", "d8"]), place((1, 1), ["d4", "d6", "d8"])]


def test_e1_support_larger_than_the_sum_refuses():
    refuse(e1(), 0, place((1, 1), ["d6"]), "at least 5")


def test_e1_sum_equal_to_the_larger_support_is_allowed():
    state = RULES.apply(e1(), 0, place((1, 1), ["d6", "d8"]))
    assert state["pending"][0] == [{"box": [1, 1], "dice": ["d6", "d8"], "value": 5}]
    assert legal(e1(), 0, place((1, 1), ["d4", "d6"]))


def test_e1_empty_support_refuses():
    refuse(e1(), 0, place((1, 3), ["d4", "d6"]), "need numbers first")


def test_e1_a_placement_may_rest_on_an_earlier_one_of_the_same_turn():
    state = RULES.apply(e1(), 0, place((0, 4), ["d8"]))
    actions = RULES.legal_actions(state, 0)
    assert len(places(actions)) == 11 and len(actions) == 14
    assert actions[-3:] == TAKE_BACKS
    refuse(state, 0, place((1, 3), ["d6"]), "at least 5")
    refuse(state, 0, place((1, 3), ["d4"]), "at least 5")
    state = RULES.apply(state, 0, place((1, 3), ["d4", "d6"]))
    assert [p["value"] for p in state["pending"][0]] == [1, 7]
    assert RULES.legal_actions(state, 0) == TAKE_BACKS


# E2 -----------------------------------------------------------------------------------

def e2():
    return write_state("arch", sheets=[parse_sheet("(0,0)=1, (0,2)=2, (0,8)=3, (0,10)=4, (1,1)=2, (1,9)=4")],
                       roll={"d4": 1, "d12": 9})


def test_e2_only_the_single_supported_bridge_ends_are_open():
    assert RULES.legal_actions(e2(), 0) == [
        place((2, 1), ["d12"]), place((2, 1), ["d4", "d12"]),
        place((2, 9), ["d12"]), place((2, 9), ["d4", "d12"]), DONE]


def test_e2_hanging_box_without_filled_neighbour_refuses():
    refuse(e2(), 0, place((2, 3), ["d4"]), "beside it")
    refuse(e2(), 0, place((2, 5), ["d4"]), "beside it")


def test_e2_single_support_is_size_checked():
    refuse(e2(), 0, place((2, 1), ["d4"]), "at least 2")


def test_e2_hanging_box_may_hold_less_than_its_pending_neighbour():
    state = RULES.apply(e2(), 0, place((2, 1), ["d12"]))
    assert RULES.legal_actions(state, 0) == [place((2, 3), ["d4"]), *TAKE_BACKS]
    state = RULES.apply(state, 0, place((2, 3), ["d4"]))
    assert state["pending"][0][-1]["value"] == 1


def test_e2_later_turn_bridge_grows_from_a_committed_neighbour():
    sheet = parse_sheet("(0,0)=1, (0,2)=2, (0,8)=3, (0,10)=4, (1,1)=2, (1,9)=4, (2,1)=9, (2,3)=1")
    state = write_state("arch", sheets=[sheet], roll={"d8": 8, "d12": 9})
    refuse(state, 0, place((3, 2), ["d8"]), "at least 9")
    assert legal(state, 0, place((3, 2), ["d12"]))
    assert legal(state, 0, place((2, 5), ["d8"]))
    assert legal(state, 0, place((2, 5), ["d8", "d12"]))


# E3 -----------------------------------------------------------------------------------

E3_ROWS = [
    (5, False, "ADD", "REMOVE", "pool_full"),
    (5, False, "SWAP", "REMOVE", "pool_full"),
    (5, True, "ADD", "REMOVE", "pool_full"),
    (3, False, "REMOVE", "ADD", "nobody_wrote"),
    (2, False, "SWAP", "ADD", "nobody_wrote"),
    (1, False, "REMOVE", "ADD", "nobody_wrote"),
    (1, True, "SWAP", "ADD", "single_die"),
    (1, True, "REMOVE", "ADD", "single_die"),
    (4, True, "ADD", "ADD", "face"),
    (4, True, "REMOVE", "REMOVE", "face"),
    (3, True, "SWAP", "SWAP", "face"),
    (2, True, "ADD_OR_REMOVE", "ADD_OR_REMOVE", "face"),
]


@pytest.mark.parametrize("size,wrote,face,effect,reason", E3_ROWS)
def test_e3_effective_action_table(size, wrote, face, effect, reason):
    assert effective_action(size, wrote, face) == (effect, reason)


@pytest.mark.parametrize("size,wrote,face,effect,reason", E3_ROWS)
def test_e3_resolve_puts_the_effect_and_its_reason_in_the_view(size, wrote, face, effect, reason):
    dice = ["d4", "d6", "d8", "d12", "d20"][:size]
    state = write_state("giza", players=2, roll={d: 1 for d in dice}, face=face)
    if wrote:
        state = RULES.apply(state, 0, place((0, 0), ["d4"]))
    state = RULES.apply(RULES.apply(state, 0, DONE), 1, DONE)
    assert state["phase"] == "action"
    view = RULES.view(state, None)
    assert view["action"]["effect"] == effect and view["action"]["reason"] == reason
    words = action_die(view, [], ["Ann", "Bob"])
    assert words["reason_text"] and words["text"]
    if reason == "pool_full":
        assert "Five dice" in words["reason_text"]


# E4 -----------------------------------------------------------------------------------

def test_e4_swap_lists_every_reserve_pool_pair_and_rolls_the_next_turn():
    state = action_state(["d4", "d12"], ["d6", "d8", "d20"], "SWAP")
    assert RULES.legal_actions(state, 1) == [
        {"type": "swap", "add": a, "remove": r} for a in ("d6", "d8", "d20") for r in ("d4", "d12")]
    refuse(state, 1, {"type": "swap", "add": "d20", "remove": "d20"}, "different die")
    refuse(state, 1, {"type": "swap", "add": "d4", "remove": "d12"}, "not in the reserve")
    after = RULES.apply(state, 1, {"type": "swap", "add": "d20", "remove": "d4"})
    assert after["pool"] == ["d12", "d20"] and after["reserve"] == ["d4", "d6", "d8"]
    assert after["active"] == 1 and after["phase"] in ("write", "action")
    assert after["turn"] == state["turn"] + 1


def test_e4_add_or_remove_gives_exactly_five_moves():
    state = action_state(["d4", "d12"], ["d6", "d8", "d20"], "ADD_OR_REMOVE")
    assert RULES.legal_actions(state, 1) == [
        {"type": "add", "die": "d6"}, {"type": "add", "die": "d8"}, {"type": "add", "die": "d20"},
        {"type": "remove", "die": "d4"}, {"type": "remove", "die": "d12"}]


def test_e4_add_face_refuses_a_remove():
    state = action_state(["d4", "d12"], ["d6", "d8", "d20"], "ADD")
    assert RULES.legal_actions(state, 1) == [{"type": "add", "die": d} for d in ("d6", "d8", "d20")]
    refuse(state, 1, {"type": "remove", "die": "d4"}, "add a die")


def test_e4_full_pool_forces_remove_whatever_the_face():
    state = write_state("giza", players=3, roll={d: 1 for d in ("d4", "d6", "d8", "d12", "d20")}, face="ADD")
    state = RULES.apply(state, 0, place((0, 0), ["d4"]))
    for seat in range(3):
        state = RULES.apply(state, seat, DONE)
    assert state["action"] == {"seat": 1, "effect": "REMOVE", "reason": "pool_full"}
    assert RULES.legal_actions(state, 1) == [{"type": "remove", "die": d} for d in ("d4", "d6", "d8", "d12", "d20")]
    refuse(state, 1, {"type": "add", "die": "d4"}, "remove a die")


@pytest.mark.parametrize("effect", ["SWAP", "ADD_OR_REMOVE", "ADD", "REMOVE"])
def test_e4_other_seats_have_no_moves_in_the_action_phase(effect):
    state = action_state(["d4", "d12"], ["d6", "d8", "d20"], effect)
    for seat in (0, 2):
        assert RULES.legal_actions(state, seat) == []
        for action in RULES.legal_actions(state, 1):
            refuse(state, seat, action, "Another player")


# E5 -----------------------------------------------------------------------------------

E5_SCRIPT = {
    ("first_active",): {"randrange": 0},
    ("start_pool", 1, 0): {"ints": [1, 3, 5, 7, 9]},          # all odd: rolled again
    ("start_pool", 1, 1): {"ints": [2, 3, 5, 10, 17]},
    ("roll", 1, 1): {"ints": [3, 7], "choice": "REMOVE"},
    ("roll", 1, 2): {"ints": [12], "choice": "ADD_OR_REMOVE"},
}


def dumps(value):
    return json.dumps(value, sort_keys=True)


def test_e5_full_walkthrough_of_pool_rotation_and_hidden_placements(monkeypatch):
    script_dice(monkeypatch, E5_SCRIPT)
    state = RULES.setup(3, RULES.validate_options(3, {"board": "giza"}), 5)
    assert state["pool"] == ["d4", "d12"] and state["reserve"] == ["d6", "d8", "d20"]
    assert state["roll"] == {"d4": 3, "d12": 7} and state["face"] == "REMOVE"
    assert state["turn"] == 1 and state["active"] == 0 and RULES.to_act(state) == [0, 1, 2]

    others_before = {v: dumps(RULES.view(state, v)) for v in (1, 2, None)}
    state = RULES.apply(state, 0, place((0, 0), ["d4"]))
    me = RULES.view(state, 0)["me"]
    assert me["pending"] == [{"box": [0, 0], "dice": ["d4"], "value": 3}] and me["used"] == ["d4"]
    for viewer, before in others_before.items():
        after = RULES.view(state, viewer)
        assert dumps(after) == before, f"view({viewer}) changed when seat 0 wrote"
        assert after["sheets"][0] == {} and after["seats"][0]["status"] == "writing"
    assert RULES.scores(state)[0]["total"] == 0

    state = RULES.apply(state, 0, DONE)
    assert RULES.to_act(state) == [1, 2]
    state = RULES.apply(state, 1, place((0, 0), ["d4", "d12"]))
    state = RULES.apply(state, 1, DONE)
    state = RULES.apply(state, 2, DONE)

    for viewer in (0, 1, 2, None):
        view = RULES.view(state, viewer)
        assert view["sheets"][0] == {"0,0": 3} and view["sheets"][1] == {"0,0": 10}
    assert [s["total"] for s in RULES.scores(state)] == [1, 1, 0]
    assert state["phase"] == "action" and RULES.to_act(state) == [1]
    assert state["action"] == {"seat": 1, "effect": "REMOVE", "reason": "face"}
    assert RULES.legal_actions(state, 1) == [{"type": "remove", "die": "d4"}, {"type": "remove", "die": "d12"}]

    state = RULES.apply(state, 1, {"type": "remove", "die": "d4"})
    assert state["pool"] == ["d12"] and state["reserve"] == ["d4", "d6", "d8", "d20"]
    assert state["turn"] == 2 and state["active"] == 1
    assert state["roll"] == {"d12": 12} and state["face"] == "ADD_OR_REMOVE"
    assert RULES.to_act(state) == [0, 1, 2], "every seat could write on a dot"

    for seat in (0, 1, 2):
        state = RULES.apply(state, seat, DONE)
    assert state["action"] == {"seat": 2, "effect": "ADD", "reason": "nobody_wrote"}
    assert RULES.to_act(state) == [2]
    assert RULES.legal_actions(state, 2) == [{"type": "add", "die": d} for d in ("d4", "d6", "d8", "d20")]
    state = RULES.apply(state, 2, {"type": "add", "die": "d20"})
    assert state["pool"] == ["d12", "d20"] and state["turn"] == 3 and state["active"] == 2


# E6 -----------------------------------------------------------------------------------

def e6(**options):
    seat0 = {**full_sheet("lighthouse", 1, missing=["7,2"]), "6,1": 20, "6,3": 22}
    seat2 = {**full_sheet("lighthouse", 1, missing=["7,2"]), "6,1": 15, "6,3": 18}
    seat1 = full_sheet("lighthouse", 1, missing=["7,2", "6,1", "6,3"])
    state = write_state("lighthouse", players=3, sheets=[seat0, seat1, seat2], roll={"d12": 4, "d20": 19}, **options)
    assert RULES.legal_actions(state, 1)[0]["type"] == "place"
    state = RULES.apply(state, 0, place((7, 2), ["d12", "d20"]))
    state = RULES.apply(state, 2, place((7, 2), ["d20"]))
    for seat in (0, 1, 2):
        state = RULES.apply(state, seat, DONE)
    return state


def test_e6_game_ends_at_resolve_with_two_winners():
    state = e6()
    assert RULES.is_over(state) and state["phase"] == "over" and state["action"] is None
    assert RULES.to_act(state) == [] and all(RULES.legal_actions(state, s) == [] for s in range(3))
    assert state["winners"] == [0, 2]
    assert RULES.ranking(state) == [1, 3, 1]
    assert [s["total"] for s in RULES.scores(state)] == [16, 13, 16]
    refuse(state, 1, DONE, "over")


def test_e6_rounds_mode_scores_penalties_and_starts_the_next_board():
    state = e6(games=2, board_sequence="tour")
    assert not RULES.is_over(state)
    assert state["results"][0]["empty"] == [0, 3, 0] and state["results"][0]["complete"] == [0, 2]
    assert state["game"] == 2 and state["board"] == "temple"
    assert state["sheets"] == [{}, {}, {}]
    assert state["first_active"] == 1 and state["active"] == 1 and state["turn"] == 1
    assert state["phase"] == "write"
    assert 1 <= len(state["pool"]) <= 5
    assert RULES.scores(state)[1]["breakdown"] == {"game_1": 3, "current_empty": 28}
    # game 2 ends with empty boxes [4, 0, 2]
    state["sheets"] = [full_sheet("temple", 1, missing=["6,6", "5,5", "5,7", "4,4"]),
                       full_sheet("temple", 1), full_sheet("temple", 1, missing=["6,6", "5,5"])]
    for seat in RULES.to_act(state):
        state = RULES.apply(state, seat, DONE)
    assert RULES.is_over(state)
    assert [s["total"] for s in RULES.scores(state)] == [4, 3, 2]
    assert RULES.ranking(state) == [3, 2, 1]
    assert RULES.scores(state)[0]["breakdown"] == {"game_1": 0, "game_2": 4}
    assert len(state["results"]) == 2 and state["results"][1]["board"] == "temple"


# E7 -----------------------------------------------------------------------------------

def e7(mode):
    return write_state("giza", sheets=[parse_sheet("(0,0)=12, (0,2)=9")], roll={"d4": 3, "d6": 1, "d8": 6}, mode=mode)


def test_e7_reverse_mode_caps_a_box_at_its_smallest_support():
    state = e7("reverse")
    refuse(state, 0, place((1, 1), ["d4", "d6", "d8"]), "at most 9")
    assert legal(state, 0, place((1, 1), ["d4", "d8"])) and legal(state, 0, place((1, 1), ["d4"]))
    assert len([a for a in RULES.legal_actions(state, 0) if a["type"] == "place" and a["box"] == [1, 1]]) == 6


def test_e7_reverse_mode_dot_takes_anything():
    assert legal(e7("reverse"), 0, place((0, 4), ["d6"]))


def test_e7_same_sheet_in_normal_mode_cannot_reach_the_box():
    state = e7("normal")
    assert not [a for a in RULES.legal_actions(state, 0) if a["type"] == "place" and a["box"] == [1, 1]]
    refuse(state, 0, place((1, 1), ["d4", "d6", "d8"]), "at least 12")


# E8 -----------------------------------------------------------------------------------

def test_e8_hanging_base_row_grows_from_the_dots():
    state = write_state("temple", roll={"d4": 3, "d6": 1})
    actions = RULES.legal_actions(state, 0)
    assert len(actions) == 10 and actions[-1] == DONE
    assert {tuple(a["box"]) for a in places(actions)} == {(0, 0), (0, 6), (0, 12)}
    refuse(state, 0, place((0, 2), ["d4"]), "beside it")
    state = RULES.apply(state, 0, place((0, 0), ["d4"]))
    refuse(state, 0, place((0, 4), ["d6"]), "beside it")
    state = RULES.apply(state, 0, place((0, 2), ["d6"]))
    assert state["pending"][0][-1] == {"box": [0, 2], "dice": ["d6"], "value": 1}


# E9 -----------------------------------------------------------------------------------

def matterhorn(sheet, roll, **kw):
    return write_state("matterhorn", sheets=[parse_sheet(sheet)], roll=roll, **kw)


def test_e9_matterhorn_summit_needs_at_least_25():
    state = matterhorn("(4,6)=10, (4,8)=12", {"d4": 4, "d6": 1, "d12": 12, "d20": 20})
    refuse(state, 0, place((5, 7), ["d20"]), "at least 25")
    assert legal(state, 0, place((5, 7), ["d4", "d6", "d20"]))
    refuse(state, 0, place((5, 7), ["d12"]), "at least 25")


def test_e9_without_board_specials_the_summit_is_an_ordinary_box():
    state = matterhorn("(4,6)=10, (4,8)=12", {"d4": 4, "d6": 1, "d12": 12, "d20": 20}, specials=False)
    assert legal(state, 0, place((5, 7), ["d12"]))


def test_e9_reverse_matterhorn_summit_has_a_ceiling_of_25():
    state = matterhorn("(4,6)=30, (4,8)=40", {"d4": 1, "d6": 5, "d20": 20}, mode="reverse")
    refuse(state, 0, place((5, 7), ["d4", "d6", "d20"]), "at most 25")
    assert legal(state, 0, place((5, 7), ["d6", "d20"]))
    assert legal(state, 0, place((5, 7), ["d4", "d20"]))


def test_e9_twin_peaks_right_summit_needs_the_linked_left_summit():
    state = write_state("twin_peaks", sheets=[parse_sheet("(3,9)=6, (3,11)=7")], roll={"d4": 1, "d8": 8})
    refuse(state, 0, place((4, 10), ["d4", "d8"]), "linked box")
    state = write_state("twin_peaks", sheets=[parse_sheet("(3,9)=6, (3,11)=7, (4,4)=15")],
                        roll={"d4": 1, "d8": 6, "d12": 9})
    refuse(state, 0, place((4, 10), ["d12"]), "at least 15")
    assert legal(state, 0, place((4, 10), ["d8", "d12"]))
    assert legal(state, 0, place((4, 10), ["d4", "d8", "d12"]))


def test_e9_twin_peaks_link_ignored_without_board_specials():
    state = write_state("twin_peaks", sheets=[parse_sheet("(3,9)=6, (3,11)=7")], roll={"d4": 1, "d8": 8},
                        specials=False)
    assert legal(state, 0, place((4, 10), ["d4", "d8"]))


def test_e9_twin_peaks_middle_dot_is_free_and_supports_normally():
    state = write_state("twin_peaks", roll={"d4": 1})
    assert legal(state, 0, place((2, 8), ["d4"]))
    state = write_state("twin_peaks", sheets=[parse_sheet("(2,8)=30, (2,10)=5")], roll={"d12": 10, "d20": 20})
    refuse(state, 0, place((3, 9), ["d20"]), "at least 30")
    assert legal(state, 0, place((3, 9), ["d12", "d20"]))


# E10 ----------------------------------------------------------------------------------

def test_e10_every_seat_uses_the_same_dice_but_each_die_once():
    state = write_state("giza", players=2, roll={"d4": 2, "d6": 2})
    for seat in (0, 1):
        actions = RULES.legal_actions(state, seat)
        assert len(places(actions)) == 18 and actions[-1] == DONE and len(actions) == 19
    state = RULES.apply(state, 0, place((0, 0), ["d4"]))
    state = RULES.apply(state, 0, place((0, 2), ["d6"]))
    assert RULES.legal_actions(state, 0) == TAKE_BACKS
    state = RULES.apply(state, 1, place((0, 0), ["d4", "d6"]))
    assert state["pending"][1][0]["value"] == 4
    refuse(state, 1, place((0, 2), ["d4"]), "already used the d4")


# E11 ----------------------------------------------------------------------------------

def test_e11_unplace_takes_back_the_last_and_reset_takes_back_all():
    state = write_state("giza", players=2, roll={"d4": 3, "d6": 4, "d8": 1})
    state = RULES.apply(state, 0, place((0, 0), ["d8"]))
    state = RULES.apply(state, 0, place((0, 2), ["d4"]))
    state = RULES.apply(state, 0, UNPLACE)
    assert state["pending"][0] == [{"box": [0, 0], "dice": ["d8"], "value": 1}]
    assert RULES.view(state, 0)["me"]["used"] == ["d8"]
    state = RULES.apply(state, 0, place((0, 2), ["d4"]))
    state = RULES.apply(state, 0, RESET)
    assert state["pending"][0] == [] and RULES.view(state, 0)["me"]["used"] == []
    refuse(state, 0, UNPLACE, "nothing to take back")
    refuse(state, 0, RESET, "nothing to take back")
    state = RULES.apply(state, 0, DONE)
    assert RULES.to_act(state) == [1] and RULES.legal_actions(state, 0) == []
    for action in (UNPLACE, RESET, DONE, place((0, 4), ["d6"])):
        refuse(state, 0, action, "already finished")


# E12 ----------------------------------------------------------------------------------

DOTS_AT_20 = {f"0,{x}": 20 for x in (0, 2, 4, 6, 8, 10)}


def test_e12_seats_with_nothing_to_write_are_done_and_the_turn_resolves_at_once():
    state = action_state(["d4"], ["d6", "d8", "d12", "d20"], "ADD", resolver=0, players=2)
    state["active"] = 1
    state["sheets"] = [dict(DOTS_AT_20), dict(DOTS_AT_20)]
    state = RULES.apply(state, 0, {"type": "add", "die": "d6"})
    assert state["pool"] == ["d4", "d6"] and max(state["roll"].values()) <= 10
    assert state["auto_done"] == [True, True]
    assert state["phase"] == "action"
    assert state["action"] == {"seat": 1, "effect": "ADD", "reason": "nobody_wrote"}
    assert RULES.to_act(state) == [1]


def test_e12_solo_seat_with_nothing_to_write_resolves_its_own_die():
    state = action_state(["d4"], ["d6", "d8", "d12", "d20"], "ADD", resolver=0, players=1)
    state["sheets"] = [dict(DOTS_AT_20)]
    state = RULES.apply(state, 0, {"type": "add", "die": "d6"})
    assert state["phase"] == "action"
    assert state["action"] == {"seat": 0, "effect": "ADD", "reason": "nobody_wrote"}
    assert RULES.view(state, 0)["me"]["auto_done"] is True


# E13 ----------------------------------------------------------------------------------

def test_e13_turn_cap_ends_the_game_ranked_by_fewest_empty_boxes():
    sheets = [full_sheet("giza", 1, missing=["5,5", "4,4", "4,6"]),
              full_sheet("giza", 1, missing=["5,5", "4,4", "4,6", "3,3", "3,5"]),
              full_sheet("giza", 1, missing=["5,5", "4,4", "4,6"])]
    state = write_state("giza", players=3, sheets=sheets, roll={"d4": 1}, max_turns=20)
    state["turn"] = 20
    for seat in range(3):
        state = RULES.apply(state, seat, DONE)
    assert RULES.is_over(state) and state["action"] is None
    assert RULES.ranking(state) == [1, 3, 1]
    assert [s["total"] for s in RULES.scores(state)] == [18, 16, 18]


# E14 ----------------------------------------------------------------------------------

def test_e14_solo_seat_resolves_its_own_action_die():
    state = write_state("giza", roll={"d4": 2, "d6": 3})
    state = RULES.apply(state, 0, place((0, 0), ["d4"]))
    state = RULES.apply(state, 0, DONE)
    assert state["phase"] == "action" and RULES.to_act(state) == [0]


def test_e14_solo_full_sheet_scores_the_turns_used():
    state = write_state("giza", sheets=[full_sheet("giza", 1, missing=["5,5"])], roll={"d4": 2})
    state["turn"] = 17
    state = RULES.apply(state, 0, place((5, 5), ["d4"]))
    state = RULES.apply(state, 0, DONE)
    assert RULES.is_over(state)
    assert RULES.scores(state) == [{"total": 17, "breakdown": {"turns": 17, "filled": 21, "empty": 0}}]
    assert RULES.ranking(state) == [1] and state["winners"] == [0]
