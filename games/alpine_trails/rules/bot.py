"""Alpine Trails bot: greedy on its own live score (provisional lakes and goal included).

Each legal action is tried on a copy of the bot's board and scored with the module's own
score function; a loop is credited with the waterfall it earns, a fork trail side up is
charged for the animals it gifts, and a campsite for the tile it gives up.

`search_policy` is the same move maker with a campsite plan, which level 4 plays by and
rolls out with (`POLICY_LEVELS` in games/rules/levels.py); levels 3 and 5 use `choose`.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import RULES
from . import board as B
from .data import ANIMAL_OF, GOALS, POINTS_PER_ANIMAL, TILES

WATERFALL_CREDIT = 3.5        # expected points of the waterfall a closed loop earns
GIFT_COST = 1.0               # per opponent who would receive an animal from our fork
CAMPSITE_TILE_COST = 0.5      # share of the given-up tile's best placement value
LATER_ANIMAL_SHARE = 0.5      # an animal with no tile to stand on yet: its points, discounted


@dataclass(frozen=True)
class Weights:
    """What a move is worth beyond the points it changes now."""

    campsite_tile_cost: float     # share of the given-up tile's best placement charged to a campsite
    campsite_bonus: float = 0.0   # added to every campsite
    ready_end: float = 0.0        # a trail that opens a campsite spot when the map has none


GREEDY = Weights(campsite_tile_cost=CAMPSITE_TILE_COST)
# Level 4's policy. Greedy takes a campsite in 2 % of the decisions where one is
# legal (tents: 3.5 points a solo game), although a tent is worth 8 and a campsite spot
# comes back every round once trails run 6 miles out: it charges the campsite half the
# tile it gives up and never steers a trail towards a spot. Without the tile cost, +3 for
# a campsite and +2 for a trail that opens a spot where the map has none, measured against
# greedy by its own points in the same seat and deal (120 deals: seeds 1-120 solo, 1001-1120
# in both seats at two players): +4.0 ± 0.6 solo, +3.3 ± 0.4 at two players (59 % of the
# games against greedy). +1 or +3 for the spot did the same within the noise; +7 lost 3
# points, campsites everywhere cutting the longest path.
PLANNING = Weights(campsite_tile_cost=0.0, campsite_bonus=3.0, ready_end=2.0)


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
    """Level 3: the best action by its points now (`GREEDY`)."""
    return _choose(state, seat, rng, GREEDY)


def search_policy(state: dict, seat: int, rng) -> dict:
    """Level 4's move (its default and its rollouts): `PLANNING`."""
    return _choose(state, seat, rng, PLANNING)


def _choose(state: dict, seat: int, rng, weights: Weights) -> dict:
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
    spots = _CampsiteSpots(trial.board) if weights.ready_end else None
    for i, action in enumerate(actions):
        if action["type"] == "campsite":
            values[i] += weights.campsite_bonus
            values[i] -= weights.campsite_tile_cost * max(0.0, best_place.get(action["discard"], 0.0))
        elif action["type"] == "trade_fork":
            # the fork is spent either way: the trade must beat placing that fork, and then
            # competes at the animal's own worth (a share of the placement taken off it kept
            # the old bot from ever trading)
            values[i] = min(values[i], 2 * values[i] - best_place.get(action["tile"], 0.0))
        elif spots is not None and spots.opened_by(action):
            values[i] += weights.ready_end
    best = max(values)
    top = [a for v, a in zip(values, actions, strict=True) if v >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)


class _CampsiteSpots:
    """Whether a trail placement opens a campsite spot (a trail end 6 miles or more from
    the base camp and every campsite) on a map that has none: the next round's tent."""

    def __init__(self, board: B.Board) -> None:
        self.board = board
        self.has_spot = any(B.campsite_ok(board, cell)[0] for cell in B.targeted_cells(board))
        self.seen: dict = {}

    def opened_by(self, action: dict) -> bool:
        if self.has_spot or action["type"] != "place" or action["side"] != "trail":
            return False
        cell = (action["x"], action["y"])
        key = (cell, action["tile"], action["rotation"])
        if key not in self.seen:
            self.seen[key] = self._opens(cell, {"kind": "trail", "tile": action["tile"],
                                                "rotation": action["rotation"]})
        return self.seen[key]

    def _opens(self, cell, piece: dict) -> bool:
        self.board[cell] = piece       # tried in place and taken back: the board is the bot's copy
        try:
            ends = [B.step(cell, d) for d in B.piece_exits(piece)]
            return any(B.campsite_ok(self.board, end)[0] for end in ends if end not in self.board)
        finally:
            del self.board[cell]
