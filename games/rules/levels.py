"""Bot levels 1-5 for every game (issue 25), on top of each game's greedy bot.

1 "beginner" and 2 "casual": the greedy bot's move only some of the time, else a random
legal move (weaker than greedy, still heading somewhere). 3 "greedy": the game's own bot,
`games/<module>/rules/bot.py`, unchanged. 4 "planner" and 5 "strong": Monte Carlo search
(games/rules/search.py) over determinized states, with a time budget that is always set
(level 4 about 0.3 s, level 5 about 1.5 s) and an iteration cap that makes them
deterministic given the rng.

Pure Python, no Django, and below the registry (it is handed a game's rules and greedy bot,
never looks them up): `games.rules.choose_at_level(slug, state, seat, rng, level=...)` is
what the engine and the ladder call; `games.rules.bot_for(slug, level=N)` gives a `LevelBot`
with the familiar `choose(state, seat, rng)`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from .base import Action, State
from .search import Chooser, LeafValue, SearchLimits
from .search import choose as search_choose

LEVELS = (1, 2, 3, 4, 5)
GREEDY = 3
NAMES = {1: "beginner", 2: "casual", 3: "greedy", 4: "planner", 5: "strong"}  # pages: lobby.views.BOT_LEVELS
# Share of moves a weak level takes from the greedy bot (the rest are random legal moves).
GREEDY_SHARE = {1: 0.3, 2: 0.7}
# Rollout length in actions per seat: about one round of the game, so a rollout lets every
# seat answer once and the round resolve (simultaneous games score a round only then).
ACTIONS_PER_SEAT_ROUND = {"roll-to-the-top": 4, "nanga-parbat": 4, "alpine-trails": 3,
                          "rift-valley-reserve": 25, "rifugio": 8}
DEFAULT_ACTIONS_PER_SEAT_ROUND = 4
# Games whose rollouts run to the end at both levels: a score read a round or two later
# misleads the search where the greedy bot's own rules of thumb look further (measured at
# level 5, 1.5 s, against greedy): Rift Valley Reserve's Stop costs 2 points at once and pays
# when its map comes back (1 win in 8 with two-round rollouts); Nanga Parbat's greedy bot
# saves cubes for rich claims, which a margin read a round later punishes (level 4: 4 wins
# in 12 with one-round rollouts, 11 in 12 to the end); Roll to the Top's greedy bot keeps
# numbers back that would waste a box, and a search reading boxes filled two rounds on
# wrote them anyway (at 6 players level 5 filled its sheet in none of 4 games, greedy in
# all; to the end it shared or took first place in all 4); Rifugio's greedy bot walks by
# the pull of places it has not reached, which a margin after a few turns does not see (so
# without its bot's evaluation, below, Rifugio rolls out to the end).
# A two-player game is 60-170 actions and each costs a greedy move (0.1-0.7 ms here), so a
# few dozen rollouts fit in level 5's budget. Alpine Trails rolled out one or two rounds and
# read its bot's `leaf_value` while its greedy move rescored the whole board (a rollout to
# the end was 150 ms+); since the greedy move scores a trial piece by what it changes, a
# greedy game is 19 ms of CPU solo and 39 ms at two players, and with the budget in CPU time
# level 5 makes dozens of rollouts to the end a move (solo, seeds 1-4: 104 on average to the
# end, 98.8 with two-round rollouts, greedy 92.5; docs/bots.md, fifth round).
ROLLOUTS_TO_END = frozenset({"rift-valley-reserve", "nanga-parbat", "roll-to-the-top", "rifugio",
                             "alpine-trails"})
TO_THE_END = 10_000
# Games whose greedy bot offers its own evaluation (`leaf_value` in its module): rollouts stop
# after this many rounds and read it instead of playing to the end. Rifugio: a rollout to
# the end is ~170 greedy moves (55 ms on an idle core, 150-300 ms on the shared machine), so
# level 5's 1.5 s held 3-11 of them a move and never left the greedy move; the greedy bot's
# evaluation already counts the pull of the places not yet reached, which the bare score
# margin after a few turns missed (level 4 against greedy, seeds 1-12: 5 wins to the end,
# 9 with two rounds and the leaf).
LEAF_ROUNDS = {"rifugio": 2}
# Games whose rollouts read the bot's evaluation at the end too, instead of the win or loss:
# in Alpine Trails every seat builds its own map and only fork gifts cross between them, so
# the other seat's final score is noise to the comparison of two moves (its tie breaks and
# draws differ from world to world); its `leaf_value` at the end is the seat's own final
# score less the animals the others got. Level 5 with rollouts to the end read as a win or
# loss won 1 of its first 4 games against greedy (seeds 101-104, margin -5.5).
LEAF_AT_THE_END = frozenset({"alpine-trails"})
# Level 4 rounds of rollout where its 0.3 s holds too few rollouts to the end to leave the
# greedy move, read with the bot's evaluation. Alpine Trails: 7-25 rollouts to the end a move
# at two players; one-round rollouts reach level 4's cap of 48 in 0.13-0.29 s. Measured
# against greedy (docs/bots.md, fifth round): to the end 57 % of 14 games, mean margin +3.4;
# one round 58 % of 98, +1.6. The same within the noise, for less CPU: one round.
LEVEL_4_LEAF_ROUNDS: dict[str, int] = {"alpine-trails": 1}
# Level 4's rollouts a move where its 48 made it as strong as level 5 and left no step between
# them. Nanga Parbat has nothing hidden after setup, so each rollout is an exact look at how
# one move plays out against greedy play, and a handful already crushes the greedy bot:
# level 4 with 4 rollouts a move beat level 3 in 30 of 30 games (mean margin +18; with 12,
# +22), and level 5 beat it 69 % of 130 (against the full 48, 59 % of 29).
LEVEL_4_ROLLOUTS = {"nanga-parbat": 4}
# The levels that play by a bot module's `search_policy` where it offers one (their default
# move and their rollout player); the others search with the greedy bot. Alpine Trails'
# policy (a campsite plan) serves level 4 only: level 5 did better with greedy, at two
# players paired by seed (5200-5323, 98 games against greedy), greedy rollouts +2.6 ± 0.8
# points of margin over the campsite policy's, 73 % against 69 % of the games; with
# rollouts to the end its search finds the campsites that pay by itself, where level 4's
# one-round rollouts rarely leave its default move (docs/bots.md, ninth round). Roll to the
# Top's (a plan for the whole turn's writing) serves both: two sheets fed the same dice part
# only where their writing differs, and the greedy writer is what the search levels outwrite
# (docs/bots.md, twelfth round).
POLICY_LEVELS = {"alpine-trails": frozenset({4}), "roll-to-the-top": frozenset({4, 5})}


def plays_by_policy(slug: str, level: int) -> bool:
    return level in POLICY_LEVELS.get(slug, frozenset())


# Level 4 opens one challenger at first (the best by the one-ply look), not four: its 0.3 s
# holds a handful of rollouts to the end, and spread over five arms no challenger reached the
# three paired worlds a decision needs, so it played the greedy move (Rift Valley Reserve:
# 7 of 14 against greedy).
SEARCH = {
    4: SearchLimits(iterations=48, budget=0.3, horizon=1, widen_base=1),
    5: SearchLimits(iterations=240, budget=1.5, horizon=2),
}
# Level 5's confidence (z of the paired difference a challenger needs to overrule the default
# move, `search._decide`; also how far behind an arm may fall before `_prune` drops it) where
# the 1.5 of SearchLimits held it back. Alpine Trails' rollouts read the seat's own points to
# the end, and at 1.5 plus the multiple-comparison term (z 2.2-2.7 over 4-10 arms) it kept the
# greedy move where a challenger led by a point or two, each of the ~35 decisions of a game;
# at 0 (z 0.7-1.2) it takes them, and drops an arm as soon as it trails the default, which
# opens more challengers in the same budget. Measured on the same deals (docs/bots.md, tenth
# round): solo +3.6 ± 1.6 points a game over seeds 1-30 (106.5 against 103.0); against
# greedy at two players +1.0 ± 0.8 of margin over 98 games (76 % won, from 73 %). Level 4
# at 0: +0.3 ± 1.2 over 53 games, so it keeps 1.5.
LEVEL_5_CONFIDENCE = {"alpine-trails": 0.0}


def name(level: int) -> str:
    return NAMES[check_level(level)]


def check_level(level: Any) -> int:
    if isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"A bot level is one of {LEVELS}.")
    return int(level)


def limits_for(slug: str, level: int, players: int, budget: float | None = None,
               iterations: int | None = None, leaf: bool = False) -> SearchLimits:
    """The search limits of level 4 or 5 in this game: rounds of rollout turned into actions
    for this many seats; `budget` / `iterations` override the level's (the ladder measures
    a reduced budget, tests a small cap). `leaf`: the game's bot offers its own evaluation,
    which the rollouts read where they stop: a game in LEAF_ROUNDS stops after that many
    rounds rather than at the end."""
    base = SEARCH[level]
    per_round = ACTIONS_PER_SEAT_ROUND.get(slug, DEFAULT_ACTIONS_PER_SEAT_ROUND) * players
    at_end = False
    if leaf and level == 4 and slug in LEVEL_4_LEAF_ROUNDS:
        horizon = LEVEL_4_LEAF_ROUNDS[slug] * per_round
    elif leaf and slug in LEAF_ROUNDS:
        horizon = LEAF_ROUNDS[slug] * per_round
    elif slug in ROLLOUTS_TO_END:
        horizon = TO_THE_END
        at_end = leaf and slug in LEAF_AT_THE_END
    else:
        horizon = base.horizon * per_round
    rollouts = LEVEL_4_ROLLOUTS.get(slug, base.iterations) if level == 4 else base.iterations
    confidence = LEVEL_5_CONFIDENCE.get(slug, base.confidence) if level == 5 else base.confidence
    limits = replace(base, horizon=horizon, leaf_at_end=at_end, iterations=rollouts, confidence=confidence)
    if budget is not None:
        limits = replace(limits, budget=budget)
    if iterations is not None:
        limits = replace(limits, iterations=iterations)
    return limits


def choose(rules: Any, greedy: Chooser, state: State, seat: int,
           rng: random.Random, level: int = GREEDY, budget: float | None = None,
           iterations: int | None = None, leaf: LeafValue | None = None,
           policy: Chooser | None = None) -> Action:
    """The action a bot of this level takes in the game of `rules`, whose greedy bot is
    `greedy` (with its own evaluation `leaf`, if it offers one). Levels 4-5 search with the
    greedy bot as their default move and rollout player, or (`plays_by_policy`) with
    the bot's `policy` where it offers one (its `search_policy`: a greedy move with a plan
    the greedy level lacks).
    They always run under a time budget: the level's own unless `budget` (seconds) is given."""
    level = check_level(level)
    slug = rules.slug
    if level == GREEDY:
        return greedy(state, seat, rng)
    if level in GREEDY_SHARE:
        legal = rules.legal_actions(state, seat)
        if not legal:
            raise ValueError("This seat has nothing to do now.")
        if rng.random() < GREEDY_SHARE[level]:
            return greedy(state, seat, rng)
        return rng.choice(legal)
    limits = limits_for(slug, level, state_players(rules, state), budget, iterations, leaf is not None)
    player = policy if policy is not None and plays_by_policy(slug, level) else greedy
    return search_choose(rules, state, seat, rng, player, limits, leaf=leaf)


def state_players(rules: Any, state: State) -> int:
    players = state.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        return players
    return len(rules.scores(state))


@dataclass(frozen=True)
class LevelBot:
    """A bot of one level for one game, shaped like a bot module: `choose(state, seat, rng)`."""

    rules: Any
    greedy: Chooser
    level: int
    budget: float | None = None
    iterations: int | None = None
    leaf: LeafValue | None = None
    policy: Chooser | None = None

    @property
    def slug(self) -> str:
        return self.rules.slug

    @property
    def name(self) -> str:
        return NAMES[self.level]

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return choose(self.rules, self.greedy, state, seat, rng, self.level, self.budget, self.iterations,
                      self.leaf, self.policy)
