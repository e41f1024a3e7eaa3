"""What one seat (or a spectator) sees (spec §5.4, §11, §14).

Other seats' maps come from their `public` snapshot, taken when the last round resolved,
so nothing a seat does in the current round shows before the round resolves (D20).
"""
from __future__ import annotations

from . import board as B
from .data import ANIMAL_OF, BREAKDOWN_KEYS, DIRECTIONS, GOALS, ICON_OF, SHAPE_NAME, TERRAINS
from .rules import solo_title, tile_info

LOG_SHOWN = 30


def _cell_title(piece: dict) -> str:
    kind = piece["kind"]
    if kind == "trail":
        exits = " and ".join(DIRECTIONS[d] for d in piece["exits"])
        return (f"{piece['terrain'].capitalize()} {SHAPE_NAME[piece['shape']]}, "
                f"{piece['miles']} mile{'s' if piece['miles'] != 1 else ''}, exits {exits}")
    if kind == "terrain":
        return f"{piece['terrain'].capitalize()} habitat, 2 icons" + (
            f", with a {piece['animal']}" if piece.get("animal") else "")
    if kind == "basecamp":
        return f"Base camp {piece['camp']} square {piece['square']}, {piece['terrain']}"
    return {"campsite": "Campsite with a tent", "waterfall": "Waterfall", "lake": "Lake"}[kind]


_DRAW_CACHE: dict = {}


def map_drawing(map_: dict) -> dict:
    """The map with drawing data per cell (keyed "x,y" like the state's map), the open
    ends (where lakes would go) and the bounds. Memoised on the map's content."""
    key = B.map_fingerprint(map_)
    hit = _DRAW_CACHE.get(key)
    if hit is None:
        board = B.parse(map_)
        cells = {}
        for (x, y), piece in sorted(board.items(), key=lambda item: (item[0][1], item[0][0])):
            cell = B.describe(piece)
            cell.update(x=x, y=y)
            if piece["kind"] == "waterfall":
                cell["points"] = B.waterfall_points(board, (x, y))
            cell["title"] = _cell_title(cell)
            cells[B.cell_key((x, y))] = cell
        open_ends = sorted(B.targeted_cells(board), key=lambda c: (c[1], c[0]))
        xs = [c[0] for c in board] + [c[0] for c in open_ends]
        ys = [c[1] for c in board] + [c[1] for c in open_ends]
        hit = {"map": cells, "open_ends": [[x, y] for x, y in open_ends],
               "bounds": {"minx": min(xs), "maxx": max(xs), "miny": min(ys), "maxy": max(ys)}}
        if len(_DRAW_CACHE) >= B.CACHE_LIMIT:
            _DRAW_CACHE.clear()
        _DRAW_CACHE[key] = hit
    return B.jcopy(hit)


def goal_card(goal_id: str, value: int | None) -> dict:
    goal = GOALS[goal_id]
    return {"id": goal_id, "name": goal["name"], "text": goal["text"], "value": value}


def build_view(rules, state: dict, viewer: int | None) -> dict:
    over = state["phase"] == "over"
    seats = []
    for i, s in enumerate(state["seats"]):
        live = over or viewer == i
        src = s if live else s["public"]
        drawing = map_drawing(src["map"])
        entry = {
            "seat": i,
            "base_camp": s["base_camp"],
            **drawing,
            "animals": list(src["animals"]),
            "out": list(src["out"]),
            "done": s["done"],
            "status": "done" if (s["done"] or over) else "placing",
            "as_of_round": state["round"] if over else (state["round"] if viewer == i else state["round"] - 1),
            "live": live,
        }
        if live:
            score = B.score_map(src["map"], s["goal"])
            entry["goal"] = s["goal"]
            entry["goal_card"] = goal_card(s["goal"], score["breakdown"]["goal"])
        else:
            score = B.score_map(src["map"], None)
        entry["score"] = score
        if viewer == i and not over:
            entry["hand"] = list(s["hand"])
            entry["hand_tiles"] = [tile_info(t) for t in s["hand"]]
            entry["waterfalls_pending"] = s["waterfalls_pending"]
            entry["campsite_used"] = s["campsite_used"]
            entry["round_log"] = [f"You {line}." for line in s["round_log"]]
            board = B.parse(s["map"])
            if s["waterfalls_pending"]:
                entry["waterfall_options"] = [{"x": x, "y": y, "points": B.waterfall_points(board, (x, y))}
                                              for x, y in B.waterfall_cells(board)]
            elif s["hand"] and not s["campsite_used"]:
                options = []
                for cell in sorted(B.targeted_cells(board), key=lambda c: (c[1], c[0])):
                    ok, miles = B.campsite_ok(board, cell)
                    if ok:
                        options.append({"x": cell[0], "y": cell[1], "miles": miles})
                entry["campsite_options"] = options
        seats.append(entry)

    result = None
    if over:
        scores = rules.scores(state)
        result = {"scores": scores, "ranking": rules.ranking(state),
                  "title": solo_title(scores[0]["total"]) if state["solo"] else None}
    history = state["history"]
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
        "last_round": B.jcopy(history[-1]) if history else None,
        "log": list(state["log"][-LOG_SHOWN:]),
        "result": result,
        # The score each seat may see: its own live, the others' as of the last resolved round.
        "scores": [B.jcopy(entry["score"]) for entry in seats],
        "legend": {"terrains": list(TERRAINS), "animal_of": dict(ANIMAL_OF), "icon_of": dict(ICON_OF),
                   "directions": list(DIRECTIONS), "breakdown_keys": list(BREAKDOWN_KEYS)},
    }
