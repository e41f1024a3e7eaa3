"""What one seat (or a spectator) sees of a Rift Valley Reserve game (spec 11.2, 15).

The view carries everything the board page draws: every map's grid, areas, terrain,
owner, holder and next holder, its drawn elements, live scores per map, the turn status
and the public history as events (data, no prose: the presenter words them). Pending
draws are public only as "has submitted"; the viewing seat alone gets its own pending draw
back.
"""
from __future__ import annotations

from typing import Any

from games.rules.base import Action, State
from . import data
from .board import connected_stops, held_map, holder, is_full, trail_path


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


def last_turn_draws(state: State) -> list[dict]:
    """The draw events of the last resolved turn (read from the end: their number is
    the number of seats, whatever the game's length)."""
    events = state.get("events", ())  # none in a state saved with the English `history`
    out: list[dict] = []
    for event in reversed(events):
        if "map" not in event:
            continue
        if out and event["turn"] != out[0]["turn"]:
            break
        out.insert(0, event)
    return out


def tie_breaks(scores: list[dict]) -> list[dict]:
    """Each tie on the total: the seats, the total, and which tie-breaks settled it (none:
    they share their rank). Data; the presenter words it."""
    notes = []
    for total in sorted({e["total"] for e in scores}, reverse=True):
        group = [s for s, e in enumerate(scores) if e["total"] == total]
        if len(group) < 2:
            continue
        used = [k for k in data.TIE_BREAKS if len({scores[s]["breakdown"][k] for s in group}) > 1]
        notes.append({"seats": group, "total": total, "decided_by": used})
    return notes


def game_over_event(state: State, scores: list[dict]) -> dict:
    best = max(e["total"] for e in scores)
    return {"type": "game_over", "seat": None, "turn": state["final_turn"] or state["turn"],
            "winners": [e["seat"] for e in scores if e["rank"] == 1], "points": best}


def _map_view(state: State, b: int, recent: list[list[int]]) -> dict:
    m = state["maps"][b]
    n, turn, over = state["players"], state["turn"], state["over"]
    connected = {f"{r},{c}" for r, c in connected_stops(m)}
    # Keyed by the state's own "r,c" strings: no parsing per cell, as maps fill up.
    cells = {k: dict(drawn, connected=k in connected) if drawn["kind"] == "stop" else dict(drawn)
             for k, drawn in m["cells"].items()}
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
    recent: list[list] = [[] for _ in range(n)]
    for event in last_turn_draws(state):
        recent[event["map"]].extend(drawn_cells(event))
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
        "tie_breaks": tie_breaks(totals),
        # Every event is public: pending draws are not events until their turn resolves.
        "events": state.get("events", []) + ([game_over_event(state, scores)] if over else []),
    }
