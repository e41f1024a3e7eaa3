"""The presenter's builders, one board area each, on views straight from the rules."""
from __future__ import annotations

from pathlib import Path

from games import selection
from games.rift_valley_reserve import geometry, presenter
from games.rift_valley_reserve.rules import RULES

from .helpers import blank, holding, stop

NAMES = ["ann", "bo", "cy"]


def panel_for(state, seat, sel=""):
    return {"view": RULES.view(state, seat), "seat": seat, "names": NAMES[:state["players"]],
            "legal": RULES.legal_actions(state, seat) if seat is not None else [], "selection": sel}


def two_stop_position():
    """Seat 0 on its own ID9 on a later turn, with Stops (0,3) and (2,5): two L routes."""
    state, _ = holding("ID9", 0, 0, build=lambda m: stop(m, 0, (0, 3), (2, 5)))
    return state


def test_picks_spell_a_trail_from_either_end_and_a_stop_by_mode_then_cell():
    assert presenter.picks({"type": "stop", "cell": [3, 4]}) == ["m:stop", "c:3-4"]
    trail = {"type": "trail", "from": [0, 3], "to": [2, 5], "corner": None}
    assert presenter.picks(trail) == [["a:0-3", "b:2-5", "k:none"], ["a:2-5", "b:0-3", "k:none"]]
    assert presenter.picks({"type": "pass"}) == ["pass"]


def test_choice_defaults_to_stop_mode_and_reads_the_picks():
    state = two_stop_position()
    legal = RULES.legal_actions(state, 0)
    ch = presenter.choice(presenter.select({"selection": "m:tent.c:4-0", "legal": legal}, 2), legal)
    assert ch["mode"] == "tent" and ch["ghost"] == (4, 0) and ch["first"] is None
    assert presenter.choice(presenter.select({"selection": "", "legal": legal}, 2), legal)["mode"] == "stop"


def test_mark_cells_links_legal_squares_and_confirms_the_ghost():
    state = blank(2)
    legal = RULES.legal_actions(state, 0)
    sel = presenter.select({"selection": "m:stop.c:0-3", "legal": legal}, 2)
    geo = presenter.map_geometry(RULES.view(state, 0)["maps"][0], geometry.CELL, ["#a", "#b"])
    presenter.mark_cells(geo, sel, presenter.choice(sel, legal))
    by_rc = {(c["r"], c["c"]): c for c in geo["cells"]}
    assert by_rc[(0, 3)]["post"] == {"type": "stop", "cell": [0, 3]}
    assert by_rc[(0, 1)]["get"] is None and by_rc[(0, 1)]["cancel"] == ""   # (0,1) touches an animal
    legal_other = next(c for c in geo["cells"] if c["legal"] and (c["r"], c["c"]) != (0, 3))
    assert legal_other["get"] == f"m:stop.c:{legal_other['r']}-{legal_other['c']}"


def test_routes_offer_each_legal_trail_between_the_two_chosen_stops():
    state = two_stop_position()
    legal = RULES.legal_actions(state, 0)
    sel = presenter.select({"selection": "a:2-5.b:0-3", "legal": legal}, 2)
    routes = presenter.routes(sel, presenter.choice(sel, legal))
    assert sorted(r["corner"] for r in routes) == ["0,5", "2,3"]
    assert all(r["action"] in legal for r in routes)


def test_mark_stops_gives_each_stop_its_role():
    state = two_stop_position()
    legal = RULES.legal_actions(state, 0)
    view = RULES.view(state, 0)
    sel = presenter.select({"selection": "a:0-3", "legal": legal}, 2)
    geo = presenter.map_geometry(view["maps"][0], geometry.CELL, ["#a", "#b"])
    presenter.mark_stops(geo, sel, presenter.choice(sel, legal), presenter.trail_partners(legal), 0)
    roles = {(s["r"], s["c"]): (s["role"], s["get"]) for s in geo["stops"]}
    assert roles == {(0, 3): ("first", ""), (2, 5): ("partner", "a:0-3.b:2-5")}


def test_shown_map_follows_the_view_pick_else_the_held_map():
    view = RULES.view(blank(3), 1)
    assert presenter.shown_map(view, 1, presenter.select({"selection": ""}, 3)) == 1
    assert presenter.shown_map(view, 1, presenter.select({"selection": "v:2"}, 3)) == 2
    assert presenter.shown_map(view, 1, presenter.select({"selection": "v:3"}, 3)) == 1    # no map 3


def test_thumbs_link_to_each_map_and_back_to_the_held_one():
    view = RULES.view(blank(3), 1)
    sel = presenter.select({"selection": "v:2"}, 3)
    thumbs = presenter.thumbs(view, NAMES, view["seat_colours"], sel, 2)
    assert [t["get"] for t in thumbs] == ["v:0", "", "v:2"]
    assert thumbs[2]["shown"] and thumbs[1]["held"] and thumbs[0]["next_name"] == "bo"


def test_seat_rows_say_who_has_drawn_without_saying_what():
    state = RULES.apply(blank(3), 0, {"type": "stop", "cell": [0, 3]})
    rows = presenter.seat_rows(RULES.view(state, 1), NAMES)
    assert [r["status"] for r in rows] == ["drawn", "drawing…", "drawing…"]


def test_score_rows_are_best_first_with_numbers_per_map():
    state = RULES.apply(RULES.apply(blank(2), 0, {"type": "stop", "cell": [0, 3]}), 1, {"type": "stop", "cell": [8, 4]})
    rows = presenter.score_rows(RULES.view(state, None), NAMES[:2])
    assert [r["total"] for r in rows] == [-2, -2] and rows[0]["cells"] == [0, 0, 0, -2]
    assert len(rows[0]["per_map"]) == 2


def test_stage_text_names_the_stage_and_the_turns_left():
    assert presenter.stage_text({"stage": "opening"}, True) == "First turn: Stops only"
    assert presenter.stage_text({"stage": "final", "turns_left": 1}, True) == "Final stage: 1 turn left — you may pass"
    assert presenter.stage_text({"stage": "over"}, False) == "Game over"


def test_history_rows_group_the_events_by_turn_newest_first():
    state = RULES.apply(RULES.apply(blank(2), 0, {"type": "stop", "cell": [0, 3]}), 1, {"type": "stop", "cell": [8, 4]})
    rows = presenter.history_rows(RULES.view(state, None), NAMES[:2])
    assert [{k: row[k] for k in ("turn", "title", "lines")} for row in rows] == [
        {"turn": 1, "title": "Turn 1", "lines": ["ann drew a Stop at D1 on ann's map.",
                                                 "bo drew a Stop at E9 on bo's map."]}]
    assert presenter.history_html(rows) == ("<li><strong>Turn 1</strong><ul>"
                                            "<li>ann drew a Stop at D1 on ann&#x27;s map.</li>"
                                            "<li>bo drew a Stop at E9 on bo&#x27;s map.</li></ul></li>")  # once


def test_board_context_uses_the_board_key_and_keeps_the_selection_only_while_acting():
    state = blank(2)
    context = presenter.board_context(panel_for(state, 0, "m:stop.c:0-3"))
    assert set(context) == {"board"} and context["board"]["selection"] == "m:stop.c:0-3"
    assert presenter.board_context(panel_for(state, None, "m:stop.c:0-3"))["board"]["selection"] == ""


def test_geometry_draws_an_l_trail_with_a_rounded_corner_and_planks_over_the_rift():
    assert geometry.trail_d([(0, 0), (0, 1), (0, 2)], 10).startswith("M8.0,8.0 L28.0,8.0")
    assert " Q" in geometry.trail_d([(0, 0), (0, 1), (1, 1)], 10)
    assert geometry.planks([(0, 0), (0, 1), (0, 2)], [".|."], 10) == [{"x": 13, "y": 6.0, "w": 10, "h": 4.0}]
    assert len(geometry.rift_outline(["|"], 10)) == 4


def test_selection_helper_is_what_cuts_a_forged_pick():
    legal = RULES.legal_actions(blank(2), 0)
    assert presenter.select({"selection": "m:tent.c:0-3", "legal": legal}, 2).picks == ()
    assert isinstance(presenter.select({"selection": ""}, 2), selection.Selection)


def test_when_one_route_alone_joins_two_stops_the_second_tap_draws_it():
    """Issue 19, row 4: a finger hit one of the two big Stops rather than the thin route
    between them; with a single route, tapping the second Stop submits that Trail."""
    state, _ = holding("ID9", 0, 0, build=lambda m: stop(m, 0, (0, 3), (0, 6)))   # a straight line only
    legal = RULES.legal_actions(state, 0)
    sel = presenter.select({"selection": "a:0-3", "legal": legal}, 2)
    geo = presenter.map_geometry(RULES.view(state, 0)["maps"][0], geometry.CELL, ["#a", "#b"])
    presenter.mark_stops(geo, sel, presenter.choice(sel, legal), presenter.trail_partners(legal), 0,
                         presenter.only_routes(legal))
    second = next(s for s in geo["stops"] if (s["r"], s["c"]) == (0, 6))
    assert second["post"] == {"type": "trail", "from": [0, 3], "to": [0, 6], "corner": None} \
        or second["post"] == {"type": "trail", "from": [0, 6], "to": [0, 3], "corner": None}
    assert second["post"] in legal and second["label"].startswith("Draw the straight Trail")
    two = two_stop_position()                                      # two L routes: the tap still asks
    legal = RULES.legal_actions(two, 0)
    assert presenter.only_routes(legal) == {}


def test_the_route_hit_stroke_is_almost_a_square_wide():
    css = Path(geometry.__file__).parent / "static/games/rift-valley-reserve/board.css"
    rule = next(line for line in css.read_text().splitlines() if line.startswith(".rvr-map .route .hit"))
    width = int(rule.split("stroke-width:")[1].split(";")[0])
    assert width >= 24 * geometry.CELL / 44 and width < geometry.CELL   # ≥ 24 px at the smallest scale


def test_history_buttons_and_pending_draw_name_a_square_the_same_way():
    """Issue 19, row 8: the History said "Stop at (6,5)" (from 0), the buttons "row 7,
    column 6" (from 1), a tooltip "cell [6, 5]": a player could not match one to the
    other. Every one now says "F7", as the map's edges label that square."""
    event = {"type": "stop", "seat": 0, "turn": 1, "map": 0, "cell": [6, 5]}
    history = presenter.describe(event, NAMES)
    button = presenter.cell_label("stop", (6, 5), "Open Plain", confirm=False)
    pending = presenter.describe_action({"type": "stop", "cell": [6, 5]})
    assert "F7" in history and "F7" in button and "F7" in pending
    trail = presenter.describe({"type": "trail", "seat": 1, "turn": 2, "from": [0, 3], "to": [2, 5],
                                "corner": [2, 3]}, NAMES)
    assert trail == "bo drew a Trail from D1 to F3 via D3."


def test_a_thumbnail_is_drawn_once_per_position_and_language_and_shows_each_new_draw():
    """svg.THUMBS: every seat's panel shares the thumbnails of one position (issue 21)."""
    from django.utils import translation

    from games.rift_valley_reserve.rules.board import draw

    state = blank(2)
    m = RULES.view(state, None)["maps"][0]
    colours = list(RULES.view(state, None)["seat_colours"])
    first = presenter.thumb_svg(m, colours)
    assert presenter.thumb_svg(RULES.view(state, 1)["maps"][0], colours) is first      # another seat: the same one
    assert 'data-kind="stop"' not in first and first.startswith('<svg class="rvr-map thumb" viewBox="0 0 ')
    state["maps"][0] = draw(state["maps"][0], 1, {"type": "stop", "cell": [0, 3]})
    after = presenter.thumb_svg(RULES.view(state, None)["maps"][0], colours)
    assert after is not first and after.count('data-kind="stop"') == 1
    with translation.override("de"):
        assert 'aria-label="Offene Ebene"' in presenter.thumb_svg(RULES.view(state, None)["maps"][0], colours)
