"""Example 5 (L1-L17, C1-C8) and checklist items 11-23: placement, campsites, loops."""
from __future__ import annotations

import pytest

from games.alpine_trails.rules import RULES
from games.alpine_trails.rules import board as B
from games.rules.base import IllegalAction

from .helpers import build, campsite, fresh, legal, play, terrain, trail, waterfall
from .test_examples import EXAMPLE1


@pytest.fixture(scope="module")
def ex5():
    """The Example 1 map before lakes."""
    return build("BC5", EXAMPLE1)


def refused(state, action, match=None):
    with pytest.raises(IllegalAction, match=match):
        play(state, action)


def allowed(state, action):
    after = play(state, action)
    s = B.jcopy(state)
    tile = action.get("tile") or action.get("discard")
    if tile:
        s["seats"][0]["hand"] = [tile]
        s["seats"][0]["campsite_used"] = False
    assert action in legal(s)
    return after


def test_L1_trail_exit_against_closed_side_is_refused(ex5):
    refused(ex5, trail("T003", -1, 1, 0), "run a trail into the side")


def test_L2_terrain_on_a_trail_end_is_refused(ex5):
    refused(ex5, terrain("T003", 0, -2), "end of a trail")


def test_L3_trail_without_a_link_is_refused(ex5):
    refused(ex5, trail("T003", -2, 1, 1), "must join")


def test_L4_campsite_two_miles_out_is_refused(ex5):
    refused(ex5, campsite("T003", 2, 1), "only 2 miles")


def test_L5_waterfall_on_a_trail_end_is_refused(ex5):
    state = B.jcopy(ex5)
    state["seats"][0]["waterfalls_pending"] = 1
    with pytest.raises(IllegalAction):
        RULES.apply(state, 0, waterfall(-2, -1))
    assert waterfall(-2, -1) not in legal(state)


def test_L6_waterfall_beside_a_closed_side_is_allowed(ex5):
    state = B.jcopy(ex5)
    state["seats"][0]["waterfalls_pending"] = 1
    assert waterfall(-3, 0) in legal(state)
    RULES.apply(state, 0, waterfall(-3, 0))


def test_L7_terrain_beside_a_closed_side_is_allowed(ex5):
    allowed(ex5, terrain("T003", 3, 0))


def test_L8_curve_linking_one_end_is_allowed(ex5):
    after = allowed(ex5, trail("T013", 2, 1, 0))
    assert after["seats"][0]["waterfalls_pending"] == 0


def test_L9_curve_into_a_terrain_side_is_refused(ex5):
    refused(ex5, trail("T013", 2, 1, 3), "run a trail into the side")


def test_L10_tile_not_touching_the_map_is_refused(ex5):
    refused(ex5, terrain("T003", 0, 2), "must touch your map")


def test_L11_occupied_cell_is_refused(ex5):
    refused(ex5, terrain("T003", 1, 1), "already taken")
    refused(ex5, trail("T003", 1, 1, 0), "already taken")


def test_L12_fork_only_fits_in_one_rotation(ex5):
    allowed(ex5, trail("T028", -2, -1, 1))
    for r in (0, 2, 3):
        refused(ex5, trail("T028", -2, -1, r))


def test_L13_terrain_against_the_base_camp_is_allowed(ex5):
    allowed(ex5, terrain("T003", 0, 1))


def test_L14_straight_links_to_a_base_camp_side(ex5):
    allowed(ex5, trail("T003", 0, 1, 0))


def test_L15_curve_links_to_base_camp_with_closed_side_on_terrain(ex5):
    allowed(ex5, trail("T013", 0, 1, 3))


def test_L16_straight_into_terrain_is_refused(ex5):
    refused(ex5, trail("T003", 0, 1, 1), "run a trail into the side")


def test_L17_campsite_needs_a_trail_end(ex5):
    refused(ex5, campsite("T003", 0, 1), "end of a trail")


@pytest.fixture(scope="module")
def c_map():
    return build("BC5", [trail("T011", -1, 0, 1)])


def test_C1_campsite_three_miles_out_is_refused(c_map):
    refused(c_map, campsite("T073", -2, 0), "only 3 miles")


def test_C2_campsite_exactly_six_miles_out_leaves_no_open_end(c_map):
    state = play(c_map, trail("T012", -2, 0, 1))
    state = allowed(state, campsite("T073", -3, 0))
    assert B.targeted_cells(B.parse(state["seats"][0]["map"])) == set()


def test_C3_C4_campsite_sides_take_trails_and_terrain(c_map):
    state = play(play(c_map, trail("T012", -2, 0, 1)), campsite("T073", -3, 0))
    allowed(state, trail("T100", -4, 0, 1))
    allowed(state, terrain("T002", -3, 1))
    allowed(state, terrain("T002", -3, -1))


def test_C5_campsite_away_from_trail_ends_is_refused(c_map):
    refused(c_map, campsite("T073", 0, -1), "end of a trail")


def test_C6_second_campsite_in_a_round_is_refused(c_map):
    state = play(play(c_map, trail("T012", -2, 0, 1)), campsite("T073", -3, 0))
    state = play(state, trail("T100", -4, 0, 1))
    state = play(state, trail("T101", -5, 0, 1))
    s = B.jcopy(state)
    s["seats"][0]["hand"] = ["T102"]
    assert not any(a["type"] == "campsite" for a in legal(s))
    with pytest.raises(IllegalAction, match="already made a campsite"):
        RULES.apply(s, 0, campsite("T102", -6, 0))


def test_C7_campsite_joining_two_ends_uses_shortest_route_and_closes_a_loop():
    state = build("BC2", [trail("T011", 0, -1, 0), trail("T044", 0, -2, 0), trail("T077", 1, -1, 0),
                          trail("T110", 1, -2, 0), trail("T054", 1, -3, 2)])
    assert B.campsite_distance(B.parse(state["seats"][0]["map"]), (0, -3)) == 6
    state = play(state, campsite("T001", 0, -3))
    assert state["seats"][0]["waterfalls_pending"] == 1


def test_C8_loop_through_the_base_camp_earns_a_waterfall():
    state = build("BC2", [trail("T079", 0, -1, 1), trail("T080", 1, -1, 2)])
    assert state["seats"][0]["waterfalls_pending"] == 1


# --- checklist items 14, 15, 19, 21, 22, 23 ---------------------------------------------

def test_two_tiles_of_a_round_need_not_touch_each_other():
    state = fresh("BC5")
    state["seats"][0]["hand"] = ["T001", "T002"]
    state = RULES.apply(state, 0, terrain("T001", -1, 0))
    state = RULES.apply(state, 0, terrain("T002", 2, 0))
    assert state["seats"][0]["hand"] == []


def test_discard_is_refused_while_the_tile_fits():
    state = fresh("BC5")
    state["seats"][0]["hand"] = ["T001"]
    assert {"type": "discard", "tile": "T001"} not in legal(state)
    with pytest.raises(IllegalAction, match="still fits"):
        RULES.apply(state, 0, {"type": "discard", "tile": "T001"})


def test_discard_is_accepted_when_the_tile_fits_nowhere(monkeypatch):
    # On an unbounded map some tile always fits (the cell beyond the topmost piece has one
    # face: a trail end takes a trail, anything else takes a terrain), so the case is
    # simulated: the rules consult tile_fits() both when listing and when applying.
    from games.alpine_trails.rules import rules as R
    monkeypatch.setattr(R, "tile_fits", lambda board, tile_id, spots=None: False)
    state = fresh("BC5")
    state["seats"][0]["hand"] = ["T001", "T002"]
    assert {"type": "discard", "tile": "T001"} in legal(state)
    after = RULES.apply(state, 0, {"type": "discard", "tile": "T001"})
    s = after["seats"][0]
    assert s["hand"] == ["T002"] and s["out"] == ["T001"] and s["round_out"] == ["T001"]


def test_campsite_distance_is_checked_only_at_placement():
    state = build("BC5", [trail("T011", -1, 0, 1), trail("T012", -2, 0, 1)])
    state = play(state, campsite("T073", -3, 0))
    state = play(state, trail("T100", -4, 0, 1))          # joins the campsite: fine
    assert "-4,0" in state["seats"][0]["map"]


def test_while_a_waterfall_is_pending_only_waterfalls_are_listed_and_others_refused():
    state = build("BC2", [trail("T079", 0, -1, 1), trail("T080", 1, -1, 2)])
    state["seats"][0]["hand"] = ["T001"]
    actions = legal(state)
    assert actions and all(a["type"] == "waterfall" for a in actions)
    for action in (terrain("T001", -1, 0), {"type": "done"}, {"type": "discard", "tile": "T001"}):
        with pytest.raises(IllegalAction, match="Place your waterfall first."):
            RULES.apply(state, 0, action)


def test_pending_waterfall_with_no_legal_cell_is_dropped():
    s = {"waterfalls_pending": 1, "round_events": []}
    board = {(0, 0): {"kind": "trail", "tile": "T003", "rotation": 0}}   # N and S ends
    board.update({(-1, 0): {"kind": "terrain", "tile": "T001"}, (1, 0): {"kind": "terrain", "tile": "T001"}})
    from games.alpine_trails.rules.rules import drop_unplaceable_waterfalls
    drop_unplaceable_waterfalls(s, board)
    assert s["waterfalls_pending"] == 1                       # (-1,-1) etc. are free
    only_ends = {(0, 0): {"kind": "trail", "tile": "T003", "rotation": 0}}
    drop_unplaceable_waterfalls(s, only_ends)                  # frontier: (0,-1),(0,1) targeted; E/W free
    assert s["waterfalls_pending"] == 1
    # four forks in a square, every outer side a trail end: the whole frontier is targeted
    block = {(0, 0): {"kind": "trail", "tile": "T028", "rotation": 1},
             (0, 1): {"kind": "trail", "tile": "T029", "rotation": 1},
             (1, 0): {"kind": "trail", "tile": "T030", "rotation": 3},
             (1, 1): {"kind": "trail", "tile": "T031", "rotation": 3}}
    assert len(B.frontier(block)) == 8 and B.waterfall_cells(block) == []
    drop_unplaceable_waterfalls(s, block)
    assert s["waterfalls_pending"] == 0
    assert s["round_events"] == [{"type": "waterfall_lost", "count": 1}]


def test_lakes_never_create_loops_or_waterfalls():
    state = build("BC3", [trail("T106", 0, -1, 0), trail("T034", 1, -1, 0), trail("T059", 1, -2, 2)])
    state = RULES.apply(state, 0, {"type": "done"})
    from games.alpine_trails.rules.rules import end_game
    end = B.jcopy(state)
    end_game(end)
    assert end["seats"][0]["waterfalls_pending"] == 0
    assert not any(p["kind"] == "waterfall" for p in end["seats"][0]["map"].values())
    assert sum(p["kind"] == "lake" for p in end["seats"][0]["map"].values()) == 1
