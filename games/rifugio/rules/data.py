"""Rifugio with Rivers & Rafts: static data and every spec constant (shared/rules/rifugio.md §17).

Each [DECISION] of the spec is a named constant here so a later rules version can change it in
one place; the reasons are in §16 of the spec.
"""
from __future__ import annotations

from games.rules.base import gettext_noop

SLUG, TITLE = "rifugio", "Rifugio"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
DEFAULT_OPTIONS = {"rivers_and_rafts": True}

# turn
TILES_PER_TURN = {2: 2, 3: 1, 4: 1, 5: 1}                    # RULES
STEPS_PER_TURN = 2                                            # RULES
STEP_COST = 1              # walk, board, jump, step off        RULES / INFERRED
SAIL_COST = 1                                                 # RULES
BUILD_RIFUGIO_COST = 1                                        # RULES
BUILD_RAFT_COST = 2        # paid at once, same turn            RULES
SWIM_STAGES = 4            # 1 step each                        RULES
FIRST_SEAT = "random"                                         # DECISION
PLACE_ALL_TILES_BEFORE_WALKING = True                         # DECISION
AUTO_END_TURN = False                                         # DECISION

# components
START_TILE_EDGES = "FFFFFF"                                   # DECISION
EXACT_MATCH_KINDS = {"pass"}                                  # DECISION
PASS_EDGES = "RRRMMM"                                         # DECISION
RIFUGI_PER_PLAYER = 3                                         # DECISION
RIFUGIO_ON_START_ALLOWED = False                              # DECISION
LAND_TILE_CAPACITY = None  # unlimited                          DECISION
RAFTS_PER_PLAYER = {2: 3, 3: 2, 4: 2, 5: 2}                  # RULES
RAFT_CAPACITY = 2                                             # RULES
WATER_TILE_COUNT = {2: 24, 3: 24, 4: 24, 5: 22}              # RULES
RR_REMOVED_TILES = ["F09", "F10", "F11", "F12", "F13", "F14", "F15", "F16", "F17", "F18",
                    "M12", "R12"]                             # RULES counts, DECISION ids

# English names (they are in the view); a page shows `_(ITEM_NAMES[t])`.
ITEM_NAMES = {"FL1": gettext_noop("Edelweiss"), "FL2": gettext_noop("Gentian"), "FL3": gettext_noop("Alpine rose"),
              "AN1": gettext_noop("Marmot"), "AN2": gettext_noop("Red deer"), "AN3": gettext_noop("Ibex"),
              "WF1": gettext_noop("Waterfall 1"), "WF2": gettext_noop("Waterfall 2"),
              "WF3": gettext_noop("Waterfall 3"),
              "PS1": gettext_noop("Pass 1"), "PS2": gettext_noop("Pass 2"), "PS3": gettext_noop("Pass 3"),
              "PK1": gettext_noop("Mountaintop 1"), "PK2": gettext_noop("Mountaintop 2"),
              "PK3": gettext_noop("Mountaintop 3")}  # DECISION

# scoring
CATEGORIES = ["FLOWER", "ANIMAL", "WATERFALL", "PASS", "MOUNTAINTOP"]            # RULES + DECISION
ITEM_VALUE = {"FLOWER": 2, "ANIMAL": 2, "WATERFALL": 1, "PASS": 2, "MOUNTAINTOP": 2}
WATERFALL_BONUS_PER_WATER = 1                                 # RULES (expansion only)
SET_BONUS = 5                                                 # RULES
BEAR_VALUE = -3                                               # RULES
RIFUGIO_CARD_VALUE = 2                                        # RULES
RAFT_CARD_VALUE = 2                                           # RULES
EXTRA_STEP_CARD_VALUE = 0                                     # DECISION
ITEM_ONCE_PER_PLAYER = True                                   # DECISION
BEAR_ONCE_PER_PLAYER = True                                   # DECISION
CARDS_PUBLIC = True                                           # DECISION
TIEBREAKS = ["raft_points"]                                   # RULES; then shared = DECISION

# visits, tiles, end
VISIT_REWARD_LIMIT = "once_per_turn"                          # DECISION
UNPLACEABLE_POLICY = "bottom_then_remove"                     # DECISION
EQUALIZE_TURNS = True                                         # DECISION

# rafts and swimming
BUILD_RAFT_FROM_RAFT = True                                   # DECISION
SWIM_SPANS_TURNS = True                                       # DECISION
SWIM_TARGET_OUTSIDE_REGION = True                             # DECISION
SWIMMERS_SHARE_TILE = True                                    # DECISION
SWIM_IGNORES_ENCLOSED_WATER = True                            # DECISION
SWIM_IGNORES_FULL_RAFTS = True                                # DECISION

# geometry (§3): axial coordinates, pointy-top hexes, sides counter-clockwise from east
DIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
SIDE_NAMES = ["E", "NE", "NW", "W", "SW", "SE"]

TERRAIN_NAMES = {"M": "meadow", "F": "forest", "R": "rock", "P": "mountaintop", "W": "water"}

# §6.1: which edge letters may touch (symmetric)
_PAIRS = ["MM", "MF", "MW", "FF", "FR", "FW", "RR", "RP", "RW", "WW"]
COMPATIBLE = frozenset({(p[0], p[1]) for p in _PAIRS} | {(p[1], p[0]) for p in _PAIRS})

FEATURE_CATEGORY = {"flower": "FLOWER", "animal": "ANIMAL", "waterfall": "WATERFALL",
                    "pass": "PASS", "mountaintop": "MOUNTAINTOP"}


def _tile(kind: str, terrain: str, edges: str, feature: str | None = None, name: str | None = None) -> dict:
    return {"kind": kind, "terrain": terrain, "edges": edges, "exact": kind in EXACT_MATCH_KINDS,
            "category": FEATURE_CATEGORY.get(feature) if feature else None,
            "name": name, "water": kind == "water"}


def _build_catalogue() -> dict[str, dict]:
    tiles = {"START": _tile("start", "forest", START_TILE_EDGES, name="Start")}
    for i in range(1, 13):
        tiles[f"M{i:02d}"] = _tile("plain", "meadow", "M" * 6)
        tiles[f"R{i:02d}"] = _tile("plain", "rock", "R" * 6)
    for i in range(1, 19):
        tiles[f"F{i:02d}"] = _tile("plain", "forest", "F" * 6)
    for i in range(1, 4):
        tiles[f"FL{i}"] = _tile("flower", "meadow", "M" * 6, "flower", ITEM_NAMES[f"FL{i}"])
        tiles[f"PS{i}"] = _tile("pass", "rock/meadow", PASS_EDGES, "pass", ITEM_NAMES[f"PS{i}"])
        tiles[f"PK{i}"] = _tile("mountaintop", "mountaintop", "P" * 6, "mountaintop", ITEM_NAMES[f"PK{i}"])
        tiles[f"BR{i}"] = _tile("bear", "forest", "F" * 6, name=f"Bear {i}")
    for tid, terrain in (("AN1", "meadow"), ("AN2", "forest"), ("AN3", "rock")):
        tiles[tid] = _tile("animal", terrain, terrain[0].upper() * 6, "animal", ITEM_NAMES[tid])
    for tid, terrain in (("WF1", "rock"), ("WF2", "rock"), ("WF3", "forest")):
        tiles[tid] = _tile("waterfall", terrain, terrain[0].upper() * 6, "waterfall", ITEM_NAMES[tid])
    for i in range(1, 25):
        tiles[f"WA{i:02d}"] = _tile("water", "water", "W" * 6)
    return tiles


TILES: dict[str, dict] = _build_catalogue()

# D1: the 60 base tiles (START is placed at setup and never in the stack)
TILE_MANIFEST: list[str] = sorted(
    [f"M{i:02d}" for i in range(1, 13)] + [f"F{i:02d}" for i in range(1, 19)]
    + [f"R{i:02d}" for i in range(1, 13)]
    + [f"{p}{i}" for p in ("FL", "AN", "WF", "PS", "PK", "BR") for i in range(1, 4)])
WATER_TILES: list[str] = [f"WA{i:02d}" for i in range(1, 25)]

ITEM_TILES = sorted(t for t, d in TILES.items() if d["category"])
BEAR_TILES = sorted(t for t, d in TILES.items() if d["kind"] == "bear")
CATEGORY_TILES = {c: sorted(t for t in ITEM_TILES if TILES[t]["category"] == c) for c in CATEGORIES}


def stack_ids(players: int, rivers_and_rafts: bool) -> list[str]:
    """The sorted ids of the stack for a game (§2.2, §4.2 step 3)."""
    ids = list(TILE_MANIFEST)
    if rivers_and_rafts:
        ids = [t for t in ids if t not in RR_REMOVED_TILES] + WATER_TILES[:WATER_TILE_COUNT[players]]
    return sorted(ids)


def is_symmetric(tile_id: str) -> bool:
    """True when the tile looks the same in every rotation (the page hides its rotate buttons)."""
    edges = TILES[tile_id]["edges"]
    return len(set(edges)) == 1
