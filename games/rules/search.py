"""Monte Carlo search over the public rules contract: the planning bots (levels 4 and 5).

It knows nothing about any game: it reads `to_act`, `legal_actions`, `apply`, `scores`,
`ranking`, `is_over` and `determinize`, and rolls games out with the game's own greedy bot
playing every seat. Pure Python, no Django.

One decision: the greedy bot's choice is the default and the other legal actions challenge
it. Each "world" draws a fresh determinization (what the seat cannot see, resampled from
what it sees) and a rollout seed; every open arm is applied in that same world, rolled out
for a bounded number of actions and scored from the seat's side, so arms are compared on
the same luck (common random numbers). Challengers clearly worse than the default are
dropped and new ones open (progressive widening: the many tile placements times rotations
open best first by a one-ply look, a few more the more worlds have run). A challenger
replaces the default only when it wins by more than the noise. With nothing hidden (two
worlds drawn alike and the default's rollout the same in both) one rollout per arm tells
its value, and the best arm wins (`_choose_deterministic`).

Deterministic given the rng: the iteration cap decides how much is searched; the time
budget (CPU seconds of the searching thread, under a wall-clock ceiling: `WALL_CEILING`) is
only a ceiling (a test passes a generous budget and a small cap). There is no way to call
it without a budget: a level 4-5 move never runs unbounded.
"""
from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from .base import Action, Ruleset, State

Chooser = Callable[[State, int, random.Random], Action]
# A game's own estimate of a seat's outlook in points (its greedy bot's evaluation: own
# points against the others' plus what the position promises), read where a rollout stops
# before the end, as the gain over its value in the world's starting position (so a leaf
# reads near 0.5 after squashing, where the squash still tells a few points apart).
# Optional: a bot module offers it as `leaf_value(state, seat)`.
LeafValue = Callable[[State, int], float]


@dataclass(frozen=True)
class SearchLimits:
    """How much one decision may search: `iterations` decides (deterministic), `budget`
    seconds caps it on a slow or busy machine, `horizon` actions per rollout."""

    iterations: int
    budget: float
    horizon: int
    greedy_share: float = 1.0   # rollout moves played by the greedy bot (the rest random)
    prescreen: int = 400        # at most this many actions ordered by a one-ply look before the search
    widen_base: int = 4         # arms open at the start ...
    widen_power: float = 0.5    # ... and k = base + n ** power after n iterations
    confidence: float = 1.5     # z: how sure the search must be to overrule the greedy choice
    leaf_at_end: bool = False   # read the game's `leaf` at the end too, instead of win or loss


@dataclass
class _Arm:
    """A root action and, per world it was played in, its value there."""

    action: Action
    values: dict[int, float] = field(default_factory=dict)
    dropped: bool = False

    def against(self, base: _Arm) -> tuple[float, float, int]:
        """Mean and standard error of (this - base) over the worlds both were played in:
        the same determinization for both (common random numbers), so the luck of the draw
        cancels out of the comparison."""
        diffs = [v - base.values[w] for w, v in self.values.items() if w in base.values]
        n = len(diffs)
        if n < 2:
            return (diffs[0] if diffs else 0.0), 1.0, n
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, math.sqrt(max(variance, 1e-4) / n), n


# The budget is CPU time of the thread that searches (`time.thread_time`), so a level plays
# at the same strength on a busy machine as on an idle one: measured on the shared 2-core
# machine with wall-clock budgets, level 5 made 3-15 rollouts a move at load 12 (docs/bots.md),
# and the ladder measured the load as much as the level. A wall-clock ceiling of this many budgets
# still bounds a move on a machine so busy that the thread barely runs.
WALL_CEILING = 4.0

SOLO_SCALE = 100.0   # a solo evaluation: the score in hundreds of points, not squashed


def evaluate(rules: Ruleset, state: State, seat: int, leaf: LeafValue | None = None,
             baseline: float = 0.0, leaf_at_end: bool = False) -> float:
    """The seat's outlook: at the end, 1 for a win, 1/k for a k-way shared first place, 0
    otherwise, nudged by the margin; before the end, the score margin over the best other
    seat, or the game's own `leaf` estimate less `baseline` when it has one, squashed into
    [0, 1]. Solo, the score (or the leaf estimate) over SOLO_SCALE, unsquashed: a solo
    game is played for points, and a squashed score of 90 or 100 (tanh(4.5) against
    tanh(5)) told the search nothing (issue 25: Alpine Trails solo level 5 scored below
    greedy). With `leaf_at_end` the `leaf` is read at the end as well: where a seat's
    points barely depend on the others' moves (Alpine Trails: only fork gifts cross between
    maps), its own points tell an arm's worth with far less noise than the win or loss,
    which swings with the other seat's luck in each world; read linearly, as solo, since the
    points gained over a whole game (40-80) lie where tanh is flat and squashing them
    weighed the worlds with the smallest gains the most (Alpine Trails' level 4 and 5 each
    won 1 of 4 against greedy so)."""
    sign = rules.score_sign(state)
    over = rules.is_over(state)
    if leaf is not None and (leaf_at_end or not over):
        if len(rules.scores(state)) == 1:   # solo: on the scale of a finished game's score
            return leaf(state, seat) / SOLO_SCALE
        if leaf_at_end:   # the points gained to the end, unsquashed (see below)
            return 0.5 + (leaf(state, seat) - baseline) / SOLO_SCALE
        return 0.5 + 0.5 * math.tanh((leaf(state, seat) - baseline) / 20.0)
    totals = [sign * total for total in _totals_seen_by(rules, state, seat)]
    mine = totals[seat]
    others = [t for i, t in enumerate(totals) if i != seat]
    if not others:
        return mine / SOLO_SCALE
    margin = mine - max(others)
    squashed = 0.5 + 0.5 * math.tanh(margin / 20.0)
    if not over:
        return squashed
    ranking = rules.ranking(state)
    if ranking[seat] != 1:
        return 0.1 * squashed
    shared = sum(1 for r in ranking if r == 1)
    return 0.9 / shared + 0.1 * squashed


def _totals_seen_by(rules: Ruleset, state: State, seat: int) -> list[int]:
    """The totals as the seat sees them. During play `scores` is the public score, which
    may leave out what only the seat knows (Alpine Trails hides goals and this round's
    placements until the round resolves), so a view that carries per-seat `scores` is
    preferred: the seat's own part is live there, and a view never shows more than the
    seat may know. At the end, and for views without scores, the contract's `scores`."""
    public = rules.scores(state)
    if rules.is_over(state):
        return [entry["total"] for entry in public]
    seen = rules.view(state, seat).get("scores")
    if isinstance(seen, list) and len(seen) == len(public) and all(
            isinstance(entry, dict) and isinstance(entry.get("total"), int) for entry in seen):
        return [entry["total"] for entry in seen]
    return [entry["total"] for entry in public]


def rollout(rules: Ruleset, state: State, seat: int, rng: random.Random, greedy: Chooser,
            limits: SearchLimits, out_of_time: Callable[[], bool] = lambda: False,
            leaf: LeafValue | None = None, baseline: float = 0.0) -> float | None:
    """Play on from `state` for at most `limits.horizon` actions, every seat by the greedy
    bot or (now and then) at random, and evaluate the result for `seat`; None when the
    budget ran out first (a rollout cut short is read at another horizon than its rivals in
    the same world, so it is not compared with them)."""
    for _ in range(limits.horizon):
        if rules.is_over(state):
            break
        if out_of_time():
            return None
        waiting = rules.to_act(state)
        mover = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
        if rng.random() < limits.greedy_share:
            action = greedy(state, mover, rng)
        else:
            action = rng.choice(rules.legal_actions(state, mover))
        state = rules.apply(state, mover, action)
    return evaluate(rules, state, seat, leaf, baseline, limits.leaf_at_end)


def _ordered_actions(rules: Ruleset, state: State, seat: int, rng: random.Random,
                     greedy: Chooser, limits: SearchLimits,
                     out_of_time: Callable[[], bool] = lambda: False,
                     leaf: LeafValue | None = None) -> list[Action]:
    """The arms in the order they open: the greedy choice (made on a determinized state, so
    it too sees only what the seat sees), then the rest best first by a one-ply look (each
    applied to that same determinized state and evaluated; ties and the actions beyond
    `limits.prescreen` in an rng order). With hundreds of tile placements the search can
    try only a few dozen: in an rng order it rarely met the greedy move's real rivals."""
    legal = rules.legal_actions(state, seat)
    sampled = rules.determinize(state, seat, rng)
    first = greedy(sampled, seat, rng)
    rest = [a for a in legal if a != first]
    rng.shuffle(rest)
    looked, unlooked = rest[:limits.prescreen], rest[limits.prescreen:]
    baseline = leaf(sampled, seat) if leaf is not None else 0.0
    scored = []
    for index, action in enumerate(looked):
        if out_of_time():
            unlooked = looked[index:] + unlooked
            break
        scored.append((-evaluate(rules, rules.apply(sampled, seat, action), seat, leaf, baseline,
                                 limits.leaf_at_end),
                       index, action))
    scored.sort(key=lambda entry: (entry[0], entry[1]))
    ordered = [action for _, _, action in scored] + unlooked
    return [first, *ordered] if first in legal else ordered


def _open(arms: list[_Arm], worlds: int, limits: SearchLimits) -> list[_Arm]:
    """The greedy arm and the challengers in play: `widen_base + worlds ** widen_power` of
    them not yet dropped, in opening order (progressive widening)."""
    wanted = limits.widen_base + int(worlds ** limits.widen_power)
    challengers = [a for a in arms[1:] if not a.dropped][:wanted]
    return [arms[0], *challengers]


def _prune(arms: list[_Arm], limits: SearchLimits) -> None:
    """Drop challengers clearly worse than the greedy arm, so new ones open in their place."""
    for arm in arms[1:]:
        mean, error, n = arm.against(arms[0])
        if n >= 2 and mean < -limits.confidence * error:
            arm.dropped = True


def time_check(budget: float, clock: Callable[[], float] = time.thread_time,
               wall_clock: Callable[[], float] = time.monotonic) -> Callable[[], bool]:
    """Whether a decision started now is out of time: `budget` seconds of `clock` (the
    thread's CPU time), or WALL_CEILING budgets of the wall clock, whichever comes first."""
    deadline = clock() + budget
    wall_deadline = wall_clock() + WALL_CEILING * budget
    return lambda: clock() >= deadline or wall_clock() >= wall_deadline


def choose(rules: Ruleset, state: State, seat: int, rng: random.Random, greedy: Chooser,
           limits: SearchLimits, clock: Callable[[], float] = time.thread_time,
           leaf: LeafValue | None = None, wall_clock: Callable[[], float] = time.monotonic) -> Action:
    """The greedy choice, or a challenger the search found clearly better (see `_decide`).
    `leaf`: the game's own estimate where a rollout stops before the end (see `evaluate`).

    Each world (a determinization plus a rollout seed) is played once by every open arm,
    so arms are compared on the same draws; `limits.iterations` counts rollouts."""
    legal = rules.legal_actions(state, seat)
    if not legal:
        raise ValueError("This seat has nothing to do now.")
    if len(legal) == 1:
        return legal[0]
    out_of_time = time_check(limits.budget, clock, wall_clock)
    arms = [_Arm(a) for a in _ordered_actions(rules, state, seat, rng, greedy, limits, out_of_time, leaf)]

    def play(arm: _Arm, world: int, seed: int) -> None:
        world_rng = random.Random(seed)
        sampled = rules.determinize(state, seat, world_rng)
        baseline = leaf(sampled, seat) if leaf is not None else 0.0
        value = rollout(rules, rules.apply(sampled, seat, arm.action), seat, world_rng, greedy, limits,
                        out_of_time, leaf, baseline)
        if value is not None:
            arm.values[world] = value

    seeds = [rng.randrange(2**32), rng.randrange(2**32)]
    rollouts, world = 0, 0
    if _looks_deterministic(rules, state, seat, seeds):
        chosen = _choose_deterministic(arms, play, seeds, limits, out_of_time)
        if chosen is not None:
            return chosen.action
        rollouts = 2
    while rollouts < limits.iterations and not out_of_time():
        open_arms = _open(arms, world, limits)
        if len(open_arms) == 1:
            break    # every challenger dropped: more worlds of the greedy arm alone decide nothing
        seed = seeds[world] if world < len(seeds) else rng.randrange(2**32)
        for arm in open_arms:
            if rollouts >= limits.iterations or out_of_time():
                break
            if world in arm.values:
                continue
            play(arm, world, seed)
            rollouts += 1
        _prune(arms, limits)
        world += 1
    return _decide(arms, limits).action


def _looks_deterministic(rules: Ruleset, state: State, seat: int, seeds: list[int]) -> bool:
    """Whether two worlds drawn with different seeds are the same state (nothing the seat
    cannot see, e.g. Nanga Parbat after setup). Then the rollouts are the same in every
    world unless a bot breaks ties at random, which `_choose_deterministic` checks."""
    first = rules.determinize(state, seat, random.Random(seeds[0]))
    second = rules.determinize(state, seat, random.Random(seeds[1]))
    return json.dumps(first, sort_keys=True, default=str) == json.dumps(second, sort_keys=True, default=str)


def _choose_deterministic(arms: list[_Arm], play: Callable[[_Arm, int, int], None], seeds: list[int],
                          limits: SearchLimits, out_of_time: Callable[[], bool]) -> _Arm | None:
    """A world without hidden parts: if the greedy arm's rollout comes out the same under
    two seeds, one rollout tells an arm's value, so every arm (best first by the one-ply
    look) gets one, as many as the budget allows, and the best beats the greedy choice by
    any margin (a rollout algorithm: it plays the move whose continuation by the greedy
    bot ends best). None if the two differ: the paired search goes on from them."""
    base = arms[0]
    play(base, 0, seeds[0])
    play(base, 1, seeds[1])
    if len(base.values) < 2 or base.values[0] != base.values[1]:
        return None
    rollouts = 2
    best, best_value = base, base.values[0]
    for arm in arms[1:]:
        if rollouts >= limits.iterations or out_of_time():
            break
        play(arm, 0, seeds[0])
        rollouts += 1
        value = arm.values.get(0)
        if value is not None and value > best_value + 1e-9:
            best, best_value = arm, value
    return best


def _decide(arms: list[_Arm], limits: SearchLimits) -> _Arm:
    """The greedy bot's choice unless a challenger beats it by more than the noise (z =
    `limits.confidence` on the paired difference): with a few dozen rollouts the best-looking
    arm is often just the luckiest, and a planner that drifts from greedy on luck plays
    worse than greedy."""
    compared = [(arm, *arm.against(arms[0])) for arm in arms[1:]]
    compared = [entry for entry in compared if entry[3] >= 3]
    # The best of k challengers beats the default by luck more often than one does: the
    # bar rises with the number compared (a rough multiple-comparison correction).
    z = limits.confidence + 0.5 * math.log(max(len(compared), 1))
    best, best_margin = arms[0], 0.0
    for arm, mean, error, _ in compared:
        if mean > z * error and mean > best_margin:
            best, best_margin = arm, mean
    return best


def describe(limits: SearchLimits) -> dict[str, Any]:
    return {"iterations": limits.iterations, "budget": limits.budget, "horizon": limits.horizon}
