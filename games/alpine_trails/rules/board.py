"""Map geometry, placement legality and scoring of one Alpine Trails map (spec §3, §6, §8).

A map in the state is a dict keyed "x,y"; these functions work on a *board*, the same
pieces keyed by (x, y) tuples, built once per call with `parse()`.
"""
from __future__ import annotations

import heapq
import json
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from .data import (
    ANIMAL_OF, CAMPSITE_MIN_MILES, DELTA, GOALS, ICONS_TERRAIN_SIDE, ICONS_TRAIL_SIDE,
    LONG_HIKE, POINTS_PER_ANIMAL, POINTS_PER_LAKE, POINTS_PER_MILE, POINTS_PER_TENT,
    POINTS_PER_WATERFALL_NEIGHBOUR, SHAPE_EXITS, SOLO_TITLES, TERRAINS, TILES, WELL_TRAVELLED,
)

Cell = tuple[int, int]
Board = dict[Cell, dict]

HARD, SOFT, CLOSED = "hard", "soft", "closed"

EXITS = {(shape, r): frozenset((d + r) % 4 for d in dirs)
         for shape, dirs in SHAPE_EXITS.items() for r in range(4)}
TILE_EXITS = {(tid, r): EXITS[(t["shape"], r)] for tid, t in TILES.items() for r in range(4)}
NEIGHBOURS8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def opp(d: int) -> int:
    return (d + 2) % 4


def cell_key(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse(map_: dict) -> Board:
    board = {}
    for key, piece in map_.items():
        x, y = key.split(",")
        board[(int(x), int(y))] = piece
    return board


def step(cell: Cell, d: int) -> Cell:
    dx, dy = DELTA[d]
    return (cell[0] + dx, cell[1] + dy)


def piece_exits(piece: dict) -> frozenset:
    return TILE_EXITS[(piece["tile"], piece["rotation"])]


def side(piece: dict, d: int) -> str:
    """What a piece shows towards direction d (spec §3)."""
    kind = piece["kind"]
    if kind == "trail":
        return HARD if d in TILE_EXITS[(piece["tile"], piece["rotation"])] else CLOSED
    if kind in ("terrain", "waterfall"):
        return CLOSED
    return SOFT                                   # basecamp, campsite, lake


def faces(board: Board, cell: Cell) -> tuple:
    """Per direction, the side the neighbour shows towards `cell` (None: empty)."""
    x, y = cell
    out = []
    for d in range(4):
        dx, dy = DELTA[d]
        piece = board.get((x + dx, y + dy))
        out.append(None if piece is None else side(piece, (d + 2) % 4))
    return tuple(out)


_FIT_CACHE: dict = {}


def trail_fit(face: tuple, exits: frozenset) -> tuple[str | None, int]:
    """(problem or None, links) for a trail with `exits` against neighbour sides `face`."""
    key = (face, exits)
    hit = _FIT_CACHE.get(key)
    if hit is not None:
        return hit
    links, problem = 0, None
    for d in range(4):
        f = face[d]
        if f is None:
            continue
        if d in exits:
            if f == CLOSED:
                problem = "conflict"
            else:
                links += 1
        elif f == HARD:
            problem = "conflict"
    if problem is None and links == 0:
        problem = "unlinked"
    result = (problem, links)
    _FIT_CACHE[key] = result
    return result


_FITS_BY_FACE: dict[tuple, dict[str, list[tuple[int, int]]]] = {}


def trail_fits(face: tuple) -> dict[str, list[tuple[int, int]]]:
    """Per trail shape, every (rotation, links) that fits neighbour sides `face`
    (there are few distinct faces, so this is worked out once per face)."""
    hit = _FITS_BY_FACE.get(face)
    if hit is None:
        hit = {}
        for shape in SHAPE_EXITS:
            fits = [(r, trail_fit(face, EXITS[(shape, r)])) for r in range(4)]
            hit[shape] = [(r, links) for r, (problem, links) in fits if problem is None]
        _FITS_BY_FACE[face] = hit
    return hit


def frontier(board: Board) -> set:
    """Empty cells orthogonally adjacent to a piece."""
    out = set()
    for (x, y) in board:
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            c = (x + dx, y + dy)
            if c not in board:
                out.add(c)
    return out


def targeted_cells(board: Board) -> set:
    """Empty cells faced by at least one open trail end."""
    out = set()
    for c, piece in board.items():
        if piece["kind"] != "trail":
            continue
        for d in TILE_EXITS[(piece["tile"], piece["rotation"])]:
            n = step(c, d)
            if n not in board:
                out.add(n)
    return out


def waterfall_cells(board: Board) -> list:
    """Cells where a waterfall may go: the frontier minus the targeted cells (§6.5)."""
    return sorted(frontier(board) - targeted_cells(board), key=lambda c: (c[1], c[0]))


def linked_neighbours(board: Board, cell: Cell, piece: dict) -> list:
    """Network neighbours of a trail piece (trail tiles, campsites, base camp, lakes)."""
    out = []
    for d in TILE_EXITS[(piece["tile"], piece["rotation"])]:
        n = step(cell, d)
        q = board.get(n)
        if q is None:
            continue
        if q["kind"] == "trail":
            if opp(d) in TILE_EXITS[(q["tile"], q["rotation"])]:
                out.append(n)
        elif q["kind"] in ("basecamp", "campsite", "lake"):
            out.append(n)
    return out


def campsite_distance(board: Board, cell: Cell) -> int | None:
    """Shortest trail miles from a campsite at `cell` to the base camp or another campsite
    (§6.4, D9): trail tiles passed through count their miles, forks included."""
    heap = []
    for d, f in enumerate(faces(board, cell)):
        if f == HARD:
            n = step(cell, d)
            heap.append((TILES[board[n]["tile"]]["miles"], n))
    heapq.heapify(heap)
    done = set()
    while heap:
        cost, c = heapq.heappop(heap)
        if c in done:
            continue
        done.add(c)
        piece = board[c]
        if piece["kind"] != "trail":
            return cost
        for n in linked_neighbours(board, c, piece):
            if n in done:
                continue
            q = board[n]
            if q["kind"] == "trail":
                heapq.heappush(heap, (cost + TILES[q["tile"]]["miles"], n))
            elif q["kind"] in ("basecamp", "campsite"):
                heapq.heappush(heap, (cost, n))
    return None


def campsite_ok(board: Board, cell: Cell) -> tuple[bool, int | None]:
    distance = campsite_distance(board, cell)
    return (distance is None or distance >= CAMPSITE_MIN_MILES), distance


# --- scoring -------------------------------------------------------------------------

def icons_of(piece: dict) -> int:
    kind = piece["kind"]
    if kind == "trail":
        return ICONS_TRAIL_SIDE
    if kind == "terrain":
        return ICONS_TERRAIN_SIDE
    if kind == "basecamp":
        return piece.get("icons", 1)
    return 0


def terrain_of(piece: dict) -> str | None:
    kind = piece["kind"]
    if kind in ("trail", "terrain"):
        return TILES[piece["tile"]]["terrain"]
    if kind == "basecamp":
        return piece["terrain"]
    return None


def habitats(board: Board) -> dict:
    """Per terrain, (icons, cells) of its largest orthogonal group (§8.1, D4, D7)."""
    best: dict[str, tuple[int, list[Cell]]] = {t: (0, []) for t in TERRAINS}
    seen = set()
    for start, piece in board.items():
        terrain = terrain_of(piece)
        if terrain is None or start in seen:
            continue
        seen.add(start)
        stack, group, icons = [start], [], 0
        while stack:
            c = stack.pop()
            group.append(c)
            icons += icons_of(board[c])
            x, y = c
            for n in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                if n not in seen:
                    q = board.get(n)
                    if q is not None and terrain_of(q) == terrain:
                        seen.add(n)
                        stack.append(n)
        if icons > best[terrain][0]:
            best[terrain] = (icons, sorted(group, key=lambda c: (c[1], c[0])))
    return best


def with_lakes(board: Board) -> Board:
    """The board with a lake on every targeted cell (§7 step 2; provisional during play)."""
    lakes = targeted_cells(board)
    if not lakes:
        return board
    out = dict(board)
    for c in lakes:
        out[c] = {"kind": "lake"}
    return out


def out_and_back_paths(board: Board) -> list:
    """Every (lake, entering trail end) walk of §8.6: dicts with lake, miles and tiles."""
    paths = []
    lakes = sorted((c for c, p in board.items() if p["kind"] == "lake"), key=lambda c: (c[1], c[0]))
    for lake in lakes:
        for d in range(4):
            walk = walk_from(board.get, lake, d)
            if walk is not None:
                paths.append({"lake": walk["lake"], "miles": walk["miles"], "tiles": walk["tiles"]})
    return paths


def icons_around(board: Board, kind: str) -> int:
    cells = set()
    for (x, y), piece in board.items():
        if piece["kind"] == kind:
            for dx, dy in NEIGHBOURS8:
                if (x + dx, y + dy) in board:
                    cells.add((x + dx, y + dy))
    return sum(icons_of(board[c]) for c in cells)


def waterfall_points(board: Board, cell: Cell) -> int:
    x, y = cell
    return POINTS_PER_WATERFALL_NEIGHBOUR * sum(1 for dx, dy in NEIGHBOURS8 if (x + dx, y + dy) in board)


def count_kind(board: Board, kind: str) -> int:
    return sum(1 for p in board.values() if p["kind"] == kind)


def _scenic(goal: dict, board: Board, habitat: dict, paths: list) -> int:
    if not paths:
        return 0
    longest = max(p["miles"] for p in paths)
    return max(sum(ICONS_TRAIL_SIDE for c in p["tiles"] if TILES[board[c]["tile"]]["terrain"] == goal["terrain"])
               for p in paths if p["miles"] == longest)


def _long_hike(goal: dict, board: Board, habitat: dict, paths: list) -> int:
    longest = max((p["miles"] for p in paths), default=0)
    return next((pts for need, pts in LONG_HIKE if longest >= need), 0)


def _well_travelled(goal: dict, board: Board, habitat: dict, paths: list) -> int:
    miles = sum(TILES[p["tile"]]["miles"] for p in board.values() if p["kind"] == "trail")
    return next((pts for need, pts in WELL_TRAVELLED if miles >= need), 0)


def _backcountry(goal: dict, board: Board, habitat: dict, paths: list) -> int:
    lengths = sorted((p["miles"] for p in paths), reverse=True)
    return lengths[1] if len(lengths) >= 2 else 0


# One scoring rule per goal kind (§2.5): (goal, laked board, habitats, out-and-back paths) -> points.
GOAL_KINDS: dict[str, Callable[[dict, Board, dict, list], int]] = {
    "specialist": lambda goal, board, habitat, paths: habitat[goal["terrain"]][0],
    "scenic": _scenic,
    "long_hike": _long_hike,
    "well_travelled": _well_travelled,
    "around": lambda goal, board, habitat, paths: icons_around(board, goal["piece"]),
    "per_piece": lambda goal, board, habitat, paths: goal["points"] * count_kind(board, goal["piece"]),
    "forks": lambda goal, board, habitat, paths: goal["points"] * sum(
        1 for p in board.values() if p["kind"] == "trail" and TILES[p["tile"]]["shape"] == "T"),
    "animals": lambda goal, board, habitat, paths: goal["points"] * sum(1 for p in board.values() if p.get("animal")),
    "balanced": lambda goal, board, habitat, paths: goal["points"] * sum(
        1 for t in TERRAINS if habitat[t][0] >= goal["threshold"]),
    "well_rounded": lambda goal, board, habitat, paths: min(habitat[t][0] for t in TERRAINS),
    "backcountry": _backcountry,
}


def goal_value(goal_id: str | None, board: Board, habitat: dict | None = None,
               paths: list | None = None) -> int:
    """The personal goal card's value on a (laked) board (§2.5)."""
    goal = GOALS.get(goal_id) if goal_id else None
    rule = GOAL_KINDS.get(goal["kind"]) if goal else None
    if goal is None or rule is None:
        return 0
    if habitat is None:
        habitat = habitats(board)
    if paths is None:
        paths = out_and_back_paths(board)
    return rule(goal, board, habitat, paths)


def score_board(board: Board, goal_id: str | None = None) -> dict:
    """The score pad breakdown (§8) of a board; lakes are added at any open end first."""
    board = with_lakes(board)
    habitat = habitats(board)
    paths = out_and_back_paths(board)
    breakdown = {f"habitat_{t}": habitat[t][0] for t in TERRAINS}
    breakdown["waterfalls"] = sum(waterfall_points(board, c)
                                  for c, p in board.items() if p["kind"] == "waterfall")
    breakdown["lakes"] = POINTS_PER_LAKE * count_kind(board, "lake")
    breakdown["tents"] = POINTS_PER_TENT * count_kind(board, "campsite")
    breakdown["animals"] = POINTS_PER_ANIMAL * sum(1 for p in board.values() if p.get("animal"))
    breakdown["longest_path"] = POINTS_PER_MILE * max((p["miles"] for p in paths), default=0)
    breakdown["goal"] = goal_value(goal_id, board, habitat, paths)
    return breakdown


CACHE_LIMIT = 4096


def map_fingerprint(map_: dict) -> str:
    return json.dumps(map_, sort_keys=True, separators=(",", ":"))


_FINGERPRINTS: dict[int, tuple[dict, int, str]] = {}


def _fingerprint_of(map_: dict) -> str:
    """`map_fingerprint`, worked out once per map object (every memo asks for it)."""
    hit = _FINGERPRINTS.get(id(map_))
    if hit is not None and hit[0] is map_ and hit[1] == len(map_):
        return hit[2]
    text = map_fingerprint(map_)
    if len(_FINGERPRINTS) >= CACHE_LIMIT:
        _FINGERPRINTS.clear()
    _FINGERPRINTS[id(map_)] = (map_, len(map_), text)
    return text


T = TypeVar("T")


class MapMemo(Generic[T]):
    """Memoises `compute(map_, extra)` on a map's content.

    Fast path on the map object itself: a map in a state is never changed in place once
    the state has been returned (moves copy a map before changing it, and placed pieces are
    replaced, not edited), so the same object means the same content, and a view or score
    need not re-read a map that did not change. The entry keeps the map alive, so its id
    cannot be reused while it is cached. Any other map is looked up by its content.
    """

    def __init__(self, compute: Callable[[dict, Any], T]) -> None:
        self.compute = compute
        self.by_object: dict[tuple[int, Any], tuple[dict, int, T]] = {}
        self.by_content: dict[tuple[str, Any], T] = {}

    def __call__(self, map_: dict, extra: Any = None) -> T:
        hit = self.by_object.get((id(map_), extra))
        if hit is not None and hit[0] is map_ and hit[1] == len(map_):
            return hit[2]
        key = (_fingerprint_of(map_), extra)
        value = self.by_content.get(key)
        if value is None:
            value = self.compute(map_, extra)
            if len(self.by_content) >= CACHE_LIMIT:
                self.by_content.clear()
            self.by_content[key] = value
        if len(self.by_object) >= CACHE_LIMIT:
            self.by_object.clear()
        self.by_object[(id(map_), extra)] = (map_, len(map_), value)
        return value


_score_breakdown: MapMemo[dict[str, int]] = MapMemo(lambda map_, goal_id: score_board(parse(map_), goal_id))


def score_map(map_: dict, goal_id: str | None = None) -> dict:
    """`{"total", "breakdown"}` of a state map (solo needs no special case: every placed
    animal scores, and a multiplayer map never holds duplicates). Memoised: views score
    every seat's map on every call."""
    breakdown = _score_breakdown(map_, goal_id)
    return {"total": sum(breakdown.values()), "breakdown": dict(breakdown)}


def solo_title(total: int) -> str | None:
    """The solo rank title for a final total (§9, D28); None below the lowest band."""
    return next((title for need, title in SOLO_TITLES if total >= need), None)


def jcopy(value):
    """A copy of a JSON-like value; much faster than copy.deepcopy (no memo)."""
    if isinstance(value, dict):
        return {k: jcopy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [jcopy(v) for v in value]
    return value


def animal_cells(board: Board, animal: str) -> list:
    """Terrain-side tiles of the animal's terrain with no animal, in reading order."""
    terrain = {a: t for t, a in ANIMAL_OF.items()}[animal]
    return sorted((c for c, p in board.items()
                   if p["kind"] == "terrain" and not p.get("animal")
                   and TILES[p["tile"]]["terrain"] == terrain),
                  key=lambda c: (c[1], c[0]))


def describe(piece: dict) -> dict[str, Any]:
    """Drawing data for one piece (for views)."""
    kind = piece["kind"]
    out = {"kind": kind}
    if kind == "trail":
        tile = TILES[piece["tile"]]
        exits = sorted(piece_exits(piece))
        out.update(tile=piece["tile"], rotation=piece["rotation"], terrain=tile["terrain"],
                   shape=tile["shape"], miles=tile["miles"], exits=exits,
                   icons=ICONS_TRAIL_SIDE, sign=tile["shape"] == "T")
    elif kind == "terrain":
        tile = TILES[piece["tile"]]
        out.update(tile=piece["tile"], terrain=tile["terrain"], icons=ICONS_TERRAIN_SIDE,
                   animal=piece.get("animal"))
    elif kind == "basecamp":
        out.update(camp=piece["camp"], square=piece["square"], terrain=piece["terrain"],
                   icons=piece.get("icons", 1))
    elif kind == "campsite":
        out.update(tent=True)
    return out


# --- one more piece: the score without rescoring the board (the bot's trials) ----------

LAKE: dict = {"kind": "lake"}
ORTHOGONAL = ((0, -1), (1, 0), (0, 1), (-1, 0))


def habitat_groups(board: Board) -> tuple[dict[Cell, int], list[int], list[str]]:
    """Every orthogonal group of one terrain: the group of each cell, and per group its icons
    and terrain (`habitats` keeps only the largest per terrain)."""
    group_of: dict[Cell, int] = {}
    icons: list[int] = []
    terrains: list[str] = []
    for start, piece in board.items():
        terrain = terrain_of(piece)
        if terrain is None or start in group_of:
            continue
        gid = len(icons)
        group_of[start] = gid
        stack, total = [start], 0
        while stack:
            x, y = stack.pop()
            total += icons_of(board[(x, y)])
            for n in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                if n not in group_of:
                    q = board.get(n)
                    if q is not None and terrain_of(q) == terrain:
                        group_of[n] = gid
                        stack.append(n)
        icons.append(total)
        terrains.append(terrain)
    return group_of, icons, terrains


def walk_from(get: Callable[[Cell], dict | None], lake: Cell, d: int) -> dict | None:
    """The out-and-back walk of §8.6 leaving `lake` towards `d` (as `out_and_back_paths`
    walks it), or None when no trail end enters the lake there; `stop` is the cell where
    the walk ended, so a piece put there later knows which walks it extends."""
    cur = step(lake, d)
    piece = get(cur)
    if piece is None or piece["kind"] != "trail" or opp(d) not in piece_exits(piece):
        return None
    came = opp(d)
    miles, tiles, seen = 0, [], set()
    while True:
        piece = get(cur)
        if piece is None or piece["kind"] != "trail" or cur in seen:
            break
        tile = TILES[piece["tile"]]
        exits = piece_exits(piece)
        if tile["shape"] == "T" or came not in exits:
            break
        seen.add(cur)
        miles += tile["miles"]
        tiles.append(cur)
        out = next(e for e in exits if e != came)
        cur, came = step(cur, out), opp(out)
    return {"lake": lake, "miles": miles, "tiles": tiles, "d": d, "stop": cur}


class PlacementScorer:
    """`sum(score_board(board + piece, goal).values())` for one more piece on a fixed board,
    worked out from the board's own parts instead of rescoring it (the greedy bot tries
    every legal placement, and rescoring the whole board for each was 90 % of a rollout).

    A piece on an empty cell joins at most the groups of its four neighbours (one habitat
    changes), covers the provisional lake on its cell and adds one at each open trail end
    it shows, and changes only the walks that ended on its cell or start next to it; the
    rest of the board scores as before. A piece replacing another (an animal on its
    terrain tile) changes the animal count alone. Anything else is scored in full.
    games/alpine_trails/tests/test_placement_score.py checks it against `score_board`."""

    def __init__(self, board: Board, goal_id: str | None = None) -> None:
        self.board, self.goal_id = board, goal_id
        self.goal = GOALS.get(goal_id) if goal_id else None
        self.rule = GOAL_KINDS.get(self.goal["kind"]) if self.goal else None
        # the goals that read the board with the new piece on it (the others read habitats
        # and walks only, or the icons around their pieces, kept up to date in _around_with)
        self.goal_reads_board = self.goal is not None and self.goal["kind"] not in (
            "specialist", "balanced", "well_rounded", "long_hike", "backcountry", "around")
        self.around_zone: set[Cell] | None = None       # Campfire Stories, Misty Falls: on first use
        self.around_cells: set[Cell] = set()
        self.around_icons = 0
        self.lakes = frozenset(targeted_cells(board) | {c for c, p in board.items() if p["kind"] == "lake"})
        self.group_of, self.group_icons, self.group_terrain = habitat_groups(board)
        best = dict.fromkeys(TERRAINS, 0)
        for icons, terrain in zip(self.group_icons, self.group_terrain, strict=True):
            best[terrain] = max(best[terrain], icons)
        self.habitat = best
        self.paths = [walk for lake in self.lakes for d in range(4)
                      if (walk := walk_from(board.get, lake, d)) is not None]
        self.stops = frozenset(walk["stop"] for walk in self.paths)
        self.longest = max((walk["miles"] for walk in self.paths), default=0)
        self.waterfalls = frozenset(c for c, p in board.items() if p["kind"] == "waterfall")
        self.falls = sum(self._fall_points(c) for c in self.waterfalls)
        self.tents = count_kind(board, "campsite")
        self.animals = sum(1 for p in board.values() if p.get("animal"))
        self.total = self._total(board, self.lakes, best, self.paths, self.falls, self.tents, self.animals)

    def _fall_points(self, cell: Cell, lakes: frozenset | None = None) -> int:
        """A waterfall's points on `cell`: its neighbours on the board or lakes."""
        lakes = self.lakes if lakes is None else lakes
        x, y = cell
        return POINTS_PER_WATERFALL_NEIGHBOUR * sum(
            1 for dx, dy in NEIGHBOURS8
            if (n := (x + dx, y + dy)) in self.board or n in lakes)

    def _falls_gained(self, cells) -> int:
        """What the board's waterfalls gain from newly filled `cells` (a piece, new lakes)."""
        if not self.waterfalls:
            return 0
        return POINTS_PER_WATERFALL_NEIGHBOUR * sum(
            1 for x, y in cells for dx, dy in NEIGHBOURS8 if (x + dx, y + dy) in self.waterfalls)

    def total_with(self, cell: Cell, piece: dict) -> int:
        """The board's total with `piece` on `cell` (the board itself is not changed)."""
        board = self.board
        old = board.get(cell)
        if old is not None:
            if old["kind"] != piece["kind"] or terrain_of(old) != terrain_of(piece) \
                    or icons_of(old) != icons_of(piece) or piece["kind"] == "trail":
                return sum(score_board({**board, cell: piece}, self.goal_id).values())
            animals = self.animals + bool(piece.get("animal")) - bool(old.get("animal"))
            return self._total({**board, cell: piece}, self.lakes, self.habitat, self.paths, self.falls,
                               self.tents, animals, cell, piece)
        kind = piece["kind"]
        lakes = self.lakes
        filled = [] if cell in lakes else [cell]        # a lake's cell counted for waterfalls already
        if cell in lakes:
            lakes = lakes - {cell}
        if kind == "trail":
            new_lakes = [n for d in piece_exits(piece) if (n := step(cell, d)) not in board and n not in lakes]
            if new_lakes:
                lakes = lakes.union(new_lakes)
                filled += new_lakes
            placed = {**board, cell: piece}
            paths = self._paths_with_trail(placed, cell, piece)
        else:
            placed = {**board, cell: piece} if self.goal_reads_board else board
            paths = [w for w in self.paths if w["lake"] != cell] if cell in self.lakes else self.paths
        falls = self.falls + self._falls_gained(filled)
        if kind == "waterfall":
            falls += self._fall_points(cell, lakes)
        return self._total(placed, lakes, self._habitat_with(cell, piece), paths, falls,
                           self.tents + (kind == "campsite"), self.animals + bool(piece.get("animal")),
                           cell, piece)

    def _habitat_with(self, cell: Cell, piece: dict) -> dict[str, int]:
        terrain = terrain_of(piece)
        if terrain is None:
            return self.habitat
        x, y = cell
        groups = {gid for dx, dy in ORTHOGONAL
                  if (gid := self.group_of.get((x + dx, y + dy))) is not None and self.group_terrain[gid] == terrain}
        icons = icons_of(piece) + sum(self.group_icons[gid] for gid in groups)
        if icons <= self.habitat[terrain]:
            return self.habitat
        return {**self.habitat, terrain: icons}

    def _paths_with_trail(self, placed: Board, cell: Cell, piece: dict) -> list[dict]:
        """The walks once a trail is on `cell`: those from the lake it covers are gone, it
        extends those that ended on it and starts new ones from the lakes its ends face;
        every other walk is unchanged."""
        kept: list[dict]
        redo: list[dict] = []
        if cell in self.lakes or cell in self.stops:
            kept = []
            for walk in self.paths:
                if walk["lake"] == cell:
                    continue
                (redo if walk["stop"] == cell else kept).append(walk)
        else:
            kept = list(self.paths)
        get = placed.get
        for walk in redo:
            again = walk_from(get, walk["lake"], walk["d"])
            if again is not None:
                kept.append(again)
        for d in piece_exits(piece):
            lake = step(cell, d)
            if lake not in placed or placed[lake]["kind"] == "lake":
                again = walk_from(get, lake, opp(d))
                if again is not None:
                    kept.append(again)
        return kept

    def _total(self, placed: Board, lakes: frozenset, habitat: dict[str, int], paths: list[dict],
               falls: int, tents: int, animals: int, cell: Cell | None = None, piece: dict | None = None) -> int:
        """`score_board`'s total from its parts; `placed` is the board with the new `piece`
        on `cell` (without provisional lakes: they are added for the goals that count them)."""
        longest = self.longest if paths is self.paths else max((p["miles"] for p in paths), default=0)
        total = (sum(habitat.values()) + falls + POINTS_PER_LAKE * len(lakes) + POINTS_PER_TENT * tents
                 + POINTS_PER_ANIMAL * animals + POINTS_PER_MILE * longest)
        goal, rule = self.goal, self.rule
        if rule is None or goal is None:
            return total
        kind = goal["kind"]
        if kind == "around" and cell is not None and piece is not None:
            return total + self._around_with(cell, piece)
        if kind == "per_piece":
            count = {"lake": len(lakes), "campsite": tents}.get(goal["piece"])
            if count is None:
                count = count_kind(placed, goal["piece"])
            return total + goal["points"] * count
        laked = placed
        if kind == "around":
            laked = dict(placed)
            for c in lakes:
                if c not in laked:
                    laked[c] = LAKE
        return total + rule(goal, laked, {t: (icons, []) for t, icons in habitat.items()}, paths)

    def _around_with(self, cell: Cell, piece: dict) -> int:
        """Campfire Stories / Misty Falls (icons on the squares around the goal's pieces,
        each square once) with `piece` on `cell`: its own icons if it stands around one of
        them, and, if it is one of them, the icons of its neighbours not yet counted
        (provisional lakes have no icons, so the lakes it adds or covers change nothing)."""
        if self.around_zone is None:
            laked = with_lakes(self.board)
            wanted = self.goal["piece"] if self.goal else None
            self.around_zone = {(x + dx, y + dy) for (x, y), p in self.board.items() if p["kind"] == wanted
                                for dx, dy in NEIGHBOURS8}
            self.around_cells = {c for c in self.around_zone if c in laked}
            self.around_icons = sum(icons_of(laked[c]) for c in self.around_cells)
        old = self.board.get(cell)
        if old is not None:                    # an animal on its tile: the same icons
            return self.around_icons
        icons = self.around_icons + (icons_of(piece) if cell in self.around_zone else 0)
        if self.goal is not None and piece["kind"] == self.goal["piece"]:
            x, y = cell
            for dx, dy in NEIGHBOURS8:
                n = (x + dx, y + dy)
                if n in self.board and n not in self.around_cells:
                    icons += icons_of(self.board[n])
        return icons
