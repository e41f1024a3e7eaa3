"""§12: the board data, its validation, the derived table and the drawings (checklist 27)."""
from __future__ import annotations

import copy

import pytest

from games.roll_to_the_top.rules.data import BOARD_ORDER, BOARDS, GEOMETRY, validate_board

# §12.2, copied verbatim: `[` of box (r, x) is at column 3 + 2x.
DRAWINGS = {
    "giza": """
r5           [  ]
r4         [  ][  ]
r3       [  ][  ][  ]
r2     [  ][  ][  ][  ]
r1   [  ][  ][  ][  ][  ]
r0 [oo][oo][oo][oo][oo][oo]
""",
    "matterhorn": """
r5               [  ]
r4             [  ][  ]
r3       [  ][  ][  ][ 1][hh]
r2     [  ][  ][  ][  ]
r1   [  ][  ][  ][  ][  ]
r0 [oo][oo][oo][oo][oo][oo]
""",
    "arch": """
r6           [  ]
r5         [  ][  ]
r4       [  ][  ][  ]
r3     [  ][  ][  ][  ]
r2   [ 1][hh][hh][hh][ 1]
r1   [  ]            [  ]
r0 [oo][oo]        [oo][oo]
""",
    "twin_peaks": """
r4         [  ]        [  ]
r3       [  ][  ]    [  ][  ]
r2     [  ][  ][  ][oo][  ][  ]
r1   [  ][  ][  ][  ][  ][  ][  ]
r0 [oo][oo][oo][oo][oo][oo][oo][oo]
""",
    "lighthouse": """
r7     [  ]
r6   [  ][  ]
r5 [hh][ 1][hh]
r4     [  ]
r3   [ 1][ 1]
r2   [ 1][ 1]
r1   [  ][  ]
r0 [oo][oo][oo]
""",
    "temple": """
r6             [  ]
r5           [  ][  ]
r4         [  ][  ][  ]
r3       [  ][  ][  ][  ]
r2     [  ][  ][  ][  ][  ]
r1   [  ][  ][  ][  ][  ][  ]
r0 [oo][hh][hh][oo][hh][hh][oo]
""",
}

# §12.3 table: rows, boxes, dots, two-support count, one-support boxes, hanging boxes
TABLE = {
    "giza": (6, 21, 6, 15, [], []),
    "matterhorn": (6, 23, 6, 15, ["3,9"], ["3,11"]),
    "arch": (7, 21, 4, 12, ["2,1", "2,9"], ["2,3", "2,5", "2,7"]),
    "twin_peaks": (5, 27, 9, 18, [], []),
    "lighthouse": (8, 16, 3, 6, ["2,1", "2,3", "3,1", "3,3", "5,2"], ["5,0", "5,4"]),
    "temple": (7, 28, 3, 21, [], ["0,2", "0,4", "0,8", "0,10"]),
}

MARK = {"oo": "dot", "  ": 2, " 1": 1, "hh": "hanging"}


def drawn(board_id):
    boxes = {}
    for line in DRAWINGS[board_id].strip("\n").splitlines():
        r = int(line[1:line.index(" ")])
        for col, ch in enumerate(line):
            if ch == "[":
                boxes[f"{r},{(col - 3) // 2}"] = MARK[line[col + 1:col + 3]]
    return boxes


def kind_of(box):
    if box["kind"] == "supported":
        return len(box["supports"])
    return box["kind"]


def test_there_are_six_boards_in_order():
    assert BOARD_ORDER == ["giza", "matterhorn", "arch", "twin_peaks", "lighthouse", "temple"]
    assert set(BOARDS) == set(BOARD_ORDER)


@pytest.mark.parametrize("board_id", BOARD_ORDER)
def test_board_matches_the_table_of_derived_facts(board_id):
    rows, boxes, dots, two, one, hanging = TABLE[board_id]
    geo = GEOMETRY[board_id]
    assert geo["rows"] == rows and len(geo["boxes"]) == boxes
    kinds = {k: kind_of(b) for k, b in geo["boxes"].items()}
    assert sum(1 for v in kinds.values() if v == "dot") == dots
    assert sum(1 for v in kinds.values() if v == 2) == two
    assert sorted(k for k, v in kinds.items() if v == 1) == sorted(one)
    assert sorted(k for k, v in kinds.items() if v == "hanging") == sorted(hanging)


@pytest.mark.parametrize("board_id", BOARD_ORDER)
def test_board_data_matches_its_drawing(board_id):
    geo = GEOMETRY[board_id]
    assert drawn(board_id) == {k: kind_of(b) for k, b in geo["boxes"].items()}


def test_lighthouse_lantern_base_has_two_supports():
    assert GEOMETRY["lighthouse"]["boxes"]["4,2"]["supports"] == ["3,1", "3,3"]


def test_specials_are_where_the_spec_puts_them():
    assert GEOMETRY["matterhorn"]["boxes"]["5,7"]["min_value"] == 25
    assert GEOMETRY["twin_peaks"]["boxes"]["4,10"]["links"] == ["4,4"]


@pytest.mark.parametrize("breakage,words", [
    (lambda b: b["rows"][0].reverse(), "not sorted"),
    (lambda b: b["rows"][0].insert(1, 1), "overlap"),
    (lambda b: b["dots"].append([9, 9]), "dot"),
    (lambda b: b["special"].update({"9,9": {"min_value": 3}}), "special"),
    (lambda b: b["special"].update({"5,5": {"links": [[5, 5]]}}), "itself"),
    (lambda b: b["special"].update({"5,5": {"links": [[7, 7]]}}), "link target"),
    (lambda b: b["special"].update({"5,5": {"min_value": 51}}), "min_value"),
    (lambda b: b.update(dots=[]), "never be filled"),
])
def test_board_validation_fails_loudly_on_a_bad_edit(breakage, words):
    board = copy.deepcopy(BOARDS["giza"])
    breakage(board)
    with pytest.raises(ValueError, match=words):
        validate_board("broken", board)


def test_every_shipped_board_validates():
    for board_id in BOARD_ORDER:
        validate_board(board_id, BOARDS[board_id])
