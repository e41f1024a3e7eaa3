"""Worked examples of shared/rules/alpine_trails.md §13 (Examples 1 to 9)."""
from __future__ import annotations

import pytest

from games.alpine_trails.rules import RULES
from games.alpine_trails.rules import board as B
from games.alpine_trails.rules.data import BREAKDOWN_KEYS
from games.rules.base import IllegalAction

from .helpers import build, campsite, fresh, legal, play, score, terrain, total, trail, waterfall

EXAMPLE1 = [
    trail("T007", -1, 0, 1), trail("T046", -2, 0, 0), trail("T077", 0, -1, 0), trail("T021", 2, 0, 2),
    terrain("T001", 1, -1), terrain("T013", -1, -1), terrain("T034", 1, 1), terrain("T002", 2, -1),
]


def pad(state, seat=0):
    return score(state, None, seat)["breakdown"]


def habitat_sum(bd):
    return sum(bd[f"habitat_{t}"] for t in ("forest", "rock", "meadow", "wetland"))


@pytest.fixture(scope="module")
def example1():
    return build("BC5", EXAMPLE1)


# --- Example 1 -------------------------------------------------------------------------

def test_example1_open_ends_become_three_lakes(example1):
    board = B.parse(example1["seats"][0]["map"])
    assert B.targeted_cells(board) == {(-2, -1), (0, -2), (2, 1)}


def test_example1_habitats_count_base_camp_icons(example1):
    bd = pad(example1)
    assert (bd["habitat_forest"], bd["habitat_rock"], bd["habitat_meadow"], bd["habitat_wetland"]) == (6, 2, 1, 0)


def test_example1_paths_of_equal_length_and_total(example1):
    bd = pad(example1)
    assert bd["longest_path"] == 3 and bd["lakes"] == 6 and bd["waterfalls"] == 0
    assert total(example1) == 18


@pytest.mark.parametrize("goal, expected", [("G01", 24), ("G02", 20), ("G05", 19), ("G06", 19),
                                            ("G07", 19), ("G09", 18), ("G14", 21), ("G19", 18)])
def test_example1_totals_with_goals(example1, goal, expected):
    assert total(example1, goal) == expected


# --- Example 2 -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def example2():
    state = fresh("BC6")
    state = play(state, trail("T079", -1, 0, 0))
    state = play(state, trail("T087", -1, -1, 1))
    state = play(state, trail("T046", 0, -1, 2))
    assert state["seats"][0]["waterfalls_pending"] == 1
    return build("BC6", [waterfall(0, 1), terrain("T100", -1, 1), terrain("T101", 1, 1),
                         terrain("T067", -2, 0), trail("T011", 2, 0, 1)], state=state)


def test_example2_loop_earns_a_waterfall_scoring_base_camp_squares_separately(example2):
    bd = pad(example2)
    assert bd["waterfalls"] == 5
    assert (bd["habitat_meadow"], bd["habitat_rock"], bd["habitat_wetland"], bd["habitat_forest"]) == (5, 1, 3, 1)
    assert bd["lakes"] == 2 and bd["longest_path"] == 3
    assert total(example2) == 20


@pytest.mark.parametrize("goal, expected", [("G12", 27), ("G13", 23), ("G03", 25), ("G05", 21)])
def test_example2_totals_with_goals(example2, goal, expected):
    assert total(example2, goal) == expected


# --- Example 3 -------------------------------------------------------------------------

def example3_steps():
    return [trail("T011", -1, 0, 1), trail("T012", -2, 0, 1), trail("T061", -3, 0, 3),
            trail("T040", -3, -1, 0), campsite("T073", -3, 1), trail("T106", -4, 1, 1),
            trail("T112", -5, 1, 0), trail("T067", 0, -1, 0), trail("T054", 2, 0, 3),
            terrain("T068", -1, -1)]


@pytest.fixture(scope="module")
def example3():
    state = build("BC7", example3_steps(), players=2)
    state["seats"][0]["animals"] = ["wolf"]
    state = RULES.apply(state, 0, {"type": "animal", "animal": "wolf", "x": -1, "y": -1})
    return build("BC7", [terrain("T001", -3, 2), terrain("T100", -2, 1)], state=state)


def test_example3_fork_is_recorded_for_the_gifts(example3):
    assert "rock" in example3["seats"][0]["round_forks"]


def test_example3_scores_31(example3):
    bd = pad(example3)
    assert habitat_sum(bd) == 10
    assert (bd["waterfalls"], bd["lakes"], bd["tents"], bd["animals"], bd["longest_path"]) == (0, 8, 8, 2, 3)
    assert total(example3) == 31


def test_example3_paths_stop_at_fork_campsite_and_base_camp(example3):
    board = B.with_lakes(B.parse(example3["seats"][0]["map"]))
    miles = {p["lake"]: p["miles"] for p in B.out_and_back_paths(board)}
    assert miles == {(-5, 0): 3, (-3, -2): 2, (2, -1): 2, (0, -2): 1}


@pytest.mark.parametrize("goal, expected", [("G11", 38), ("G16", 35), ("G20", 33), ("G08", 33),
                                            ("G17", 33), ("G14", 35), ("G10", 31)])
def test_example3_totals_with_goals(example3, goal, expected):
    assert total(example3, goal) == expected


def test_example3_campsite_exactly_six_miles_is_legal():
    state = build("BC7", [trail("T011", -1, 0, 1), trail("T012", -2, 0, 1)], players=2)
    state["seats"][0]["hand"] = ["T073"]
    assert campsite("T073", -3, 0) in legal(state)


def test_example3_campsite_three_miles_out_is_illegal():
    state = build("BC7", [trail("T011", -1, 0, 1)], players=2)
    with pytest.raises(IllegalAction, match="only 3 miles"):
        play(state, campsite("T073", -2, 0))


def test_example3_campsite_near_another_campsite_is_illegal(example3):
    board = B.parse(example3["seats"][0]["map"])
    assert B.campsite_distance(board, (-3, -2)) == 3
    with pytest.raises(IllegalAction, match="only 3 miles"):
        play(example3, campsite("T090", -3, -2))


# --- Example 4 -------------------------------------------------------------------------

def test_example4_fork_closing_two_loops_earns_two_waterfalls():
    state = build("BC8", [trail("T046", 0, -1, 2), trail("T054", -1, -1, 1), trail("T112", 0, 1, 3),
                          trail("T113", -1, 1, 0)], players=2)
    with pytest.raises(IllegalAction):
        play(state, terrain("T002", -1, 0))
    state = play(state, trail("T028", -1, 0, 3))
    assert state["seats"][0]["waterfalls_pending"] == 2
    assert state["seats"][0]["round_forks"] == ["forest"]
    assert {(a["x"], a["y"]) for a in legal(state)} >= {(1, -1), (1, 1)}
    assert all(a["type"] == "waterfall" for a in legal(state))
    state = play(state, waterfall(1, -1))
    state = play(state, waterfall(1, 1))
    assert state["seats"][0]["waterfalls_pending"] == 0
    bd = pad(state)
    assert bd["waterfalls"] == 6 and habitat_sum(bd) == 6 and bd["lakes"] == 0 and bd["longest_path"] == 0
    assert total(state) == 12
    for goal, expected in (("G13", 18), ("G15", 14), ("G12", 16), ("G04", 15)):
        assert total(state, goal) == expected


def test_example4_fork_turned_to_link_two_exits_closes_one_loop():
    state = build("BC8", [trail("T046", 0, -1, 2), trail("T054", -1, -1, 1), trail("T112", 0, 1, 3),
                          trail("T113", -1, 1, 0)], players=2)
    state = play(state, trail("T028", -1, 0, 1))
    assert state["seats"][0]["waterfalls_pending"] == 1


# --- Example 6 -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def example6():
    return build("BC3", [trail("T106", 0, -1, 0), trail("T034", 1, -1, 0), trail("T059", 1, -2, 2)])


def test_example6_cell_faced_by_two_ends_during_play(example6):
    with pytest.raises(IllegalAction):
        play(example6, terrain("T002", 0, -2))
    after = play(example6, trail("T013", 0, -2, 1))
    assert after["seats"][0]["waterfalls_pending"] == 1
    with pytest.raises(IllegalAction, match="only 2 miles"):
        play(example6, campsite("T002", 0, -2))


def test_example6_one_lake_for_two_ends_and_two_paths(example6):
    state = RULES.apply(example6, 0, {"type": "done"})        # solo: the round resolves
    board = B.with_lakes(B.parse(example6["seats"][0]["map"]))
    assert [c for c, p in board.items() if p["kind"] == "lake"] == [(0, -2)]
    assert sorted(p["miles"] for p in B.out_and_back_paths(board)) == [2, 4]
    bd = pad(example6)
    assert (habitat_sum(bd), bd["waterfalls"], bd["lakes"], bd["longest_path"]) == (5, 0, 2, 4)
    assert total(example6) == 11
    for goal, expected in (("G14", 12), ("G20", 13), ("G06", 13)):
        assert total(example6, goal) == expected
    assert state["seats"][0]["waterfalls_pending"] == 0


# --- Example 7 -------------------------------------------------------------------------

def test_example7_solo_fork_trades_and_duplicate_animals():
    state = build("BC5", EXAMPLE1 + [terrain("T035", 0, 1)])
    for fork in ("T061", "T062", "T028"):
        state = play(state, {"type": "trade_fork", "tile": fork})
    assert sorted(state["seats"][0]["animals"]) == ["bear", "goat", "goat"]
    for animal, x, y in (("goat", 0, 1), ("goat", 1, 1), ("bear", 1, -1)):
        state = RULES.apply(state, 0, {"type": "animal", "animal": animal, "x": x, "y": y})
    bd = pad(state)
    assert bd["habitat_rock"] == 5 and habitat_sum(bd) == 12 and bd["animals"] == 6
    assert total(state) == 27
    assert total(state, "G17") == 33 and total(state, "G02") == 32
    from games.alpine_trails.rules import solo_title
    assert solo_title(total(state, "G17")) is None


# --- Example 8 -------------------------------------------------------------------------

def example8_round():
    """Three seats; seat 0 has a moose placed, seat 1 holds a wolf; then the round's forks."""
    state = fresh("BC1", players=3, camps=["BC1", "BC2", "BC3"])
    state = play(state, terrain("T100", 0, 1), seat=0)
    state["seats"][0]["animals"] = ["moose"]
    state = RULES.apply(state, 0, {"type": "animal", "animal": "moose", "x": 0, "y": 1})
    state["seats"][1]["animals"] = ["wolf"]
    for s in state["seats"]:
        s["public"] = {"map": B.jcopy(s["map"]), "animals": list(s["animals"]), "out": []}
    hands = {0: ["T061", "T094"], 1: ["T062", "T127"], 2: ["T128", "T001"]}
    for seat, tiles in hands.items():
        state["seats"][seat]["hand"] = list(tiles)
        for t in tiles:
            if t in state["bag"]:
                state["bag"].remove(t)
    moves = [
        (0, trail("T061", -1, 0, 0)), (0, trail("T094", 2, 0, 0)), (0, {"type": "done"}),
        (1, trail("T062", -1, 0, 0)), (1, terrain("T127", 0, 1)), (1, {"type": "done"}),
        (2, trail("T128", -1, 0, 0)), (2, terrain("T001", 0, 1)), (2, {"type": "done"}),
    ]
    return state, moves


def test_example8_gifts_when_the_round_resolves():
    state, moves = example8_round()
    for seat, action in moves[:-1]:
        state = RULES.apply(state, seat, action)
    # nothing shows before the resolution
    assert state["seats"][1]["animals"] == ["wolf"]
    for viewer in (None, 1, 2):
        view = RULES.view(state, viewer)
        assert "-1,0" not in view["seats"][0]["map"]
        assert "2,0" not in view["seats"][0]["map"]
    state = RULES.apply(state, *moves[-1])
    held = [sorted(s["animals"]) for s in state["seats"]]
    assert held == [["goat"], ["goat", "moose", "wolf"], ["goat", "wolf"]]
    gifts = state["history"][-1]["gifts"]
    assert gifts == [{"from": 0, "to": 1, "animal": "goat"}, {"from": 0, "to": 2, "animal": "goat"},
                     {"from": 0, "to": 2, "animal": "wolf"}, {"from": 1, "to": 0, "animal": "goat"},
                     {"from": 2, "to": 1, "animal": "moose"}]
    view = RULES.view(state, 1)
    assert "-1,0" in view["seats"][0]["map"] and view["seats"][0]["map"]["-1,0"]["sign"] is True
    assert {"type": "gift", "seat": 0, "turn": 1, "to": 1, "animal": "goat", "terrain": "rock"} in view["events"]


# --- Example 9 -------------------------------------------------------------------------

def test_example9_score_pad_adds_up_to_109():
    pad_values = dict(zip(BREAKDOWN_KEYS, (11, 9, 7, 6, 23, 10, 16, 4, 16, 7), strict=True))
    assert list(pad_values) == ["habitat_forest", "habitat_rock", "habitat_meadow", "habitat_wetland",
                                "waterfalls", "lakes", "tents", "animals", "longest_path", "goal"]
    assert sum(pad_values.values()) == 109
    # and the module's totals are exactly the sum of their breakdown
    state = build("BC5", EXAMPLE1)
    entry = B.score_map(state["seats"][0]["map"], "G01")
    assert list(entry["breakdown"]) == list(BREAKDOWN_KEYS)
    assert entry["total"] == sum(entry["breakdown"].values())
