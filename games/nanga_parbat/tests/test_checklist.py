"""The acceptance checklist of the spec (§17), items that are not a worked example."""
import json
from collections import Counter

import pytest

from games import rules as registry
from games.rules.base import IllegalAction
from games.nanga_parbat.rules import RULES
from games.nanga_parbat.rules.data import SECTIONS, SPECIES

from .helpers import animal, camp, held, hiker, position

apply = RULES.apply
legal = RULES.legal_actions


# 1 ----------------------------------------------------------------------------------------

def test_registry_returns_rules_with_slug_title_and_exactly_two_players():
    rules = registry.get("nanga-parbat")
    assert rules is RULES
    assert (rules.slug, rules.title, rules.min_players, rules.max_players) == \
        ("nanga-parbat", "Nanga Parbat", 2, 2)
    assert rules.default_options() == {"area_scoring": False}


# 2 ----------------------------------------------------------------------------------------

def test_validate_options_fills_in_the_default():
    assert RULES.validate_options(2, {}) == {"area_scoring": False}
    assert RULES.validate_options(2, None) == {"area_scoring": False}
    assert RULES.validate_options(2, {"area_scoring": True}) == {"area_scoring": True}
    assert RULES.validate_options(2, {"area_scoring": False}) == {"area_scoring": False}


@pytest.mark.parametrize("players", [0, 1, 3, 4, True, "2"])
def test_validate_options_refuses_player_counts_other_than_two(players):
    with pytest.raises(IllegalAction, match="exactly 2 players"):
        RULES.validate_options(players, {})


@pytest.mark.parametrize("options", [{"solo": True}, {"area_scoring": 1}, {"area_scoring": "yes"},
                                     {"area_scoring": None}, ["area_scoring"]])
def test_validate_options_refuses_unknown_keys_and_non_booleans(options):
    with pytest.raises(IllegalAction):
        RULES.validate_options(2, options)


# 3 ----------------------------------------------------------------------------------------

def test_setup_deals_six_animals_of_each_species_one_per_section():
    state = RULES.setup(2, {}, 42)
    assert sorted(state["board"]) == sorted(str(s) for s in SECTIONS)
    assert all(c["piece"] == "animal" for c in state["board"].values())
    counts = Counter(c["species"] for c in state["board"].values())
    assert counts == {s: 6 for s in SPECIES}


def test_setup_supplies_scores_chart_and_guide():
    state = RULES.setup(2, {}, 42)
    for s in state["seats"]:
        assert (s["hikers"], s["camps"], s["cubes"], s["score"]) == (15, 12, 5, 0)
        assert s["animals"] == [] and s["traded"] == []
    assert all(o is None for row in state["chart"].values() for o in row)
    assert state["guide"] is None
    assert RULES.scores(state) == [{"total": 0, "breakdown": {c: 0 for c in
                                    ("camps", "different", "same", "red_panda", "area", "bump")}}] * 2


def test_setup_starts_with_the_second_seat_placing_the_guide():
    for seed in range(10):
        state = RULES.setup(2, {}, seed)
        assert state["phase"] == "place_guide" and state["turn"] == 0
        assert RULES.to_act(state) == [1 - state["first_player"]]


def test_setup_is_deterministic_json_and_keeps_no_seed():
    a, b = RULES.setup(2, {}, 7), RULES.setup(2, {}, 7)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert json.loads(json.dumps(a)) == a
    assert "seed" not in a
    firsts = {RULES.setup(2, {}, s)["first_player"] for s in range(20)}
    assert firsts == {0, 1}


# 4 ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("region", range(1, 7))
def test_place_guide_by_the_second_seat_starts_turn_one(region):
    state = RULES.setup(2, {}, 3)
    first = state["first_player"]
    assert legal(state, 1 - first) == [{"type": "place_guide", "region": r} for r in range(1, 7)]
    assert legal(state, first) == []
    after = apply(state, 1 - first, {"type": "place_guide", "region": region})
    assert after["guide"] == region and after["phase"] == "trap" and after["turn"] == 1
    assert RULES.to_act(after) == [first]


def test_place_guide_by_the_first_seat_or_out_of_range_is_refused():
    state = RULES.setup(2, {}, 3)
    first = state["first_player"]
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, first, {"type": "place_guide", "region": 1})
    for bad in (0, 7, "1", 1.0, True):
        with pytest.raises(IllegalAction):
            apply(state, 1 - first, {"type": "place_guide", "region": bad})


def test_place_guide_is_refused_after_the_start():
    with pytest.raises(IllegalAction, match="already been placed"):
        apply(position(phase="trap"), 0, {"type": "place_guide", "region": 2})


# 5 ----------------------------------------------------------------------------------------

def test_trap_outside_the_guide_region_is_refused():
    with pytest.raises(IllegalAction, match="Trap an animal in region 1"):
        apply(position(guide=1), 0, {"type": "trap", "section": 21})


def test_trap_on_a_hiker_is_refused():
    state = position(guide=1, board={12: hiker(1)})
    assert {"type": "trap", "section": 12} not in legal(state, 0)
    with pytest.raises(IllegalAction, match="Section 12 holds no animal"):
        apply(state, 0, {"type": "trap", "section": 12})


# 6 ----------------------------------------------------------------------------------------

def test_trap_appends_the_animal_at_the_end_unactivated():
    state = position(guide=2, board={25: animal("tahr")},
                     seats={0: {"animals": held("yak", "bharal", activated=(0,))}})
    after = apply(state, 0, {"type": "trap", "section": 25})
    assert after["seats"][0]["animals"] == held("yak", "bharal", "tahr", activated=(0,))
    assert after["seats"][0]["hikers"] == 14
    assert after["guide"] == 5


# 8 ----------------------------------------------------------------------------------------

def test_relocation_is_refused_while_the_guide_region_has_animals():
    with pytest.raises(IllegalAction, match="only be relocated when its region has no animals"):
        apply(position(guide=1), 0, {"type": "relocate_guide", "region": 2})


def test_activations_stay_legal_when_the_guide_region_is_empty():
    board = {s: hiker(0) for s in range(41, 47)}
    state = position(guide=4, board=board, seats={0: {"animals": held("yak")}})
    kinds = Counter(a["type"] for a in legal(state, 0))
    assert kinds == {"relocate_guide": 5, "activate": 5}


def test_a_yak_to_an_empty_region_forces_relocation():
    board = {s: hiker(1) for s in range(41, 47)}
    state = position(guide=1, board=board, seats={0: {"animals": held("yak")}})
    after = apply(state, 0, {"type": "activate", "animal": "yak", "region": 4})
    assert [a["type"] for a in legal(after, 0)] == ["relocate_guide"] * 5


# 9 ----------------------------------------------------------------------------------------

def test_activation_is_refused_for_the_seat_not_to_act():
    state = position(current=0, seats={1: {"animals": held("yak")}})
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, 1, {"type": "activate", "animal": "yak", "region": 3})


def test_activation_is_refused_while_placing_the_guide():
    state = RULES.setup(2, {}, 3)
    second = 1 - state["first_player"]
    state["seats"][second]["animals"] = held("yak")
    with pytest.raises(IllegalAction):
        apply(state, second, {"type": "activate", "animal": "yak", "region": 3})


def test_activation_needs_an_unactivated_animal_of_that_species():
    state = position(seats={0: {"animals": held("yak", activated=(0,))}})
    with pytest.raises(IllegalAction, match="no unactivated yak"):
        apply(state, 0, {"type": "activate", "animal": "yak", "region": 3})
    with pytest.raises(IllegalAction, match="no unactivated tahr"):
        apply(state, 0, {"type": "activate", "animal": "tahr", "a": 11, "b": 12})


def test_activation_marks_the_first_unactivated_animal_of_the_species():
    state = position(seats={0: {"animals": held("yak", "tahr", "yak", "yak", activated=(0,))}})
    after = apply(state, 0, {"type": "activate", "animal": "yak", "region": 3})
    assert [a["activated"] for a in after["seats"][0]["animals"]] == [True, False, True, False]


def test_several_activations_in_one_turn():
    state = position(guide=1, seats={0: {"animals": held("yak", "yak")}})
    state = apply(state, 0, {"type": "activate", "animal": "yak", "region": 3})
    state = apply(state, 0, {"type": "activate", "animal": "yak", "region": 5})
    assert state["guide"] == 5 and state["phase"] == "trap"


@pytest.mark.parametrize("species, message", [("bharal", "bharal has no power"),
                                              ("red_panda", "red panda has no power")])
def test_bharal_and_red_panda_cannot_be_activated(species, message):
    state = position(seats={0: {"animals": held(species)}})
    with pytest.raises(IllegalAction, match=message):
        apply(state, 0, {"type": "activate", "animal": species, "a": 11, "b": 12})


# 10 ---------------------------------------------------------------------------------------

def test_snow_leopard_may_move_opponent_hikers_across_a_dotted_path():
    state = position(board={15: hiker(0), 32: hiker(1)}, seats={0: {"animals": held("snow_leopard")}})
    after = apply(state, 0, {"type": "activate", "animal": "snow_leopard", "a": 15, "b": 32})
    assert after["board"]["15"] == hiker(1) and after["board"]["32"] == hiker(0)


def test_tahr_may_move_an_opponent_hiker_across_a_dotted_path():
    state = position(board={25: hiker(1), 52: animal("yak")}, seats={0: {"animals": held("tahr")}})
    after = apply(state, 0, {"type": "activate", "animal": "tahr", "a": 25, "b": 52})
    assert after["board"]["25"] == animal("yak") and after["board"]["52"] == hiker(1)


def test_tahr_cannot_move_a_camp():
    state = position(board={25: camp(0)}, seats={0: {"animals": held("tahr")}})
    with pytest.raises(IllegalAction, match="Camps cannot be moved"):
        apply(state, 0, {"type": "activate", "animal": "tahr", "a": 25, "b": 52})
    assert not [a for a in legal(state, 0) if a["type"] == "activate"]


def test_tahr_needs_adjacent_sections():
    state = position(board={11: hiker(1)}, seats={0: {"animals": held("tahr")}})
    with pytest.raises(IllegalAction, match="not adjacent"):
        apply(state, 0, {"type": "activate", "animal": "tahr", "a": 11, "b": 14})


def test_musk_deer_needs_two_animals():
    state = position(board={11: hiker(1), 12: animal("yak")}, seats={0: {"animals": held("musk_deer")}})
    with pytest.raises(IllegalAction, match="swaps two animals"):
        apply(state, 0, {"type": "activate", "animal": "musk_deer", "a": 11, "b": 12})


# 13 ---------------------------------------------------------------------------------------

def test_no_claim_before_the_trap():
    state = position(phase="trap", board={24: hiker(0), 25: hiker(0), 26: hiker(0)})
    assert not [a for a in legal(state, 0) if a["type"] == "claim"]
    with pytest.raises(IllegalAction, match="claims come after the trap"):
        apply(state, 0, {"type": "claim", "row": "camps", "col": 3, "sections": [24, 25, 26]})


def test_only_one_claim_per_turn_and_never_on_a_taken_spot():
    state = position(phase="act", board={24: hiker(0), 25: hiker(0), 26: hiker(0)},
                     seats={0: {"animals": held("yak", "yak", "bharal", "tahr")}})
    state["chart"]["same"][3] = 1
    with pytest.raises(IllegalAction, match="already taken"):
        apply(state, 0, {"type": "claim", "row": "same", "col": 3, "animals": [0, 1, 2]})
    assert not [a for a in legal(state, 0) if a.get("row") == "same" and a["col"] == 3]
    after = apply(state, 0, {"type": "claim", "row": "same", "col": 4, "animals": [0, 1, 2]})
    assert not [a for a in legal(after, 0) if a["type"] == "claim"]
    with pytest.raises(IllegalAction, match="already claimed"):
        apply(after, 0, {"type": "claim", "row": "camps", "col": 3, "sections": [24, 25, 26]})


# 14 ---------------------------------------------------------------------------------------

def test_a_player_without_cubes_still_traps_and_activates():
    state = position(phase="trap", guide=1, board={24: hiker(0), 25: hiker(0), 26: hiker(0)},
                     seats={0: {"cubes": 0, "animals": held("yak")}})
    assert legal(state, 0)[0]["type"] == "trap"
    state = apply(state, 0, {"type": "trap", "section": 12})
    assert state["phase"] == "act"
    assert not [a for a in legal(state, 0) if a["type"] == "claim"]
    state = apply(state, 0, {"type": "activate", "animal": "yak", "region": 5})
    assert state["guide"] == 5


# 15 ---------------------------------------------------------------------------------------

def test_end_turn_is_offered_in_phase_act_and_not_in_phase_trap():
    state = position(phase="act", seats={0: {"animals": held("yak")}})
    assert legal(state, 0)[-1] == {"type": "end_turn"}
    trap_state = position(phase="trap", seats={0: {"animals": held("yak")}})
    assert {"type": "end_turn"} not in legal(trap_state, 0)
    with pytest.raises(IllegalAction, match="trap an animal before ending"):
        apply(trap_state, 0, {"type": "end_turn"})


def test_end_turn_hands_over_to_the_opponent():
    state = position(phase="act", turn=5, claimed=True, seats={0: {"animals": held("yak")}})
    after = apply(state, 0, {"type": "end_turn"})
    assert (after["phase"], after["current"], after["turn"], after["claimed_this_turn"]) == \
        ("trap", 1, 6, False)


# 17 ---------------------------------------------------------------------------------------

def test_no_end_when_only_one_player_has_placed_all_hikers():
    state = position(phase="act", current=0, turn=29, claimed=True,
                     seats={0: {"hikers": 0, "animals": held("yak")}, 1: {"hikers": 1}})
    after = apply(state, 0, {"type": "end_turn"})
    assert not RULES.is_over(after) and RULES.to_act(after) == [1]


# 19 / 20 ----------------------------------------------------------------------------------

def test_scores_breakdown_has_the_categories_and_sums_to_the_total():
    state = position(seats={0: {"score": 9}, 1: {"score": 4}})
    for entry in RULES.scores(state):
        assert set(entry["breakdown"]) == {"camps", "different", "same", "red_panda", "area", "bump"}
        assert sum(entry["breakdown"].values()) == entry["total"]


def test_ranking_follows_totals_and_zero_zero_is_a_draw():
    assert RULES.ranking(position(seats={0: {"score": 9}, 1: {"score": 4}})) == [1, 2]
    assert RULES.ranking(position(seats={0: {"score": 3}, 1: {"score": 4}})) == [2, 1]
    assert RULES.ranking(position()) == [1, 1]


def test_ranking_tie_breaks_on_camps_then_spots_if_scores_ever_tie():
    state = position(board={11: camp(1)}, seats={0: {"score": 5}, 1: {"score": 5}})
    assert RULES.ranking(state) == [2, 1]
    state = position(seats={0: {"score": 5}, 1: {"score": 5}}, chart={("same", 3): 0})
    assert RULES.ranking(state) == [1, 2]


# 21 ---------------------------------------------------------------------------------------

def test_after_the_end_nothing_can_be_done():
    state = position(phase="act", current=1, turn=30, claimed=True,
                     seats={0: {"hikers": 0, "score": 3}, 1: {"hikers": 0, "score": 2}})
    state = apply(state, 1, {"type": "end_turn"})
    assert RULES.is_over(state) and RULES.to_act(state) == []
    assert legal(state, 0) == [] and legal(state, 1) == []
    for seat in (0, 1):
        for action in ({"type": "end_turn"}, {"type": "trap", "section": 11}, None):
            with pytest.raises(IllegalAction):
                apply(state, seat, action)


# 22 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("seat", [2, -1, "0", None, True, 0.0])
def test_apply_refuses_seats_that_are_not_at_the_table(seat):
    with pytest.raises(IllegalAction):
        apply(position(), seat, {"type": "trap", "section": 11})


def test_swapped_a_and_b_are_refused_for_every_swap_power():
    board = {12: hiker(0), 13: hiker(1), 21: hiker(0), 23: animal("yak"), 11: animal("tahr")}
    state = position(phase="act", guide=2, board=board,
                     seats={0: {"animals": held("snow_leopard", "tahr", "musk_deer")}})
    for species, a, b in (("snow_leopard", 12, 13), ("tahr", 21, 23), ("musk_deer", 11, 23)):
        good = {"type": "activate", "animal": species, "a": a, "b": b}
        assert good in legal(state, 0)
        with pytest.raises(IllegalAction):
            apply(state, 0, dict(good, a=b, b=a))


def test_wrong_keys_for_the_species_are_refused():
    state = position(seats={0: {"animals": held("yak", "tahr")}})
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "activate", "animal": "yak", "a": 11, "b": 12})
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "activate", "animal": "tahr", "region": 2})


# 23 ---------------------------------------------------------------------------------------

def test_apply_never_mutates_its_input():
    state = position(phase="act", board={24: hiker(0), 25: hiker(0), 26: hiker(0)},
                     seats={0: {"animals": held("yak", "yak", "bharal")}})
    before = json.dumps(state, sort_keys=True)
    for action in legal(state, 0):
        apply(state, 0, action)
    assert json.dumps(state, sort_keys=True) == before


# 28 ---------------------------------------------------------------------------------------

def test_view_shows_everything_public_to_everyone_and_never_a_seed():
    state = position(phase="act", board={24: hiker(0), 25: camp(1)},
                     seats={0: {"animals": held("yak"), "score": 3}, 1: {"animals": held("tahr"), "score": 1}})
    state["seed"] = 1234  # even a state that carried a seed must not show it
    views = [RULES.view(state, v) for v in (None, 0, 1)]
    for v in views:
        assert "seed" not in json.dumps(v)
        assert v["board"] == state["board"]
        assert [s["animals"] for s in v["seats"]] == [held("yak"), held("tahr")]
        assert [s["total"] for s in v["scores"]] == [3, 1]
        assert len(v["geometry"]["layout"]) == 36 and len(v["geometry"]["dotted_triangles"]) == 3
        assert v["chart_info"]["need"] == [6, 5, 4, 3, 3]
        assert isinstance(v["events"], list) and "log" not in v and "status" not in v
        assert json.loads(json.dumps(v)) == v
    assert [v["viewer"] for v in views] == [None, 0, 1]
    assert [v["your_turn"] for v in views] == [False, True, False]


def test_undo_is_allowed_within_the_turn_only():
    state = position(phase="trap", guide=1, board={12: animal("tahr")}, seats={0: {"animals": held("yak")}})
    after = apply(state, 0, {"type": "trap", "section": 12})
    assert RULES.undoable(state, 0, {"type": "trap", "section": 12}, after)
    ended = apply(after, 0, {"type": "end_turn"})
    assert not RULES.undoable(after, 0, {"type": "end_turn"}, ended)


def test_the_status_line_names_the_players_never_seat_numbers():
    """The rules give no status prose; the presenter words it with the players' names."""
    from games.nanga_parbat.presenter import _status
    state = position(phase="act", board={24: hiker(0)}, seats={0: {"animals": held("yak")}})
    names = ["alice", "bob"]
    assert _status(RULES.view(state, 1), 1, names) == "alice may claim a spot or activate animals, then ends the turn."
    assert _status(RULES.view(state, None), None, names).startswith("alice may claim")
    over = dict(state, phase="over", result={"ended_by": ["cubes"], "area": []})
    over["seats"] = [dict(state["seats"][0], score=0), dict(state["seats"][1], score=4)]
    assert _status(RULES.view(over, 0), 0, names) == "Game over: bob wins, 0 to 4."
