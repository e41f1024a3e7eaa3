"""The board builders of Alpine Trails' presenter, one area each, on views from the rules."""
from __future__ import annotations

from games.alpine_trails import presenter as P
from games.alpine_trails.rules import RULES

from .helpers import build, trail

NAMES = ["Ann", "Bob", "Cy"]


def _by(state, seat=0):
    return P._by_type(RULES.legal_actions(state, seat))


def test_resolve_selection_keeps_a_legal_choice_and_says_the_player_made_it():
    state = RULES.setup(2, {}, 4)
    hand = state["seats"][0]["hand"]
    sel, explicit = P.resolve_selection(f"tile:{hand[1]}.side:terrain.rot:3", RULES.legal_actions(state, 0), hand)
    assert sel == {"mode": "tile", "tile": hand[1], "side": "terrain", "rotation": 0} and explicit


def test_resolve_selection_drops_a_forged_tile_for_the_first_drawn_one():
    state = RULES.setup(2, {}, 4)
    hand = state["seats"][0]["hand"]
    legal = RULES.legal_actions(state, 0)
    for forged in ("tile:T999.side:trail.rot:0", "animal:bear", f"camp:{hand[0]}", "t:T001:trail:0", "x" * 999):
        sel, explicit = P.resolve_selection(forged, legal, hand)
        assert sel["tile"] == hand[0] and sel["mode"] == "tile" and not explicit


def test_tile_targets_match_the_legal_places_for_the_shown_rotation():
    state = RULES.setup(2, {}, 4)
    by = _by(state)
    tile = state["seats"][0]["hand"][0]
    sel = P._default_tile_sel(tile, by["place"])
    highlights, message = P.tile_targets(sel, by)
    exact = {(h["x"], h["y"]) for h in highlights if not h.get("faint")}
    legal = {(a["x"], a["y"]) for a in by["place"] if a["tile"] == tile and a["side"] == sel["side"]
             and (sel["side"] == "terrain" or a["rotation"] == sel["rotation"])}
    assert exact == legal and message


def test_waterfall_targets_show_the_points_each_spot_scores():
    state = build("BC2", [trail("T079", 0, -1, 1), trail("T080", 1, -1, 2)])
    by = _by(state)
    me = RULES.view(state, 0)["seats"][0]
    highlights, message = P.waterfall_targets(by, me)
    assert {(h["x"], h["y"]) for h in highlights} == {(a["x"], a["y"]) for a in by["waterfall"]}
    assert all(h["label"].startswith("+") for h in highlights) and "waterfall" in message


def test_hand_tray_and_buttons_follow_the_selection():
    state = RULES.setup(2, {}, 4)
    by = _by(state)
    hand = state["seats"][0]["hand"]
    sel = {"mode": "tile", "tile": hand[0], "side": "trail", "rotation": 1}
    tray = P.hand_tray(sel, hand, by["place"])
    assert [t["selected"] for t in tray] == [True, False] and tray[0]["rotation"] == 1
    buttons = P.tile_buttons(sel, by)
    assert buttons["rotate"] == f"tile:{hand[0]}.side:trail.rot:2"
    assert buttons["flip"] == f"tile:{hand[0]}.side:terrain.rot:1"
    assert P.tile_buttons({"mode": "campsite", "tile": hand[0]}, by).keys() == {"cancel"}


def test_held_animals_are_selectable_only_where_one_can_go():
    me = {"animals": ["bear", "goat", "goat"]}
    by = {"animal": [{"type": "animal", "animal": "goat", "x": 0, "y": 1}]}
    held = P.held_animals({"mode": "animal", "animal": "goat"}, me, by)
    assert [(h["animal"], h["count"], bool(h["sel"]), h["selected"]) for h in held] == [
        ("bear", 1, False, False), ("goat", 2, True, True)]


def test_selection_key_round_trips_through_parse_selection_and_ghosts_follow_the_mode():
    tile, hand = "T001", ["T001"]
    legal = [{"type": "place", "tile": tile, "side": "trail", "x": 0, "y": 1, "rotation": 2},
             {"type": "campsite", "discard": tile, "x": 5, "y": 5},
             {"type": "animal", "animal": "bear", "x": 1, "y": 1}]
    for raw in (f"tile:{tile}.side:trail.rot:2", f"camp:{tile}", "animal:bear"):
        assert P.selection_key(P.parse_selection(raw, legal, hand)) == raw
    assert P.ghost_of({"mode": "waterfall"})["kind"] == "waterfall" and P.ghost_of({"mode": "none"}) is None


def test_other_maps_leave_out_the_viewer_and_say_how_old_they_are():
    view = RULES.view(RULES.setup(3, {}, 4), 1)
    maps = P.other_maps(view, 1, NAMES)
    assert [m["seat"] for m in maps] == [0, 2] and all(m["as_of"] == "start of the game" for m in maps)


def test_gift_notices_name_the_giver_for_the_receiver_only():
    view = {"phase": "play", "round": 2, "last_round": {"round": 1, "gifts": [{"from": 0, "to": 1, "animal": "goat"}]}}
    assert P.gift_notices(view, 1, NAMES) == ["Ann placed a rock fork: you receive a goat."]
    assert P.gift_notices(view, 2, NAMES) == [] and P.gift_notices(view, None, NAMES) == []


def test_board_context_uses_the_shared_board_key():
    state = RULES.setup(2, {}, 4)
    panel = {"view": RULES.view(state, 0), "seat": 0, "names": NAMES[:2], "legal": RULES.legal_actions(state, 0)}
    context = P.board_context(panel)
    assert "at" not in context and context["board"]["acting"] and context["board"]["main"]["cells"]
