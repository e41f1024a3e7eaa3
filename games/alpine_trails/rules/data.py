"""Component data and named constants of Alpine Trails (spec §1, §2, §12).

Every Switchback decision ([Dn] in shared/rules/alpine_trails.md) that is data lives
here, so the published tile list or card texts can replace it without touching rules.
"""
from __future__ import annotations

from typing import Any

from games.rules.base import gettext_noop

TERRAINS = ("forest", "rock", "meadow", "wetland")
ANIMAL_OF = {"forest": "bear", "rock": "goat", "meadow": "wolf", "wetland": "moose"}  # D6
TERRAIN_OF_ANIMAL = {animal: terrain for terrain, animal in ANIMAL_OF.items()}
ANIMALS = tuple(sorted(TERRAIN_OF_ANIMAL))
ICON_OF = {"forest": "tree", "rock": "rock", "meadow": "flower", "wetland": "water"}

TILES_BY_PLAYERS = {1: 32, 2: 64, 3: 96, 4: 112, 5: 130}                            # RULES
TILES_PER_ROUND = 2                                                                  # RULES
ICONS_TRAIL_SIDE, ICONS_TERRAIN_SIDE = 1, 2                                          # D3
ICONS_BASECAMP_SQUARE = 1                                                            # D5
CAMPSITE_MIN_MILES = 6                                                               # RULES
CAMPSITES_PER_ROUND = 1                                                              # D18
POINTS_PER_TENT, POINTS_PER_LAKE, POINTS_PER_ANIMAL = 8, 2, 2                        # RULES
POINTS_PER_MILE, POINTS_PER_WATERFALL_NEIGHBOUR = 1, 1                               # RULES
LONG_HIKE = ((20, 10), (15, 5))          # miles -> goal points, first match wins   # RULES
WELL_TRAVELLED = ((42, 10), (34, 5))     # total trail miles -> points             # D17
SOLO_TITLES = ((125, gettext_noop("Mountain G.O.A.T.")), (115, gettext_noop("Peak Bagger")),    # RULES
               (105, gettext_noop("Trailblazer")), (95, gettext_noop("Pathfinder")),
               (85, gettext_noop("Weekend Wanderer")))            # below 85: no title; shown with _(title)
TIE_BREAKS = ("longest_path", "habitats")                                           # D21
EVENTS_KEEP = 150                                               # public events kept in the state

# Directions: N=0, E=1, S=2, W=3; y grows to the south (spec §3).
DIRECTIONS = ("north", "east", "south", "west")
DELTA = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}
SHAPE_EXITS = {"I": (0, 2), "L": (0, 1), "T": (1, 2, 3)}
SHAPE_NAME = {"I": "straight", "L": "curve", "T": "fork"}

# D1: the same 33 tiles for every terrain, in id order within a terrain block.
TILE_MIX = (
    ("I", 1, 6), ("I", 2, 4), ("I", 3, 2),
    ("L", 1, 8), ("L", 2, 5), ("L", 3, 2),
    ("T", 1, 6),
)


def _build_tiles() -> dict[str, dict]:
    tiles = {}
    number = 0
    for terrain in TERRAINS:                      # D2: one terrain on both faces
        for shape, miles, count in TILE_MIX:
            for _ in range(count):
                number += 1
                tile_id = f"T{number:03d}"
                tiles[tile_id] = {"id": tile_id, "terrain": terrain, "shape": shape, "miles": miles}
    return tiles


TILES = _build_tiles()
TILE_IDS = tuple(TILES)

# D5: two squares, A at (0,0) and B at (1,0).
BASE_CAMPS = {
    "BC1": ("rock", "rock"),
    "BC2": ("forest", "forest"),
    "BC3": ("meadow", "meadow"),
    "BC4": ("wetland", "wetland"),
    "BC5": ("rock", "forest"),
    "BC6": ("meadow", "wetland"),
    "BC7": ("forest", "meadow"),
    "BC8": ("wetland", "rock"),
}
BASE_CAMP_SQUARES = (("A", 0, 0), ("B", 1, 0))

# §2.5 personal goal cards; kind + parameter drive goal_value() (D17 for G10, G13-G20).
# Names and texts stay English here (marked for the catalogue); pages show _(name), _(text).
GOALS: dict[str, dict[str, Any]] = {
    "G01": {"name": gettext_noop("Forest Specialist"), "kind": "specialist", "terrain": "forest",
            "text": gettext_noop("+1 per icon in your largest forest habitat.")},
    "G02": {"name": gettext_noop("Rock Specialist"), "kind": "specialist", "terrain": "rock",
            "text": gettext_noop("+1 per icon in your largest rock habitat.")},
    "G03": {"name": gettext_noop("Meadow Specialist"), "kind": "specialist", "terrain": "meadow",
            "text": gettext_noop("+1 per icon in your largest meadow habitat.")},
    "G04": {"name": gettext_noop("Wetland Specialist"), "kind": "specialist", "terrain": "wetland",
            "text": gettext_noop("+1 per icon in your largest wetland habitat.")},
    "G05": {"name": gettext_noop("Forest Scenic Route"), "kind": "scenic", "terrain": "forest",
            "text": gettext_noop("+1 per forest icon on the trail tiles of your longest path.")},
    "G06": {"name": gettext_noop("Rock Scenic Route"), "kind": "scenic", "terrain": "rock",
            "text": gettext_noop("+1 per rock icon on the trail tiles of your longest path.")},
    "G07": {"name": gettext_noop("Meadow Scenic Route"), "kind": "scenic", "terrain": "meadow",
            "text": gettext_noop("+1 per meadow icon on the trail tiles of your longest path.")},
    "G08": {"name": gettext_noop("Wetland Scenic Route"), "kind": "scenic", "terrain": "wetland",
            "text": gettext_noop("+1 per wetland icon on the trail tiles of your longest path.")},
    "G09": {"name": gettext_noop("Long Hike"), "kind": "long_hike",
            "text": gettext_noop("Longest path of at least 15 miles: +5; at least 20 miles: +10.")},
    "G10": {"name": gettext_noop("Well-Travelled"), "kind": "well_travelled",
            "text": gettext_noop("Total miles of your trail tiles: at least 34: +5; at least 42: +10.")},
    "G11": {"name": gettext_noop("Campfire Stories"), "kind": "around", "piece": "campsite",
            "text": gettext_noop("+1 per icon on the squares around your campsites (each square once).")},
    "G12": {"name": gettext_noop("Misty Falls"), "kind": "around", "piece": "waterfall",
            "text": gettext_noop("+1 per icon on the squares around your waterfalls (each square once).")},
    "G13": {"name": gettext_noop("Waterfall Chaser"), "kind": "per_piece", "piece": "waterfall", "points": 3,
            "text": gettext_noop("+3 per waterfall on your map.")},
    "G14": {"name": gettext_noop("Lake Country"), "kind": "per_piece", "piece": "lake", "points": 1,
            "text": gettext_noop("+1 per lake on your map.")},
    "G15": {"name": gettext_noop("Crossroads"), "kind": "forks", "points": 2,
            "text": gettext_noop("+2 per fork placed trail side up on your map.")},
    "G16": {"name": gettext_noop("Campground Host"), "kind": "per_piece", "piece": "campsite", "points": 4,
            "text": gettext_noop("+4 per campsite on your map.")},
    "G17": {"name": gettext_noop("Wildlife Watcher"), "kind": "animals", "points": 2,
            "text": gettext_noop("+2 per animal placed on your map.")},
    "G18": {"name": gettext_noop("Balanced Ecosystem"), "kind": "balanced", "threshold": 10, "points": 3,
            "text": gettext_noop("+3 for each terrain whose largest habitat has at least 10 icons.")},
    "G19": {"name": gettext_noop("Well-Rounded"), "kind": "well_rounded",
            "text": gettext_noop("+ the smallest of your four largest-habitat values.")},
    "G20": {"name": gettext_noop("Backcountry"), "kind": "backcountry",
            "text": gettext_noop("+ the miles of your second-longest out-and-back path.")},
}
GOAL_IDS = tuple(GOALS)

BREAKDOWN_KEYS = ("habitat_forest", "habitat_rock", "habitat_meadow", "habitat_wetland",
                  "waterfalls", "lakes", "tents", "animals", "longest_path", "goal")

ACTION_ORDER = ("waterfall", "place", "campsite", "animal", "trade_fork", "discard", "done")
