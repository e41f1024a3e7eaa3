"""Alpine Trails: every map as a square grid of SVG tiles, the hand tray and the score pad.

Everything is drawn from the seat's view (spec §14). The multi-step choice (which drawn
tile, which side, which rotation; or a campsite swap, or a held animal) is a server-side
selection carried by `?sel=`:

    t:<tile>:<trail|terrain>:<rotation>   a drawn tile, side and rotation
    c:<tile>                              a campsite, giving up that drawn tile
    a:<animal>                            a held animal

Legal cells come from `panel["legal"]` filtered by the selection, so no rules logic runs
here or in the browser; the server checks every action again.
"""
from __future__ import annotations

from games.alpine_trails.rules import board as B
from games.alpine_trails.rules.data import ANIMAL_OF, DIRECTIONS, SHAPE_NAME, TERRAIN_OF_ANIMAL, TERRAINS, TILES

OPTION_SPECS: dict = {}
SCRIPT = "games/alpine-trails/board.js"
STYLESHEET = "games/alpine-trails/board.css"

S = 72                      # cell side in SVG units
H = S / 2
LETTER = {"forest": "F", "rock": "R", "meadow": "M", "wetland": "W"}
ANIMAL_LETTER = {"bear": "B", "goat": "G", "wolf": "Wo", "moose": "Mo"}
EDGE = {0: (H, 0), 1: (S, H), 2: (H, S), 3: (0, H)}
PAD_ROWS = [("habitat_forest", "Forest"), ("habitat_rock", "Rock"), ("habitat_meadow", "Meadow"),
            ("habitat_wetland", "Wetland"), ("waterfalls", "Waterfalls"), ("lakes", "Lakes"),
            ("tents", "Tents"), ("animals", "Animals"), ("longest_path", "Longest path"), ("goal", "Goal")]


# --- drawing one piece -----------------------------------------------------------------------

def _num(v: float) -> str:
    return f"{v:g}"


def trail_path(exits) -> str:
    """An SVG path for the trail band: a curve for two exits, three spokes for a fork."""
    exits = sorted(exits)
    pts = [EDGE[d] for d in exits]
    if len(pts) == 2:
        (ax, ay), (bx, by) = pts
        return f"M{_num(ax)} {_num(ay)} Q{_num(H)} {_num(H)} {_num(bx)} {_num(by)}"
    return " ".join(f"M{_num(H)} {_num(H)} L{_num(x)} {_num(y)}" for x, y in pts)


def tile_face(tile_id: str, side: str, rotation: int = 0) -> dict:
    """Drawing data for a drawn tile shown at a side and rotation (the tray and ghosts)."""
    tile = TILES[tile_id]
    if side == "trail":
        exits = sorted(B.EXITS[(tile["shape"], rotation)])
        return piece_face({"kind": "trail", "terrain": tile["terrain"], "shape": tile["shape"],
                           "miles": tile["miles"], "exits": exits, "sign": tile["shape"] == "T"})
    return piece_face({"kind": "terrain", "terrain": tile["terrain"], "animal": None})


def piece_face(cell: dict) -> dict:
    """What the _tile partial needs for one piece (cell dict from the view's map_drawing)."""
    kind = cell["kind"]
    face = {"kind": kind, "terrain": cell.get("terrain"), "letter": LETTER.get(cell.get("terrain"), ""),
            "title": cell.get("title", "")}
    if kind == "trail":
        face.update(path=trail_path(cell["exits"]), miles=cell["miles"], sign=cell.get("sign"),
                    shape=cell.get("shape"))
        if not face["title"]:
            face["title"] = (f"{cell['terrain'].capitalize()} {SHAPE_NAME[cell['shape']]}, {cell['miles']} "
                             f"mile{'s' if cell['miles'] != 1 else ''}, exits "
                             + " and ".join(DIRECTIONS[d] for d in cell["exits"]))
    elif kind == "terrain":
        face.update(animal=cell.get("animal"), animal_letter=ANIMAL_LETTER.get(cell.get("animal"), ""))
        if not face["title"]:
            face["title"] = f"{cell['terrain'].capitalize()} habitat, 2 icons"
    elif kind == "basecamp":
        face.update(square=cell.get("square"), camp=cell.get("camp"))
    elif kind == "waterfall":
        face.update(points=cell.get("points"))
    return face


# --- one map -----------------------------------------------------------------------------------

def _outline(cells: list) -> str:
    """An SVG path tracing the outer edges of a group of cells (in cell units)."""
    group = set(map(tuple, cells))
    parts = []
    for x, y in group:
        if (x, y - 1) not in group:
            parts.append(f"M{x} {y}h1")
        if (x + 1, y) not in group:
            parts.append(f"M{x + 1} {y}v1")
        if (x, y + 1) not in group:
            parts.append(f"M{x} {y + 1}h1")
        if (x - 1, y) not in group:
            parts.append(f"M{x} {y}v1")
    return "".join(sorted(parts))


def map_geometry(entry: dict, *, highlights=(), over: bool = False) -> dict:
    """Cells placed at ((x - minx + 1) * S, (y - miny + 1) * S) with a one-cell margin."""
    b = entry["bounds"]
    minx, maxx, miny, maxy = b["minx"], b["maxx"], b["miny"], b["maxy"]
    for h in highlights:
        minx, maxx = min(minx, h["x"]), max(maxx, h["x"])
        miny, maxy = min(miny, h["y"]), max(maxy, h["y"])

    def at(x, y):
        return (x - minx + 1) * S, (y - miny + 1) * S

    cells = []
    camp = []
    for key, cell in entry["map"].items():
        px, py = at(cell["x"], cell["y"])
        face = piece_face(cell)
        face.update(x=cell["x"], y=cell["y"], px=px, py=py, key=key, new_lake=over and cell["kind"] == "lake")
        cells.append(face)
        if cell["kind"] == "basecamp":
            camp.append((px, py))
    base = None
    if camp:
        base = {"px": min(p[0] for p in camp), "py": min(p[1] for p in camp),
                "w": (max(p[0] for p in camp) - min(p[0] for p in camp)) + S, "h": S}
        base["cx"] = base["px"] + base["w"] / 2
    open_ends = [{"x": x, "y": y, "px": at(x, y)[0], "py": at(x, y)[1]} for x, y in entry.get("open_ends", [])]
    for h in highlights:
        h["px"], h["py"] = at(h["x"], h["y"])
    extras = {}
    if over:
        extras = _end_marks(entry, minx, miny)
    return {"cells": cells, "base": base, "open_ends": open_ends, "highlights": list(highlights),
            "width": (maxx - minx + 3) * S, "height": (maxy - miny + 3) * S, "S": S, **extras}


def _end_marks(entry: dict, minx: int, miny: int) -> dict:
    """At the end: the longest path's tiles and the largest habitat of each terrain."""
    board = B.parse({k: {kk: vv for kk, vv in v.items()} for k, v in entry["map"].items()})
    paths = B.out_and_back_paths(board)
    best = max(paths, key=lambda p: p["miles"], default=None)
    shift = lambda c: (c[0] - minx + 1, c[1] - miny + 1)  # noqa: E731
    path_cells, path_miles, lake = [], 0, None
    if best and best["miles"]:
        path_cells = [{"px": shift(c)[0] * S, "py": shift(c)[1] * S} for c in best["tiles"]]
        path_miles = best["miles"]
        lx, ly = shift(best["lake"])
        lake = {"px": lx * S, "py": ly * S}
    habitats = []
    for terrain, (icons, group) in B.habitats(board).items():
        if icons:
            habitats.append({"terrain": terrain, "icons": icons, "letter": LETTER[terrain],
                             "d": _outline([shift(c) for c in group])})
    return {"path_cells": path_cells, "path_miles": path_miles, "path_lake": lake, "habitats": habitats}


# --- the selection ---------------------------------------------------------------------------

def parse_selection(raw: str) -> dict:
    parts = (raw or "").split(":")
    if parts[0] == "t" and len(parts) == 4 and parts[2] in ("trail", "terrain") and parts[3] in ("0", "1", "2", "3"):
        return {"mode": "tile", "tile": parts[1], "side": parts[2], "rotation": int(parts[3])}
    if parts[0] == "c" and len(parts) == 2:
        return {"mode": "campsite", "tile": parts[1]}
    if parts[0] == "a" and len(parts) == 2:
        return {"mode": "animal", "animal": parts[1]}
    return {"mode": None}


def tile_sel(tile: str, side: str, rotation: int) -> str:
    return f"t:{tile}:{side}:{rotation}"


def _default_tile_sel(tile: str, places: list) -> dict:
    trail = sorted({a["rotation"] for a in places if a["tile"] == tile and a["side"] == "trail"})
    if trail:
        return {"mode": "tile", "tile": tile, "side": "trail", "rotation": trail[0]}
    terrain = any(a["tile"] == tile and a["side"] == "terrain" for a in places)
    return {"mode": "tile", "tile": tile, "side": "terrain" if terrain else "trail", "rotation": 0}


def controls(panel: dict, me: dict) -> dict:
    """The acting seat's controls: mode, highlights, tray and buttons."""
    legal = panel["legal"]
    by = {}
    for a in legal:
        by.setdefault(a["type"], []).append(a)
    places, camps, animals = by.get("place", []), by.get("campsite", []), by.get("animal", [])
    hand = list(me.get("hand", []))
    sel = parse_selection(panel.get("selection", ""))
    explicit = sel["mode"] is not None
    if by.get("waterfall"):
        sel = {"mode": "waterfall"}
    elif sel["mode"] == "animal" and not any(a["animal"] == sel["animal"] for a in animals):
        sel = {"mode": None}
    elif sel["mode"] == "campsite" and not any(a["discard"] == sel["tile"] for a in camps):
        sel = {"mode": None}
    elif sel["mode"] == "tile" and sel["tile"] not in hand:
        sel = {"mode": None}
    if sel["mode"] is None:
        explicit = False
        sel = _default_tile_sel(hand[0], places) if hand else {"mode": "none"}
    if sel["mode"] == "tile" and sel["side"] == "terrain":
        sel["rotation"] = 0

    highlights = []
    message = ""
    if sel["mode"] == "waterfall":
        points = {(o["x"], o["y"]): o["points"] for o in me.get("waterfall_options", [])}
        for a in by["waterfall"]:
            p = points.get((a["x"], a["y"]), 0)
            highlights.append({"x": a["x"], "y": a["y"], "action": a, "label": f"+{p}",
                               "aria": f"Place the waterfall at {a['x']},{a['y']}: {p} point{'s' if p != 1 else ''} now"})
        n = me.get("waterfalls_pending", 0)
        message = f"Loop closed: place your waterfall ({n} to place). Each shows the points it scores now."
    elif sel["mode"] == "tile":
        tile, side, rot = sel["tile"], sel["side"], sel["rotation"]
        mine = [a for a in places if a["tile"] == tile and a["side"] == side]
        here = [a for a in mine if side == "terrain" or a["rotation"] == rot]
        seen = {(a["x"], a["y"]) for a in here}
        for a in here:
            highlights.append({"x": a["x"], "y": a["y"], "action": a, "label": "",
                               "aria": f"Place {TILES[tile]['terrain']} {SHAPE_NAME[TILES[tile]['shape']]} "
                                       f"{side} side up at {a['x']},{a['y']}"})
        other = {}
        for a in mine:
            if (a["x"], a["y"]) not in seen:
                other.setdefault((a["x"], a["y"]), a["rotation"])
        for (x, y), r in sorted(other.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            highlights.append({"x": x, "y": y, "faint": True, "sel": tile_sel(tile, "trail", r), "label": "",
                               "aria": f"Fits at {x},{y} when rotated: choose that rotation"})
        n = len(here)
        if n:
            message = f"{n} spot{'s' if n != 1 else ''} for this tile {side} side up. Click a highlighted square."
        elif other:
            message = "No spot in this rotation: rotate (R), or click an outlined square."
        elif side == "trail" and any(a["tile"] == tile for a in places):
            message = "The trail side fits nowhere: flip to the terrain side (F)."
        elif side == "terrain" and any(a["tile"] == tile for a in places):
            message = "The terrain side fits nowhere: flip to the trail side (F)."
        else:
            message = "This tile fits nowhere on your map: discard it."
    elif sel["mode"] == "campsite":
        miles = {(o["x"], o["y"]): o["miles"] for o in me.get("campsite_options", [])}
        for a in camps:
            if a["discard"] == sel["tile"]:
                m = miles.get((a["x"], a["y"]))
                highlights.append({"x": a["x"], "y": a["y"], "action": a, "label": f"{m} mi" if m is not None else "",
                                   "aria": f"Make a campsite at {a['x']},{a['y']}"
                                           + (f", {m} miles from the nearest camp" if m is not None else "")})
        message = "Campsite: the marked tile returns to the box. Each spot shows its trail distance."
    elif sel["mode"] == "animal":
        for a in animals:
            if a["animal"] == sel["animal"]:
                highlights.append({"x": a["x"], "y": a["y"], "action": a, "label": ANIMAL_LETTER[a["animal"]],
                                   "aria": f"Put the {a['animal']} at {a['x']},{a['y']}"})
        message = f"Put your {sel['animal']} on a {TERRAIN_OF_ANIMAL[sel['animal']]} tile placed terrain side up."

    # the hand tray
    tray = []
    for i, tile in enumerate(hand):
        t = TILES[tile]
        chosen = sel.get("tile") == tile and sel["mode"] in ("tile", "campsite")
        if chosen and sel["mode"] == "tile":
            side, rot = sel["side"], sel["rotation"]
        else:
            d = _default_tile_sel(tile, places)
            side, rot = d["side"], d["rotation"]
        tray.append({
            "id": tile, "key": str(i + 1), "terrain": t["terrain"], "shape": SHAPE_NAME[t["shape"]],
            "miles": t["miles"], "fork": t["shape"] == "T", "side": side, "rotation": rot,
            "face": tile_face(tile, side, rot), "selected": chosen,
            "boxed": chosen and sel["mode"] == "campsite",
            "sel": f"c:{tile}" if sel["mode"] == "campsite" else tile_sel(tile, side, rot),
            "label": f"{t['terrain'].capitalize()} {SHAPE_NAME[t['shape']]}, {t['miles']} mi",
        })
    buttons = {}
    if sel["mode"] == "tile":
        tile, side, rot = sel["tile"], sel["side"], sel["rotation"]
        buttons["flip"] = tile_sel(tile, "terrain" if side == "trail" else "trail", rot)
        if side == "trail":
            buttons["rotate"] = tile_sel(tile, "trail", (rot + 1) % 4)
            buttons["rotate_back"] = tile_sel(tile, "trail", (rot + 3) % 4)
        buttons["campsite"] = f"c:{tile}" if any(a["discard"] == tile for a in camps) else ""
        buttons["discard"] = next((a for a in by.get("discard", []) if a["tile"] == tile), None)
        trade = next((a for a in by.get("trade_fork", []) if a["tile"] == tile), None)
        if trade:
            buttons["trade"] = trade
            buttons["trade_animal"] = ANIMAL_OF[TILES[tile]["terrain"]]
    elif sel["mode"] == "campsite":
        buttons["cancel"] = tile_sel(sel["tile"], **{k: v for k, v in _default_tile_sel(sel["tile"], places).items()
                                                     if k in ("side", "rotation")})
    held = []
    counts = {}
    for animal in me.get("animals", []):
        counts[animal] = counts.get(animal, 0) + 1
    for animal, count in sorted(counts.items()):
        can = any(a["animal"] == animal for a in animals)
        held.append({"animal": animal, "count": count, "letter": ANIMAL_LETTER[animal],
                     "terrain": TERRAIN_OF_ANIMAL[animal], "sel": f"a:{animal}" if can else "",
                     "selected": sel["mode"] == "animal" and sel["animal"] == animal})
    done = by.get("done", [None])[0]
    if done is None:
        done_reason = ("Place your waterfall first." if sel["mode"] == "waterfall"
                       else "Place or give up both drawn tiles first.")
    else:
        done_reason = ""
    current = ""
    if sel["mode"] == "tile":
        current = tile_sel(sel["tile"], sel["side"], sel["rotation"])
    elif sel["mode"] == "campsite":
        current = f"c:{sel['tile']}"
    elif sel["mode"] == "animal":
        current = f"a:{sel['animal']}"
    ghost = None
    if sel["mode"] == "tile":
        ghost = tile_face(sel["tile"], sel["side"], sel["rotation"])
    elif sel["mode"] == "campsite":
        ghost = piece_face({"kind": "campsite"})
    elif sel["mode"] == "waterfall":
        ghost = piece_face({"kind": "waterfall"})
    return {"sel": sel, "current": current, "ghost": ghost, "explicit": explicit, "highlights": highlights, "message": message,
            "tray": tray, "buttons": buttons, "held": held, "done": done, "done_reason": done_reason,
            "hand_ids": " ".join(hand), "camp_possible": bool(camps)}


# --- the score pad -----------------------------------------------------------------------------

def score_pad(view: dict, names: list, viewer) -> dict:
    over = view["phase"] == "over"
    result = view.get("result") or {}
    seats = view["seats"]
    final = result.get("scores") if over else None
    cols = []
    for i, entry in enumerate(seats):
        score = final[i] if final else entry["score"]
        shown_goal = over or entry.get("live")
        cols.append({"seat": i, "name": names[i] if i < len(names) else f"Seat {i + 1}",
                     "breakdown": score["breakdown"], "total": score["total"], "goal_shown": shown_goal,
                     "goal_name": (entry.get("goal_card") or {}).get("name", "") if shown_goal else "",
                     "rank": (result.get("ranking") or [None] * len(seats))[i] if over else None,
                     "me": viewer == i})
    rows = []
    for key, label in PAD_ROWS:
        cells = []
        for c in cols:
            if key == "goal" and not c["goal_shown"]:
                cells.append("?")
            else:
                cells.append(c["breakdown"].get(key, 0))
        rows.append({"key": key, "label": label, "cells": cells,
                     "terrain": key.split("_", 1)[1] if key.startswith("habitat_") else "",
                     "letter": LETTER.get(key.split("_", 1)[1], "") if key.startswith("habitat_") else ""})
    return {"cols": cols, "rows": rows, "over": over, "title": result.get("title"),
            "has_title": over and view.get("solo")}


# --- the board ---------------------------------------------------------------------------------

def board_context(panel: dict) -> dict:
    view = panel["view"]
    seat = panel.get("seat")
    names = list(panel.get("names") or [])
    while len(names) < view["players"]:
        names.append(f"Seat {len(names) + 1}")
    over = view["phase"] == "over"
    replay = bool(panel.get("replay"))
    to_act = view.get("to_act", [])
    me = view["seats"][seat] if seat is not None and 0 <= seat < len(view["seats"]) else None
    ctl = None
    if me is not None and panel.get("legal") and not over and not replay:
        ctl = controls(panel, me)
    main = None
    if me is not None:
        main = map_geometry(me, highlights=ctl["highlights"] if ctl else (), over=over)
        main.update(seat=seat, name=names[seat])
    maps = []
    for entry in view["seats"]:
        i = entry["seat"]
        if me is not None and i == seat:
            continue
        geo = map_geometry(entry, over=over)
        as_of = entry["as_of_round"]
        maps.append({"seat": i, "name": names[i], "number": i + 1, "geo": geo, "status": entry["status"],
                     "as_of": "final map" if over else ("start of the game" if as_of < 1 else f"as of round {as_of}"),
                     "animals": entry["animals"], "total": entry["score"]["total"],
                     "goal_card": entry.get("goal_card") if over else None})
    notices = []
    last = view.get("last_round")
    if me is not None and last and not over and last.get("round") == view["round"] - 1:
        for g in last.get("gifts", []):
            if g["to"] == seat:
                terrain = TERRAIN_OF_ANIMAL[g["animal"]]
                notices.append(f"{names[g['from']]} placed a {terrain} fork: you receive a {g['animal']}.")
    status = [{"seat": e["seat"], "name": names[e["seat"]], "number": e["seat"] + 1,
               "done": e["seat"] not in to_act} for e in view["seats"]]
    waiting = [names[i] for i in to_act]
    return {"at": {
        "S": S, "main": main, "maps": maps, "ctl": ctl, "me": me, "over": over, "replay": replay,
        "pad": score_pad(view, names, seat), "notices": notices, "status": status, "waiting": waiting,
        "acting": ctl is not None, "finished_round": me is not None and not over and seat not in to_act,
        "goal": (me or {}).get("goal_card"), "terrains": [{"id": t, "letter": LETTER[t], "animal": ANIMAL_OF[t]}
                                                          for t in TERRAINS],
        "spectator": seat is None,
    }, "done_action": {"type": "done"}}
