"""Monte Carlo search over the public rules contract: the planning bots (levels 4 and 5).

It knows nothing about any game: it reads `to_act`, `legal_actions`, `apply`, `scores`,
`ranking`, `is_over` and `determinize`, and rolls games out with the game's own greedy bot
(mixed with random moves). Pure Python, no Django.

One decision: the seat's legal actions are the arms of a bandit (UCB1). Each iteration
draws a fresh determinization (what the seat cannot see, resampled from what it sees),
applies the chosen arm, rolls the game out for a bounded number of actions and scores
the result from the seat's side. When there are many actions (tile placements times
rotations) the arms are widened progressively: the greedy bot's choice first, then the
others in an rng order, a few more the more iterations have run.

Deterministic given the rng: the iteration cap decides how much is searched; the time
budget is only a ceiling (a test passes a generous budget and a small cap). There is no
way to call it without a budget: a level 4-5 move never runs unbounded.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from .base import Action, Ruleset, State

Chooser = Callable[[State, int, random.Random], Action]


@dataclass(frozen=True)
class SearchLimits:
    """How much one decision may search: `iterations` decides (deterministic), `budget`
    seconds caps it on a slow or busy machine, `horizon` actions per rollout."""

    iterations: int
    budget: float
    horizon: int
    greedy_share: float = 0.8   # rollout moves played by the greedy bot (the rest random)
    widen_base: int = 4         # arms open at the start ...
    widen_power: float = 0.5    # ... and k = base + n ** power after n iterations
    exploration: float = 0.7    # UCB1 constant on values normalised to [0, 1]
    confidence: float = 1.0     # z: how sure the search must be to overrule the greedy choice


@dataclass
class _Arm:
    action: Action
    visits: int = 0
    total: float = 0.0
    squares: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def add(self, value: float) -> None:
        self.visits += 1
        self.total += value
        self.squares += value * value

    def spread(self) -> float:
        """The variance of the mean (with a floor, so two lucky rollouts prove nothing)."""
        if self.visits < 2:
            return 1.0
        variance = max(self.squares / self.visits - self.mean ** 2, 0.0)
        return max(variance, 0.01) / self.visits


def evaluate(rules: Ruleset, state: State, seat: int) -> float:
    """The seat's outlook in [0, 1]: at the end, 1 for a win, 1/k for a k-way shared first
    place, 0 otherwise, nudged by the margin; before the end, the score margin over the
    best other seat (solo: the score itself), squashed."""
    totals = [entry["total"] for entry in rules.scores(state)]
    mine = totals[seat]
    others = [t for i, t in enumerate(totals) if i != seat]
    margin = mine - max(others) if others else mine
    squashed = 0.5 + 0.5 * math.tanh(margin / 20.0)
    if not rules.is_over(state) or not others:
        return squashed
    ranking = rules.ranking(state)
    if ranking[seat] != 1:
        return 0.1 * squashed
    shared = sum(1 for r in ranking if r == 1)
    return 0.9 / shared + 0.1 * squashed


def rollout(rules: Ruleset, state: State, seat: int, rng: random.Random, greedy: Chooser,
            limits: SearchLimits, out_of_time: Callable[[], bool] = lambda: False) -> float:
    """Play on from `state` for at most `limits.horizon` actions, every seat by the greedy
    bot or (now and then) at random, and evaluate the result for `seat` (early when the
    budget runs out: the budget is a ceiling on the whole move)."""
    for _ in range(limits.horizon):
        if rules.is_over(state) or out_of_time():
            break
        waiting = rules.to_act(state)
        mover = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
        if rng.random() < limits.greedy_share:
            action = greedy(state, mover, rng)
        else:
            action = rng.choice(rules.legal_actions(state, mover))
        state = rules.apply(state, mover, action)
    return evaluate(rules, state, seat)


def _open_arms(n: int, total: int, limits: SearchLimits) -> int:
    return min(total, limits.widen_base + int(n ** limits.widen_power))


def _pick(arms: list[_Arm], n: int, limits: SearchLimits) -> _Arm:
    for arm in arms:
        if arm.visits == 0:
            return arm
    log_n = math.log(n)
    return max(arms, key=lambda a: a.mean + limits.exploration * math.sqrt(log_n / a.visits))


def _ordered_actions(rules: Ruleset, state: State, seat: int, rng: random.Random,
                     greedy: Chooser) -> list[Action]:
    """The arms in the order they open: the greedy choice (made on a determinized state, so
    it too sees only what the seat sees), then the rest in an rng order."""
    legal = rules.legal_actions(state, seat)
    first = greedy(rules.determinize(state, seat, rng), seat, rng)
    rest = [a for a in legal if a != first]
    rng.shuffle(rest)
    return [first, *rest] if first in legal else rest


def choose(rules: Ruleset, state: State, seat: int, rng: random.Random, greedy: Chooser,
           limits: SearchLimits, clock: Callable[[], float] = time.monotonic) -> Action:
    """The greedy choice, or the arm the search found clearly better (see `_decide`)."""
    legal = rules.legal_actions(state, seat)
    if not legal:
        raise ValueError("This seat has nothing to do now.")
    if len(legal) == 1:
        return legal[0]
    deadline = clock() + limits.budget
    actions = _ordered_actions(rules, state, seat, rng, greedy)
    arms = [_Arm(a) for a in actions]
    for n in range(1, limits.iterations + 1):
        if clock() >= deadline:
            break
        arm = _pick(arms[: _open_arms(n, len(arms), limits)], n, limits)
        world = rules.determinize(state, seat, rng)
        value = rollout(rules, rules.apply(world, seat, arm.action), seat, rng, greedy, limits,
                        lambda: clock() >= deadline)
        arm.add(value)
    return _decide(arms, limits).action


def _decide(arms: list[_Arm], limits: SearchLimits) -> _Arm:
    """The greedy bot's choice unless another arm is better by more than the noise: with a
    few dozen noisy rollouts, the most visited arm is often just the luckiest, and a
    planner that drifts from greedy on luck plays worse than greedy."""
    default = arms[0]
    tried = [a for a in arms[1:] if a.visits >= 2]
    if not tried:
        return default
    best = max(tried, key=lambda a: (a.mean, a.visits))
    noise = limits.confidence * math.sqrt(best.spread() + default.spread())
    return best if best.mean - default.mean > noise else default


def describe(limits: SearchLimits) -> dict[str, Any]:
    return {"iterations": limits.iterations, "budget": limits.budget, "horizon": limits.horizon}
