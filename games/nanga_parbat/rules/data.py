"""Static data of Nanga Parbat: species, mountain geometry, points chart (spec §2, §3, §8).

Every value the spec tags [DECISION] or [INFERRED] lives here as a named constant, so a
check against a physical board later changes data, not code.
"""
from __future__ import annotations

from games.rules.base import gettext_noop

# §2 — species in the spec's order, with colour and a letter so colour is never the only cue.
# `name` and `power` are English here (the view is language-neutral data): the presenter shows
# them with `_(...)`.
SPECIES = ["snow_leopard", "tahr", "musk_deer", "yak", "bharal", "red_panda"]
SPECIES_INFO = {
    "snow_leopard": {"name": gettext_noop("snow leopard"), "colour": "white", "letter": "S",
                     "power": gettext_noop("exchange the places of two neighbouring hikers"), "kind": "activated"},
    "tahr": {"name": gettext_noop("tahr"), "colour": "brown", "letter": "T",
             "power": gettext_noop("exchange a hiker with a neighbouring animal"), "kind": "activated"},
    "musk_deer": {"name": gettext_noop("musk deer"), "colour": "grey", "letter": "M",
                  "power": gettext_noop("exchange two animals, wherever they stand"), "kind": "activated"},
    "yak": {"name": gettext_noop("yak"), "colour": "black", "letter": "Y",
            "power": gettext_noop("send the guide to a different region"), "kind": "activated"},
    "bharal": {"name": gettext_noop("bharal"), "colour": "blue", "letter": "B",
               "power": gettext_noop("counts as any species in a trade (wild)"), "kind": "passive"},
    "red_panda": {"name": gettext_noop("red panda"), "colour": "red", "letter": "R",
                  "power": gettext_noop("1 point when trapped by a player who is not ahead"), "kind": "on_trap"},
}
ACTIVATED_SPECIES = ["snow_leopard", "tahr", "musk_deer", "yak"]
WILD = "bharal"
RED_PANDA = "red_panda"
ANIMALS_PER_SPECIES = 6

REGIONS = [1, 2, 3, 4, 5, 6]
SECTIONS = [10 * r + s for r in REGIONS for s in range(1, 7)]  # 11 .. 66, in deal order

HIKERS_PER_SEAT = 15
CAMPS_PER_SEAT = 12
CUBES_PER_SEAT = 5

# §3.2 [DECISION] — centre of each square as (row, x), in units of one square.
REGION_APEX = {1: (0, 0.0), 2: (3, -1.5), 3: (3, 1.5), 4: (6, -3.0), 5: (6, 0.0), 6: (6, 3.0)}
SECTION_OFFSET = {1: (0, 0.0), 2: (1, -0.5), 3: (1, 0.5), 4: (2, -1.0), 5: (2, 0.0), 6: (2, 1.0)}
LAYOUT = {
    10 * r + s: (REGION_APEX[r][0] + SECTION_OFFSET[s][0], REGION_APEX[r][1] + SECTION_OFFSET[s][1])
    for r in REGIONS for s in range(1, 7)
}

# The three inverted gaps between regions, each crossed by dotted paths joining its three sections.
DOTTED_TRIANGLES = [[15, 23, 32], [25, 43, 52], [35, 53, 62]]
DOTTED_EDGES = [[a, b] for tri in DOTTED_TRIANGLES for i, a in enumerate(tri) for b in tri[i + 1:]]

ADJACENCY = {
    11: [12, 13], 12: [11, 13, 14, 15], 13: [11, 12, 15, 16], 14: [12, 15, 21],
    15: [12, 13, 14, 16, 23, 32], 16: [13, 15, 31],
    21: [14, 22, 23], 22: [21, 23, 24, 25], 23: [15, 21, 22, 25, 26, 32], 24: [22, 25, 41],
    25: [22, 23, 24, 26, 43, 52], 26: [23, 25, 34, 51],
    31: [16, 32, 33], 32: [15, 23, 31, 33, 34, 35], 33: [31, 32, 35, 36], 34: [26, 32, 35, 51],
    35: [32, 33, 34, 36, 53, 62], 36: [33, 35, 61],
    41: [24, 42, 43], 42: [41, 43, 44, 45], 43: [25, 41, 42, 45, 46, 52], 44: [42, 45],
    45: [42, 43, 44, 46], 46: [43, 45, 54],
    51: [26, 34, 52, 53], 52: [25, 43, 51, 53, 54, 55], 53: [35, 51, 52, 55, 56, 62],
    54: [46, 52, 55], 55: [52, 53, 54, 56], 56: [53, 55, 64],
    61: [36, 62, 63], 62: [35, 53, 61, 63, 64, 65], 63: [61, 62, 65, 66], 64: [56, 62, 65],
    65: [62, 63, 64, 66], 66: [63, 65],
}
ADJ_SETS = {sid: frozenset(n) for sid, n in ADJACENCY.items()}

# §8.1 — points chart.
ROWS = ["camps", "different", "same"]
NEED = [6, 5, 4, 3, 3]                                  # INFERRED (last two RULES)
VALUE = {"camps": [14, 10, 7, 4, 3],                    # DECISION (placeholders)
         "different": [12, 8, 5, 3, 2],
         "same": [16, 11, 7, 4, 3]}
CHART_VERIFIED = False

# §10 — area-scoring variant: pieces in a region -> points.
AREA_POINTS = {4: 1, 5: 2, 6: 3}

# §8.2 — display only: the scoring path is drawn as a loop of this many spaces.
PATH_SPACES = 50

# §14 [DECISION] — seat colours, chosen not to clash with the animal colours.
SEAT_COLOURS = ["orange", "green"]

BREAKDOWN_CATEGORIES = ["camps", "different", "same", "red_panda", "area", "bump"]


def region(sid: int) -> int:
    return sid // 10


def num(sid: int) -> int:
    return sid % 10
