"""What one seat (or a spectator) sees of a Rift Valley Reserve game (spec 11.2, 15).

The view carries everything the board page draws: every map's grid, areas, terrain,
owner, holder and next holder, its drawn elements, live scores per map, the turn status
and the public history. Pending draws are public only as "has submitted"; the viewing
seat alone gets its own pending draw back.
"""
from __future__ import annotations

from typing import Any

from games.rules.base import Action, State
from . import data
from .board import connected_stops, held_map, holder, is_full, trail_path

LOG_LINES = 40   # the most recent public history lines a view carries


def _cell_text(cell) -> str:
    return f"({cell[0]},{cell[1]})"


def describe(seat: int, action: Action, map_index: int) -> str:
    """One public history line, with "Seat N" for the site to replace by names."""
    kind = action["type"]
    where = f"on Seat {map_index + 1}'s map"
    if kind == "pass":
        if action.get("auto"):
            return f"Seat {seat + 1} had nothing to draw and passed."
        return f"Seat {seat + 1} passed."
    if kind == "trail":
        via = "" if action["corner"] is None else f" via {_cell_text(action['corner'])}"
        return (f"Seat {seat + 1} drew a Trail from {_cell_text(action['from'])} to "
                f"{_cell_text(action['to'])}{via} {where}.")
    return f"Seat {seat + 1} drew a {kind.capitalize()} at {_cell_text(action['cell'])} {where}."


def drawn_cells(action: Action) -> list[list[int]]:
    """The cells an action draws on (a Trail: its whole path)."""
    if action["type"] in ("stop", "tent"):
        return [list(action["cell"])]
    if action["type"] == "trail":
        corner = action["corner"]
        path = trail_path(tuple(action["from"]), tuple(action["to"]),
                          None if corner is None else tuple(corner))
        return [[r, c] for r, c in path]
    return []


def _draws(state: State, entry: dict) -> list[dict]:
    n = state["players"]
    return [{"seat": s, "map": held_map(s, entry["turn"], n), "action": entry["actions"][str(s)]}
            for s in range(n)]


def _history(state: State) -> list[dict]:
    """Every resolved turn in plain words, one line per seat (what it drew on which map)."""
    n = state["players"]
    need = data.END_TRIGGER_FULL_MAPS[n]
    out = []
    for entry in state["history"]:
        turn = entry["turn"]
        lines = [describe(s, entry["actions"][str(s)], held_map(s, turn, n)) for s in range(n)]
        if turn == state["trigger_turn"]:
            lines.append(f"{need} full map{'s' if need > 1 else ''}: the end is triggered; the last turn "
                         f"is turn {state['final_turn']}, and anyone may pass.")
        out.append({"turn": turn, "lines": lines})
    return out


def _log(state: State, history: list[dict], scores: list[dict]) -> list[str]:
    lines = [f"Turn {entry['turn']}: {line}" for entry in history[-LOG_LINES:] for line in entry["lines"]]
    if state["over"]:
        best = max(e["total"] for e in scores)
        winners = [f"Seat {e['seat'] + 1}" for e in scores if e["rank"] == 1]
        lines.append(f"The game is over: {' and '.join(winners)} "
                     f"{'wins' if len(winners) == 1 else 'share first place'} with {best} points.")
    return lines[-LOG_LINES:]


def _tie_breaks(scores: list[dict]) -> list[str]:
    """Plain words for each tie on the total that a tie-break settled (or did not)."""
    notes = []
    labels = {"trails": "Trail points", "stop_penalty": "fewer unconnected Stops"}
    for total in sorted({e["total"] for e in scores}, reverse=True):
        group = [s for s, e in enumerate(scores) if e["total"] == total]
        if len(group) < 2:
            continue
        names = ", ".join(f"Seat {s + 1}" for s in group)
        used = [labels[k] for k in data.TIE_BREAKS
                if len({scores[s]["breakdown"][k] for s in group}) > 1]
        if used:
            notes.append(f"{names} tie on {total} points; decided by {' then '.join(used)}.")
        else:
            notes.append(f"{names} tie on {total} points and share their rank.")
    return notes


def _map_view(state: State, b: int, recent: list[list[int]]) -> dict:
    m = state["maps"][b]
    n, turn, over = state["players"], state["turn"], state["over"]
    connected = connected_stops(m)
    cells = {}
    for k, drawn in m["cells"].items():
        item = dict(drawn)
        if drawn["kind"] == "stop":
            r, c = (int(v) for v in k.split(","))
            item["connected"] = (r, c) in connected
        cells[k] = item
    bridges = [[r, c] for t in m["trails"] for r, c in t["path"] if m["terrain"][r][c] in data.RIFT_CHARS]
    last_turn = state["final_turn"]
    return {
        "index": b, "id": m["id"], "name": m["name"], "kind": m["kind"],
        "rows": m["rows"], "cols": m["cols"], "terrain": list(m["terrain"]), "areas": list(m["areas"]),
        "owner": m["owner"],
        "holder": None if over else holder(b, turn, n),
        "next_holder": None if over or turn == last_turn else holder(b, turn + 1, n),
        "full": is_full(m),
        "cells": cells,
        "trails": [{"id": t["id"], "seat": t["seat"], "path": [list(p) for p in t["path"]]} for t in m["trails"]],
        "bridges": bridges,
        "recent": recent,
    }


def build_view(rules: Any, state: State, seat: Any) -> dict:
    n, turn = state["players"], state["turn"]
    viewer = seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n else None
    over = state["over"]
    per_map = rules.map_scores(state)
    totals = rules.totals_of(per_map, n)
    ranks = rules.rank_scores(totals)
    scores = []
    for s in range(n):
        scores.append({"seat": s, "total": totals[s]["total"], "breakdown": totals[s]["breakdown"],
                       "rank": ranks[s],
                       "per_map": [dict(per_map[b][s], total=sum(per_map[b][s].values())) for b in range(n)]})
    history = _history(state)
    last_turn = None
    recent: list[list] = [[] for _ in range(n)]
    if state["history"]:
        last_turn = {"turn": state["history"][-1]["turn"], "draws": _draws(state, state["history"][-1])}
        for d in last_turn["draws"]:
            recent[d["map"]].extend(drawn_cells(d["action"]))
    pending = state["pending"]
    to_act = rules.to_act(state)
    full = sum(1 for m in state["maps"] if is_full(m))
    stage = rules.stage(state)
    return {
        "game": rules.slug, "title": rules.title, "players": n, "options": dict(state["options"]),
        "viewer": viewer,
        "turn": turn, "stage": stage, "over": over,
        "trigger_turn": state["trigger_turn"], "final_turn": state["final_turn"],
        "turns_left": state["final_turn"] - turn + 1 if stage == "final" else None,
        "full_maps": full, "full_maps_needed": data.END_TRIGGER_FULL_MAPS[n],
        "seat_colours": data.SEAT_COLOURS[:n], "seat_colour_names": data.SEAT_COLOUR_NAMES[:n],
        "terrain_legend": dict(data.TERRAIN_LEGEND), "rift_crossing": dict(data.RIFT_CROSSING),
        "maps": [_map_view(state, b, recent[b]) for b in range(n)],
        "held_map": None if over or viewer is None else held_map(viewer, turn, n),
        "seats": [{"seat": s, "colour": data.SEAT_COLOURS[s], "colour_name": data.SEAT_COLOUR_NAMES[s],
                   "holds": None if over else held_map(s, turn, n),
                   "asked": s in state["asked"], "submitted": str(s) in pending,
                   "waiting_for": s in to_act}
                  for s in range(n)],
        "to_act": to_act,
        "my_pending": pending.get(str(viewer)) if viewer is not None else None,
        "scores": scores,
        "ranking": ranks,
        "tie_breaks": _tie_breaks(totals),
        "last_turn": last_turn,
        "history": history,
        "log": _log(state, history, scores),
    }
