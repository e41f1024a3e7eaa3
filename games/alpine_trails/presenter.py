"""Alpine Trails: every map as a square grid of SVG tiles, the hand tray and the score pad.

Everything is drawn from the seat's view (spec §14). The multi-step choice (which drawn
tile, which side, which rotation; or a campsite swap, or a held animal) is a server-side
selection carried by `?sel=` in the shared `games.selection` syntax, as extras (picks that
choose what is shown, each checked against the hand and the legal actions):

    tile:<tile>.side:<trail|terrain>.rot:<rotation>   a drawn tile, side and rotation
    camp:<tile>                                       a campsite, giving up that drawn tile
    animal:<animal>                                   a held animal

site.js keeps it across live updates (data-sel-root) and moves among the highlighted squares
with the arrow keys; the game's own script only adds the letter shortcuts.

Legal cells come from `panel["legal"]` filtered by the selection, so no rules logic runs
here or in the browser; the server checks every action again.
"""
from __future__ import annotations

import functools
import random

from games import selection
from games.presenters import describe_from, seat_name
from games.alpine_trails.rules import board as B
from games.alpine_trails.rules import solo_title
from games.alpine_trails.rules.data import (
    ANIMAL_OF, DIRECTIONS, SHAPE_NAME, SOLO_TITLES, TERRAIN_OF_ANIMAL, TERRAINS, TILES,
)

OPTION_SPECS: dict = {}
SCRIPT = "games/alpine-trails/board.js"
STYLESHEET = "games/alpine-trails/board.css"

# Board geometry, in SVG units: every map is a grid of S x S cells with a one-cell margin.
S = 72                      # cell side
H = S / 2                   # half a cell: where a trail meets an edge
EDGE = {0: (H, 0), 1: (S, H), 2: (H, S), 3: (0, H)}    # midpoint of the N, E, S, W edges

LETTER = {"forest": "F", "rock": "R", "meadow": "M", "wetland": "W"}
ANIMAL_LETTER = {"bear": "B", "goat": "G", "wolf": "Wo", "moose": "Mo"}
OTHER_TITLES = {"campsite": "Campsite with a tent", "waterfall": "Waterfall", "lake": "Lake"}
PAD_ROWS = [("habitat_forest", "Forest"), ("habitat_rock", "Rock"), ("habitat_meadow", "Meadow"),
            ("habitat_wetland", "Wetland"), ("waterfalls", "Waterfalls"), ("lakes", "Lakes"),
            ("tents", "Tents"), ("animals", "Animals"), ("longest_path", "Longest path"), ("goal", "Goal")]


BREAKDOWN_LABELS = dict(PAD_ROWS)   # the side score card names them as the score pad does


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


def cell_title(cell: dict) -> str:
    """A piece in words, for its tooltip and screen readers."""
    kind = cell["kind"]
    if kind == "trail":
        exits = " and ".join(DIRECTIONS[d] for d in cell["exits"])
        return (f"{cell['terrain'].capitalize()} {SHAPE_NAME[cell['shape']]}, "
                f"{cell['miles']} mile{'s' if cell['miles'] != 1 else ''}, exits {exits}")
    if kind == "terrain":
        return f"{cell['terrain'].capitalize()} habitat, 2 icons" + (
            f", with a {cell['animal']}" if cell.get("animal") else "")
    if kind == "basecamp":
        return f"Base camp {cell['camp']} square {cell['square']}, {cell['terrain']}"
    return OTHER_TITLES.get(kind, kind.capitalize())


def piece_face(cell: dict) -> dict:
    """What the _tile partial needs for one piece (cell dict from the view's map_drawing)."""
    kind = cell["kind"]
    face = {"kind": kind, "terrain": cell.get("terrain"), "letter": LETTER.get(cell.get("terrain") or "", ""),
            "title": cell_title(cell)}
    if kind == "trail":
        face.update(path=trail_path(cell["exits"]), miles=cell["miles"], sign=cell.get("sign"),
                    shape=cell.get("shape"))
    elif kind == "terrain":
        face.update(animal=cell.get("animal"), animal_letter=ANIMAL_LETTER.get(cell.get("animal") or "", ""))
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

def action_picks(action: dict) -> list[str]:
    """Each legal action spelled as `games.selection` picks (one spelling per action)."""
    kind = action["type"]
    cell = f"at:{action['x']},{action['y']}" if "x" in action else None
    if kind == "place":
        return [f"put:{action['tile']}", f"up:{action['side']}", f"turn:{action.get('rotation', 0)}", str(cell)]
    if kind == "campsite":
        return [f"tent:{action['discard']}", str(cell)]
    if kind == "animal":
        return [f"put:{action['animal']}", str(cell)]
    if kind == "waterfall":
        return ["falls", str(cell)]
    if kind in ("discard", "trade_fork"):
        return [kind, f"of:{action['tile']}"]
    return [kind]


def _extras(by: dict, hand: list[str]) -> dict:
    """What the drawn page may show, each checked against the hand and the legal actions:
    the tile in hand with its side and rotation, a campsite's tile, a held animal."""
    camps = {a["discard"] for a in by.get("campsite", [])}
    animals = {a["animal"] for a in by.get("animal", [])}
    return {"tile": lambda v: v in hand, "side": lambda v: v in ("trail", "terrain"),
            "rot": lambda v: v in ("0", "1", "2", "3"), "camp": lambda v: v in camps,
            "animal": lambda v: v in animals}


def parse_selection(raw: str, legal: list[dict], hand: list[str]) -> dict:
    """The board mode a `?sel=` asks for (e.g. `tile:T001.side:trail.rot:2`, `camp:T001`,
    `animal:bear`), a value the hand and the legal actions do not allow dropped;
    {"mode": None} for none."""
    extras = _extras(_by_type(legal), hand)
    chosen = dict(selection.select(raw, legal, action_picks, extras=extras).extras)
    if {"tile", "side", "rot"} <= chosen.keys():
        return {"mode": "tile", "tile": chosen["tile"], "side": chosen["side"], "rotation": int(chosen["rot"])}
    if "camp" in chosen:
        return {"mode": "campsite", "tile": chosen["camp"]}
    if "animal" in chosen:
        return {"mode": "animal", "animal": chosen["animal"]}
    return {"mode": None}


def tile_sel(tile: str, side: str, rotation: int) -> str:
    return selection.encode([f"tile:{tile}", f"side:{side}", f"rot:{rotation}"])


def camp_sel(tile: str) -> str:
    return selection.encode([f"camp:{tile}"])


def animal_sel(animal: str) -> str:
    return selection.encode([f"animal:{animal}"])


def _default_tile_sel(tile: str, places: list) -> dict:
    trail = sorted({a["rotation"] for a in places if a["tile"] == tile and a["side"] == "trail"})
    if trail:
        return {"mode": "tile", "tile": tile, "side": "trail", "rotation": trail[0]}
    terrain = any(a["tile"] == tile and a["side"] == "terrain" for a in places)
    return {"mode": "tile", "tile": tile, "side": "terrain" if terrain else "trail", "rotation": 0}


def _by_type(legal: list[dict]) -> dict[str, list[dict]]:
    by: dict[str, list[dict]] = {}
    for a in legal:
        by.setdefault(a["type"], []).append(a)
    return by


def resolve_selection(raw: str, legal: list[dict], hand: list[str]) -> tuple[dict, bool]:
    """The selection in force and whether the player chose it: a pending waterfall wins,
    a stale or forged `?sel=` falls back to the first drawn tile."""
    sel = parse_selection(raw, legal, hand)
    by = _by_type(legal)
    places = by.get("place", [])
    if by.get("waterfall"):
        return {"mode": "waterfall"}, sel["mode"] is not None
    stale = ((sel["mode"] == "animal" and not any(a["animal"] == sel["animal"] for a in by.get("animal", [])))
             or (sel["mode"] == "campsite" and not any(a["discard"] == sel["tile"] for a in by.get("campsite", [])))
             or (sel["mode"] == "tile" and sel["tile"] not in hand))
    if sel["mode"] is None or stale:
        return (_default_tile_sel(hand[0], places) if hand else {"mode": "none"}), False
    if sel["mode"] == "tile" and sel["side"] == "terrain":
        sel["rotation"] = 0
    return sel, True


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def waterfall_targets(by: dict, me: dict) -> tuple[list[dict], str]:
    points = {(o["x"], o["y"]): o["points"] for o in me.get("waterfall_options", [])}
    highlights = []
    for a in by["waterfall"]:
        p = points.get((a["x"], a["y"]), 0)
        highlights.append({"x": a["x"], "y": a["y"], "action": a, "label": f"+{p}",
                           "aria": f"Place the waterfall at {a['x']},{a['y']}: {_plural(p, 'point')} now"})
    n = me.get("waterfalls_pending", 0)
    return highlights, f"Loop closed: place your waterfall ({n} to place). Each shows the points it scores now."


def _tile_message(sel: dict, here: list, other: dict, places: list) -> str:
    tile, side = sel["tile"], sel["side"]
    if here:
        return f"{_plural(len(here), 'spot')} for this tile {side} side up. Click a highlighted square."
    if other:
        return "No spot in this rotation: rotate (R), or click an outlined square."
    if any(a["tile"] == tile for a in places):
        flip = "trail" if side == "terrain" else "terrain"
        return f"The {side} side fits nowhere: flip to the {flip} side (F)."
    return "This tile fits nowhere on your map: discard it."


def tile_targets(sel: dict, by: dict) -> tuple[list[dict], str]:
    """Squares where the selected tile fits as shown, and (outlined) where another rotation fits."""
    places = by.get("place", [])
    tile, side, rot = sel["tile"], sel["side"], sel["rotation"]
    mine = [a for a in places if a["tile"] == tile and a["side"] == side]
    here = [a for a in mine if side == "terrain" or a["rotation"] == rot]
    name = f"{TILES[tile]['terrain']} {SHAPE_NAME[TILES[tile]['shape']]}"
    highlights = [{"x": a["x"], "y": a["y"], "action": a, "label": "",
                   "aria": f"Place {name} {side} side up at {a['x']},{a['y']}"} for a in here]
    seen = {(a["x"], a["y"]) for a in here}
    other: dict = {}
    for a in mine:
        if (a["x"], a["y"]) not in seen:
            other.setdefault((a["x"], a["y"]), a["rotation"])
    for (x, y), r in sorted(other.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        highlights.append({"x": x, "y": y, "faint": True, "sel": tile_sel(tile, "trail", r), "label": "",
                           "aria": f"Fits at {x},{y} when rotated: choose that rotation"})
    return highlights, _tile_message(sel, here, other, places)


def campsite_targets(sel: dict, by: dict, me: dict) -> tuple[list[dict], str]:
    miles = {(o["x"], o["y"]): o["miles"] for o in me.get("campsite_options", [])}
    highlights = []
    for a in by.get("campsite", []):
        if a["discard"] == sel["tile"]:
            m = miles.get((a["x"], a["y"]))
            highlights.append({"x": a["x"], "y": a["y"], "action": a, "label": f"{m} mi" if m is not None else "",
                               "aria": f"Make a campsite at {a['x']},{a['y']}"
                                       + (f", {m} miles from the nearest camp" if m is not None else "")})
    return highlights, "Campsite: the marked tile returns to the box. Each spot shows its trail distance."


def animal_targets(sel: dict, by: dict) -> tuple[list[dict], str]:
    animal = sel["animal"]
    highlights = [{"x": a["x"], "y": a["y"], "action": a, "label": ANIMAL_LETTER[animal],
                   "aria": f"Put the {animal} at {a['x']},{a['y']}"}
                  for a in by.get("animal", []) if a["animal"] == animal]
    return highlights, f"Put your {animal} on a {TERRAIN_OF_ANIMAL[animal]} tile placed terrain side up."


def targets(sel: dict, by: dict, me: dict) -> tuple[list[dict], str]:
    """The squares to highlight on the player's map, and the hint line, for the selection."""
    mode = sel["mode"]
    if mode == "waterfall":
        return waterfall_targets(by, me)
    if mode == "tile":
        return tile_targets(sel, by)
    if mode == "campsite":
        return campsite_targets(sel, by, me)
    if mode == "animal":
        return animal_targets(sel, by)
    return [], ""


def hand_tray(sel: dict, hand: list[str], places: list[dict]) -> list[dict]:
    """The drawn tiles, each shown at the side and rotation it would be placed with."""
    tray = []
    for i, tile in enumerate(hand):
        t = TILES[tile]
        chosen = sel.get("tile") == tile and sel["mode"] in ("tile", "campsite")
        shown = sel if chosen and sel["mode"] == "tile" else _default_tile_sel(tile, places)
        side, rot = shown["side"], shown["rotation"]
        tray.append({
            "id": tile, "key": str(i + 1), "terrain": t["terrain"], "shape": SHAPE_NAME[t["shape"]],
            "miles": t["miles"], "fork": t["shape"] == "T", "side": side, "rotation": rot,
            "face": tile_face(tile, side, rot), "selected": chosen,
            "boxed": chosen and sel["mode"] == "campsite",
            "sel": camp_sel(tile) if sel["mode"] == "campsite" else tile_sel(tile, side, rot),
            "label": f"{t['terrain'].capitalize()} {SHAPE_NAME[t['shape']]}, {t['miles']} mi",
        })
    return tray


def tile_buttons(sel: dict, by: dict) -> dict:
    """Flip, rotate, campsite, cancel, discard and trade, for the selected tile."""
    places = by.get("place", [])
    if sel["mode"] == "campsite":
        default = _default_tile_sel(sel["tile"], places)
        return {"cancel": tile_sel(sel["tile"], default["side"], default["rotation"])}
    if sel["mode"] != "tile":
        return {}
    tile, side, rot = sel["tile"], sel["side"], sel["rotation"]
    buttons: dict = {"flip": tile_sel(tile, "terrain" if side == "trail" else "trail", rot)}
    if side == "trail":
        buttons["rotate"] = tile_sel(tile, "trail", (rot + 1) % 4)
        buttons["rotate_back"] = tile_sel(tile, "trail", (rot + 3) % 4)
    buttons["campsite"] = camp_sel(tile) if any(a["discard"] == tile for a in by.get("campsite", [])) else ""
    buttons["discard"] = next((a for a in by.get("discard", []) if a["tile"] == tile), None)
    trade = next((a for a in by.get("trade_fork", []) if a["tile"] == tile), None)
    if trade:
        buttons["trade"] = trade
        buttons["trade_animal"] = ANIMAL_OF[TILES[tile]["terrain"]]
    return buttons


def held_animals(sel: dict, me: dict, by: dict) -> list[dict]:
    counts: dict[str, int] = {}
    for animal in me.get("animals", []):
        counts[animal] = counts.get(animal, 0) + 1
    placeable = {a["animal"] for a in by.get("animal", [])}
    return [{"animal": animal, "count": count, "letter": ANIMAL_LETTER[animal],
             "terrain": TERRAIN_OF_ANIMAL[animal], "sel": animal_sel(animal) if animal in placeable else "",
             "selected": sel["mode"] == "animal" and sel["animal"] == animal}
            for animal, count in sorted(counts.items())]


def selection_key(sel: dict) -> str:
    """The `?sel=` value of a selection ("" for none or a waterfall)."""
    if sel["mode"] == "tile":
        return tile_sel(sel["tile"], sel["side"], sel["rotation"])
    if sel["mode"] == "campsite":
        return camp_sel(sel["tile"])
    if sel["mode"] == "animal":
        return animal_sel(sel["animal"])
    return ""


def ghost_of(sel: dict) -> dict | None:
    """The piece drawn under the pointer on the player's map."""
    if sel["mode"] == "tile":
        return tile_face(sel["tile"], sel["side"], sel["rotation"])
    if sel["mode"] in ("campsite", "waterfall"):
        return piece_face({"kind": sel["mode"]})
    return None


def controls(panel: dict, me: dict) -> dict:
    """The acting seat's controls: mode, highlights, tray and buttons."""
    by = _by_type(panel["legal"])
    hand = list(me.get("hand", []))
    sel, explicit = resolve_selection(panel.get("selection", ""), panel["legal"], hand)
    highlights, message = targets(sel, by, me)
    done = by.get("done", [None])[0]
    done_reason = "" if done is not None else (
        "Place your waterfall first." if sel["mode"] == "waterfall" else "Place or give up both drawn tiles first.")
    return {"sel": sel, "current": selection_key(sel), "ghost": ghost_of(sel), "explicit": explicit,
            "highlights": highlights, "message": message, "tray": hand_tray(sel, hand, by.get("place", [])),
            "buttons": tile_buttons(sel, by), "held": held_animals(sel, me, by), "done": done,
            "done_reason": done_reason, "hand_ids": " ".join(hand), "camp_possible": bool(by.get("campsite"))}


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

def _padded_names(panel: dict, players: int) -> list[str]:
    names = list(panel.get("names") or [])
    while len(names) < players:
        names.append(f"Seat {len(names) + 1}")
    return names


def other_maps(view: dict, seat, names: list[str]) -> list[dict]:
    """Every other seat's map (as of the last resolved round during play), small."""
    over = view["phase"] == "over"
    maps = []
    for entry in view["seats"]:
        i = entry["seat"]
        if i == seat:
            continue
        as_of = entry["as_of_round"]
        maps.append({"seat": i, "name": names[i], "number": i + 1, "geo": map_geometry(entry, over=over),
                     "status": entry["status"],
                     "as_of": "final map" if over else ("start of the game" if as_of < 1 else f"as of round {as_of}"),
                     "animals": entry["animals"], "total": entry["score"]["total"],
                     "goal_card": entry.get("goal_card") if over else None})
    return maps


def gift_notices(view: dict, seat, names: list[str]) -> list[str]:
    """Animals the seat received from other seats' forks when the last round resolved."""
    last = view.get("last_round")
    if seat is None or not last or view["phase"] == "over" or last.get("round") != view["round"] - 1:
        return []
    return [f"{names[g['from']]} placed a {TERRAIN_OF_ANIMAL[g['animal']]} fork: you receive a {g['animal']}."
            for g in last.get("gifts", []) if g["to"] == seat]


def seat_status(view: dict, names: list[str]) -> list[dict]:
    to_act = view.get("to_act", [])
    return [{"seat": e["seat"], "name": names[e["seat"]], "number": e["seat"] + 1,
             "done": e["seat"] not in to_act} for e in view["seats"]]


def board_context(panel: dict) -> dict:
    view = panel["view"]
    seat = panel.get("seat")
    names = _padded_names(panel, view["players"])
    over = view["phase"] == "over"
    replay = bool(panel.get("replay"))
    me = view["seats"][seat] if seat is not None and 0 <= seat < len(view["seats"]) else None
    ctl = controls(panel, me) if me is not None and panel.get("legal") and not over and not replay else None
    main = None
    if me is not None and seat is not None:  # me is only set for a seat
        main = map_geometry(me, highlights=ctl["highlights"] if ctl else (), over=over)
        main.update(seat=seat, name=names[seat])
    return {"board": {
        "S": S, "main": main, "maps": other_maps(view, seat if me is not None else None, names), "ctl": ctl,
        "me": me, "over": over, "replay": replay, "pad": score_pad(view, names, seat),
        "notices": gift_notices(view, seat if me is not None else None, names), "status": seat_status(view, names),
        "waiting": [names[i] for i in view.get("to_act", [])], "acting": ctl is not None,
        "finished_round": me is not None and not over and seat not in view.get("to_act", []),
        "goal": (me or {}).get("goal_card"),
        "terrains": [{"id": t, "letter": LETTER[t], "animal": ANIMAL_OF[t]} for t in TERRAINS],
        "spectator": seat is None,
    }, "done_action": {"type": "done"}}


# --- events in words ---------------------------------------------------------------------------

_who = seat_name


def _tile_words(tile_id: str) -> str:
    tile = TILES[tile_id]
    return f"{tile['terrain']} {SHAPE_NAME[tile['shape']]} ({tile['miles']} mi)"


def _loops(e: dict) -> str:
    return f", closing {_count(e['loops'], 'loop')}" if e.get("loops") else ""


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _place(e: dict, names: list[str]) -> str:
    who = _who(names, e["seat"])
    if e["side"] == "trail":
        exits = ", ".join(DIRECTIONS[d] for d in sorted(B.EXITS[(TILES[e["tile"]]["shape"], e["rotation"])]))
        return (f"{who} placed a {_tile_words(e['tile'])} trail side up at ({e['x']},{e['y']}), "
                f"exits {exits}{_loops(e)}.")
    return f"{who} placed a {TILES[e['tile']]['terrain']} tile terrain side up at ({e['x']},{e['y']})."


def _game_over(e: dict, names: list[str]) -> str:
    winners = e["winners"]
    if e.get("solo"):
        title = B.solo_title(e["points"])
        return f"Game over: {_who(names, 0)} scores {e['points']}" + (f" — {title}." if title else " (no title).")
    return (f"Game over: {', '.join(_who(names, w) for w in winners)} "
            f"{'wins' if len(winners) == 1 else 'tie'} with {e['points']} points.")


DESCRIBE = {
    "round_start": lambda e, n: f"Round {e['turn']} of {e['rounds']} begins.",
    "place": _place,
    "campsite": lambda e, n: (f"{_who(n, e['seat'])} made a campsite at ({e['x']},{e['y']}), {e['miles']} miles out, "
                              f"giving up {e['tile']}{_loops(e)}."),
    "waterfall": lambda e, n: f"{_who(n, e['seat'])} placed a waterfall at ({e['x']},{e['y']}).",
    "waterfall_lost": lambda e, n: f"{_who(n, e['seat'])} had no room for {_count(e['count'], 'waterfall')}.",
    "animal": lambda e, n: f"{_who(n, e['seat'])} put a {e['animal']} on its map at ({e['x']},{e['y']}).",
    "discard": lambda e, n: f"{_who(n, e['seat'])} discarded {e['tile']}, a {_tile_words(e['tile'])} that fit nowhere.",
    "trade_fork": lambda e, n: (f"{_who(n, e['seat'])} traded {e['tile']}, a {TILES[e['tile']]['terrain']} fork, "
                                f"for a {e['animal']}."),
    "gift": lambda e, n: (f"{_who(n, e['seat'])} placed a {e['terrain']} fork: "
                          f"{_who(n, e['to'])} receives a {e['animal']}."),
    "end_animals": lambda e, n: f"{_who(n, e['seat'])} placed {_count(e['count'], 'held animal')} at the end.",
    "lakes": lambda e, n: f"{_who(n, e['seat'])} gets {_count(e['count'], 'lake')}.",
    "game_over": _game_over,
}


def describe(event: dict, names: list[str]) -> str:
    """One event of the view in words; names[i] is the display name of seat i."""
    return describe_from(DESCRIBE, event, names)


def describe_move(action: dict, seat: int, names: list[str], view: dict) -> str:
    """A move that adds no event of its own: "done" ends the seat's part of the round."""
    if action.get("type") == "done":
        return f"{_who(names, seat)} finished round {view['round']}."
    return describe({**action, "seat": seat}, names)


# --- how to play -------------------------------------------------------------------------------

HOW_TO_PLAY_SEED = 7        # the solo game whose maps illustrate the "how to play" page


@functools.lru_cache(maxsize=1)
def _example_solo_game() -> tuple[dict, dict, dict]:
    """The view of seat 0 in a solo game played by the bot: after setup, after 3 rounds
    and at the end. Deterministic (fixed seed), so worked out once per process."""
    from games.alpine_trails.rules import RULES
    from games.alpine_trails.rules import bot

    state = RULES.setup(1, RULES.default_options(), HOW_TO_PLAY_SEED)
    start = RULES.view(state, 0)
    rng, early = random.Random(HOW_TO_PLAY_SEED), None
    while not RULES.is_over(state):
        state = RULES.apply(state, 0, bot.choose(state, 0, rng))
        if early is None and state["round"] == 4:
            early = RULES.view(state, 0)
    if early is None:
        raise RuntimeError("The how-to-play example game ended before round 4.")
    return start, early, RULES.view(state, 0)


def _tile_faces() -> list[dict]:
    """One straight trail of each terrain, on both sides, as the tray draws tiles."""
    shown = {}
    for tile_id, tile in TILES.items():
        if tile["terrain"] not in shown and tile["shape"] == "I":
            shown[tile["terrain"]] = {"terrain": tile["terrain"], "animal": ANIMAL_OF[tile["terrain"]],
                                      "trail": tile_face(tile_id, "trail", 1), "side": tile_face(tile_id, "terrain")}
    return [shown[t] for t in TERRAINS if t in shown]


def title_ranges() -> list[dict]:
    """The solo rank titles as point ranges, lowest first: "below 85", "85 to 94", ... "125 or more"."""
    steps = sorted(SOLO_TITLES)
    ranges = [{"points": f"below {steps[0][0]}", "title": "no title"}]
    for (low, title), after in zip(steps, steps[1:] + [None], strict=True):
        ranges.append({"points": f"{low} to {after[0] - 1}" if after else f"{low} or more", "title": title})
    return ranges


def how_to_play_context() -> dict:
    """Maps of one solo game (the start, round 4, the end with its scoring marks) and the
    tiles, drawn by the board's own builders; the solo rank titles from the rules."""
    start, early, end = _example_solo_game()
    final = end["seats"][0]
    scores = final.get("score") or {}
    return {
        "start_map": map_geometry(start["seats"][0]),
        "early_map": map_geometry(early["seats"][0]),
        "final_map": map_geometry(final, over=True),
        "final_total": scores.get("total"),
        "final_breakdown": [{"label": label, "points": scores.get("breakdown", {}).get(key, 0)}
                            for key, label in PAD_ROWS],
        "final_title": solo_title(scores.get("total", 0)),
        "tiles": _tile_faces(),
        "titles": title_ranges(),
        "pad_rows": PAD_ROWS,
        "board_style": STYLESHEET,
    }
