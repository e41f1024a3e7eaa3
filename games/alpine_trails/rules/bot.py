"""Alpine Trails bot: greedy on its own live score (provisional lakes and goal included).

Each legal action is tried on a copy of the bot's board and scored with the module's own
score function; a loop is credited with the waterfall it earns, a fork trail side up is
charged for the animals it gifts, and a campsite for the tile it gives up.
"""
from __future__ import annotations

from . import RULES
from . import board as B
from .data import ANIMAL_OF, TILES

WATERFALL_CREDIT = 3.5        # expected points of the waterfall a closed loop earns
GIFT_COST = 1.0               # per opponent who would receive an animal from our fork
CAMPSITE_TILE_COST = 0.5      # share of the given-up tile's best placement value


def _total(board: B.Board, goal: str) -> float:
    return sum(B.score_board(board, goal).values())


def _gift_cost(state: dict, seat: int, terrain: str) -> float:
    if state["solo"]:
        return 0.0
    animal = ANIMAL_OF[terrain]
    cost = 0.0
    for i, s in enumerate(state["seats"]):
        if i == seat:
            continue
        public = s["public"]
        if animal not in public["animals"] and not any(p.get("animal") == animal for p in public["map"].values()):
            cost += GIFT_COST
    return cost


def choose(state: dict, seat: int, rng) -> dict:
    actions = RULES.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    animals = [a for a in actions if a["type"] == "animal"]
    if animals:
        return animals[0]                     # +2, costs nothing, never moves
    s = state["seats"][seat]
    goal = s["goal"]
    board = B.parse(s["map"])
    base = _total(board, goal)
    tried: dict = {}

    def value_of(cell, piece, loops=0):
        key = (cell, piece["kind"], piece.get("tile"), B.piece_exits(piece) if piece["kind"] == "trail" else None)
        if key in tried:
            return tried[key]
        board[cell] = piece
        value = _total(board, goal) - base + WATERFALL_CREDIT * loops
        del board[cell]
        tried[key] = value
        return value

    best_place: dict = {}
    scored = []
    for action in actions:
        kind = action["type"]
        if kind in ("done", "discard"):
            value = 0.0
        elif kind == "waterfall":
            value = value_of((action["x"], action["y"]), {"kind": "waterfall"})
        elif kind == "place":
            cell = (action["x"], action["y"])
            tile = TILES[action["tile"]]
            if action["side"] == "trail":
                _problem, links = B.trail_fit(B.faces(board, cell), B.EXITS[(tile["shape"], action["rotation"])])
                piece = {"kind": "trail", "tile": action["tile"], "rotation": action["rotation"]}
                value = value_of(cell, piece, max(0, links - 1))
                if tile["shape"] == "T":
                    value -= _gift_cost(state, seat, tile["terrain"])
            else:
                value = value_of(cell, {"kind": "terrain", "tile": action["tile"]})
            best_place[action["tile"]] = max(best_place.get(action["tile"], -99.0), value)
        elif kind == "trade_fork":
            terrain = TILES[action["tile"]]["terrain"]
            free = any(p["kind"] == "terrain" and not p.get("animal") and TILES[p["tile"]]["terrain"] == terrain
                       for p in board.values())
            value = 2.0 if free else 1.0
        else:                                  # campsite
            cell = (action["x"], action["y"])
            loops = max(0, sum(1 for f in B.faces(board, cell) if f == B.HARD) - 1)
            value = value_of(cell, {"kind": "campsite"}, loops)
        scored.append([value, action])
    for entry in scored:
        action = entry[1]
        if action["type"] == "campsite":
            entry[0] -= CAMPSITE_TILE_COST * max(0.0, best_place.get(action["discard"], 0.0))
        elif action["type"] == "trade_fork":
            entry[0] -= CAMPSITE_TILE_COST * max(0.0, best_place.get(action["tile"], 0.0))
    best = max(v for v, _ in scored)
    top = [a for v, a in scored if v >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)
