"""Rift Valley Reserve bot: greedy on the bot's own score on the map it holds.

Trails and Tents are valued by the exact score they add now. A Stop costs 2 points at
once and pays only when a later Trail joins it, so it is valued by the best Trail it
could close with one of the bot's Stops on that map (or, for a first Stop, by how much
open country lies in line with it), discounted because the bot sees this map again only
N turns later and others may block the way. In the final stage that promise is worth
nothing unless the bot will hold the map again before the game ends; then passing
beats a losing draw.
"""
from __future__ import annotations

import random

from . import RULES, data
from .board import (CATEGORIES, draw, empty_cells, held_map, n8, own_stops, score_map, trail_error,
                    trail_path)

STOP_PROMISE = 0.6        # share of a future Trail's value credited to the Stop that enables it
FIRST_STOP_PROMISE = 0.3  # the same for a Stop with no partner yet (it needs two more visits)
TENT_PROMISE = 0.8        # per own unconnected Stop beside a Tent (it may connect later)


def _own_total(m: dict, seat: int, n: int) -> int:
    b = score_map(m, n)[seat]
    return sum(b[c] for c in CATEGORIES)


class _Context:
    """What the estimates need about one map, worked out once per choice."""

    def __init__(self, m: dict, seat: int, n: int):
        self.m, self.seat, self.n = m, seat, n
        self.animals = [(r, c) for r, line in enumerate(m["terrain"]) for c, ch in enumerate(line)
                        if ch == data.ANIMAL]
        presence: list[set] = [set() for _ in range(n)]
        self.connected: set = set()
        for t in m["trails"]:
            path = [tuple(p) for p in t["path"]]
            presence[t["seat"]].update(path)
            self.connected.update((path[0], path[-1]))
        self.near_animals: dict = {}
        self.mine_near, self.others_near = set(), {}
        for a in self.animals:
            around = set(n8(a[0], a[1], m))
            for cell in around:
                self.near_animals.setdefault(cell, []).append(a)
            if presence[seat] & around:
                self.mine_near.add(a)
            self.others_near[a] = sum(1 for s in range(n) if s != seat and presence[s] & around)

    def path_value(self, path) -> float:
        """Estimated points of a Trail along `path` (areas, new animals, its Stops' penalties)."""
        areas = self.m["areas"]
        value = len({areas[r][c] for r, c in path})
        animals = {a for cell in path for a in self.near_animals.get(cell, ()) if a not in self.mine_near}
        value += sum(data.ANIMAL_VALUES[min(self.others_near[a] + 1, 3)] for a in animals)
        return value + 4   # both end Stops stop costing 2


def _stop_value(ctx: _Context, cell, partners, turn: int) -> float:
    m, seat = ctx.m, ctx.seat
    x = tuple(cell)
    trial = dict(m, cells=dict(m["cells"], **{f"{x[0]},{x[1]}": {"kind": "stop", "seat": seat}}))
    best = 0.0
    for y in partners:
        corners = [None] if (x[0] == y[0] or x[1] == y[1]) else [(x[0], y[1]), (y[0], x[1])]
        for k in corners:
            a, b = (x, y) if x < y else (y, x)
            if trail_error(trial, seat, a, b, k, turn + 1) is None:
                value = ctx.path_value(trail_path(a, b, k)) - (2 if y in ctx.connected else 0)
                best = max(best, value)
    if best:
        return -2 + STOP_PROMISE * best
    return -2 + FIRST_STOP_PROMISE * _open_lines(ctx, x)


def _open_lines(ctx: _Context, x) -> float:
    """Value of the best straight run of empty cells from x, as if a Trail followed it."""
    m, best = ctx.m, 0.0
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        path, r, c = [x], x[0] + dr, x[1] + dc
        while 0 <= r < m["rows"] and 0 <= c < m["cols"] and m["terrain"][r][c] == data.GROUND \
                and f"{r},{c}" not in m["cells"]:
            path.append((r, c))
            r, c = r + dr, c + dc
        if len(path) >= 3:
            best = max(best, ctx.path_value(path))
    return best


def _tent_value(ctx: _Context, cell, promise: bool) -> float:
    m, seat = ctx.m, ctx.seat
    value = 0.0
    for a, b in n8(cell[0], cell[1], m):
        drawn = m["cells"].get(f"{a},{b}")
        if drawn and drawn["kind"] == "stop" and drawn["seat"] == seat:
            if (a, b) in ctx.connected:
                value += data.TENT_POINTS_PER_STOP
            elif promise:
                value += TENT_PROMISE
    return value


def choose(state: dict, seat: int, rng: random.Random) -> dict:
    legal = RULES.legal_actions(state, seat)
    if len(legal) <= 1:
        return legal[0]
    n, turn = state["players"], state["turn"]
    m = state["maps"][held_map(seat, turn, n)]
    ctx = _Context(m, seat, n)
    final = state["final_turn"]
    comes_back = final is None or turn + n <= final
    base = None
    partners = [tuple(s) for s in own_stops(m, seat)]
    room = sum(1 for _ in empty_cells(m))
    best_value, best = None, []
    for action in legal:
        kind = action["type"]
        if kind == "pass":
            value = 0.0
        elif kind == "trail":
            if base is None:
                base = _own_total(m, seat, n)
            value = _own_total(draw(m, seat, action), seat, n) - base
        elif kind == "tent":
            value = _tent_value(ctx, action["cell"], comes_back)
        else:
            value = _stop_value(ctx, action["cell"], partners, turn) if comes_back and room > 2 else -2.0
        if best_value is None or value > best_value + 1e-9:
            best_value, best = value, [action]
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return rng.choice(best)
