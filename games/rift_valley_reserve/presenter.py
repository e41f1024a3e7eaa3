"""Rift Valley Reserve: the maps as SVG grids, the flow of maps round the table, and the
Stop / Tent / Trail controls.

Everything is computed from the seat's view (which never holds another seat's pending
draw) and the seat's legal actions. Multi-step choices live in the `?sel=` string of the
panel URL, a few dot-separated tokens:

    ms | mt      mode: Stop or Tent
    v<b>         enlarge map b for viewing (drawing stays on the held map)
    g<r>-<c>     ghost of a Stop/Tent on that cell, waiting for confirmation
    a<r>-<c>     first Stop of a Trail
    b<r>-<c>     second Stop of a Trail (its legal routes are offered)
"""
from __future__ import annotations

import re

from games.panel import name_seats
from games.rift_valley_reserve.rules.board import trail_path

OPTION_SPECS = {
    "boards": {"label": "Maps", "choices": [
        ("identical", "Identical: everyone gets the same 9×9 Open Plain"),
        ("asymmetrical", "Asymmetrical: five different 10×10 maps with trees and water"),
    ]},
}

SCRIPT = "games/rift-valley-reserve/board.js"
STYLESHEET = "games/rift-valley-reserve/board.css"

CELL = 44          # main map, px per cell
THUMB = 13         # thumbnails, px per cell
PAD = 3            # margin round a map
SHAPES = ["●", "■", "▲", "◆", "★"]   # a per-seat mark next to names (colour is never the only cue)
CATEGORY_LABELS = [("trails", "Trails"), ("animals", "Animals"), ("tents", "Tents"),
                   ("stop_penalty", "Unconnected Stops")]
TERRAIN_CLASS = {".": "ground", "A": "animal", "T": "tree", "W": "water", "|": "rift", "-": "rift", "#": "rift"}
TOKEN = re.compile(r"^([msvgab])(.*)$")


# --- Selection ------------------------------------------------------------------------

def _cell_token(value: str):
    m = re.fullmatch(r"(\d{1,2})-(\d{1,2})", value)
    return (int(m.group(1)), int(m.group(2))) if m else None


def parse_selection(raw: str) -> dict:
    sel = {"mode": None, "view": None, "g": None, "a": None, "b": None}
    for token in (raw or "").split(".")[:8]:
        m = TOKEN.match(token)
        if not m:
            continue
        key, rest = m.groups()
        if key == "m" and rest in ("s", "t"):
            sel["mode"] = "stop" if rest == "s" else "tent"
        elif key == "v" and rest.isdigit() and len(rest) < 2:
            sel["view"] = int(rest)
        elif key in ("g", "a", "b"):
            sel[key] = _cell_token(rest)
    return sel


def make_selection(mode: str | None = None, view: int | None = None, g=None, a=None, b=None) -> str:
    parts = []
    if mode:
        parts.append("m" + mode[0])
    if view is not None:
        parts.append(f"v{view}")
    for key, cell in (("g", g), ("a", a), ("b", b)):
        if cell is not None:
            parts.append(f"{key}{cell[0]}-{cell[1]}")
    return ".".join(parts)


# --- Geometry -------------------------------------------------------------------------

def _centre(r: int, c: int, size: float) -> tuple[float, float]:
    return PAD + c * size + size / 2, PAD + r * size + size / 2


def _trail_d(path: list, size: float) -> str:
    """An SVG path through cell centres, with a rounded corner for an L."""
    pts = [_centre(r, c, size) for r, c in path]
    corner = None
    for i in range(1, len(path) - 1):
        (r0, c0), (r1, c1), (r2, c2) = path[i - 1], path[i], path[i + 1]
        if (r0 == r1) != (r1 == r2):
            corner = i
    if corner is None:
        return f"M{pts[0][0]:.1f},{pts[0][1]:.1f} L{pts[-1][0]:.1f},{pts[-1][1]:.1f}"
    (x0, y0), (xk, yk), (x1, y1) = pts[0], pts[corner], pts[-1]
    rad = size * 0.45

    def toward(xa, ya, xb, yb):
        dx, dy = xb - xa, yb - ya
        length = max(abs(dx), abs(dy)) or 1
        return xa + dx / length * rad, ya + dy / length * rad
    ax, ay = toward(xk, yk, x0, y0)
    bx, by = toward(xk, yk, x1, y1)
    return (f"M{x0:.1f},{y0:.1f} L{ax:.1f},{ay:.1f} Q{xk:.1f},{yk:.1f} {bx:.1f},{by:.1f} "
            f"L{x1:.1f},{y1:.1f}")


def _triangle(r: int, c: int, size: float) -> str:
    x, y = _centre(r, c, size)
    h = size * 0.36
    return f"{x:.1f},{y - h:.1f} {x + h:.1f},{y + h * 0.8:.1f} {x - h:.1f},{y + h * 0.8:.1f}"


def map_geometry(m: dict, size: float, colours: list[str], *, pending: dict | None = None,
                 pending_seat: int | None = None, arrows: bool = False) -> dict:
    rows, cols = m["rows"], m["cols"]
    terrain, areas = m["terrain"], m["areas"]
    recent = {(r, c) for r, c in m.get("recent", [])}
    owner_colour = colours[m["owner"]]
    cells = []
    seen_areas = set()
    labels = []
    for r in range(rows):
        for c in range(cols):
            ch = terrain[r][c]
            x, y = PAD + c * size, PAD + r * size
            cells.append({"r": r, "c": c, "x": x, "y": y, "cx": x + size / 2, "cy": y + size / 2,
                          "t": TERRAIN_CLASS.get(ch, "ground"), "ch": ch, "area": areas[r][c],
                          "arrow": ("h" if ch == "|" else "v" if ch == "-" else "") if arrows else "",
                          # Inert unless board_context makes the cell clickable. The keys must
                          # exist: in a template a missing "get" finds dict.get, which is not None.
                          "legal": False, "get": None, "post": None, "cancel": None})
            if areas[r][c] not in seen_areas:
                seen_areas.add(areas[r][c])
                labels.append({"x": x + 3, "y": y + size * 0.28, "area": areas[r][c]})
    borders, rift = [], []
    is_rift = [[terrain[r][c] in "|-#" for c in range(cols)] for r in range(rows)]
    for r in range(rows):
        for c in range(cols):
            x, y = PAD + c * size, PAD + r * size
            if c + 1 < cols and areas[r][c] != areas[r][c + 1]:
                borders.append((x + size, y, x + size, y + size))
            if r + 1 < rows and areas[r][c] != areas[r + 1][c]:
                borders.append((x, y + size, x + size, y + size))
            if is_rift[r][c]:
                if r == 0 or not is_rift[r - 1][c]:
                    rift.append((x, y, x + size, y))
                if r == rows - 1 or not is_rift[r + 1][c]:
                    rift.append((x, y + size, x + size, y + size))
                if c == 0 or not is_rift[r][c - 1]:
                    rift.append((x, y, x, y + size))
                if c == cols - 1 or not is_rift[r][c + 1]:
                    rift.append((x + size, y, x + size, y + size))
    stops, tents = [], []
    for key, drawn in m["cells"].items():
        r, c = (int(v) for v in key.split(","))
        cx, cy = _centre(r, c, size)
        item = {"r": r, "c": c, "cx": cx, "cy": cy, "seat": drawn["seat"], "colour": colours[drawn["seat"]],
                "get": None, "role": "",
                "num": drawn["seat"] + 1, "recent": (r, c) in recent,
                "ty": round(cy + size * (0.2 if drawn["kind"] == "tent" else 0.12), 1)}
        if drawn["kind"] == "stop":
            item["connected"] = drawn.get("connected", False)
            stops.append(item)
        elif drawn["kind"] == "tent":
            item["points"] = _triangle(r, c, size)
            tents.append(item)
    trails = []
    for t in m["trails"]:
        path = t["path"]
        planks = []
        for i in range(1, len(path) - 1):
            r, c = path[i]
            if terrain[r][c] in "|-#":
                x, y = PAD + c * size, PAD + r * size
                horizontal = path[i - 1][0] == r
                planks.append({"x": x, "y": y + size * 0.3, "w": size, "h": size * 0.4} if horizontal
                              else {"x": x + size * 0.3, "y": y, "w": size * 0.4, "h": size})
        trails.append({"id": t["id"], "seat": t["seat"], "colour": colours[t["seat"]], "d": _trail_d(path, size),
                       "planks": planks, "recent": all((r, c) in recent for r, c in path),
                       "label": f"Trail from ({path[0][0]},{path[0][1]}) to ({path[-1][0]},{path[-1][1]})"})
    mine = None
    if pending and pending.get("type") in ("stop", "tent", "trail") and pending_seat is not None:
        colour = colours[pending_seat]
        if pending["type"] == "trail":
            path = _path(pending)
            mine = {"kind": "trail", "d": _trail_d(path, size), "colour": colour}
        else:
            r, c = pending["cell"]
            cx, cy = _centre(r, c, size)
            mine = {"kind": pending["type"], "cx": cx, "cy": cy, "colour": colour, "num": pending_seat + 1,
                    "points": _triangle(r, c, size)}
    return {
        "size": size, "width": cols * size + 2 * PAD, "height": rows * size + 2 * PAD,
        "inner_w": cols * size, "inner_h": rows * size, "pad": PAD,
        "cells": cells, "borders": borders, "rift": rift, "labels": labels, "owner_colour": owner_colour,
        "stops": stops, "tents": tents, "trails": trails, "mine": mine,
        "r_stop": size * 0.3, "r_halo": size * 0.3 + 6, "font": size * 0.36,
    }


def _path(action: dict) -> list:
    """The cells of a Trail action, as the rules compute them."""
    corner = tuple(action["corner"]) if action["corner"] is not None else None
    return trail_path(tuple(action["from"]), tuple(action["to"]), corner)


# --- Context --------------------------------------------------------------------------

def _stage_text(view: dict, acting: bool) -> str:
    stage = view["stage"]
    if stage == "opening":
        return "First turn: Stops only"
    if stage == "main":
        return "Main game"
    if stage == "final":
        left = view.get("turns_left") or 0
        text = f"Final stage: {left} turn{'s' if left != 1 else ''} left"
        return text + (" — you may pass" if acting else "")
    return "Game over"


def _describe(action: dict) -> str:
    if action["type"] == "trail":
        via = "" if action["corner"] is None else f" via ({action['corner'][0]},{action['corner'][1]})"
        return (f"a Trail from ({action['from'][0]},{action['from'][1]}) to "
                f"({action['to'][0]},{action['to'][1]}){via}")
    if action["type"] == "pass":
        return "a pass"
    return f"a {action['type'].capitalize()} at ({action['cell'][0]},{action['cell'][1]})"


def board_context(panel: dict) -> dict:
    view, seat, names = panel["view"], panel.get("seat"), panel["names"]
    legal = panel.get("legal") or []
    n = view["players"]
    colours = list(view["seat_colours"])
    sel = parse_selection(panel.get("selection", ""))
    held = view.get("held_map")
    if sel["view"] is not None and 0 <= sel["view"] < n:
        shown = sel["view"]
    elif held is not None:
        shown = held
    elif seat is not None and 0 <= seat < n:
        shown = seat
    else:
        shown = 0
    acting = bool(legal) and held is not None and shown == held and not panel.get("replay")
    viewing_other = held is not None and shown != held

    stops_ok = {tuple(a["cell"]) for a in legal if a["type"] == "stop"}
    tents_ok = {tuple(a["cell"]) for a in legal if a["type"] == "tent"}
    trails = [a for a in legal if a["type"] == "trail"]
    pass_action = next((a for a in legal if a["type"] == "pass"), None)
    partners: dict = {}
    for a in trails:
        f, t = tuple(a["from"]), tuple(a["to"])
        partners.setdefault(f, set()).add(t)
        partners.setdefault(t, set()).add(f)

    mode = sel["mode"] or ("stop" if stops_ok or not tents_ok else "tent")
    if mode == "tent" and not tents_ok and stops_ok:
        mode = "stop"
    mode_cells = stops_ok if mode == "stop" else tents_ok
    ghost = sel["g"] if acting and sel["g"] in mode_cells else None
    first = sel["a"] if acting and sel["a"] in partners else None
    second = sel["b"] if first is not None and sel["b"] in partners.get(first, ()) else None
    mode_sel = "m" + mode[0] if (sel["mode"] and acting) else None
    keep = {"mode": mode if sel["mode"] else None}

    m = view["maps"][shown]
    mine = view.get("my_pending") if shown == held else None
    geo = map_geometry(m, CELL, colours, pending=mine, pending_seat=seat,
                       arrows=seat is not None and m["owner"] == seat and shown == held)
    ghost_action = None
    if ghost is not None:
        ghost_action = {"type": mode, "cell": [ghost[0], ghost[1]]}
    for cell in geo["cells"]:
        rc = (cell["r"], cell["c"])
        cell["legal"] = acting and first is None and rc in mode_cells
        cell["get"] = None
        cell["post"] = None
        if cell["legal"]:
            if rc == ghost:
                cell["post"] = ghost_action
            else:
                cell["get"] = make_selection(g=rc, **keep)
        elif acting and (ghost is not None or first is not None):
            cell["cancel"] = make_selection(**keep)     # clicking elsewhere cancels the choice
    for stop in geo["stops"]:
        rc = (stop["r"], stop["c"])
        stop["get"] = None
        stop["role"] = ""
        if acting and stop["seat"] == seat and rc in partners:
            if first is None:
                stop["get"], stop["role"] = make_selection(a=rc, **keep), "start"
            elif rc == first:
                stop["get"], stop["role"] = make_selection(**keep), "first"
            elif rc in partners[first]:
                stop["get"] = make_selection(a=first, b=rc, **keep)
                stop["role"] = "second" if rc == second else "partner"
    routes = []
    if second is not None:
        for a in trails:
            ends = {tuple(a["from"]), tuple(a["to"])}
            if ends == {first, second}:
                k = a["corner"]
                kx, ky = _centre(k[0], k[1], CELL) if k else (None, None)
                routes.append({"action": a, "d": _trail_d(_path(a), CELL),
                               "corner": "none" if k is None else f"{k[0]},{k[1]}", "kx": kx, "ky": ky,
                               "label": "straight route" if k is None else f"L route via ({k[0]},{k[1]})"})

    def thumb(b: int) -> dict:
        mv = view["maps"][b]
        return {"index": b, "map": mv, "geo": map_geometry(mv, THUMB, colours),
                "owner": mv["owner"], "owner_name": names[mv["owner"]],
                "holder_name": names[mv["holder"]] if mv["holder"] is not None else "",
                "next_name": names[mv["next_holder"]] if mv["next_holder"] is not None else "",
                "shown": b == shown, "held": b == held,
                "get": make_selection(view=b, **keep) if b != held else make_selection(**keep)}

    def replay_map(b: int) -> dict:
        """One map drawn full size for the replay, which has no ?sel= to enlarge a thumbnail."""
        mv = view["maps"][b]
        holder_seat, next_seat = mv["holder"], mv["next_holder"]
        return {"index": b, "map": mv, "geo": map_geometry(mv, CELL, colours),
                "owner": mv["owner"], "owner_name": names[mv["owner"]], "owner_colour": colours[mv["owner"]],
                "owner_num": mv["owner"] + 1,
                "holder_name": names[holder_seat] if holder_seat is not None else "",
                "next_name": names[next_seat] if next_seat is not None else "",
                "next_colour": colours[next_seat] if next_seat is not None else ""}

    seat_rows = []
    for s in view["seats"]:
        i = s["seat"]
        status = ("drawn" if s["submitted"] else "drawing…" if s["waiting_for"]
                  else "over" if view["over"] else "nothing to draw")
        seat_rows.append({"seat": i, "name": names[i], "colour": colours[i], "num": i + 1, "shape": SHAPES[i % 5],
                          "colour_name": s["colour_name"], "status": status, "done": s["submitted"],
                          "holds": s["holds"]})
    scores = []
    for e in view["scores"]:
        i = e["seat"]
        scores.append({"seat": i, "name": names[i], "colour": colours[i], "num": i + 1, "rank": e["rank"],
                       "total": e["total"], "cells": [e["breakdown"][k] for k, _ in CATEGORY_LABELS],
                       "per_map": [{"map": b, "owner_name": names[view["maps"][b]["owner"]],
                                    "cells": [pm[k] for k, _ in CATEGORY_LABELS], "total": pm["total"]}
                                   for b, pm in enumerate(e["per_map"])]})
    scores.sort(key=lambda row: (row["rank"], row["seat"]))
    history = [{"turn": h["turn"], "lines": [name_seats(line, names) for line in h["lines"]]}
               for h in view.get("history", [])]
    owner = m["owner"]
    return {"np": {
        "map": m, "geo": geo, "shown": shown, "held": held, "acting": acting, "viewing_other": viewing_other,
        "own_map": seat is not None and owner == seat,
        "owner_name": names[owner], "owner_colour": colours[owner], "owner_num": owner + 1,
        "holder_name": names[m["holder"]] if m["holder"] is not None else "",
        "next_name": names[m["next_holder"]] if m["next_holder"] is not None else "",
        "next_colour": colours[m["next_holder"]] if m["next_holder"] is not None else "",
        "my_colour": colours[seat] if seat is not None and 0 <= seat < n else "#333",
        "mode": mode, "can_stop": bool(stops_ok), "can_tent": bool(tents_ok), "has_trails": bool(partners),
        "mode_stop_sel": make_selection(mode="stop"), "mode_tent_sel": make_selection(mode="tent"),
        "ghost": ghost, "ghost_action": ghost_action, "ghost_geo": _ghost_geo(ghost, mode, seat, colours),
        "cancel_sel": make_selection(**keep), "first": first, "second": second, "routes": routes,
        "pass_action": pass_action, "selecting": ghost is not None or first is not None,
        "my_pending": mine, "my_pending_text": _describe(view["my_pending"]) if view.get("my_pending") else "",
        "stage_text": _stage_text(view, acting), "thumbs": [thumb(b) for b in range(n)],
        "replay_maps": [replay_map(b) for b in range(n)] if panel.get("replay") else [],
        "seats": seat_rows, "scores": scores, "categories": [label for _, label in CATEGORY_LABELS],
        "tie_breaks": [name_seats(t, names) for t in view.get("tie_breaks", [])] if view["over"] else [],
        "history": history[::-1],
        "waiting": [names[i] for i in view["to_act"]],
        # The page's choice, for static/js to ask for again after a live update: a
        # half-made draw while acting, or the map being viewed instead of the held one.
        "selection": (panel.get("selection", "") if acting
                      else make_selection(view=shown) if viewing_other and not panel.get("replay") else ""),
        "mode_sel": mode_sel,
    }}


def _ghost_geo(ghost, mode, seat, colours):
    if ghost is None or seat is None:
        return None
    r, c = ghost
    cx, cy = _centre(r, c, CELL)
    return {"kind": mode, "cx": cx, "cy": cy, "colour": colours[seat], "num": seat + 1,
            "points": _triangle(r, c, CELL), "r": r, "c": c}
