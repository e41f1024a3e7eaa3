"""Rift Valley Reserve: one map's geometry, drawing legality, drawing and scoring.

Pure functions on one map dict of the state (spec sections 3, 6 and 8). None of them
changes a map in place: `draw` returns a new map sharing the untouched parts.
"""
from __future__ import annotations

from games.rules.base import Action, gettext_noop
from . import data
from .data import ANIMAL, GROUND, RIFT_CHARS, TREE, WATER

Cell = tuple[int, int]

CATEGORIES = ("trails", "animals", "tents", "stop_penalty")
# Why a draw is refused, in English and marked for the catalogues: legality is checked for
# every square many times a turn (legal_draws, the bots), so the reasons are translated
# only when one is shown, where IllegalAction is raised (rules.py).
NOT_EMPTY = gettext_noop("That square is not empty.")
OPENING_STOPS_ONLY = gettext_noop("On the first turn you can only draw a Stop.")
STOP_BESIDE_STOP = gettext_noop("A Stop cannot be directly above, below, left or right of another Stop.")
OPENING_STOP_BY_ANIMAL = gettext_noop("On the first turn a Stop cannot touch an animal, diagonals included.")
IN_LINE_NO_CORNER = gettext_noop("These Stops are in line: a straight Trail has no corner.")
NOT_IN_LINE = gettext_noop("These Stops are not in line: choose a corner.")
BAD_CORNER = gettext_noop("That corner does not join these Stops.")
SAME_STOP = gettext_noop("A Trail must join two different Stops.")
NOT_OWN_STOPS = gettext_noop("A Trail must join two of your own Stops.")
TURN_ON_RIFT = gettext_noop("A Trail cannot turn on the Rift.")
NOT_RIFT_OWNER = gettext_noop("Only the owner of this Rift can bridge it.")
BRIDGE_NOT_STRAIGHT = gettext_noop("A bridge must go straight across the Rift at a right angle.")
TWIN_TRAIL = gettext_noop("These Stops are already joined by a Trail.")
STOP_FULL = gettext_noop("That Stop cannot end any more Trails.")
BLOCKED_BY = {"stop": gettext_noop("The Trail would cross a Stop."),
              "tent": gettext_noop("The Trail would cross a Tent."),
              "trail": gettext_noop("The Trail would cross another Trail."),
              ANIMAL: gettext_noop("The Trail would cross an animal."),
              TREE: gettext_noop("The Trail would cross a tree."),
              WATER: gettext_noop("The Trail would cross water.")}


def key(r: int, c: int) -> str:
    return f"{r},{c}"


def n4(r: int, c: int, m: dict) -> tuple:
    return data.neighbours(m["rows"], m["cols"])[0][r, c]


def n8(r: int, c: int, m: dict) -> tuple:
    return data.neighbours(m["rows"], m["cols"])[1][r, c]


# --- Map helpers ----------------------------------------------------------------------

def new_map(map_id: str, owner: int) -> dict:
    """A fresh copy of a map from the data, owned by `owner`, nothing drawn."""
    src = data.MAPS[map_id]
    return {"id": src["id"], "name": src["name"], "kind": src["kind"],
            "rows": src["rows"], "cols": src["cols"],
            "terrain": list(src["terrain"]), "areas": list(src["areas"]),
            "owner": owner, "cells": {}, "trails": [],
            # How many ground cells are still empty, kept by `draw` (is_full without a scan).
            "empty": sum(line.count(GROUND) for line in src["terrain"])}


def is_empty(m: dict, r: int, c: int) -> bool:
    return m["terrain"][r][c] == GROUND and key(r, c) not in m["cells"]


def empty_cells(m: dict):
    cells = m["cells"]
    for r, line in enumerate(m["terrain"]):
        for c, ch in enumerate(line):
            if ch == GROUND and f"{r},{c}" not in cells:
                yield r, c


def is_full(m: dict) -> bool:
    if "empty" in m:
        return m["empty"] == 0
    return next(empty_cells(m), None) is None


def own_stops(m: dict, seat: int) -> list[Cell]:
    return sorted(cell_of(k) for k, d in m["cells"].items() if d["kind"] == "stop" and d["seat"] == seat)


def cell_of(k: str) -> Cell:
    """The (r, c) of a "r,c" cell key."""
    r, c = k.split(",")
    return int(r), int(c)


def connected_stops(m: dict) -> set[Cell]:
    out = set()
    for trail in m["trails"]:
        out.add(tuple(trail["path"][0]))
        out.add(tuple(trail["path"][-1]))
    return out


def held_map(seat: int, turn: int, n: int) -> int:
    """The map seat `seat` holds on turn `turn` (spec 5.2)."""
    return (seat - (turn - 1) * data.PASS_DIRECTION) % n


def holder(map_index: int, turn: int, n: int) -> int:
    """The seat holding map `map_index` on turn `turn`."""
    return (map_index + (turn - 1) * data.PASS_DIRECTION) % n


def final_turn_for(trigger_turn: int, n: int) -> int:
    """t_end: the first turn at or after t0 + FINAL_STAGE_MIN_TURNS when everyone holds
    their own map again (spec 7.2)."""
    t = trigger_turn + data.FINAL_STAGE_MIN_TURNS
    while (t - 1) % n:
        t += 1
    return t


# --- Legality (spec section 6) --------------------------------------------------------

def stop_error(m: dict, seat: int, r: int, c: int, turn: int) -> str | None:
    if not is_empty(m, r, c):
        return NOT_EMPTY
    cells = m["cells"]
    for a, b in n4(r, c, m):
        drawn = cells.get(key(a, b))
        if drawn and drawn["kind"] == "stop" and (data.STOP_SPACING_ANY_COLOUR or drawn["seat"] == seat):
            return STOP_BESIDE_STOP
    if turn == data.OPENING_TURN:
        terrain = m["terrain"]
        if any(terrain[a][b] == ANIMAL for a, b in n8(r, c, m)):
            return OPENING_STOP_BY_ANIMAL
    return None


def tent_error(m: dict, r: int, c: int, turn: int) -> str | None:
    if turn == data.OPENING_TURN:
        return OPENING_STOPS_ONLY
    if not is_empty(m, r, c):
        return NOT_EMPTY
    return None


def _leg(a: Cell, b: Cell) -> list[Cell]:
    """Cells from a to b (same row or column), both included."""
    (r1, c1), (r2, c2) = a, b
    if r1 == r2:
        step = 1 if c2 > c1 else -1
        return [(r1, c) for c in range(c1, c2 + step, step)]
    step = 1 if r2 > r1 else -1
    return [(r, c1) for r in range(r1, r2 + step, step)]


def trail_path(a: Cell, b: Cell, corner: Cell | None) -> list[Cell]:
    """The whole path of a Trail, endpoints included (the shape is assumed checked)."""
    if corner is None:
        return _leg(a, b)
    return _leg(a, corner) + _leg(corner, b)[1:]


def trail_shape_error(a: Cell, b: Cell, corner: Cell | None) -> str | None:
    in_line = a[0] == b[0] or a[1] == b[1]
    if in_line:
        return None if corner is None else IN_LINE_NO_CORNER
    if corner is None:
        return NOT_IN_LINE
    if corner not in ((a[0], b[1]), (b[0], a[1])):
        return BAD_CORNER
    return None


def trail_error(m: dict, seat: int, a: Cell, b: Cell, corner: Cell | None, turn: int) -> str | None:
    """Why P may not draw this Trail on map m, or None when it is legal (spec 6.2, 6.3)."""
    if turn == data.OPENING_TURN:
        return OPENING_STOPS_ONLY
    if a == b:
        return SAME_STOP
    cells = m["cells"]
    for end in (a, b):
        drawn = cells.get(key(*end))
        if not drawn or drawn["kind"] != "stop" or drawn["seat"] != seat:
            return NOT_OWN_STOPS
    shape = trail_shape_error(a, b, corner)
    if shape:
        return shape
    error = _path_error(m, seat, trail_path(a, b, corner), corner)
    if error:
        return error
    return _limits_error(m, a, b)


def _path_error(m: dict, seat: int, path: list[Cell], corner: Cell | None) -> str | None:
    """Why the Trail's interior is blocked (spec 6.2 rule 5, 6.3), or None."""
    cells, terrain = m["cells"], m["terrain"]
    for i in range(1, len(path) - 1):
        q = path[i]
        drawn = cells.get(key(*q))
        if drawn:
            return BLOCKED_BY[drawn["kind"]]
        ch = terrain[q[0]][q[1]]
        if ch == GROUND:
            continue
        if ch not in RIFT_CHARS:
            return BLOCKED_BY[ch]
        if q == corner:
            return TURN_ON_RIFT
        if m["owner"] != seat:
            return NOT_RIFT_OWNER
        moving = "horizontal" if path[i - 1][0] == q[0] else "vertical"
        if data.RIFT_CROSSING[ch] != moving:
            return BRIDGE_NOT_STRAIGHT
    return None


def _limits_error(m: dict, a: Cell, b: Cell) -> str | None:
    """The optional limits on twin Trails and Trails per Stop (D17, D22)."""
    ends = {a, b}
    if not data.ALLOW_TWIN_TRAILS and any(
            {tuple(t["path"][0]), tuple(t["path"][-1])} == ends for t in m["trails"]):
        return TWIN_TRAIL
    if data.MAX_TRAILS_PER_STOP is not None:
        for end in ends:
            used = sum(1 for t in m["trails"] if end in (tuple(t["path"][0]), tuple(t["path"][-1])))
            if used >= data.MAX_TRAILS_PER_STOP:
                return STOP_FULL
    return None


def trail_candidates(m: dict, seat: int):
    """(a, b, corner) for every Trail shape between two of the seat's Stops, in the
    canonical order of spec 6.6 (legality not yet checked)."""
    stops = own_stops(m, seat)
    for i, a in enumerate(stops):
        for b in stops[i + 1:]:
            if a[0] == b[0] or a[1] == b[1]:
                yield a, b, None
            else:
                for corner in sorted(((a[0], b[1]), (b[0], a[1]))):
                    yield a, b, corner


def legal_trails(m: dict, seat: int, turn: int) -> list[Action]:
    return [trail_action(a, b, k) for a, b, k in trail_candidates(m, seat)
            if trail_error(m, seat, a, b, k, turn) is None]


def trail_action(a: Cell, b: Cell, corner: Cell | None) -> Action:
    return {"type": "trail", "from": [a[0], a[1]], "to": [b[0], b[1]],
            "corner": None if corner is None else [corner[0], corner[1]]}


def legal_draws(m: dict, seat: int, turn: int) -> list[Action]:
    """Every Stop, Tent and Trail the seat may draw on map m, in canonical order."""
    empty = list(empty_cells(m))
    barred = stop_barred(m, seat, turn)
    stops = [{"type": "stop", "cell": [r, c]} for r, c in empty if (r, c) not in barred]
    if turn == data.OPENING_TURN:
        return stops
    tents = [{"type": "tent", "cell": [r, c]} for r, c in empty]
    return stops + tents + legal_trails(m, seat, turn)


def stop_barred(m: dict, seat: int, turn: int) -> set[Cell]:
    """The squares where stop_error refuses a Stop although they are empty: beside a Stop
    that counts (spacing), and on the opening turn next to an animal. One pass over the
    drawn Stops and the animals instead of stop_error's look-round for every empty square
    (the panel asks for the legal draws on every render: issue 21)."""
    n4, n8 = data.neighbours(m["rows"], m["cols"])
    barred: set[Cell] = set()
    for k, drawn in m["cells"].items():
        if drawn["kind"] == "stop" and (data.STOP_SPACING_ANY_COLOUR or drawn["seat"] == seat):
            barred.update(n4[cell_of(k)])
    if turn == data.OPENING_TURN:
        for r, line in enumerate(m["terrain"]):
            for c, ch in enumerate(line):
                if ch == ANIMAL:
                    barred.update(n8[r, c])
    return barred


def has_draw(m: dict, seat: int, turn: int) -> bool:
    if turn == data.OPENING_TURN:
        return any(stop_error(m, seat, r, c, turn) is None for r, c in empty_cells(m))
    if not is_full(m):
        return True   # a Tent fits any empty cell
    if m["owner"] != seat:
        return False  # a full map leaves only bridges over the Rift, which only its owner draws
    return any(trail_error(m, seat, a, b, k, turn) is None for a, b, k in trail_candidates(m, seat))


def draw(m: dict, seat: int, action: Action) -> dict:
    """A new map with the (legal, canonical) action drawn; m is left untouched."""
    out = dict(m)
    cells = out["cells"] = dict(m["cells"])
    kind = action["type"]
    filled = 0
    if kind in ("stop", "tent"):
        cells[key(*action["cell"])] = {"kind": kind, "seat": seat}
        filled = 1
    elif kind == "trail":
        corner = action["corner"]
        path = trail_path(tuple(action["from"]), tuple(action["to"]),
                          None if corner is None else tuple(corner))
        tid = len(m["trails"])
        for r, c in path[1:-1]:
            cells[key(r, c)] = {"kind": "trail", "seat": seat, "trail": tid}
            filled += m["terrain"][r][c] == GROUND
        out["trails"] = m["trails"] + [{"id": tid, "seat": seat, "path": [[r, c] for r, c in path]}]
    if "empty" in m:
        out["empty"] = m["empty"] - filled
    return out


# --- Scoring (spec section 8) ---------------------------------------------------------

def score_map(m: dict, n: int) -> list[dict]:
    """Per seat breakdown {trails, animals, tents, stop_penalty} for one map."""
    out = [{"trails": 0, "animals": 0, "tents": 0, "stop_penalty": 0} for _ in range(n)]
    presence: list[set] = [set() for _ in range(n)]
    connected = set()
    areas = m["areas"]
    for trail in m["trails"]:
        path = [(r, c) for r, c in trail["path"]]
        presence[trail["seat"]].update(path)
        connected.add(path[0])
        connected.add(path[-1])
        out[trail["seat"]]["trails"] += len({areas[r][c] for r, c in path})
    cells = m["cells"]
    for k, drawn in cells.items():
        kind = drawn["kind"]
        if kind == "trail":
            continue
        r, c = (int(v) for v in k.split(","))
        if kind == "stop":
            if (r, c) not in connected:
                out[drawn["seat"]]["stop_penalty"] += data.PENALTY_PER_UNCONNECTED_STOP
        else:
            owner = drawn["seat"]
            for a, b in n8(r, c, m):
                if (a, b) in connected and cells[key(a, b)]["seat"] == owner:
                    out[owner]["tents"] += data.TENT_POINTS_PER_STOP
    if m["trails"]:
        _animal_scores(m, presence, out)
    return out


def _animal_scores(m: dict, presence: list[set], out: list[dict]) -> None:
    """Each animal pays every seat with a Trail next to it (less when shared)."""
    for r, line in enumerate(m["terrain"]):
        for c, ch in enumerate(line):
            if ch != ANIMAL:
                continue
            around = set(n8(r, c, m))
            seats = [s for s in range(len(out)) if presence[s] & around]
            for s in seats:
                out[s]["animals"] += data.ANIMAL_VALUES[min(len(seats), 3)]


def total(breakdown: dict) -> int:
    return sum(breakdown[c] for c in CATEGORIES)


# --- Running scores: a draw changes a map's scores by a delta (spec section 8) -------------
# `score_map` rescans a whole map, which grows with the game; a resolved turn instead adds
# each draw's effect to the map's running breakdowns, so the cost of a turn stays the same
# from the first turn to the last. tests check the two agree at every turn of many games.

def is_connected(m: dict, cell: Cell) -> bool:
    """Does a Trail end at this cell? A Trail leaves its Stop through a side neighbour, so
    only those (at most 4) need looking at, however many Trails the map has."""
    cells, r, c = m["cells"], cell[0], cell[1]
    for a, b in n4(r, c, m):
        drawn = cells.get(key(a, b))
        if drawn is not None and drawn["kind"] == "trail":
            path = m["trails"][drawn["trail"]]["path"]
            if [r, c] in (path[0], path[-1]):
                return True
    return False


def _presence(m: dict, cell: Cell) -> int | None:
    """The seat whose Trail occupies `cell` (an interior cell or an end Stop), if any."""
    drawn = m["cells"].get(key(*cell))
    if drawn is None:
        return None
    if drawn["kind"] == "trail" or (drawn["kind"] == "stop" and is_connected(m, cell)):
        return drawn["seat"]
    return None


def _animal_delta(m: dict, seat: int, path: list[Cell], out: list[dict]) -> None:
    """A new Trail next to an animal joins the seats sharing it (values by how many share)."""
    terrain = m["terrain"]
    animals = {a for cell in path for a in n8(cell[0], cell[1], m) if terrain[a[0]][a[1]] == ANIMAL}
    for a in animals:
        before = {s for cell in n8(a[0], a[1], m) if (s := _presence(m, cell)) is not None}
        if seat in before:
            continue
        for s in before:
            out[s]["animals"] -= data.ANIMAL_VALUES[min(len(before), 3)]
        after = before | {seat}
        for s in after:
            out[s]["animals"] += data.ANIMAL_VALUES[min(len(after), 3)]


def _trail_delta(m: dict, seat: int, action: Action, out: list[dict]) -> None:
    corner = action["corner"]
    path = trail_path(tuple(action["from"]), tuple(action["to"]), None if corner is None else tuple(corner))
    out[seat]["trails"] += len({m["areas"][r][c] for r, c in path})
    for end in (path[0], path[-1]):
        if is_connected(m, end):
            continue
        out[seat]["stop_penalty"] -= data.PENALTY_PER_UNCONNECTED_STOP
        for a, b in n8(end[0], end[1], m):
            drawn = m["cells"].get(key(a, b))
            if drawn is not None and drawn["kind"] == "tent" and drawn["seat"] == seat:
                out[seat]["tents"] += data.TENT_POINTS_PER_STOP
    _animal_delta(m, seat, path, out)


def rescore(m: dict, scores: list[dict], seat: int, action: Action) -> list[dict]:
    """The map's per-seat breakdowns once `action` (legal, canonical) is drawn on `m`
    (the map before the draw); `scores` are the breakdowns before it, left untouched."""
    out = [dict(entry) for entry in scores]
    kind = action["type"]
    if kind == "stop":
        out[seat]["stop_penalty"] += data.PENALTY_PER_UNCONNECTED_STOP
    elif kind == "tent":
        for a, b in n8(action["cell"][0], action["cell"][1], m):
            drawn = m["cells"].get(key(a, b))
            if drawn is not None and drawn["kind"] == "stop" and drawn["seat"] == seat \
                    and is_connected(m, (a, b)):
                out[seat]["tents"] += data.TENT_POINTS_PER_STOP
    elif kind == "trail":
        _trail_delta(m, seat, action, out)
    return out
