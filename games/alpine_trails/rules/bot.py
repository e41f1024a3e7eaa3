"""Alpine Trails bot: greedy on its own live score (provisional lakes and goal included).

Each legal action is tried on a copy of the bot's board and scored with the module's own
score function; a loop is credited with the waterfall it earns, a fork trail side up is
charged for the animals it gifts, and a campsite for the tile it gives up.
"""
from __future__ import annotations

from . import RULES
from . import board as B
from .data import ANIMAL_OF, GOALS, POINTS_PER_ANIMAL, TILES

WATERFALL_CREDIT = 3.5        # expected points of the waterfall a closed loop earns
GIFT_COST = 1.0               # per opponent who would receive an animal from our fork
CAMPSITE_TILE_COST = 0.5      # share of the given-up tile's best placement value
LATER_ANIMAL_SHARE = 0.5      # an animal with no tile to stand on yet: its points, discounted


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


def _goal_points_per(goal: str | None, kind: str) -> int:
    """What the goal card adds per waterfall or per animal (Waterfall Chaser, Wildlife
    Watcher), 0 for other goals: the board's score counts them only once they stand."""
    card = GOALS.get(goal) if goal else None
    if card is None:
        return 0
    if kind == "waterfall" and card["kind"] == "per_piece" and card["piece"] == "waterfall":
        return int(card["points"])
    if kind == "animal" and card["kind"] == "animals":
        return int(card["points"])
    return 0


class _Trial:
    """Scores a piece put on the bot's board (each distinct piece once), by what it changes
    (`board.PlacementScorer`: the same total as rescoring the whole board, at a fraction of
    the cost)."""

    def __init__(self, board: B.Board, goal: str) -> None:
        self.board, self.goal = board, goal
        self.scorer = B.PlacementScorer(board, goal)
        self.base = self.scorer.total
        self.tried: dict = {}
        self.faced: dict = {}
        # a closed loop earns a waterfall: its usual worth, plus what the goal pays for one
        self.loop_credit = WATERFALL_CREDIT + _goal_points_per(goal, "waterfall")

    def faces(self, cell) -> tuple:
        """`board.faces` of a cell, once per cell (every tile and rotation asks)."""
        face = self.faced.get(cell)
        if face is None:
            face = self.faced[cell] = B.faces(self.board, cell)
        return face

    def total_with(self, cell, piece: dict) -> int:
        return self.scorer.total_with(cell, piece)

    def value_of(self, cell, piece: dict, loops: int = 0) -> float:
        key = (cell, piece["kind"], piece.get("tile"), piece.get("animal"),
               B.piece_exits(piece) if piece["kind"] == "trail" else None)
        if key not in self.tried:
            self.tried[key] = self.total_with(cell, piece) - self.base + self.loop_credit * loops
        return self.tried[key]


def _place_value(state: dict, seat: int, trial: _Trial, action: dict) -> float:
    cell = (action["x"], action["y"])
    tile = TILES[action["tile"]]
    if action["side"] != "trail":
        return trial.value_of(cell, {"kind": "terrain", "tile": action["tile"]})
    _problem, links = B.trail_fit(trial.faces(cell), B.EXITS[(tile["shape"], action["rotation"])])
    piece = {"kind": "trail", "tile": action["tile"], "rotation": action["rotation"]}
    value = trial.value_of(cell, piece, max(0, links - 1))
    if tile["shape"] == "T":
        value -= _gift_cost(state, seat, tile["terrain"])
    return value


def _animal_value(trial: _Trial, animal: str) -> float:
    """A solo fork traded for an animal: what the animal adds on the best free tile of its
    terrain (its 2 points and the goal's, e.g. Wildlife Watcher's +2), or, with no such tile
    yet, those points discounted (issue 25: valued at 2 whatever the goal, the old bot never
    traded, and Wildlife Watcher games scored 0 for the goal)."""
    cells = B.animal_cells(trial.board, animal)
    if cells:
        return max(trial.value_of(c, {**trial.board[c], "animal": animal}) for c in cells)
    return LATER_ANIMAL_SHARE * (POINTS_PER_ANIMAL + _goal_points_per(trial.goal, "animal"))


def _value(state: dict, seat: int, trial: _Trial, action: dict) -> float:
    """What an action is worth to the bot before the cost of a tile it gives up."""
    kind = action["type"]
    if kind in ("done", "discard"):
        return 0.0
    if kind == "waterfall":
        return trial.value_of((action["x"], action["y"]), {"kind": "waterfall"})
    if kind == "place":
        return _place_value(state, seat, trial, action)
    if kind == "trade_fork":
        return _animal_value(trial, ANIMAL_OF[TILES[action["tile"]]["terrain"]])
    cell = (action["x"], action["y"])                      # campsite
    loops = max(0, sum(1 for f in B.faces(trial.board, cell) if f == B.HARD) - 1)
    return trial.value_of(cell, {"kind": "campsite"}, loops)


def leaf_value(state: dict, seat: int) -> float:
    """The seat's outlook in points for the search (levels 4-5, games/rules/levels.py), read
    where a rollout stops: its own live score (provisional lakes and goal), its held animals
    at this bot's discount, less the animals the other seats hold or have placed (each
    worth them 2; forks gift them). The other seats' own scores are left out: nothing the
    seat does changes them except gifts, and in a rollout their tie breaks drift apart from
    arm to arm, noise that the score margin carried into every comparison."""
    s = state["seats"][seat]
    value = B.score_map(s["map"], s["goal"])["total"] + LATER_ANIMAL_SHARE * POINTS_PER_ANIMAL * len(s["animals"])
    for i, other in enumerate(state["seats"]):
        if i != seat:
            placed = sum(1 for piece in other["map"].values() if piece.get("animal"))
            value -= POINTS_PER_ANIMAL * (placed + len(other["animals"]))
    return value


def choose(state: dict, seat: int, rng) -> dict:
    actions = RULES.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    animals = [a for a in actions if a["type"] == "animal"]
    if animals:
        return animals[0]                     # +2, costs nothing, never moves
    s = state["seats"][seat]
    trial = _Trial(B.parse(s["map"]), s["goal"])
    values = [_value(state, seat, trial, action) for action in actions]
    best_place: dict[str, float] = {}
    for value, action in zip(values, actions, strict=True):
        if action["type"] == "place":
            best_place[action["tile"]] = max(best_place.get(action["tile"], -99.0), value)
    for i, action in enumerate(actions):
        if action["type"] == "campsite":
            values[i] -= CAMPSITE_TILE_COST * max(0.0, best_place.get(action["discard"], 0.0))
        elif action["type"] == "trade_fork":
            # the fork is spent either way: the trade must beat placing that fork, and then
            # competes at the animal's own worth (a share of the placement taken off it kept
            # the old bot from ever trading)
            values[i] = min(values[i], 2 * values[i] - best_place.get(action["tile"], 0.0))
    best = max(values)
    top = [a for v, a in zip(values, actions, strict=True) if v >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)
