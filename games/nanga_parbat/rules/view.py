"""What a seat (or a spectator) sees: the whole public state plus what a board page needs
to draw it without calling anything else (geometry, chart data, events). The rules write
no prose: the presenter words the status line and the events.

Nothing in Nanga Parbat is hidden after setup, and the state keeps no seed, so every
viewer gets the same picture; only `viewer` and `your_turn` depend on the seat.
"""
from __future__ import annotations

import json

from . import data
from .data import NEED, REGIONS, ROWS, SECTIONS, SPECIES, SPECIES_INFO, VALUE

_GEOMETRY = {
    "sections": [str(s) for s in SECTIONS],
    "layout": {str(s): {"row": r, "x": x, "region": s // 10, "num": s % 10}
               for s, (r, x) in data.LAYOUT.items()},
    "adjacency": {str(s): list(n) for s, n in data.ADJACENCY.items()},
    "regions": {str(r): {"flag_section": 10 * r + 1, "apex": {"row": data.REGION_APEX[r][0],
                                                             "x": data.REGION_APEX[r][1]},
                         "sections": [10 * r + k for k in range(1, 7)]} for r in REGIONS},
    "dotted_triangles": [list(t) for t in data.DOTTED_TRIANGLES],
    "dotted_edges": [list(e) for e in data.DOTTED_EDGES],
    "rows": 9,
    "width": 9,
    "suggested_mapping": "px = (x + 4.5) * S, py = (row + 0.5) * S",
}

_CHART = {
    "rows": list(ROWS),
    "row_labels": {"camps": "build camps from adjacent hikers",
                   "different": "trade animals of different species",
                   "same": "trade animals of one species"},
    "need": list(NEED),
    "value": {row: list(v) for row, v in VALUE.items()},
    "verified": data.CHART_VERIFIED,
}

_SPECIES = [dict(SPECIES_INFO[s], key=s) for s in SPECIES]


def _seat_summary(state, seat: int) -> dict:
    board = state["board"].values()
    s = state["seats"][seat]
    on_mountain = sum(1 for c in board if c["piece"] == "hiker" and c["seat"] == seat)
    camps_on = sum(1 for c in board if c["piece"] == "camp" and c["seat"] == seat)
    animal_board = {}
    for sp in SPECIES:
        animal_board[sp] = {
            "unactivated": sum(1 for a in s["animals"] if a["species"] == sp and not a["activated"]),
            "activated": sum(1 for a in s["animals"] if a["species"] == sp and a["activated"]),
            "traded": sum(1 for a in s["traded"] if a["species"] == sp),
        }
    return {
        "seat": seat,
        "colour": data.SEAT_COLOURS[seat],
        "hikers_on_mountain": on_mountain,
        "camps_on_mountain": camps_on,
        "spots_claimed": sum(1 for row in ROWS for o in state["chart"][row] if o == seat),
        "path_space": s["score"] % data.PATH_SPACES,
        "laps": s["score"] // data.PATH_SPACES,
        "animal_board": animal_board,
    }


# The drawing data never changes: kept as JSON text, so each view gets its own fresh copy
# for the price of one json.loads (a deep copy of these nested dicts cost most of a view).
_STATIC = json.dumps({"geometry": _GEOMETRY, "chart_info": _CHART, "species": _SPECIES,
                      "seat_colours": data.SEAT_COLOURS, "path_spaces": data.PATH_SPACES})


def _copy_event(event: dict) -> dict:
    """An event is flat apart from short lists of ints or strings: copying those is enough,
    and much cheaper than a general deep copy once the history holds a few hundred events."""
    return {k: list(v) if isinstance(v, list) else v for k, v in event.items()}


def build_view(rules, state, seat) -> dict:
    # The state is JSON by contract, so a JSON round trip is a deep copy, several times
    # faster than copy.deepcopy; the view never shares a list or dict with the state.
    view = json.loads(json.dumps({k: v for k, v in state.items() if k not in ("events", "seed")}))
    view["events"] = [_copy_event(e) for e in state.get("events", [])]
    viewer = seat if type(seat) is int and seat in (0, 1) else None
    to_act = rules.to_act(state)
    over = rules.is_over(state)
    ranks = rules.ranking(state)
    view.update({
        "viewer": viewer,
        "to_act": to_act,
        "your_turn": viewer is not None and viewer in to_act,
        "second_player": 1 - state["first_player"],
        "scores": rules.scores(state),
        "ranking": ranks if over else None,
        "winner": (None if ranks[0] == ranks[1] else (0 if ranks[0] == 1 else 1)) if over else None,
        "seat_summary": [_seat_summary(state, s) for s in (0, 1)],
        "region_animals": {str(r): sum(1 for k in range(1, 7)
                                       if state["board"][str(10 * r + k)]["piece"] == "animal")
                           for r in REGIONS},
    })
    view.update(json.loads(_STATIC))
    return view
