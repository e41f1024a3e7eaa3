"""What one seat (or a spectator) sees (spec §5.4, §11, §14).

Other seats' maps come from their `public` snapshot, taken when the last round resolved,
so nothing a seat does in the current round shows before the round resolves (D20): not
its map, and not its events. The view holds data only; the presenter words it.
"""
from __future__ import annotations

from typing import Any

from . import board as B
from .data import ANIMAL_OF, BREAKDOWN_KEYS, DIRECTIONS, GOALS, ICON_OF, SHAPE_NAME, TERRAINS, TILES

EVENTS_SHOWN = 60


def tile_info(tile_id: str) -> dict:
    """Everything a board page needs to draw a drawn tile on either side and rotation."""
    tile = TILES[tile_id]
    return {"id": tile_id, "terrain": tile["terrain"], "shape": tile["shape"],
            "shape_name": SHAPE_NAME[tile["shape"]], "miles": tile["miles"],
            "fork": tile["shape"] == "T", "animal": ANIMAL_OF[tile["terrain"]],
            "exits_by_rotation": [sorted(B.EXITS[(tile["shape"], r)]) for r in range(4)],
            "icons": {"trail": 1, "terrain": 2}}


def _drawing(map_: dict, _extra: Any) -> dict:
    board = B.parse(map_)
    cells = {}
    for (x, y), piece in sorted(board.items(), key=lambda item: (item[0][1], item[0][0])):
        cell = B.describe(piece)
        cell.update(x=x, y=y)
        if piece["kind"] == "waterfall":
            cell["points"] = B.waterfall_points(board, (x, y))
        cells[B.cell_key((x, y))] = cell
    open_ends = sorted(B.targeted_cells(board), key=lambda c: (c[1], c[0]))
    xs = [c[0] for c in board] + [c[0] for c in open_ends]
    ys = [c[1] for c in board] + [c[1] for c in open_ends]
    return {"map": cells, "open_ends": [[x, y] for x, y in open_ends],
            "bounds": {"minx": min(xs), "maxx": max(xs), "miny": min(ys), "maxy": max(ys)}}


_drawings: B.MapMemo[dict] = B.MapMemo(_drawing)


def map_drawing(map_: dict) -> dict:
    """The map with drawing data per cell (keyed "x,y" like the state's map), the open
    ends (where lakes would go) and the bounds. Memoised on the map: the containers are
    fresh, the per-cell dicts are shared between views and must be read, not changed."""
    hit = _drawings(map_)
    return {"map": dict(hit["map"]), "open_ends": [list(c) for c in hit["open_ends"]], "bounds": dict(hit["bounds"])}


def goal_card(goal_id: str, value: int | None) -> dict:
    goal = GOALS[goal_id]
    return {"id": goal_id, "name": goal["name"], "text": goal["text"], "value": value}


def _spots(map_: dict, kind: str) -> list[dict]:
    board = B.parse(map_)
    if kind == "waterfall":
        return [{"x": x, "y": y, "points": B.waterfall_points(board, (x, y))} for x, y in B.waterfall_cells(board)]
    options = []
    for cell in sorted(B.targeted_cells(board), key=lambda c: (c[1], c[0])):
        ok, miles = B.campsite_ok(board, cell)
        if ok:
            options.append({"x": cell[0], "y": cell[1], "miles": miles})
    return options


_spot_memo: B.MapMemo[list[dict]] = B.MapMemo(_spots)


def _own_extras(s: dict) -> dict:
    """The acting seat's private part: its hand, pending waterfalls and campsite spots."""
    extra: dict[str, Any] = {"hand": list(s["hand"]), "hand_tiles": [tile_info(t) for t in s["hand"]],
                             "waterfalls_pending": s["waterfalls_pending"], "campsite_used": s["campsite_used"]}
    if s["waterfalls_pending"]:
        extra["waterfall_options"] = [dict(o) for o in _spot_memo(s["map"], "waterfall")]
    elif s["hand"] and not s["campsite_used"]:
        extra["campsite_options"] = [dict(o) for o in _spot_memo(s["map"], "campsite")]
    return extra


def _last_round(history: list[dict]) -> dict | None:
    if not history:
        return None
    last = history[-1]
    return {"round": last["round"], "gifts": [dict(g) for g in last["gifts"]],
            "out": {seat: list(tiles) for seat, tiles in last["out"].items()}}


def seat_entry(state: dict, i: int, viewer: int | None) -> dict:
    s = state["seats"][i]
    over = state["phase"] == "over"
    live = over or viewer == i
    src = s if live else s["public"]
    entry = {
        "seat": i, "base_camp": s["base_camp"], **map_drawing(src["map"]),
        "animals": list(src["animals"]), "out": list(src["out"]), "done": s["done"],
        "status": "done" if (s["done"] or over) else "placing",
        "as_of_round": state["round"] if live else state["round"] - 1,
        "live": live,
    }
    if live:
        entry["score"] = B.score_map(src["map"], s["goal"])
        entry["goal"] = s["goal"]
        entry["goal_card"] = goal_card(s["goal"], entry["score"]["breakdown"]["goal"])
    else:
        entry["score"] = B.score_map(src["map"], None)
    if viewer == i and not over:
        entry.update(_own_extras(s))
    return entry


def visible_events(state: dict, viewer: int | None) -> list[dict]:
    """The public events, then the viewer's own moves of the round still in progress
    (nobody else sees them before the round resolves)."""
    events = list(state.get("events", ())[-EVENTS_SHOWN:])  # none in a state saved with `log`
    if viewer is not None and state["phase"] != "over":
        own = state["seats"][viewer].get("round_events", ())  # none in a seat saved with `round_log`
        events += [{**e, "seat": viewer, "turn": state["round"]} for e in own]
    return events


def build_view(rules, state: dict, viewer: int | None) -> dict:
    over = state["phase"] == "over"
    seats = [seat_entry(state, i, viewer) for i in range(len(state["seats"]))]
    result = None
    if over:
        scores = rules.scores(state)
        result = {"scores": scores, "ranking": rules.ranking(state),
                  "title": B.solo_title(scores[0]["total"]) if state["solo"] else None}
    return {
        "game": "alpine-trails",
        "phase": state["phase"],
        "round": state["round"],
        "rounds": state["rounds"],
        "players": state["players"],
        "bag_left": len(state["bag"]),
        "solo": state["solo"],
        "viewer": viewer,
        "to_act": rules.to_act(state),
        "seats": seats,
        "last_round": _last_round(state["history"]),
        "events": visible_events(state, viewer),
        "result": result,
        # The score each seat may see: its own live, the others' as of the last resolved round.
        "scores": [{"total": e["score"]["total"], "breakdown": dict(e["score"]["breakdown"])} for e in seats],
        "legend": {"terrains": list(TERRAINS), "animal_of": dict(ANIMAL_OF), "icon_of": dict(ICON_OF),
                   "directions": list(DIRECTIONS), "breakdown_keys": list(BREAKDOWN_KEYS)},
    }
