"""A greedy bot for Roll to the Top: Journeys.

Writing: place the number that wastes the least headroom (how far it overshoots the
box's requirement, weighted by how low the box sits), while the waste stays small;
then `done`. Action die: pick the die move whose resulting pool gives the most boxes
to fill next turn, judged on a few sample rolls.
"""
from __future__ import annotations

import random

from .data import GEOMETRY, NUMBER_DICE
from .rules import RULES, bounds, legal_places, seat_sheet

WASTE_LIMIT = 4          # a placement wasting more than this (scaled) is not worth it
SAMPLES = 8              # sample rolls to judge a die move
REVERSE_BASE = 10


def _waste(state, seat, sheet, place) -> float:
    k = f"{place['box'][0]},{place['box'][1]}"
    geo = GEOMETRY[state["board"]]
    value = sum(state["roll"][d] for d in place["dice"])
    fit = bounds(state, sheet, k)
    assert not isinstance(fit, str), "a legal place has bounds"
    lo, hi = fit
    reverse = state["options"]["mode"] == "reverse"
    rows = geo["rows"]
    r = geo["boxes"][k]["r"]
    # the ideal number for a row rises (falls in reverse) from the base to the peak
    frac = r / max(rows - 1, 1)
    if reverse:
        ideal = 1 + REVERSE_BASE * (1 - frac)
        over = max(0, ideal - value) if geo["boxes"][k]["kind"] != "supported" else hi - value
    else:
        ideal = 1 + 35 * frac
        over = max(0, value - ideal) if geo["boxes"][k]["kind"] != "supported" else value - lo
    return over + 0.3 * (len(place["dice"]) - 1)


def _write(state, seat, rng):
    places = legal_places(state, seat)
    if not places:
        return {"type": "done"}
    sheet = seat_sheet(state, seat)
    best = min(places, key=lambda p: (_waste(state, seat, sheet, p), -p["box"][0]))
    if _waste(state, seat, sheet, best) <= WASTE_LIMIT + 2 * len(state["pool"]) / 5:
        return best
    return {"type": "done"}


def _fillable(state, seat, pool, rng) -> float:
    sheet = state["sheets"][seat]
    geo = GEOMETRY[state["board"]]
    open_bounds = []
    for k in geo["order"]:
        if k in sheet:
            continue
        b = bounds(state, sheet, k)
        if not isinstance(b, str):
            open_bounds.append(b)
    if not open_bounds:
        return 0.0
    score = 0.0
    for _ in range(SAMPLES):
        values = [rng.randint(1, NUMBER_DICE[d]) for d in pool]
        sums = set()
        for mask in range(1, 1 << len(values)):
            sums.add(sum(v for i, v in enumerate(values) if mask >> i & 1))
        score += sum(1 for lo, hi in open_bounds if any(lo <= s <= hi for s in sums))
    return score / SAMPLES


def _act(state, seat, rng, legal):
    def pool_after(a):
        pool = list(state["pool"])
        if a["type"] == "add":
            pool.append(a["die"])
        elif a["type"] == "remove":
            pool.remove(a["die"])
        else:
            pool.remove(a["remove"])
            pool.append(a["add"])
        return pool
    local = random.Random(rng.random())
    return max(legal, key=lambda a: _fillable(state, seat, pool_after(a), random.Random(local.random())))


def choose(state, seat, rng):
    legal = RULES.legal_actions(state, seat)
    if not legal:
        raise ValueError("This seat has nothing to do now.")
    if state["phase"] == "write":
        return _write(state, seat, rng)
    return _act(state, seat, rng, legal)
