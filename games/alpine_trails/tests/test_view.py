"""The view carries what a board page needs to draw every map (spec §11, §14)."""
from __future__ import annotations

from games.alpine_trails.presenter import piece_face
from games.alpine_trails.rules import RULES

from .helpers import build, trail
from .test_checklist import finish_round_for


def test_view_has_everything_a_board_page_draws():
    state = RULES.setup(3, {}, 5)
    view = RULES.view(state, 1)
    for key in ("phase", "round", "rounds", "bag_left", "solo", "viewer", "to_act", "seats",
                "last_round", "events", "result", "legend"):
        assert key in view
    mine = view["seats"][1]
    assert len(mine["hand_tiles"]) == 2
    for info in mine["hand_tiles"]:
        assert len(info["exits_by_rotation"]) == 4 and info["terrain"] and info["miles"] in (1, 2, 3)
    for entry in view["seats"]:
        assert entry["map"]["0,0"]["kind"] == "basecamp" and entry["map"]["0,0"]["square"]
        assert {"minx", "maxx", "miny", "maxy"} <= set(entry["bounds"])
        assert "score" in entry and "open_ends" in entry and entry["status"] == "placing"


def test_other_maps_are_shown_as_of_the_last_resolved_round():
    state = RULES.setup(2, {}, 6)
    state = finish_round_for(state, 0)
    view = RULES.view(state, 1)
    assert view["seats"][0]["as_of_round"] == 0 and view["seats"][0]["status"] == "done"
    assert view["seats"][1]["as_of_round"] == 1
    state = finish_round_for(state, 1)
    view = RULES.view(state, 1)
    assert view["seats"][0]["as_of_round"] == 1 and len(view["seats"][0]["map"]) == 4
    assert view["last_round"]["round"] == 1
    assert any(e["type"] == "place" and e["seat"] == 0 and e["turn"] == 1 for e in view["events"])


def test_trail_cells_carry_exits_miles_terrain_and_sign():
    state = build("BC5", [trail("T028", -1, 0, 0)], players=2)
    cell = RULES.view(state, 0)["seats"][0]["map"]["-1,0"]
    assert cell["exits"] == [1, 2, 3] and cell["miles"] == 1 and cell["terrain"] == "forest"
    assert cell["sign"] is True
    assert piece_face(cell)["title"] == "Forest fork, 1 mile, exits east and south and west"


def test_waterfall_prompt_lists_cells_with_their_points():
    state = build("BC2", [trail("T079", 0, -1, 1), trail("T080", 1, -1, 2)])
    mine = RULES.view(state, 0)["seats"][0]
    assert mine["waterfalls_pending"] == 1
    options = {(o["x"], o["y"]): o["points"] for o in mine["waterfall_options"]}
    legal = {(a["x"], a["y"]) for a in RULES.legal_actions(state, 0)}
    assert set(options) == legal and options[(0, 1)] == 2
