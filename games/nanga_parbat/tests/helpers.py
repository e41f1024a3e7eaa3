"""Position builders for the Nanga Parbat tests: every section not named holds an animal."""
from __future__ import annotations

import json

from games.nanga_parbat.rules import RULES
from games.nanga_parbat.rules.data import BREAKDOWN_CATEGORIES, ROWS, SECTIONS

FILLER = "musk_deer"


def animal(species):
    return {"piece": "animal", "species": species}


def hiker(seat):
    return {"piece": "hiker", "seat": seat}


def camp(seat):
    return {"piece": "camp", "seat": seat}


def held(*species, activated=()):
    """An animal board: species in order; `activated` lists indices already used."""
    return [{"species": s, "activated": i in activated} for i, s in enumerate(species)]


def position(phase="trap", current=0, guide=1, board=None, filler=FILLER, seats=None,
             turn=5, first_player=0, claimed=False, chart=None, options=None):
    state = RULES.setup(2, options or {}, 1)
    state["board"] = {str(s): animal(filler) for s in SECTIONS}
    for sid, cell in (board or {}).items():
        state["board"][str(sid)] = cell
    state.update(phase=phase, current=current, guide=guide, turn=turn,
                 first_player=first_player, claimed_this_turn=claimed)
    for seat, changes in (seats or {}).items():
        entry = state["seats"][seat]
        changes = dict(changes)
        if "score" in changes and "breakdown" not in changes:
            # keep the breakdown summing to the score
            entry["breakdown"] = {c: 0 for c in BREAKDOWN_CATEGORIES}
            entry["breakdown"]["camps"] = changes["score"]
        entry.update(changes)
    if chart:
        for (row, col), owner in chart.items():
            state["chart"][row][col] = owner
    return state


def roundtrip(value):
    return json.loads(json.dumps(value))


def score_pair(state):
    return state["seats"][0]["score"], state["seats"][1]["score"]


def board_of(state, sid):
    return state["board"][str(sid)]


def spots(state, seat):
    return sorted((row, col) for row in ROWS for col in range(5) if state["chart"][row][col] == seat)
