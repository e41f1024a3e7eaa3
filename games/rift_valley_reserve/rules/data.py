"""Rift Valley Reserve: the maps (spec section 13) and every [DECISION] constant (section 12).

Each decision of the spec lives here once, under the name the spec gives it, so that a
rules change is a one-line edit. The rules read the switchable ones as `data.NAME` at
call time (tests flip `STOP_SPACING_ANY_COLOUR` to check the other reading).
"""
from __future__ import annotations

import functools

from games.rules.base import gettext_noop

# --- Decisions (spec section 12) ------------------------------------------------------

MAX_AREAS_PER_LINE = 3                      # D4: loader check 4
TRAIL_MAX_CORNERS = 1                       # D5: straight or one L corner, rows/columns only
RIFT_CROSSING = {"|": "horizontal", "-": "vertical", "#": None}   # D6
STOP_SPACING_ANY_COLOUR = True              # D7: a Stop may not sit beside a Stop of any colour
STOP_SUPPLY = None                          # D8: no supply limit
TENT_SUPPLY = None                          # D8
ANIMAL_VALUES = {1: 3, 2: 2, 3: 1}          # D9: seats next to an animal -> points to each (3 = 3+)
END_TRIGGER_FULL_MAPS = {2: 1, 3: 2, 4: 3, 5: 4}   # D10: N - 1 full maps trigger the end
FINAL_STAGE_MIN_TURNS = 1                   # D11
AUTO_PASS = True                            # D12: a seat with no legal draw passes unasked
PASS_DIRECTION = 1                          # D13: map of seat s goes to seat s + 1
TIE_BREAKS = ("trails", "stop_penalty")     # D14: after the total
MIN_PLAYERS, MAX_PLAYERS = 2, 5             # D15
ALLOW_TWIN_TRAILS = True                    # D17: both L Trails between the same two Stops
OPENING_TURN = 1                            # D19: the first-turn limits apply on this turn only
MAX_TRAILS_PER_STOP = None                  # D22: no limit (geometry caps it at 4)
DEFAULT_BOARDS = "identical"                # D23
BOARD_SETS = ("identical", "asymmetrical")
SEAT_COLOURS = ["#c62828", "#1565c0", "#ef6c00", "#6a1b9a", "#212121"]   # D24
SEAT_COLOUR_NAMES = ["red", "blue", "orange", "purple", "black"]

PENALTY_PER_UNCONNECTED_STOP = -2           # RULES
TENT_POINTS_PER_STOP = 2                    # RULES

# --- Terrain --------------------------------------------------------------------------

GROUND, ANIMAL, TREE, WATER = ".", "A", "T", "W"
RIFT_CHARS = frozenset(RIFT_CROSSING)
TERRAIN_CHARS = frozenset({GROUND, ANIMAL, TREE, WATER}) | RIFT_CHARS
TERRAIN_LEGEND = {".": "ground", "A": "animal", "T": "tree", "W": "water",
                  "|": "rift (bridged west-east)", "-": "rift (bridged north-south)",
                  "#": "rift (cannot be bridged)"}

# --- Maps (spec 13.3), D16 -----------------------------------------------------------
# A map's name is kept in the state in English; the presenter translates it where shown.

MAPS: dict[str, dict] = {
    "ID9": {"id": "ID9", "name": gettext_noop("Open Plain"), "kind": "identical", "rows": 9, "cols": 9,
            "terrain": [".........", ".A.....A.", "....|....", "....|....", "..A.|..A.",
                        "....|....", "....|....", ".A....AA.", "........."],
            "areas": ["111222333", "111222333", "111222333", "445555666", "445555666",
                      "445555666", "777888899", "777888899", "777888899"]},
    "AS1": {"id": "AS1", "name": gettext_noop("Lakeside"), "kind": "asymmetrical", "rows": 10, "cols": 10,
            "terrain": ["..T.......", ".A.....WW.", ".....AAW..", "--#......T", "..|....A..",
                        "T.|..A....", "..#--#..A.", ".A...|....", "...W.|.T..", "...W.|...."],
            "areas": ["1111222333", "1111222333", "1111222333", "4445555666", "4445555666",
                      "4445555666", "4445555666", "7777889999", "7777889999", "7777889999"]},
    "AS2": {"id": "AS2", "name": gettext_noop("Grassland"), "kind": "asymmetrical", "rows": 10, "cols": 10,
            "terrain": ["T.....|...", "..A...|.A.", "....#-#...", ".W..|...T.", "....|..AA.",
                        ".A..|.....", "..#-#..T..", "..|...WW..", "..|..AW.A.", "..|...T..."],
            "areas": ["1112222333", "1112222333", "1112222333", "1112222333", "4444556666",
                      "4444556666", "4444556666", "7777788899", "7777788899", "7777788899"]},
    "AS3": {"id": "AS3", "name": gettext_noop("Lakeside West"), "kind": "asymmetrical", "rows": 10, "cols": 10,
            "terrain": [".......T..", ".WW.....A.", "..WAA.....", "T......#--", "..A....|..",
                        "....A..|.T", ".A..#--#..", "....|...A.", "..T.|.W...", "....|.W..."],
            "areas": ["1112223333", "1112223333", "1112223333", "4445555666", "4445555666",
                      "4445555666", "4445555666", "7777889999", "7777889999", "7777889999"]},
    "AS4": {"id": "AS4", "name": gettext_noop("Grassland Reversed"), "kind": "asymmetrical", "rows": 10, "cols": 10,
            "terrain": ["...T...|..", ".A.WA..|..", "..WW...|..", "..T..#-#..", ".....|..A.",
                        ".AA..|....", ".T...|..W.", "...#-#....", ".A.|...A..", "...|.....T"],
            "areas": ["1122233333", "1122233333", "1122233333", "4444556666", "4444556666",
                      "4444556666", "7778888999", "7778888999", "7778888999", "7778888999"]},
    "AS5": {"id": "AS5", "name": gettext_noop("Lakeside South"), "kind": "asymmetrical", "rows": 10, "cols": 10,
            "terrain": ["...|.T....", ".A.|...A..", "T..#--#...", "......|.WW", "......|...",
                        "..A..A#---", "..A.......", ".WW.A...T.", ".W....A...", "...T......"],
            "areas": ["1112222333", "1112222333", "1112222333", "1114444333", "5554444666",
                      "5554444666", "5554444777", "8889999777", "8889999777", "8889999777"]},
    "T6": {"id": "T6", "name": gettext_noop("Test 6x6"), "kind": "test", "rows": 6, "cols": 6,
           "terrain": ["......", "...A..", "......", "......", "--....", "......"],
           "areas": ["112233", "112233", "445566", "445566", "778899", "778899"]},
}

IDENTICAL_MAP = "ID9"
ASYMMETRICAL_POOL = ("AS1", "AS2", "AS3", "AS4", "AS5")


# --- Loader checks (spec 13.2) --------------------------------------------------------

@functools.cache
def neighbours(rows: int, cols: int) -> tuple[dict, dict]:
    """(N4, N8) for a grid size: cell -> tuple of the cells beside it (spec 3.1)."""
    n4, n8 = {}, {}
    for r in range(rows):
        for c in range(cols):
            n4[r, c] = tuple((r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                             if 0 <= r + dr < rows and 0 <= c + dc < cols)
            n8[r, c] = tuple((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                             if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols)
    return n4, n8


def _n8(r: int, c: int, rows: int, cols: int):
    return neighbours(rows, cols)[1][r, c]


def _one_piece(cells: set) -> bool:
    if not cells:
        return False
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == cells


def first_turn_stop_cells(m: dict) -> list[list[int]]:
    """Cells where a Stop may go on an empty map on the opening turn (loader check 7)."""
    rows, cols, terrain = m["rows"], m["cols"], m["terrain"]
    return [[r, c] for r in range(rows) for c in range(cols)
            if terrain[r][c] == GROUND
            and all(terrain[a][b] != ANIMAL for a, b in _n8(r, c, rows, cols))]


def _check_grids(name: str, m: dict) -> None:
    """Checks 1 and 2: sizes and terrain characters."""
    rows, cols = m.get("rows"), m.get("cols")
    terrain, areas = m.get("terrain"), m.get("areas")
    if not (isinstance(rows, int) and isinstance(cols, int) and rows > 0 and cols > 0):
        raise ValueError(f"{name}: rows and cols must be positive integers")
    for label, grid in (("terrain", terrain), ("areas", areas)):
        if (not isinstance(grid, list) or len(grid) != rows
                or any(not isinstance(line, str) or len(line) != cols for line in grid)):
            raise ValueError(f"{name}: {label} must be {rows} strings of {cols} characters")
    used = set("".join(m["terrain"]))
    if not used <= TERRAIN_CHARS:
        raise ValueError(f"{name}: unknown terrain characters {sorted(used - TERRAIN_CHARS)}")
    if m.get("kind") == "identical" and used & {TREE, WATER}:
        raise ValueError(f"{name}: identical maps have no trees or water")


def _check_areas(name: str, m: dict) -> None:
    """Checks 3 and 4: areas 1..9, each one piece, few areas on any row or column."""
    rows, cols, areas = m["rows"], m["cols"], m["areas"]
    if set("".join(areas)) != set("123456789"):
        raise ValueError(f"{name}: the area ids must be exactly 1 to 9")
    for area in "123456789":
        cells = {(r, c) for r in range(rows) for c in range(cols) if areas[r][c] == area}
        if not _one_piece(cells):
            raise ValueError(f"{name}: area {area} is not one connected piece")
    for r in range(rows):
        if len(set(areas[r])) > MAX_AREAS_PER_LINE:
            raise ValueError(f"{name}: row {r} crosses more than {MAX_AREAS_PER_LINE} areas")
    for c in range(cols):
        if len({areas[r][c] for r in range(rows)}) > MAX_AREAS_PER_LINE:
            raise ValueError(f"{name}: column {c} crosses more than {MAX_AREAS_PER_LINE} areas")


def _check_rift(name: str, m: dict) -> None:
    """Checks 5 and 6: one connected Rift, one cell wide at its crossable cells."""
    rows, cols, terrain = m["rows"], m["cols"], m["terrain"]
    rift = {(r, c) for r in range(rows) for c in range(cols) if terrain[r][c] in RIFT_CHARS}
    if not _one_piece(rift):
        raise ValueError(f"{name}: the Rift must be one connected group of cells")
    for r, c in rift:
        ch = terrain[r][c]
        side = [(r, c - 1), (r, c + 1)] if ch == "|" else [(r - 1, c), (r + 1, c)] if ch == "-" else []
        if any(cell in rift for cell in side):
            raise ValueError(f"{name}: rift cell ({r},{c}) is not one cell wide across")


def check_map(m: dict) -> dict:
    """The map when it passes the seven loader checks of spec 13.2, else ValueError."""
    name = m.get("id", "?")
    _check_grids(name, m)
    _check_areas(name, m)
    _check_rift(name, m)
    if not first_turn_stop_cells(m):   # 7. a legal first-turn Stop exists
        raise ValueError(f"{name}: no cell allows a first-turn Stop")
    return m


for _m in MAPS.values():
    check_map(_m)
