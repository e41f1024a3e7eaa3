"""The worked examples E1–E13 of the spec (§13), with its numbers."""
import pytest

from games.rules.base import IllegalAction
from games.nanga_parbat.rules import RULES
from games.nanga_parbat.rules.rules import gain

from .helpers import animal, board_of, camp, held, hiker, position, score_pair

apply = RULES.apply
legal = RULES.legal_actions


def act(kind, **kw):
    return {"type": kind, **kw}


def trap(sid):
    return {"type": "trap", "section": sid}


def activate(species, **kw):
    return {"type": "activate", "animal": species, **kw}


def claim(row, col, **kw):
    return {"type": "claim", "row": row, "col": col, **kw}


# E1 ---------------------------------------------------------------------------------------

def _e1(p0, p1):
    return position(phase="trap", current=0, guide=3, board={35: animal("red_panda")},
                    seats={0: {"hikers": 10, "score": p0, "animals": held("yak")},
                           1: {"score": p1}})


def test_e1_trap_places_hiker_moves_guide_and_red_panda_point_bumps():
    after = apply(_e1(4, 5), 0, trap(35))
    assert board_of(after, 35) == hiker(0)
    assert after["seats"][0]["hikers"] == 9
    assert after["seats"][0]["animals"][-1] == {"species": "red_panda", "activated": False}
    assert after["guide"] == 5
    assert score_pair(after) == (6, 5)
    assert after["seats"][0]["breakdown"]["red_panda"] == 1
    assert after["seats"][0]["breakdown"]["bump"] == 1
    assert after["phase"] == "act"


def test_e1_red_panda_point_on_a_tie_without_bump():
    after = apply(_e1(5, 5), 0, trap(35))
    assert score_pair(after) == (6, 5)
    assert after["seats"][0]["breakdown"]["bump"] == 0


def test_e1_no_red_panda_point_when_ahead():
    after = apply(_e1(6, 5), 0, trap(35))
    assert score_pair(after) == (6, 5)
    assert after["seats"][0]["breakdown"]["red_panda"] == 0


# E2 ---------------------------------------------------------------------------------------

def test_e2a_guide_stays_put_when_section_number_equals_region():
    state = position(guide=3, seats={0: {"animals": held("yak")}})
    assert apply(state, 0, trap(33))["guide"] == 3


def _e2b(p1_animals=()):
    board = {41: hiker(0), 42: hiker(0), 43: hiker(0), 44: hiker(1), 45: hiker(1), 46: hiker(1)}
    return position(phase="trap", current=1, guide=4, board=board, turn=6,
                    seats={1: {"animals": held(*p1_animals)}})


def test_e2b_empty_guide_region_offers_exactly_relocations_to_regions_with_animals():
    state = _e2b()
    assert legal(state, 1) == [act("relocate_guide", region=r) for r in (1, 2, 3, 5, 6)]


def test_e2b_relocation_to_the_empty_region_is_refused():
    with pytest.raises(IllegalAction):
        apply(_e2b(), 1, act("relocate_guide", region=4))


def test_e2b_trap_before_relocating_is_refused():
    with pytest.raises(IllegalAction, match="no animals left"):
        apply(_e2b(), 1, trap(24))


def test_e2b_after_relocating_the_player_traps_in_the_new_region():
    state = apply(_e2b(), 1, act("relocate_guide", region=2))
    assert state["guide"] == 2 and state["phase"] == "trap"
    assert legal(state, 1) == [trap(s) for s in range(21, 27)]
    with pytest.raises(IllegalAction, match="only be relocated"):
        apply(state, 1, act("relocate_guide", region=3))
    assert apply(state, 1, trap(26))["guide"] == 6


def test_e2c_tahr_activations_in_the_empty_region_position():
    state = _e2b(["tahr"])
    acts = [a for a in legal(state, 1) if a["type"] == "activate"]
    assert acts == [activate("tahr", a=41, b=24), activate("tahr", a=43, b=25),
                    activate("tahr", a=43, b=52), activate("tahr", a=46, b=54)]


def test_e2c_tahr_refills_the_guide_region_and_removes_the_need_to_relocate():
    state = apply(_e2b(["tahr"]), 1, activate("tahr", a=41, b=24))
    assert board_of(state, 41)["piece"] == "animal"
    assert board_of(state, 24) == hiker(0)
    assert legal(state, 1) == [trap(41)]
    with pytest.raises(IllegalAction):
        apply(state, 1, act("relocate_guide", region=2))
    assert apply(state, 1, trap(41))["guide"] == 1


# E3 ---------------------------------------------------------------------------------------

def _e3(**seat0):
    s0 = {"hikers": 11, "camps": 12, "cubes": 5, "animals": held("yak")}
    s0.update(seat0)
    board = {24: hiker(0), 25: hiker(0), 26: hiker(0), 51: hiker(0), 22: hiker(1)}
    return position(phase="act", current=0, guide=2, board=board, seats={0: s0})


def test_e3_camp_claim_turns_connected_hikers_into_camps():
    after = apply(_e3(), 0, claim("camps", 2, sections=[24, 25, 26, 51]))
    for sid in (24, 25, 26, 51):
        assert board_of(after, sid) == camp(0)
    me = after["seats"][0]
    assert me["camps"] == 8 and me["cubes"] == 4 and me["hikers"] == 11
    assert after["chart"]["camps"][2] == 0
    assert score_pair(after) == (7, 0)
    assert after["phase"] == "act" and after["claimed_this_turn"] is True
    assert not [a for a in legal(after, 0) if a["type"] == "claim"]
    with pytest.raises(IllegalAction, match="already claimed"):
        apply(after, 0, claim("camps", 3, sections=[24, 25, 26]))


@pytest.mark.parametrize("bad, message", [
    (claim("camps", 3, sections=[24, 26, 51]), "not all connected"),
    (claim("camps", 3, sections=[22, 24, 25]), "does not hold one of your hikers"),
    (claim("camps", 2, sections=[24, 25, 26]), "exactly 4"),
    (claim("camps", 2, sections=[25, 24, 26, 51]), "increasing order"),
])
def test_e3_illegal_camp_claims(bad, message):
    with pytest.raises(IllegalAction, match=message):
        apply(_e3(), 0, bad)


def test_e3_camp_claim_on_a_taken_spot_is_refused():
    state = _e3()
    state["chart"]["camps"][2] = 1
    with pytest.raises(IllegalAction, match="already taken"):
        apply(state, 0, claim("camps", 2, sections=[24, 25, 26, 51]))


def test_e3_camp_claim_without_enough_camps_is_refused():
    with pytest.raises(IllegalAction, match="You need 4 camps"):
        apply(_e3(camps=3), 0, claim("camps", 2, sections=[24, 25, 26, 51]))


def test_e3_dotted_path_connects_a_camp_group():
    state = position(phase="act", current=0, guide=2,
                     board={15: hiker(0), 23: hiker(0), 32: hiker(0)},
                     seats={0: {"animals": held("yak")}})
    after = apply(state, 0, claim("camps", 3, sections=[15, 23, 32]))
    assert score_pair(after) == (4, 0)


# E4 ---------------------------------------------------------------------------------------

def _e4(animals=None):
    animals = animals or held("snow_leopard", "tahr", "yak", "yak", "bharal", activated=(0,))
    return position(phase="act", current=0, guide=2, seats={0: {"animals": animals}})


def test_e4_different_trade_with_a_wild_bharal_and_an_activated_animal():
    after = apply(_e4(), 0, claim("different", 2, animals=[0, 1, 2, 4]))
    assert score_pair(after) == (5, 0)
    assert after["seats"][0]["animals"] == [{"species": "yak", "activated": False}]
    assert [a["species"] for a in after["seats"][0]["traded"]] == ["snow_leopard", "tahr", "yak", "bharal"]
    assert after["seats"][0]["traded"][0]["activated"] is True


def test_e4_different_trade_with_two_yaks_is_refused():
    with pytest.raises(IllegalAction, match="not all different"):
        apply(_e4(), 0, claim("different", 1, animals=[0, 1, 2, 3, 4]))


def test_e4_same_trade_with_a_bharal_as_a_yak_and_indices_close_up():
    after = apply(_e4(), 0, claim("same", 3, animals=[2, 3, 4]))
    assert score_pair(after) == (4, 0)
    assert after["seats"][0]["animals"] == [{"species": "snow_leopard", "activated": True},
                                            {"species": "tahr", "activated": False}]


def test_e4_same_trade_of_tahr_and_yak_is_refused():
    with pytest.raises(IllegalAction, match="not all the same"):
        apply(_e4(), 0, claim("same", 3, animals=[1, 2, 4]))


def test_e4_all_bharal_same_set_is_valid():
    after = apply(_e4(held("bharal", "bharal", "bharal")), 0, claim("same", 4, animals=[0, 1, 2]))
    assert score_pair(after) == (3, 0)


def test_e4_six_different_with_two_bharals_scores_12():
    animals = held("snow_leopard", "tahr", "musk_deer", "yak", "bharal", "bharal")
    after = apply(_e4(animals), 0, claim("different", 0, animals=[0, 1, 2, 3, 4, 5]))
    assert score_pair(after) == (12, 0)


# E5 ---------------------------------------------------------------------------------------

def _e5():
    board = {12: hiker(0), 13: hiker(1), 14: hiker(0), 15: camp(1), 16: hiker(1), 21: hiker(0),
             23: animal("yak"), 11: animal("tahr"), 66: animal("yak")}
    return position(phase="act", current=0, guide=2, board=board,
                    seats={0: {"animals": held("snow_leopard", "tahr", "musk_deer", "yak")}})


def test_e5_snow_leopard_swaps_two_neighbouring_hikers_of_different_seats():
    after = apply(_e5(), 0, activate("snow_leopard", a=12, b=13))
    assert board_of(after, 12) == hiker(1) and board_of(after, 13) == hiker(0)
    assert after["seats"][0]["animals"][0] == {"species": "snow_leopard", "activated": True}
    with pytest.raises(IllegalAction, match="no unactivated snow leopard"):
        apply(after, 0, activate("snow_leopard", a=14, b=21))


@pytest.mark.parametrize("a, b, message", [
    (14, 15, "Camps cannot be moved"),
    (14, 16, "not adjacent"),
    (12, 14, "same colour"),
    (13, 12, "increasing order"),
])
def test_e5_illegal_snow_leopard_swaps(a, b, message):
    with pytest.raises(IllegalAction, match=message):
        apply(_e5(), 0, activate("snow_leopard", a=a, b=b))


def test_e5_tahr_swaps_a_hiker_with_a_neighbouring_animal():
    after = apply(_e5(), 0, activate("tahr", a=21, b=23))
    assert board_of(after, 21) == animal("yak") and board_of(after, 23) == hiker(0)


@pytest.mark.parametrize("a, b", [(23, 21), (16, 15)])
def test_e5_illegal_tahr_swaps(a, b):
    with pytest.raises(IllegalAction):
        apply(_e5(), 0, activate("tahr", a=a, b=b))


def test_e5_musk_deer_swaps_two_animals_anywhere():
    after = apply(_e5(), 0, activate("musk_deer", a=11, b=66))
    assert board_of(after, 11) == animal("yak") and board_of(after, 66) == animal("tahr")


def test_e5_musk_deer_swap_of_two_yaks_is_refused():
    with pytest.raises(IllegalAction, match="same species"):
        apply(_e5(), 0, activate("musk_deer", a=23, b=66))


def test_e5_yak_sends_the_guide_to_a_new_region():
    assert apply(_e5(), 0, activate("yak", region=6))["guide"] == 6
    with pytest.raises(IllegalAction, match="already in region 2"):
        apply(_e5(), 0, activate("yak", region=2))


# E6 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("seat, points, before, expected", [
    (0, 3, (10, 13), (14, 13)),
    (0, 2, (10, 13), (12, 13)),
    (1, 5, (0, 0), (0, 5)),
])
def test_e6_the_bump_on_its_own(seat, points, before, expected):
    state = position(seats={0: {"score": before[0]}, 1: {"score": before[1]}})
    gain(state, seat, points, "camps")
    assert score_pair(state) == expected


# E7 ---------------------------------------------------------------------------------------

def _e7(p1_cubes=0, at_11="yak"):
    chart = {("camps", 1): 0, ("camps", 2): 0, ("same", 1): 0, ("same", 2): 0,
             ("camps", 3): 1, ("camps", 4): 1, ("same", 3): 1, ("same", 4): 1, ("different", 4): 1}
    if p1_cubes:
        chart.pop(("different", 4))
    return position(phase="trap", current=0, guide=1, turn=25, board={11: animal(at_11)}, chart=chart,
                    seats={0: {"hikers": 3, "cubes": 1, "score": 30,
                               "animals": held("tahr", "musk_deer", "bharal", activated=(0, 1))},
                           1: {"hikers": 3, "cubes": p1_cubes, "score": 25}})


def test_e7_game_ends_when_both_players_have_used_all_cubes():
    state = apply(_e7(), 0, trap(11))
    assert state["seats"][0]["hikers"] == 2
    state = apply(state, 0, claim("different", 3, animals=[0, 1, 2]))
    assert state["seats"][0]["animals"] == [{"species": "yak", "activated": False}]
    assert legal(state, 0) == [activate("yak", region=r) for r in (2, 3, 4, 5, 6)] + [act("end_turn")]
    state = apply(state, 0, act("end_turn"))
    assert RULES.is_over(state)
    assert state["result"]["ended_by"] == ["cubes"]
    assert [s["hikers"] for s in state["seats"]] == [2, 3]


def test_e7_game_ends_inside_the_claim_when_nothing_else_is_possible():
    state = apply(_e7(at_11="bharal"), 0, trap(11))
    state = apply(state, 0, claim("different", 3, animals=[0, 1, 2]))
    assert RULES.is_over(state)
    assert state["result"]["ended_by"] == ["cubes"]


def test_e7_no_end_while_the_opponent_still_has_a_cube():
    state = apply(_e7(p1_cubes=1), 0, trap(11))
    state = apply(state, 0, claim("different", 3, animals=[0, 1, 2]))
    state = apply(state, 0, act("end_turn"))
    assert not RULES.is_over(state)
    assert state["phase"] == "trap" and state["current"] == 1 and state["turn"] == 26


# E8 ---------------------------------------------------------------------------------------

def _e8():
    return position(phase="trap", current=1, guide=5, turn=30,
                    board={52: hiker(1), 55: hiker(1), 54: animal("bharal")},
                    seats={0: {"hikers": 0, "score": 30, "cubes": 2},
                           1: {"hikers": 1, "score": 27, "cubes": 2, "camps": 9}})


def test_e8_last_hiker_player_still_claims_and_the_bump_applies():
    state = apply(_e8(), 1, trap(54))
    assert state["seats"][1]["hikers"] == 0 and state["guide"] == 4
    assert not RULES.is_over(state)
    state = apply(state, 1, claim("camps", 4, sections=[52, 54, 55]))
    assert score_pair(state) == (30, 31)
    assert RULES.is_over(state)  # nothing else to do: the turn and the game end by themselves
    assert "hikers" in state["result"]["ended_by"]
    assert RULES.ranking(state) == [2, 1]


def test_e8_last_turn_ends_with_explicit_end_turn_when_something_else_is_legal():
    state = _e8()
    state["seats"][1]["animals"] = held("yak")
    state = apply(apply(state, 1, trap(54)), 1, claim("camps", 4, sections=[52, 54, 55]))
    assert not RULES.is_over(state)
    state = apply(state, 1, act("end_turn"))
    assert RULES.is_over(state) and "hikers" in state["result"]["ended_by"]
    assert RULES.ranking(state) == [2, 1]


# E9 ---------------------------------------------------------------------------------------

def _e9(area_scoring=True):
    board = {11: camp(0), 12: camp(0), 13: camp(0), 14: hiker(0), 15: hiker(1),
             21: camp(1), 22: camp(1), 23: camp(1), 24: hiker(1), 25: hiker(1),
             31: hiker(0), 32: hiker(0), 33: hiker(0), 34: hiker(1), 35: hiker(1), 36: hiker(1),
             41: camp(0), 42: camp(0), 43: camp(0), 44: camp(0), 45: camp(0), 46: camp(0),
             51: hiker(1), 52: hiker(1), 53: hiker(1), 54: hiker(1),
             61: hiker(0), 62: hiker(0), 63: hiker(1), 64: hiker(1)}
    return position(phase="act", current=1, guide=3, turn=30, board=board, claimed=True,
                    options={"area_scoring": area_scoring},
                    seats={0: {"hikers": 0, "camps": 3, "cubes": 2, "score": 20},
                           1: {"hikers": 0, "camps": 9, "cubes": 2, "score": 22}})


def test_e9_area_scoring_in_region_order_with_both_bumps():
    state = apply(_e9(), 1, act("end_turn"))
    assert RULES.is_over(state)
    assert score_pair(state) == (25, 26)
    assert RULES.ranking(state) == [2, 1]
    b0, b1 = state["seats"][0]["breakdown"], state["seats"][1]["breakdown"]
    assert (b0["area"], b0["bump"]) == (4, 1)
    assert (b1["area"], b1["bump"]) == (3, 1)
    assert state["result"]["area"] == [
        {"region": 1, "seat": 0, "pieces": 4, "points": 1, "bump": False},
        {"region": 2, "seat": 1, "pieces": 5, "points": 2, "bump": False},
        {"region": 4, "seat": 0, "pieces": 6, "points": 3, "bump": True},
        {"region": 5, "seat": 1, "pieces": 4, "points": 1, "bump": True},
    ]


def test_e9_without_the_variant_the_scores_stay():
    state = apply(_e9(area_scoring=False), 1, act("end_turn"))
    assert RULES.is_over(state)
    assert score_pair(state) == (20, 22)
    assert state["result"]["area"] == []


# E10 --------------------------------------------------------------------------------------

def test_e10_trap_choices_before_and_after_a_yak():
    state = position(phase="trap", current=0, guide=1, seats={0: {"animals": held("yak")}})
    traps = [a for a in legal(state, 0) if a["type"] == "trap"]
    assert traps == [trap(s) for s in range(11, 17)]
    state = apply(state, 0, activate("yak", region=4))
    assert state["phase"] == "trap"
    assert [a for a in legal(state, 0) if a["type"] == "trap"] == [trap(s) for s in range(41, 47)]
    with pytest.raises(IllegalAction, match="Trap an animal in region 4"):
        apply(state, 0, trap(11))
    assert apply(state, 0, trap(43))["guide"] == 3


# E11 --------------------------------------------------------------------------------------

def _e11(at_24):
    chart = {("camps", 1): 0, ("camps", 2): 0, ("same", 4): 0, ("different", 3): 0, ("different", 4): 0}
    return position(phase="trap", current=0, guide=2, turn=11, chart=chart,
                    board={22: hiker(0), 23: hiker(0), 24: animal(at_24)},
                    seats={0: {"cubes": 0, "score": 30, "animals": held("red_panda", "bharal")}})


def test_e11_no_cubes_left_means_no_claim_and_the_turn_ends_by_itself():
    state = apply(_e11("bharal"), 0, trap(24))
    assert state["guide"] == 4
    assert all(board_of(state, s) == hiker(0) for s in (22, 23, 24))
    assert state["phase"] == "trap" and state["current"] == 1 and state["turn"] == 12


def test_e11_no_cubes_left_but_a_yak_keeps_the_turn_open_without_claims():
    state = apply(_e11("yak"), 0, trap(24))
    assert state["phase"] == "act" and state["current"] == 0
    assert legal(state, 0) == [activate("yak", region=r) for r in (1, 2, 3, 5, 6)] + [act("end_turn")]
    with pytest.raises(IllegalAction, match="no cubes left"):
        apply(state, 0, claim("camps", 3, sections=[22, 23, 24]))


# E12 --------------------------------------------------------------------------------------

def test_e12_activate_an_animal_the_turn_it_is_trapped_then_trade_it():
    state = position(phase="trap", current=0, guide=1, board={14: animal("yak")},
                     seats={0: {"animals": held("tahr", "musk_deer")}})
    state = apply(state, 0, trap(14))
    assert state["guide"] == 4
    assert state["seats"][0]["animals"][2] == {"species": "yak", "activated": False}
    state = apply(state, 0, activate("yak", region=2))
    assert state["guide"] == 2
    assert state["seats"][0]["animals"][2]["activated"] is True
    state = apply(state, 0, claim("different", 3, animals=[0, 1, 2]))
    assert score_pair(state) == (3, 0)
    assert state["seats"][0]["animals"] == []
    assert state["phase"] == "trap" and state["current"] == 1 and state["guide"] == 2


# E13 --------------------------------------------------------------------------------------

MALFORMED = [
    {"type": "trap", "section": "35"}, {"type": "trap", "section": True}, {"type": "trap"},
    {"type": "trap", "section": 35, "extra": 1}, {"type": "fly"}, "trap", [], None,
    {"type": "trap", "section": 35.0},
    {"type": "activate", "animal": "bharal"}, {"type": "activate", "animal": "dragon"},
    {"type": "claim", "row": "camps", "col": 5, "sections": []},
    {"type": "claim", "row": "camps", "col": 3, "sections": [23, 23, 15]},
]


@pytest.mark.parametrize("bad", MALFORMED, ids=[repr(m) for m in MALFORMED])
def test_e13_malformed_actions_raise_illegal_action_and_change_nothing(bad):
    import json
    for state in (position(phase="trap", current=0, guide=3), position(phase="act", current=0, guide=3)):
        before = json.dumps(state, sort_keys=True)
        with pytest.raises(IllegalAction):
            apply(state, 0, bad)
        assert json.dumps(state, sort_keys=True) == before


def test_e13_any_action_by_the_seat_not_to_act_is_refused():
    state = position(phase="trap", current=0, guide=3)
    for action in legal(state, 0):
        with pytest.raises(IllegalAction, match="not your turn"):
            apply(state, 1, action)


def test_e13_any_action_after_the_game_is_over_is_refused():
    state = apply(_e9(), 1, act("end_turn"))
    for seat in (0, 1):
        with pytest.raises(IllegalAction, match="game is over"):
            apply(state, seat, act("end_turn"))
