"""A greedy Rifugio bot: `choose(state, seat, rng) -> action`, always one of `legal_actions`.

Walking: one-ply search over the walk actions, scored by the live score (own points against the
others'), the extra-step cards held, the Rifugi built at busy places, and a "potential" that pulls
the hiker towards special places it has not collected yet (nearer is worth more). Extra-step cards
are spent only when a two-ply look shows the next move is worth more than the card.
Placing: a cheap heuristic without applying: special places near oneself, bears far from oneself
and near opponents, water next to one's own waterfalls.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from . import RULES
from . import data as D
from .rules import distance, is_water, key, neighbours, parse

GAMMA = 0.72                 # how fast a far special place loses appeal, per step of distance
# An extra-step card in hand. Each card comes from a visit that gives the raft's or the
# Rifugio's owner 2 points (RAFT_CARD_VALUE, RIFUGIO_CARD_VALUE), so it must be worth less
# than those 2 points weigh against one's own (issue 25: at 0.8 against 0.35 x 2 the old bot
# shuttled onto the other seat's raft turn after turn, gifts that decided games).
CARD_VALUE = 0.5
RIFUGIO_LEFT_VALUE = 0.9     # a Rifugio token not yet built
RAFT_LEFT_VALUE = 0.3
SET_PROGRESS = 1.5           # each special place held beyond the first of its category


def choose(state: dict, seat: int, rng) -> dict:
    legal = RULES.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    if state["phase"] == "place":
        return _choose_placement(state, seat, legal, rng)
    return _choose_walk(state, seat, legal, rng)


# --- walking -------------------------------------------------------------------------------

def _choose_walk(state, seat, legal, rng):
    kinds = {a["type"] for a in legal}
    if "continue_swim" in kinds:
        return {"type": "continue_swim"}
    swims = [a for a in legal if a["type"] == "swim"]
    if swims:
        return swims[0]
    end = {"type": "end_turn"}
    best, best_value = end, _evaluate(state, seat) + 1e-6
    for action in legal:
        if action["type"] in ("end_turn", "use_extra_step"):
            continue
        value = _evaluate(RULES.apply(state, seat, action), seat) + rng.random() * 1e-3
        if value > best_value:
            best, best_value = action, value
    if best is end:
        best = _points_before_ending(state, seat, legal) or end
    if best is end and "use_extra_step" in kinds:
        after = RULES.apply(state, seat, {"type": "use_extra_step"})
        for action in RULES.legal_actions(after, seat):
            if action["type"] in ("end_turn", "use_extra_step"):
                continue
            value = _evaluate(RULES.apply(after, seat, action), seat)
            if value > best_value:
                best, best_value = {"type": "use_extra_step"}, value
    return best


def _points_before_ending(state, seat, legal):
    """A move that scores now, rather than ending the turn beside it: the pull of the places
    around (a guess about later turns) must not talk the bot out of points it can take with
    the steps it has left (issue 25, seed 0: it ended a turn one step from a Gentian)."""
    now = RULES.scores(state)
    mine = now[seat]["total"]
    others = sum(entry["total"] for i, entry in enumerate(now) if i != seat)
    best, best_gain = None, 0
    for action in legal:
        if action["type"] not in ("step", "sail"):
            continue
        after = RULES.scores(RULES.apply(state, seat, action))
        gain = after[seat]["total"] - mine
        gift = sum(entry["total"] for i, entry in enumerate(after) if i != seat) - others
        if gift == 0 and gain > best_gain:
            best, best_gain = action, gain
    return best


# What the walk evaluation reads of a map (walking costs, the special places in the order they
# were laid, the distances from each start), kept for the maps met lately: the walk bot
# evaluates every step it could take, each from a new start on the same map, and a search
# rolls out the same map again and again (issue 25: the distances were 40 % of a rollout).
# A map is known by its cells and tiles in the order they were laid, which is all these read
# (the map only grows and its entries never change).
@dataclass
class _Map:
    graph: dict          # cell -> [(neighbour, cost of stepping onto it)]
    specials: list       # (cell, tile, category) of every special place, in board order
    from_start: dict = field(default_factory=dict)


_MAPS: dict[tuple, _Map] = {}
_MAPS_KEPT = 64


def _map_of(board: dict, rr: bool) -> _Map:
    signature = (rr, tuple((k, cell["tile"]) for k, cell in board.items()))
    known = _MAPS.get(signature)
    if known is None:
        if len(_MAPS) >= _MAPS_KEPT:
            _MAPS.clear()
        known = _MAPS[signature] = _Map(_walking_graph(board, rr), [
            (parse(k), cell["tile"], D.TILES[cell["tile"]]["category"]) for k, cell in board.items()
            if D.TILES[cell["tile"]]["category"] is not None])
    return known


def _distances(board: dict, start, rr: bool) -> dict:
    """Walking cost from start over the map: land 1, bear 4, water 2 (a raft is needed).
    The returned dict is shared with later calls: read it, never change it."""
    return _distances_on(_map_of(board, rr), tuple(start))


def _distances_on(known: _Map, start: tuple) -> dict:
    dist = known.from_start.get(start)
    if dist is None:
        dist = known.from_start[start] = _dijkstra(known.graph, start)
    return dist


def _walking_graph(board: dict, rr: bool) -> dict:
    """Each cell's neighbours on the map with the cost of stepping onto them."""
    cost_of = {}
    for k, cell in board.items():
        kind = D.TILES[cell["tile"]]["kind"]
        if kind == "water" and not rr:
            continue
        cost_of[parse(k)] = 2 if kind == "water" else (4 if kind == "bear" else 1)
    return {parse(k): [(n, cost_of[n]) for n in neighbours(parse(k)) if n in cost_of] for k in board}


def _dijkstra(graph: dict, start: tuple) -> dict:
    dist = {start: 0}
    heap = [(0, start)]
    while heap:
        d, c = heapq.heappop(heap)
        if d > dist.get(c, 99):
            continue
        for n, cost in graph.get(c, ()):
            if d + cost < dist.get(n, 99):
                dist[n] = d + cost
                heapq.heappush(heap, (d + cost, n))
    return dist


def leaf_value(state: dict, seat: int) -> float:
    """The seat's outlook in points, as this bot weighs it (own points against the others',
    cards and tokens held, the pull of places not yet reached): the search (levels 4-5,
    games/rules/levels.py) reads it where a rollout of a couple of rounds stops."""
    return _evaluate(state, seat)


def _evaluate(state: dict, seat: int) -> float:
    scores = RULES.scores(state)
    mine = scores[seat]["total"]
    others = sum(s["total"] for i, s in enumerate(scores) if i != seat)
    me = state["seats"][seat]
    value = mine - others_weight(state["players"]) * others
    # cards are worth nothing at the end: spend them freely once the stack is nearly gone
    late = len(state["stack"]) + len(state["bottom"]) <= 2 * state["players"]
    value += (0.1 if late else CARD_VALUE) * me["extra_step_cards"]
    value += RIFUGIO_LEFT_VALUE * me["rifugi_left"] + RAFT_LEFT_VALUE * me["rafts_left"]
    board = state["board"]
    if state["phase"] != "over":
        known = _map_of(board, state["options"]["rivers_and_rafts"])
        dist = _distances_on(known, tuple(me["walker"]["at"]))
        held = set(me["items"])
        have = {category: sum(1 for t in D.CATEGORY_TILES[category] if t in held) for category in D.CATEGORIES}
        value += _set_progress(have)
        for cell, tile, category in known.specials:
            if tile in held:
                continue
            d = dist.get(cell)
            if d is None:
                continue
            worth = D.ITEM_VALUE[category] + SET_PROGRESS * have[category]
            value += worth * GAMMA ** d
    for k, owner in state["rifugi"].items():
        if owner == seat:
            value += _rifugio_spot(state, parse(k), seat)
    return value


def others_weight(players: int) -> float:
    """How much the others' points count against one's own: all of it at two players (a
    point for the only rival is a point lost), less with more rivals, never below 0.4 (so a
    2-point gift always outweighs an extra-step card)."""
    return max(0.4, 1.0 / max(players - 1, 1))


def _set_progress(have: dict) -> float:
    """The set progress of the places held, valued as the pull towards them was: taking a
    place one step away must be worth more than standing next to it (issue 25: the pull of
    a place one step away, 2 + 1.5 for one held of its kind, times GAMMA = 2.52, beat the 2
    points of taking it, so the old bot ended turns next to places it could take)."""
    progress = 0.0
    for held in have.values():   # places held, by category
        progress += SET_PROGRESS * held * (held - 1) / 2
    return progress


def _rifugio_spot(state: dict, c, seat: int) -> float:
    """How much traffic a Rifugio at c may draw: special places around it the others still need."""
    board = state["board"]
    worth = 0.8
    for n in [c] + neighbours(c):
        cell = board.get(key(*n))
        if cell is None:
            continue
        tile = cell["tile"]
        if D.TILES[tile]["category"]:
            worth += 0.4 * sum(1 for i, p in enumerate(state["seats"]) if i != seat and tile not in p["items"])
        elif not D.TILES[tile]["water"]:
            worth += 0.05
    return worth


# --- placing -------------------------------------------------------------------------------

def _choose_placement(state, seat, legal, rng):
    tile = state["hand"]
    info = D.TILES[tile]
    board = state["board"]
    me = state["seats"][seat]
    mine = tuple(me["walker"]["at"])
    others = [(i, tuple(p["walker"]["at"])) for i, p in enumerate(state["seats"]) if i != seat]
    held_wf = [parse(k) for k, cell in board.items()
               if D.TILES[cell["tile"]]["category"] == "WATERFALL" and cell["tile"] in me["items"]]
    other_wf = [parse(k) for k, cell in board.items()
                if D.TILES[cell["tile"]]["category"] == "WATERFALL"
                and any(cell["tile"] in p["items"] for i, p in enumerate(state["seats"]) if i != seat)]
    cache: dict = {}
    best, best_value = legal[0], None
    for action in legal:
        c = (action["q"], action["r"])
        if c not in cache:
            cache[c] = _placement_value(tile, info, c, board, mine, others, me, state, held_wf, other_wf)
        value = cache[c] + rng.random() * 1e-3
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


def _placement_value(tile, info, c, board, mine, others, me, state, held_wf, other_wf):
    d_me = distance(c, mine)
    value = 0.0
    if info["category"]:
        if tile not in me["items"]:
            value += 3.0 * GAMMA ** d_me
        for i, at in others:
            if tile not in state["seats"][i]["items"]:
                value -= 1.5 * GAMMA ** distance(c, at)
        if info["category"] == "WATERFALL":
            value += 0.5 * sum(1 for n in neighbours(c) if is_water(board, n))
    elif info["kind"] == "bear":
        value += 0.2 * d_me - 2.0 * GAMMA ** d_me
        value += sum(1.0 * GAMMA ** distance(c, at) for _, at in others)
    elif info["water"]:
        value += sum(1.2 for w in held_wf if distance(w, c) == 1)
        value -= sum(0.8 for w in other_wf if distance(w, c) == 1)
        value -= 0.3 * GAMMA ** d_me
    else:
        value += 0.3 * GAMMA ** d_me
    return value
