"""Rifugio with Rivers & Rafts: the hex map in SVG, the tile to place, the walk controls.

All geometry comes from the seat's view (pointy-top axial hexes, spec §3) and every
highlight from `panel["legal"]`; the page never works out legality itself. Multi-step
choices live in the `?sel=` query string of the panel view:

- ``r<k>``: the rotation shown for the tile to place (place phase);
- ``m<q>,<r>``: the menu of a water cell that allows both `sail` and `build_raft`;
- ``swim``: swim mode, the reachable shores are highlighted;
- ``swim<q>,<r>``: a shore was chosen and several water tiles join it: pick one.
"""
from __future__ import annotations

import math
import re

from games.rifugio.rules import data as D

A = 36                     # hex circumradius on the map
SQ3 = math.sqrt(3)
LETTERS = "ABCDEF"
TERRAIN_FILL = {"M": "#b5d97a", "F": "#3f8a4f", "R": "#a3a19a", "P": "#eef2f5", "W": "#4b95d6"}
TERRAIN_WORD = {"M": "meadow", "F": "forest", "R": "rock", "P": "mountaintop", "W": "water"}
CATEGORY_LABEL = {"FLOWER": "Flowers", "ANIMAL": "Animals", "WATERFALL": "Waterfalls",
                  "PASS": "Passes", "MOUNTAINTOP": "Mountaintops"}
CATEGORY_ICON = {"FLOWER": "flower", "ANIMAL": "animal", "WATERFALL": "waterfall",
                 "PASS": "pass", "MOUNTAINTOP": "mountaintop"}
BREAKDOWN_LABEL = {"items": "Items", "waterfall_bonus": "Waterfall bonus", "sets": "Complete sets",
                   "bears": "Bears", "rifugio_cards": "Rifugio cards", "raft_cards": "Raft cards"}

OPTION_SPECS = {
    "rivers_and_rafts": {"label": "Rivers & Rafts expansion (water tiles, rafts, swimming)",
                         "help": "On by default: rivers join the map, hikers build and sail rafts."},
}

SCRIPT = "games/rifugio/board.js"
STYLESHEET = "games/rifugio/board.css"

SEL_ROT = re.compile(r"^r([0-5])$")
SEL_MENU = re.compile(r"^m(-?\d+),(-?\d+)$")
SEL_SWIM = re.compile(r"^swim(?:(-?\d+),(-?\d+))?$")


def _at(c) -> str:
    return f"({c[0]},{c[1]})"


def _tile_words(tile_id: str) -> str:
    t = D.TILES.get(tile_id)
    if t is None:
        return f"tile {tile_id}"
    if t["name"] and t["kind"] != "start":
        return f"{t['name']} ({t['kind']})"
    return f"{t['terrain']} tile"


def _joined(seats, names: list[str]) -> str:
    return " and ".join(_name(s, names) for s in seats)


def _name(seat, names: list[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat + 1}" if isinstance(seat, int) else "Someone"


# One sentence per event type the rules emit (games/rifugio/rules/rules.py, emit()).
EVENT_WORDS = {
    "placed": lambda e, n, who: f"{who} placed a {_tile_words(e['tile'])} at {_at(e['at'])}.",
    "tile_to_bottom": lambda e, n, who: (f"{who} drew the {_tile_words(e['tile'])} {e['tile']}: it fits "
                                         "nowhere and goes to the bottom of the stack."),
    "tiles_removed": lambda e, n, who: (f"No tile left in the stack fits anywhere; {len(e['tiles'])} "
                                        "tile(s) are removed from the game."),
    "item": lambda e, n, who: f"{who} collected the {D.ITEM_NAMES.get(e['tile'], e['tile'])} card.",
    "bear": lambda e, n, who: f"{who} met a bear at {_at(e['at'])} (-3).",
    "rifugio_visit": lambda e, n, who: (f"{who} visited the Rifugio of {_name(e['owner'], n)} at {_at(e['at'])}: "
                                        f"{_name(e['owner'], n)} gains a Rifugio card, {who} an extra step."),
    "raft_visit": lambda e, n, who: (f"{who} stepped onto the raft of {_name(e['owner'], n)}: "
                                     f"{_name(e['owner'], n)} gains a raft-point card, {who} an extra step."),
    "raft_boarded": lambda e, n, who: f"{who} stepped onto a raft at {_at(e['at'])}.",
    "sailed": lambda e, n, who: (f"{who} sailed the raft of {_name(e['owner'], n)} to {_at(e['to'])}"
                                 + (f", carrying {_joined(e['carried'], n)}." if e["carried"] else ".")),
    "rifugio_built": lambda e, n, who: f"{who} built a Rifugio at {_at(e['at'])}.",
    "raft_built": lambda e, n, who: f"{who} built a raft at {_at(e['at'])} and stepped aboard.",
    "extra_step": lambda e, n, who: f"{who} used an extra-step card.",
    "swim_started": lambda e, n, who: (f"{who} started to swim across {_at(e['via'])} towards {_at(e['to'])} "
                                       f"({e['stage']}/{e['stages']})."),
    "swim_stage": lambda e, n, who: f"{who} keeps swimming ({e['stage']}/{e['stages']}).",
    "swam_ashore": lambda e, n, who: f"{who} swam ashore at {_at(e['at'])}.",
    "turn_ended": lambda e, n, who: f"{who} ended their turn.",
    "game_over": lambda e, n, who: ("The game is over. " + _joined(e["winners"], n)
                                    + (" win." if len(e["winners"]) > 1 else " wins.")),
}


def describe(event: dict, names: list[str]) -> str:
    """One event of the game in words; names[i] is the display name of seat i."""
    words = EVENT_WORDS.get(event.get("type"))
    who = _name(event.get("seat"), names)
    if words is not None:
        try:
            return words(event, names, who)
        except (KeyError, TypeError, IndexError):
            pass                # a malformed event still gets the fallback below
    what = str(event.get("type") or "something").replace("_", " ")
    return f"{who}: {what}." if event.get("seat") is not None else f"{what.capitalize()}."


def centre(q: int, r: int, a: float = A) -> tuple[float, float]:
    return a * SQ3 * (q + r / 2), 1.5 * a * r


def _corner(cx: float, cy: float, deg: float, a: float) -> tuple[float, float]:
    t = math.radians(deg)
    return round(cx + a * math.cos(t), 2), round(cy - a * math.sin(t), 2)


def _pts(points) -> str:
    return " ".join(f"{x},{y}" for x, y in points)


def hex_points(cx: float, cy: float, a: float = A) -> str:
    return _pts(_corner(cx, cy, 30 + 60 * i, a) for i in range(6))


def triangles(cx: float, cy: float, sides: str, a: float = A) -> list[dict]:
    """Six triangles, one per side, coloured by the edge letter shown there (§19)."""
    out = []
    for s in range(6):
        c1, c2 = _corner(cx, cy, 60 * s - 30, a), _corner(cx, cy, 60 * s + 30, a)
        out.append({"points": _pts([(round(cx, 2), round(cy, 2)), c1, c2]), "fill": TERRAIN_FILL[sides[s]],
                    "letter": sides[s]})
    return out


def rotated(edges: str, k: int) -> str:
    """The letters shown on sides 0-5 by a tile with canonical `edges` at rotation k."""
    return "".join(edges[(s - k) % 6] for s in range(6))


def pawn(seat: int, x: float, y: float, scale: float = 1.0, active: bool = False, name: str = "") -> dict:
    return {"seat": seat, "letter": LETTERS[seat], "x": round(x, 2), "y": round(y, 2), "scale": scale,
            "active": active, "name": name}


def _row(n: int, cx: float, cy: float, gap: float) -> list[tuple[float, float]]:
    """Positions for n pawns on one tile: a row for up to three, a small ring beyond."""
    if n <= 3:
        return [(cx + (i - (n - 1) / 2) * gap, cy) for i in range(n)]
    return [(cx + 14 * math.cos(math.radians(90 + 360 * i / n)), cy - 4 + 11 * math.sin(math.radians(90 + 360 * i / n)))
            for i in range(n)]


def _parse_sel(selection: str):
    selection = (selection or "").strip()
    m = SEL_ROT.match(selection)
    if m:
        return "rot", int(m.group(1))
    m = SEL_MENU.match(selection)
    if m:
        return "menu", (int(m.group(1)), int(m.group(2)))
    m = SEL_SWIM.match(selection)
    if m:
        return "swim", (int(m.group(1)), int(m.group(2))) if m.group(1) is not None else None
    return None, None


def board_context(panel: dict) -> dict:
    view = panel["view"]
    names = list(panel.get("names") or [])
    legal = list(panel.get("legal") or [])
    seat = panel.get("seat")
    n = view["players"]
    while len(names) < n:
        names.append(f"Seat {len(names) + 1}")
    sel_kind, sel_value = _parse_sel(panel.get("selection", ""))
    active = view["active"]
    over = view["phase"] == "over"

    tiles_by_key = {t["key"]: t for t in view["tiles"]}
    water = {k for k, t in tiles_by_key.items() if t["kind"] == "water"}
    rifugi = {f"{f['at'][0]},{f['at'][1]}": f["owner"] for f in view["rifugi"]}
    rafts_at = {f"{r['at'][0]},{r['at'][1]}": r for r in view["rafts"]}
    placed = set(view["turn"]["placed"])

    # --- map tiles -----------------------------------------------------------------------
    tiles = []
    xs, ys = [], []
    for t in view["tiles"]:
        cx, cy = centre(t["q"], t["r"])
        xs.append(cx)
        ys.append(cy)
        is_water = t["key"] in water
        edges = []
        for s in range(6):
            dq, dr = D.DIRS[s]
            nk = f"{t['q'] + dq},{t['r'] + dr}"
            if is_water and nk in water:
                continue          # one river is one body: no inner outline
            c1, c2 = _corner(cx, cy, 60 * s - 30, A), _corner(cx, cy, 60 * s + 30, A)
            edges.append({"x1": c1[0], "y1": c1[1], "x2": c2[0], "y2": c2[1]})
        icon = t["kind"] if t["kind"] in ("flower", "animal", "waterfall", "pass", "mountaintop", "bear", "start") else None
        holders = [{"seat": h, "letter": LETTERS[h], "name": names[h], "x": round(cx - A * 0.62 + 7 * i, 2),
                    "y": round(cy - A * 0.5, 2)} for i, h in enumerate(t["holders"])]
        owner = rifugi.get(t["key"])
        title = _tile_title(t, names, owner)
        water_nb = sum(1 for s in range(6) if f"{t['q'] + D.DIRS[s][0]},{t['r'] + D.DIRS[s][1]}" in water)
        tiles.append({
            "key": t["key"], "q": t["q"], "r": t["r"], "cx": round(cx, 2), "cy": round(cy, 2),
            "hex": hex_points(cx, cy), "tris": triangles(cx, cy, t["sides"]), "edges": edges,
            "water": is_water, "pond": is_water and not any(
                f"{t['q'] + dq},{t['r'] + dr}" in water for dq, dr in D.DIRS),
            "icon": icon, "item": t["tile"] if t["category"] else None, "name": t["name"] or "",
            "holders": holders, "placed": t["key"] in placed, "title": title,
            "rifugio": None if owner is None else {"owner": owner, "letter": LETTERS[owner], "name": names[owner],
                                                   "x": round(cx + A * 0.42, 2), "y": round(cy - A * 0.2, 2)},
            "water_neighbours": water_nb,
        })
    frontier = []
    for q, r in view["frontier"]:
        cx, cy = centre(q, r)
        xs.append(cx)
        ys.append(cy)
        frontier.append({"key": f"{q},{r}", "hex": hex_points(cx, cy, A - 3)})
    pad = A + 6
    min_x, max_x, min_y, max_y = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    # a small map is not blown up to giant hexes: the view box is at least 7 x 6 hexes
    grow_x = max(0.0, 7 * A * SQ3 - (max_x - min_x)) / 2
    grow_y = max(0.0, 6 * 1.5 * A + A - (max_y - min_y)) / 2
    min_x, max_x, min_y, max_y = min_x - grow_x, max_x + grow_x, min_y - grow_y, max_y + grow_y
    viewbox = f"{round(min_x, 1)} {round(min_y, 1)} {round(max_x - min_x, 1)} {round(max_y - min_y, 1)}"

    # --- hikers, rafts, swimmers ---------------------------------------------------------
    seats = view["seats"]
    on_land: dict[str, list[int]] = {}
    swimmers = []
    for p in seats:
        h = p["hiker"]
        if h["swim"]:
            sw = h["swim"]
            vx, vy = centre(*sw["via"])
            tx, ty = centre(*sw["to"])
            dx, dy = tx - vx, ty - vy
            dist = math.hypot(dx, dy) or 1
            ux, uy = dx / dist, dy / dist
            # a stage-dependent spot in the water: near shore, middle, far shore
            fx, fy = centre(*sw["from"])
            stage = sw["stage"]
            t_along = {1: -0.45, 2: 0.0, 3: 0.45}.get(stage, 0.0)
            sx = vx + t_along * (tx - fx) / 2
            sy = vy + t_along * (ty - fy) / 2
            swimmers.append({
                "seat": p["seat"], "letter": LETTERS[p["seat"]], "name": names[p["seat"]],
                "x": round(sx, 2), "y": round(sy, 2), "stage": stage, "active": p["seat"] == active and not over,
                "ax1": round(vx + ux * A * 0.55, 2), "ay1": round(vy + uy * A * 0.55, 2),
                "ax2": round(tx - ux * A * 0.45, 2), "ay2": round(ty - uy * A * 0.45, 2),
            })
        elif h["raft"] is None:
            on_land.setdefault(f"{h['at'][0]},{h['at'][1]}", []).append(p["seat"])
    hikers = []
    for k, group in on_land.items():
        t = tiles_by_key.get(k)
        if t is None:
            continue
        cx, cy = centre(t["q"], t["r"])
        for (x, y), s in zip(_row(len(group), cx, cy + A * 0.36, 13), group):
            hikers.append(pawn(s, x, y, 0.9, s == active and not over, names[s]))
    rafts = []
    for raft in view["rafts"]:
        cx, cy = centre(*raft["at"])
        riders = [pawn(s, cx + (i - (len(raft["riders"]) - 1) / 2) * 14, cy - 3, 0.8, s == active and not over, names[s])
                  for i, s in enumerate(raft["riders"])]
        rafts.append({"id": raft["id"], "owner": raft["owner"], "letter": LETTERS[raft["owner"]],
                      "name": names[raft["owner"]], "x": round(cx, 2), "y": round(cy, 2),
                      "unmanned": raft["unmanned"], "riders": riders,
                      "rider_names": ", ".join(names[s] for s in raft["riders"])})

    # --- targets (acting seat only) ------------------------------------------------------
    kinds = {a["type"] for a in legal}
    targets: list[dict] = []
    menu = None
    hand = view.get("hand")
    rotation = 0
    rotations_with_spots: list[int] = []
    place_mode = "place_tile" in kinds
    if place_mode and hand:
        spots: dict[tuple[int, int], list[int]] = {}
        for a in legal:
            if a["type"] == "place_tile":
                spots.setdefault((a["q"], a["r"]), []).append(a["rotation"])
        rotations_with_spots = sorted({k for ks in spots.values() for k in ks})
        if hand["symmetric"]:
            rotation = 0
        elif sel_kind == "rot":
            rotation = sel_value
        else:
            rotation = rotations_with_spots[0] if rotations_with_spots else 0
        shown = rotated(hand["edges"], rotation)
        for (q, r), ks in sorted(spots.items()):
            cx, cy = centre(q, r)
            base = {"key": f"{q},{r}", "hex": hex_points(cx, cy, A - 2), "cx": round(cx, 2), "cy": round(cy, 2)}
            if rotation in ks:
                targets.append({**base, "kind": "place", "action": {"type": "place_tile", "q": q, "r": r, "rotation": rotation},
                                "label": f"Place the tile at ({q},{r})", "ghost": triangles(cx, cy, shown, A - 2)})
            else:
                first = min(ks, key=lambda k: (k - rotation) % 6)
                targets.append({**base, "kind": "place-other", "sel": f"r{first}",
                                "label": f"The tile fits at ({q},{r}) after turning it: turn it"})
    else:
        my = seats[seat] if seat is not None and seat < len(seats) else None
        steps = [a for a in legal if a["type"] == "step"]
        sails = {tuple(a["to"]): a for a in legal if a["type"] == "sail"}
        builds = {tuple(a["at"]): a for a in legal if a["type"] == "build_raft"}
        swims = [a for a in legal if a["type"] == "swim"]
        swim_mode = sel_kind == "swim" and bool(swims)
        if swim_mode:
            shores: dict[tuple[int, int], list[dict]] = {}
            for a in swims:
                shores.setdefault(tuple(a["to"]), []).append(a)
            chosen = sel_value if sel_value in shores else None
            if chosen is None:
                for (q, r), acts in sorted(shores.items()):
                    cx, cy = centre(q, r)
                    t = {"key": f"{q},{r}", "hex": hex_points(cx, cy, A - 3), "cx": round(cx, 2), "cy": round(cy, 2),
                         "kind": "swim-to", "label": f"Swim to ({q},{r})", "badge": "swim here"}
                    if len(acts) == 1:
                        t["action"] = acts[0]
                    else:
                        t["sel"] = f"swim{q},{r}"
                    targets.append(t)
            else:
                cx, cy = centre(*chosen)
                targets.append({"key": "chosen", "hex": hex_points(cx, cy, A - 3), "cx": round(cx, 2), "cy": round(cy, 2),
                                "kind": "chosen", "label": "", "badge": "shore"})
                for a in shores[chosen]:
                    q, r = a["via"]
                    cx, cy = centre(q, r)
                    targets.append({"key": f"{q},{r}", "hex": hex_points(cx, cy, A - 3), "cx": round(cx, 2), "cy": round(cy, 2),
                                    "kind": "swim-via", "action": a, "label": f"Swim across ({q},{r})", "badge": "via"})
        else:
            for a in steps:
                q, r = a["to"]
                k = f"{q},{r}"
                cx, cy = centre(q, r)
                raft = rafts_at.get(k)
                pays = False
                if raft is not None:
                    pays = raft["owner"] != seat and raft["id"] not in view["turn"]["visited_rafts"]
                    label = ("Jump onto" if my and my["hiker"]["raft"] is not None else "Board") + \
                        f" the raft of {names[raft['owner']]} at ({q},{r})"
                else:
                    owner = rifugi.get(k)
                    pays = owner is not None and owner != seat and k not in view["turn"]["visited_rifugi"]
                    t = tiles_by_key.get(k, {})
                    label = f"Walk to ({q},{r})" + (f": {t['name']}" if t.get("name") and t.get("kind") != "start" else "")
                targets.append({"key": k, "hex": hex_points(cx, cy, A - 3), "cx": round(cx, 2), "cy": round(cy, 2),
                                "kind": "step", "action": a, "label": label + (" (+1 step card)" if pays else ""),
                                "badge": "+1 step" if pays else ""})
            for c in sorted(set(sails) | set(builds)):
                q, r = c
                cx, cy = centre(q, r)
                base = {"key": f"{q},{r}", "hex": hex_points(cx, cy, A - 3), "cx": round(cx, 2), "cy": round(cy, 2)}
                if c in sails and c in builds:
                    is_open = sel_kind == "menu" and sel_value == c
                    targets.append({**base, "kind": "menu" + (" open" if is_open else ""), "sel": f"m{q},{r}",
                                    "label": f"Sail to or build a raft at ({q},{r}): choose", "badge": "sail / + raft"})
                    if is_open:
                        menu = {"q": q, "r": r, "sail": sails[c], "build": builds[c]}
                elif c in sails:
                    targets.append({**base, "kind": "sail", "action": sails[c], "label": f"Sail to ({q},{r})",
                                    "badge": ""})
                else:
                    targets.append({**base, "kind": "raft", "action": builds[c],
                                    "label": f"Build a raft at ({q},{r}) for 2 steps", "badge": "+ raft (2)"})

    # --- the turn box --------------------------------------------------------------------
    actor = seats[active] if not over else None
    hand_box = None
    if hand:
        shown = rotated(hand["edges"], rotation)
        hand_box = {
            "tile": hand, "tris": triangles(60, 60, shown, 52), "hex": hex_points(60, 60, 52),
            "icon": hand["kind"] if hand["kind"] in ("flower", "animal", "waterfall", "pass", "mountaintop", "bear") else None,
            "title": _hand_title(hand), "rotation": rotation,
            "left": f"r{(rotation + 1) % 6}", "right": f"r{(rotation - 1) % 6}",
            "no_spot": place_mode and rotation not in rotations_with_spots,
            "sides": ", ".join(f"{D.SIDE_NAMES[s]} {TERRAIN_WORD[shown[s]]}" for s in range(6)) if not hand["symmetric"] else "",
        }
    buttons = _buttons(legal, view, seat)

    # --- players -------------------------------------------------------------------------
    players = []
    for p in seats:
        i = p["seat"]
        cats = []
        for c in D.CATEGORIES:
            held = set(p["items_by_category"][c])
            slots = [{"tile": t, "name": D.ITEM_NAMES[t], "held": t in held} for t in D.CATEGORY_TILES[c]]
            cats.append({"key": c, "label": CATEGORY_LABEL[c], "icon": CATEGORY_ICON[c], "slots": slots,
                         "complete": len(held) == 3, "count": len(held)})
        waterfalls = []
        for t in p["items_by_category"]["WATERFALL"]:
            tile = next((x for x in tiles if x["item"] == t), None)
            bonus = tile["water_neighbours"] if tile and view["options"].get("rivers_and_rafts") else 0
            waterfalls.append({"name": D.ITEM_NAMES[t], "bonus": bonus, "worth": D.ITEM_VALUE["WATERFALL"] + bonus})
        players.append({
            "seat": i, "letter": LETTERS[i], "name": names[i], "info": p, "categories": cats,
            "breakdown": [{"label": BREAKDOWN_LABEL.get(k, k), "value": v} for k, v in p["breakdown"].items()],
            "breakdown_text": "; ".join(f"{BREAKDOWN_LABEL.get(k, k)} {v}" for k, v in p["breakdown"].items()),
            "is_active": i == active and not over, "is_you": i == seat, "waterfalls": waterfalls,
            "bear_names": [f"Bear {b[-1]}" for b in p["bears"]],
        })

    final = _final(players, view) if over else None
    pips = [{"on": True} for _ in range(view["turn"]["steps"])]
    return {
        "scores": _score_rows(panel.get("scores"), bool(view["options"].get("rivers_and_rafts"))),
        "rf": {
            "viewbox": viewbox, "tiles": tiles, "frontier": frontier, "hikers": hikers, "rafts": rafts,
            "swimmers": swimmers, "targets": targets, "menu": menu, "hand": hand_box, "buttons": buttons,
            "players": players, "final": final, "over": over, "place_mode": place_mode,
            "active_name": names[active] if not over else "", "active_letter": LETTERS[active],
            "active": active, "phase_label": "Place a tile" if view["phase"] == "place" else ("Walk" if not over else "Game over"),
            "steps": view["turn"]["steps"], "pips": pips,
            "extra_cards": actor["extra_step_cards"] if actor else 0,
            "tiles_to_place": view["turn"]["tiles_to_place"],
            "tiles_left": view["tiles_left"], "removed": len(view["removed"]),
            "tried": len(view["turn"]["tried"]),
            "expansion": bool(view["options"].get("rivers_and_rafts")),
            "acting": bool(legal), "swim_mode": sel_kind == "swim" and any(a["type"] == "swim" for a in legal),
            "selection": panel.get("selection", ""),
        },
    }


def _score_rows(rows, expansion: bool = True):
    """The shared side table, kept narrow enough for its column to show the total.

    The six breakdown parts plus rank, name and total do not fit the side column, so it
    shows five short columns: a waterfall card's bonus is counted with the card under
    "Items" (the board's final table and each player's hover still give every part), and
    the base game, which has no raft cards, drops "Rafts".
    """
    if not rows:
        return rows
    out = []
    for row in rows:
        row = dict(row)
        b = row.get("breakdown", {})
        short = {"Items": b.get("items", 0) + b.get("waterfall_bonus", 0), "Sets": b.get("sets", 0),
                 "Bears": b.get("bears", 0), "Huts": b.get("rifugio_cards", 0)}
        if expansion:
            short["Rafts"] = b.get("raft_cards", 0)
        row["breakdown"] = short
        row["parts"] = list(short.values())
        out.append(row)
    return out


def _tile_title(t: dict, names: list[str], owner) -> str:
    kind = t["kind"]
    if kind == "start":
        text = "Start tile"
    elif kind == "water":
        text = "Water"
    elif kind == "plain":
        text = f"{t['terrain'].capitalize()}"
    elif kind == "bear":
        text = f"{t['name']}: bear, −3"
    elif kind == "pass":
        text = f"{t['name']}: pass (rock and meadow), 2 points"
    elif kind == "waterfall":
        text = f"{t['name']}: waterfall, 1 point + 1 per water neighbour"
    else:
        text = f"{t['name']}: {kind}, 2 points"
    if t["holders"]:
        text += " · held by " + ", ".join(names[h] for h in t["holders"])
    if owner is not None:
        text += f" · Rifugio of {names[owner]}"
    return f"({t['q']},{t['r']}) {text}"


def _hand_title(hand: dict) -> str:
    if hand["name"]:
        return f"{hand['name']} ({hand['kind']})"
    return f"{hand['terrain'].capitalize()} tile"


def _buttons(legal: list[dict], view: dict, seat) -> dict:
    by = {}
    for a in legal:
        by.setdefault(a["type"], a)
    if not legal or view["phase"] != "walk":
        return {}
    me = view["seats"][seat]
    swim = me["hiker"]["swim"]
    useful = [a for a in legal if a["type"] != "end_turn"]
    steps = view["turn"]["steps"]
    confirm = ""
    if useful and (steps > 0 or "use_extra_step" in by):
        confirm = (f"You still have {steps} step{'s' if steps != 1 else ''}" if steps else "You still have extra-step cards") + \
            " and moves left. End your turn anyway?"
    can_build_here = me["rifugi_left"] > 0 and me["hiker"]["raft"] is None and not swim
    return {
        "build_rifugio": by.get("build_rifugio"), "show_build_rifugio": can_build_here or "build_rifugio" in by,
        "use_extra_step": by.get("use_extra_step"), "extra_cards": me["extra_step_cards"],
        "swim": "swim" in by, "continue_swim": by.get("continue_swim"),
        "swim_stage": swim["stage"] if swim else 0, "end_turn": by.get("end_turn"), "end_confirm": confirm,
    }


def _final(players: list[dict], view: dict) -> dict:
    rows = sorted(players, key=lambda p: (p["info"]["rank"], p["seat"]))
    notes = []
    by_total: dict[int, list[dict]] = {}
    for p in rows:
        by_total.setdefault(p["info"]["score"], []).append(p)
    for total, group in by_total.items():
        if len(group) < 2:
            continue
        ranks = {p["info"]["rank"] for p in group}
        names = " and ".join(p["name"] for p in group)
        if len(ranks) > 1:
            order = ", ".join(f"{p['name']} ({p['info']['raft_cards']} raft card{'s' if p['info']['raft_cards'] != 1 else ''})"
                              for p in group)
            notes.append(f"{names} tie on {total} points; raft points break the tie: {order}.")
        else:
            notes.append(f"{names} tie on {total} points and on raft points, so they share the rank.")
    return {"rows": rows, "notes": notes}
