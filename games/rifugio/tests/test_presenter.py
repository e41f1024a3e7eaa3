"""The presenter's builders, one area of the board each, on hand-made positions."""
from __future__ import annotations

import re

import pytest

from games.rifugio import presenter as P
from games.rifugio.rules import RULES

from .helpers import A, B, add_raft, position, put

NAMES = ["Ada", "Bea", "Cleo"]


def page_of(state: dict, seat: int | None = A, selection: str = "") -> P.Page:
    legal = RULES.legal_actions(state, seat) if seat is not None else []
    return P.Page.from_panel({"view": RULES.view(state, seat), "names": NAMES[:state["players"]],
                              "legal": legal, "seat": seat, "selection": selection})


@pytest.fixture
def river_map() -> dict:
    """START at (0,0), a meadow east, two joined waters south-east and a lone pond west."""
    return position(tiles={(1, 0): "M01", (0, 1): "WA01", (1, 1): "WA02", (-1, 0): "F04", (-2, 0): "WA03"})


# --- the context -----------------------------------------------------------------------------------

def test_the_board_context_key_is_board_for_every_game(river_map):
    context = P.board_context({"view": RULES.view(river_map, A), "names": NAMES[:2], "seat": A,
                               "legal": RULES.legal_actions(river_map, A)})
    assert set(context) == {"scores", "board"}
    assert {"tiles", "targets", "players", "hand", "buttons", "viewbox"} <= set(context["board"])


def test_missing_names_fall_back_to_seat_numbers(river_map):
    page = P.Page.from_panel({"view": RULES.view(river_map, None), "names": ["Ada"], "legal": [], "seat": None})
    assert page.names == ["Ada", "Seat 2"]


# --- hex map ---------------------------------------------------------------------------------------

def test_joined_waters_draw_as_one_body_and_a_lone_water_is_a_pond(river_map):
    tiles = {t["key"]: t for t in P.map_tiles(page_of(river_map))}
    assert len(tiles["0,1"]["edges"]) == 5 and len(tiles["1,1"]["edges"]) == 5
    assert not tiles["0,1"]["pond"] and tiles["-2,0"]["pond"]
    assert len(tiles["1,0"]["edges"]) == 6 and tiles["1,0"]["water_neighbours"] == 2


def test_a_rifugio_and_a_holder_show_on_their_tile(river_map):
    river_map["rifugi"]["1,0"] = B
    river_map["seats"][A]["items"].append("FL1")
    river_map["board"]["2,0"] = {"tile": "FL1", "rot": 0}
    tiles = {t["key"]: t for t in P.map_tiles(page_of(river_map))}
    assert tiles["1,0"]["rifugio"]["name"] == "Bea" and "Rifugio of Bea" in tiles["1,0"]["title"]
    assert [h["name"] for h in tiles["2,0"]["holders"]] == ["Ada"] and tiles["2,0"]["icon"] == "flower"


def test_the_viewbox_of_a_small_map_is_at_least_seven_by_six_hexes():
    state = RULES.setup(2, None, 1)
    width, height = (float(v) for v in P.map_viewbox(page_of(state, None)).split()[2:])
    assert width >= P.MIN_VIEW_COLS * P.A * P.SQ3 - 0.1
    assert height >= P.MIN_VIEW_ROWS * 1.5 * P.A + P.A - 0.1


def test_frontier_cells_are_the_empty_neighbours():
    state = RULES.setup(2, None, 1)
    assert sorted(c["key"] for c in P.frontier_cells(page_of(state, None))) == sorted(
        f"{q},{r}" for q, r in [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)])


# --- pieces ----------------------------------------------------------------------------------------

def test_hikers_on_one_tile_stand_in_a_row_and_the_one_on_the_move_is_marked(river_map):
    hikers = P.hikers_on_land(page_of(river_map))
    assert [h["seat"] for h in hikers] == [A, B]
    assert hikers[0]["y"] == hikers[1]["y"] and hikers[1]["x"] - hikers[0]["x"] == P.HIKER_GAP
    assert [h["active"] for h in hikers] == [True, False]


def test_a_raft_carries_its_riders_and_an_empty_raft_is_unmanned(river_map):
    add_raft(river_map, B, 0, 1, riders=[A])
    add_raft(river_map, B, -2, 0)
    page = page_of(river_map)
    rafts = P.raft_pieces(page)
    assert rafts[0]["rider_names"] == "Ada" and not rafts[0]["unmanned"]
    assert rafts[1]["unmanned"] and rafts[1]["riders"] == []
    assert [h["seat"] for h in P.hikers_on_land(page)] == [B]


def test_a_swimmer_floats_in_the_water_with_an_arrow_to_the_shore(river_map):
    river_map["seats"][A]["walker"].update(
        {"at": [0, 1], "swim": {"from": [0, 0], "via": [0, 1], "to": [0, 2], "stage": 2}})
    (swimmer,) = P.swimmer_pieces(page_of(river_map))
    assert (swimmer["x"], swimmer["y"]) == tuple(round(v, 2) for v in P.centre(0, 1))
    assert swimmer["stage"] == 2 and swimmer["name"] == "Ada"


# --- placement -------------------------------------------------------------------------------------

def _placing(tile: str) -> dict:
    """Placing `tile` next to START (forest all round) and a rock tile east of it: a pass (exact
    edges, rock on three sides) fits only next to the rock, and only turned its rock side west."""
    state = RULES.setup(2, None, 1)
    state["board"]["1,0"] = {"tile": "R01", "rot": 0}
    state["hand"] = tile
    return state


def test_placement_shows_the_first_rotation_that_fits_and_ghosts_the_tile():
    state = _placing("PS1")
    controls = P.placement_controls(page_of(state, state["active"]))
    assert controls["rotation"] == controls["rotations"][0]
    placed = [t for t in controls["targets"] if t["kind"] == "place"]
    assert placed and all(t["action"]["rotation"] == controls["rotation"] and t["ghost"] for t in placed)


def test_a_cell_that_fits_only_after_a_turn_links_to_that_rotation():
    state = _placing("PS1")
    page = page_of(state, state["active"], selection="r:0")
    targets = P.placement_controls(page)["targets"]
    others = [t for t in targets if t["kind"] == "place-other"]
    assert others and all(t["sel"].startswith("r") and "after turning" in t["label"] for t in others)


def test_the_hand_box_turns_with_the_selection_and_names_its_sides():
    state = _placing("PS1")
    page = page_of(state, state["active"], selection="r:2")
    box = P.hand_box(page, 2, [0, 1, 2])
    assert box["rotation"] == 2 and box["left"] == "r:3" and box["right"] == "r:1"
    assert box["sides"].startswith("E ") and not box["no_spot"]
    assert P.hand_box(page, 4, [0, 1, 2])["no_spot"]


def test_a_symmetric_tile_has_no_sides_text():
    state = _placing("M01")
    box = P.hand_box(page_of(state, state["active"]), 0, [0])
    assert box["sides"] == "" and box["icon"] is None


# --- walk phase ------------------------------------------------------------------------------------

def test_step_targets_say_when_a_visit_pays_a_step_card(river_map):
    river_map["rifugi"]["1,0"] = B
    targets = {t["key"]: t for t in P.step_targets(page_of(river_map))}
    assert targets["1,0"]["badge"] == "+1 step" and "(+1 step card)" in targets["1,0"]["label"]
    assert targets["-1,0"]["badge"] == ""


def test_a_step_is_named_by_its_direction_and_the_place_it_reaches(river_map):
    river_map["board"]["0,-1"] = {"tile": "BR1", "rot": 0}
    targets = {t["key"]: t for t in P.step_targets(page_of(river_map))}
    assert targets["1,0"]["label"] == "Walk east to the meadow at (1,0)"
    assert targets["0,-1"]["label"] == "Walk north-west to Bear 1 (a bear, −3) at (0,-1)"


def test_a_placement_is_named_by_the_tile_the_cell_and_the_turn():
    state = _placing("PS1")
    page = page_of(state, state["active"], selection="r:2")
    targets = P.placement_controls(page)["targets"]
    place = [t for t in targets if t["kind"] == "place"]
    turned = P.placement_controls(page_of(state, state["active"], selection="r:0"))["targets"]
    turn = [t for t in turned if t["kind"] == "place-other"]
    assert place and all(re.fullmatch(r"Place the Pass 1 \(pass\) at \(-?\d+,-?\d+\), turned twice to the left",
                                      t["label"]) for t in place)
    assert turn and all(t["label"].startswith("Turn the tile so it fits at (") for t in turn)


def test_the_final_table_has_a_column_per_player_and_drops_river_parts_in_the_base_game(river_map):
    page = page_of(river_map, None)
    players = P.player_cards(page, [])
    players[A]["info"].update(score=4, rank=2)
    players[B]["info"].update(score=9, rank=1)
    final = P._final(players, page.view)
    assert [p["name"] for p in final["rows"]] == ["Bea", "Ada"]
    assert [line["label"] for line in final["lines"]] == list(P.BREAKDOWN_LABEL.values())
    assert all(len(line["cells"]) == 2 for line in final["lines"])
    river_map["options"]["rivers_and_rafts"] = False
    base = P._final(players, page_of(river_map, None).view)
    assert "Waterfall bonus" not in [line["label"] for line in base["lines"]]


def test_boarding_a_raft_is_labelled_with_its_owner(river_map):
    add_raft(river_map, B, 0, 1)
    targets = {t["key"]: t for t in P.step_targets(page_of(river_map))}
    assert targets["0,1"]["label"].startswith("Board the raft of Bea")


def test_water_to_sail_and_build_on_opens_a_menu_only_when_selected(river_map):
    add_raft(river_map, A, 0, 1, riders=[A])
    river_map["seats"][A]["rafts_left"] = 1
    targets, menu = P.water_targets(page_of(river_map))
    assert menu is None and any(t["kind"] == "menu" for t in targets)
    q, r = next(t for t in targets if t["kind"] == "menu")["key"].split(",")
    targets, menu = P.water_targets(page_of(river_map, selection=f"w:{q},{r}"))
    assert menu["sail"]["type"] == "sail" and menu["build"]["type"] == "build_raft"
    assert any(t["kind"] == "menu open" for t in targets)


def test_swim_mode_shows_shores_then_the_water_to_cross():
    state = position(tiles={(1, 0): "WA01", (0, 1): "WA02", (1, 1): "M01"}, at=(0, 0))
    for p in state["seats"]:
        p["rafts_left"] = 0
    put(state, B, 1, 1)
    controls = P.walk_controls(page_of(state, selection="swim"))
    shore = [t for t in controls["targets"] if t["kind"] == "swim-to"]
    assert [t["key"] for t in shore] == ["1,1"] and shore[0]["sel"] == "swim.to:1,1"
    chosen = P.walk_controls(page_of(state, selection="swim.to:1,1"))["targets"]
    assert [t["kind"] for t in chosen] == ["chosen", "swim-via", "swim-via"]


# --- player cards and final scoring ----------------------------------------------------------------

def test_player_cards_show_categories_waterfall_bonus_and_breakdown(river_map):
    river_map["board"]["0,2"] = {"tile": "WF1", "rot": 0}
    river_map["seats"][A]["items"] += ["WF1", "FL1", "FL2", "FL3"]
    page = page_of(river_map)
    ada = P.player_cards(page, P.map_tiles(page))[A]
    flowers = next(c for c in ada["categories"] if c["key"] == "FLOWER")
    assert flowers["complete"] and flowers["count"] == 3
    assert ada["waterfalls"] == [{"name": "Waterfall 1", "bonus": 2, "worth": 3}]
    assert ada["is_you"] and ada["is_active"] and "Complete sets 5" in ada["breakdown_text"]


def test_final_scoring_explains_a_tie_broken_by_raft_points(river_map):
    page = page_of(river_map, None)
    players = P.player_cards(page, [])
    players[A]["info"].update(score=10, rank=1, raft_cards=2)
    players[B]["info"].update(score=10, rank=2, raft_cards=1)
    final = P._final(players, page.view)
    assert [p["name"] for p in final["rows"]] == ["Ada", "Bea"]
    assert final["notes"] == ["Ada and Bea tie on 10 points; raft points break the tie: "
                              "Ada (2 raft cards), Bea (1 raft card)."]


def test_the_turn_summary_names_the_player_on_the_move_and_the_steps(river_map):
    summary = P.turn_summary(page_of(river_map, B))
    assert summary["active_name"] == "Ada" and summary["phase_label"] == "Walk"
    assert summary["steps"] == 2 and len(summary["pips"]) == 2 and not summary["acting"]


# --- the ?sel= convention (games/selection.py) -----------------------------------------------------

def test_every_legal_action_has_its_own_spelling_in_picks():
    state = RULES.setup(5, None, 11)
    import random
    rng = random.Random(11)
    for _ in range(150):
        seat = state["active"]
        legal = RULES.legal_actions(state, seat)
        spelled = [tuple(P.picks(a)) for a in legal]
        assert len(set(spelled)) == len(spelled)
        state = RULES.apply(state, seat, rng.choice(legal))


def test_a_forged_or_stale_selection_is_cut_back_to_what_is_legal(river_map):
    page = page_of(river_map, selection="w:99,99.sail")
    assert page.sel.picks == () and page.sel.raw == "" and not page.swim_mode
    assert page_of(river_map, B, selection="swim").sel.picks == ()      # not on the move: no picks


def test_a_rotation_is_an_extra_kept_apart_from_the_picks():
    state = _placing("PS1")
    page = page_of(state, state["active"], selection="r:3")
    assert page.rotation == 3 and page.sel.picks == ()
    assert page_of(state, state["active"], selection="r:7").rotation is None
