"""Roll to the Top: Journeys — dice, action faces, decisions and the six boards.

Every [DECISION] of shared/rules/roll_to_the_top.md (§14, §16) has its one home here,
so a ruling can change in one place. The boards are Switchback's own (§12): the
sources describe no Journeys board box by box.
"""
from __future__ import annotations

from itertools import pairwise
from typing import Any

NUMBER_DICE = {"d4": 4, "d6": 6, "d8": 8, "d12": 12, "d20": 20}   # [ORIGINAL] die id -> faces
DIE_ORDER = ["d4", "d6", "d8", "d12", "d20"]                       # canonical order
ACTION_FACES = ["ADD", "ADD", "REMOVE", "REMOVE", "ADD_OR_REMOVE", "SWAP"]
POOL_MAX = 5                            # [RULES]
MAX_VALUE = sum(NUMBER_DICE.values())   # 50: the largest single number
FIRST_ACTIVE = "random"                 # [DECISION] seeded random seat (the table asks who travelled last)
AUTO_DONE = True                        # [DECISION] §4.2: seats with no legal place start done
NON_WINNER_ORDER = "fewest_empty"       # [DECISION] §11.1
ROUNDS_FIRST_ACTIVE_STEP = 1            # [DECISION] §11.2
ROUNDS_TIE_BREAK = None                 # [DECISION] §11.2: equal totals share a rank
SOLO_SCORE = "turns"                    # [DECISION] §11.3: solo total = turns used, lower is better

START_POOLS = ("even_dice", "all")      # [ORIGINAL] / [DECISION] option start_pool
MODES = ("normal", "reverse")
GAMES_RANGE = (1, 12)                   # [DECISION] option games
MAX_TURNS_RANGE = (20, 500)             # [DECISION] option max_turns
DEFAULT_MAX_TURNS = 150                 # [DECISION] §11.4 turn cap per game
EVENTS_KEEP = 80                        # events kept in the state (views show the last EVENTS_VIEW)
EVENTS_VIEW = 40

# §12.3, verbatim. [DECISION] All six boards are Switchback's working titles and shapes.
BOARD_DATA: dict[str, Any] = {
    "order": ["giza", "matterhorn", "arch", "twin_peaks", "lighthouse", "temple"],
    "boards": {
        "giza": {
            "name": "Giza",
            "rows": [[0, 2, 4, 6, 8, 10], [1, 3, 5, 7, 9], [2, 4, 6, 8], [3, 5, 7], [4, 6], [5]],
            "dots": [[0, 0], [0, 2], [0, 4], [0, 6], [0, 8], [0, 10]],
            "special": {},
        },
        "matterhorn": {
            "name": "Matterhorn",
            "rows": [[0, 2, 4, 6, 8, 10], [1, 3, 5, 7, 9], [2, 4, 6, 8], [3, 5, 7, 9, 11], [6, 8], [7]],
            "dots": [[0, 0], [0, 2], [0, 4], [0, 6], [0, 8], [0, 10]],
            "special": {"5,7": {"min_value": 25}},
        },
        "arch": {
            "name": "Stone Arch",
            "rows": [[0, 2, 8, 10], [1, 9], [1, 3, 5, 7, 9], [2, 4, 6, 8], [3, 5, 7], [4, 6], [5]],
            "dots": [[0, 0], [0, 2], [0, 8], [0, 10]],
            "special": {},
        },
        "twin_peaks": {
            "name": "Twin Peaks",
            "rows": [[0, 2, 4, 6, 8, 10, 12, 14], [1, 3, 5, 7, 9, 11, 13], [2, 4, 6, 8, 10, 12],
                     [3, 5, 9, 11], [4, 10]],
            "dots": [[0, 0], [0, 2], [0, 4], [0, 6], [0, 8], [0, 10], [0, 12], [0, 14], [2, 8]],
            "special": {"4,10": {"links": [[4, 4]]}},
        },
        "lighthouse": {
            "name": "Lighthouse",
            "rows": [[0, 2, 4], [1, 3], [1, 3], [1, 3], [2], [0, 2, 4], [1, 3], [2]],
            "dots": [[0, 0], [0, 2], [0, 4]],
            "special": {},
        },
        "temple": {
            "name": "Temple",
            "rows": [[0, 2, 4, 6, 8, 10, 12], [1, 3, 5, 7, 9, 11], [2, 4, 6, 8, 10], [3, 5, 7, 9],
                     [4, 6, 8], [5, 7], [6]],
            "dots": [[0, 0], [0, 6], [0, 12]],
            "special": {},
        },
    },
}
BOARD_ORDER: list[str] = list(BOARD_DATA["order"])
BOARDS: dict[str, dict] = BOARD_DATA["boards"]


def key(r: int, x: int) -> str:
    return f"{r},{x}"


def geometry(board: dict) -> dict:
    """Derived facts of one board (§7): per box key its supports, neighbours, kind and specials."""
    rows = board["rows"]
    exists = {key(r, x) for r, xs in enumerate(rows) for x in xs}
    dots = {key(r, x) for r, x in board["dots"]}
    boxes = {}
    order = []
    for r, xs in enumerate(rows):
        for x in xs:
            k = key(r, x)
            supports = [key(r - 1, x2) for x2 in (x - 1, x, x + 1) if key(r - 1, x2) in exists] if r else []
            neighbours = [key(r, x2) for x2 in (x - 2, x + 2) if key(r, x2) in exists]
            special = board["special"].get(k, {})
            kind = "dot" if k in dots else ("supported" if supports else "hanging")
            boxes[k] = {
                "r": r, "x": x, "kind": kind, "supports": supports, "neighbours": neighbours,
                "links": [key(lr, lx) for lr, lx in special.get("links", [])],
                "min_value": special.get("min_value"),
            }
            order.append(k)
    width = max((x + 2 for xs in rows for x in xs), default=0)
    return {"boxes": boxes, "order": order, "rows": len(rows), "width": width}


def _check_rows(board_id: str, rows: list) -> None:
    for r, xs in enumerate(rows):
        if xs != sorted(xs):
            raise ValueError(f"{board_id}: row {r} is not sorted")
        if any(b - a < 2 for a, b in pairwise(xs)):
            raise ValueError(f"{board_id}: boxes overlap in row {r}")


def _check_specials(board_id: str, board: dict, exists: set[str]) -> None:
    for r, x in board["dots"]:
        if key(r, x) not in exists:
            raise ValueError(f"{board_id}: dot {r},{x} is not a box")
    for k, special in board["special"].items():
        if k not in exists:
            raise ValueError(f"{board_id}: special {k} is not a box")
        if set(special) - {"links", "min_value"}:
            raise ValueError(f"{board_id}: unknown special rule at {k}")
        for lr, lx in special.get("links", []):
            if key(lr, lx) not in exists:
                raise ValueError(f"{board_id}: link target {lr},{lx} is not a box")
            if key(lr, lx) == k:
                raise ValueError(f"{board_id}: box {k} links to itself")
        if "min_value" in special and not 1 <= special["min_value"] <= MAX_VALUE:
            raise ValueError(f"{board_id}: min_value at {k} is out of 1..{MAX_VALUE}")


def _fillable(box: dict, filled: set[str]) -> bool:
    """Could this box be filled once the boxes in `filled` are?"""
    if box["kind"] == "dot":
        base = True
    elif box["supports"]:
        base = all(s in filled for s in box["supports"])
    else:
        base = any(n in filled for n in box["neighbours"])
    return base and all(link in filled for link in box["links"])


def validate_board(board_id: str, board: dict) -> None:
    """§12.3 board validation: a bad edit of the data fails loudly at import."""
    rows = board["rows"]
    _check_rows(board_id, rows)
    _check_specials(board_id, board, {key(r, x) for r, xs in enumerate(rows) for x in xs})
    geo = geometry(board)
    reachable: set[str] = set()
    changed = True
    while changed:
        new = {k for k, box in geo["boxes"].items() if k not in reachable and _fillable(box, reachable)}
        reachable |= new
        changed = bool(new)
    if reachable != set(geo["boxes"]):
        raise ValueError(f"{board_id}: boxes that can never be filled: {sorted(set(geo['boxes']) - reachable)}")


for _board_id in BOARD_ORDER:
    validate_board(_board_id, BOARDS[_board_id])
assert set(BOARD_ORDER) == set(BOARDS)

GEOMETRY: dict[str, dict] = {board_id: geometry(BOARDS[board_id]) for board_id in BOARD_ORDER}
