"""Bot levels 1-5 (games/rules/levels.py, issue 25), checked for every registered game."""
from __future__ import annotations

import json
import random

import pytest

from games import rules as registry
from games.rules import levels, search
from games.rules.base import Ruleset

RULESETS = registry.all()
IDS = [r.slug for r in RULESETS]
# Levels 4-5 with a small deterministic cap and a budget that never binds in a test: the
# cap, not the clock, decides, so the same rng gives the same move on any machine.
SMALL = {"iterations": 6, "budget": 60.0}


@pytest.fixture(params=RULESETS, ids=IDS)
def rules(request):
    return request.param


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True)


def positions(rules, players, seed, count=3):
    """A few mid-game states (with the seat to move) with a real choice to make."""
    rng = random.Random(seed)
    state = rules.setup(players, rules.validate_options(players, rules.default_options()), seed)
    found = []
    for step in range(400):
        if rules.is_over(state) or len(found) == count:
            break
        seat = rng.choice(rules.to_act(state))
        legal = rules.legal_actions(state, seat)
        if step % 9 == 4 and len(legal) > 1:
            found.append((state, seat))
        state = rules.apply(state, seat, rng.choice(legal))
    return found


def pick(rules, state, seat, level, seed):
    return registry.choose_at_level(rules.slug, state, seat, random.Random(seed), level=level,
                                    **(SMALL if level >= 4 else {}))


def test_bot_for_keeps_the_greedy_module_and_offers_levels(rules):
    greedy = registry.bot_for(rules.slug)
    assert callable(greedy.choose)
    assert registry.bot_for(rules.slug, level=3) is greedy
    for level in (1, 2, 4, 5):
        bot = registry.bot_for(rules.slug, level=level)
        assert bot.level == level and bot.name == levels.NAMES[level]
    with pytest.raises(ValueError):
        registry.bot_for(rules.slug, level=6)
    with pytest.raises(ValueError):
        registry.choose_at_level(rules.slug, {}, 0, random.Random(1), level=True)


@pytest.mark.parametrize("level", levels.LEVELS)
def test_every_level_plays_a_legal_move_deterministically(rules, level):
    for state, seat in positions(rules, 2 if rules.max_players >= 2 else 1, 31):
        action = pick(rules, state, seat, level, 7)
        assert action in rules.legal_actions(state, seat)
        assert pick(rules, state, seat, level, 7) == action, "the same rng gave another move"


@pytest.mark.parametrize("level", levels.LEVELS)
def test_a_bot_never_uses_what_its_seat_cannot_see(rules, level):
    """Two states that differ only in what the seat cannot see (the second redraws all of
    it: the bag, future dice, other seats' pending choices and goals) get the same move
    under the same rng, at every level."""
    for players in sorted({rules.min_players, 2} & set(range(rules.min_players, rules.max_players + 1))):
        for state, seat in positions(rules, players, 50 + players):
            twin = rules.determinize(state, seat, random.Random(1234))
            assert dumps(rules.view(twin, seat)) == dumps(rules.view(state, seat))
            assert pick(rules, state, seat, level, 3) == pick(rules, twin, seat, level, 3)


def test_levels_four_and_five_always_run_under_a_time_budget():
    for level in (4, 5):
        limits = levels.limits_for("rifugio", level, 2)
        assert 0 < limits.budget <= 2.0
        assert limits.iterations > 0
    assert levels.SEARCH[4].budget <= 0.3 < levels.SEARCH[5].budget


def test_the_search_stops_at_its_budget(rules):
    """A budget already spent stops the search before any rollout: the move is the greedy
    bot's, instantly, whatever the iteration cap."""
    ticks = iter(range(10**6))
    state, seat = positions(rules, 2 if rules.max_players >= 2 else 1, 31)[0]
    limits = levels.limits_for(rules.slug, 5, state.get("players", 2), budget=0.0)
    greedy = registry.bot_for(rules.slug).choose
    action = search.choose(rules, state, seat, random.Random(4), greedy, limits, clock=lambda: next(ticks))
    assert action in rules.legal_actions(state, seat)


def test_the_budget_is_cpu_time_under_a_wall_clock_ceiling():
    """The budget counts the searching thread's CPU time, so a busy machine does not weaken
    a level; a thread that barely runs is still stopped by the wall clock after
    WALL_CEILING budgets."""
    cpu, wall = [0.0], [0.0]
    out_of_time = search.time_check(1.5, clock=lambda: cpu[0], wall_clock=lambda: wall[0])
    wall[0] = 1.5 * search.WALL_CEILING - 0.01       # the thread got little CPU: go on
    assert not out_of_time()
    cpu[0] = 1.5                                     # its own budget of CPU: stop
    assert out_of_time()
    cpu[0], wall[0] = 0.2, 1.5 * search.WALL_CEILING  # barely ran, but the ceiling is reached
    assert out_of_time()


def test_score_sign_is_plus_or_minus_one(rules):
    for players in {rules.min_players, rules.max_players}:
        state = rules.setup(players, rules.validate_options(players, rules.default_options()), 3)
        assert rules.score_sign(state) in (1, -1)


def test_the_search_wants_fewer_turns_in_a_race_scored_in_turns():
    """Roll to the Top's solo total is the turns taken (fewer is better): the search's
    evaluation must prefer the state with fewer turns, not more."""
    rules = registry.get("roll-to-the-top")
    state = rules.setup(1, rules.validate_options(1, rules.default_options()), 5)
    assert rules.score_sign(state) == -1
    quick, slow = dict(state, turn=10), dict(state, turn=20)
    assert search.evaluate(rules, quick, 0) > search.evaluate(rules, slow, 0)


class _Invest(Ruleset):
    """A tiny solo game with nothing hidden: each of 4 turns, take the points on the table
    (1, plus 2 for each invest since the last take) or invest. Taking every turn (the
    greedy move) scores 4; invest-take twice scores 6."""

    slug = "invest-test"

    def setup(self, players, options, seed):
        return {"turn": 0, "bonus": 0, "score": 0, "players": 1}

    def to_act(self, state):
        return [] if self.is_over(state) else [0]

    def legal_actions(self, state, seat):
        return [{"type": "take"}, {"type": "invest"}]

    def apply(self, state, seat, action):
        after = dict(state, turn=state["turn"] + 1)
        if action["type"] == "take":
            after.update(score=state["score"] + 1 + state["bonus"], bonus=0)
        else:
            after["bonus"] = state["bonus"] + 2
        return after

    def view(self, state, seat):
        return {}

    def is_over(self, state):
        return state["turn"] >= 4

    def scores(self, state):
        return [{"total": state["score"]}]

    def ranking(self, state):
        return [1]


def _take_now(state, seat, rng):
    return {"type": "take"}


def test_with_nothing_hidden_the_search_plays_the_move_whose_greedy_continuation_ends_best():
    """A world with nothing hidden is searched as a rollout algorithm: one rollout per
    arm, and the best beats the greedy move by any margin (the paired z bar needs a spread
    of worlds that a game without hidden parts never gives: with 4 rollouts it kept the
    greedy move)."""
    rules = _Invest()
    limits = search.SearchLimits(iterations=4, budget=60.0, horizon=100)
    state = rules.setup(1, {}, 0)
    assert search.choose(rules, state, 0, random.Random(1), _take_now, limits) == {"type": "invest"}
    # with one turn left, investing is worth nothing: take
    last = dict(state, turn=3, bonus=2)
    assert search.choose(rules, last, 0, random.Random(1), _take_now, limits) == {"type": "take"}


def test_a_solo_evaluation_tells_scores_apart():
    """Solo, the evaluation is the score itself: squashed like a two-player margin, 90 and
    100 points both read as ~1.0 and the search could not prefer the better plan."""
    rules = _Invest()
    low, high = dict(rules.setup(1, {}, 0), score=90), dict(rules.setup(1, {}, 0), score=100)
    assert search.evaluate(rules, high, 0) - search.evaluate(rules, low, 0) >= 0.05


def test_a_rollout_cut_short_by_the_budget_is_not_compared():
    rules = _Invest()
    limits = search.SearchLimits(iterations=20, budget=60.0, horizon=100)
    state = rules.setup(1, {}, 0)
    assert search.rollout(rules, state, 0, random.Random(1), _take_now, limits, lambda: True) is None
    assert search.rollout(rules, state, 0, random.Random(1), _take_now, limits) == 4 / search.SOLO_SCALE


def test_a_leaf_value_is_read_as_the_gain_over_the_starting_position():
    """Where a game's bot offers its own evaluation, a rollout stopped before the end reads
    it less its value in the world's starting position: no gain reads 0.5, a gain more."""
    rules = registry.get("rifugio")
    state = rules.setup(2, rules.validate_options(2, rules.default_options()), 3)
    flat = search.evaluate(rules, state, 0, leaf=lambda s, seat: 30.0, baseline=30.0)
    gain = search.evaluate(rules, state, 0, leaf=lambda s, seat: 33.0, baseline=30.0)
    assert flat == pytest.approx(0.5)
    assert gain - flat > 0.05


def test_games_whose_bot_has_an_evaluation_roll_out_a_few_rounds_and_read_it():
    """Rifugio's rollouts to the end were so slow that level 5 made a handful a move: with
    the greedy bot's evaluation they stop after LEAF_ROUNDS rounds; without one they still
    run to the end."""
    bot = registry.bot_for("rifugio", level=5)
    assert bot.leaf is registry.bot_for("rifugio").leaf_value
    short = levels.limits_for("rifugio", 5, 2, leaf=True)
    assert short.horizon == levels.LEAF_ROUNDS["rifugio"] * levels.ACTIONS_PER_SEAT_ROUND["rifugio"] * 2
    assert levels.limits_for("rifugio", 5, 2).horizon == levels.TO_THE_END


def test_alpine_trails_rolls_out_to_the_end_and_reads_its_own_points_there():
    """Alpine Trails' rollouts run to the end and read the bot's evaluation there (the
    seat's own final points), not the win or loss, which the other seat's luck swings."""
    rules = registry.get("alpine-trails")
    limits = levels.limits_for(rules.slug, 5, 2, leaf=True)
    assert limits.horizon == levels.TO_THE_END and limits.leaf_at_end
    assert not levels.limits_for("rifugio", 5, 2, leaf=True).leaf_at_end
    # level 4 rolls out one round and reads the bot's evaluation there
    short = levels.limits_for(rules.slug, 4, 2, leaf=True)
    assert short.horizon == levels.ACTIONS_PER_SEAT_ROUND[rules.slug] * 2 and not short.leaf_at_end
    state = rules.setup(2, {}, 5)
    rng = random.Random(5)
    greedy = registry.bot_for(rules.slug)
    while not rules.is_over(state):
        seat = rng.choice(rules.to_act(state))
        state = rules.apply(state, seat, greedy.choose(state, seat, rng))
    own = greedy.leaf_value(state, 0)
    read = search.evaluate(rules, state, 0, greedy.leaf_value, baseline=own - 10, leaf_at_end=True)
    assert read == pytest.approx(0.5 + 10 / search.SOLO_SCALE)
    assert search.evaluate(rules, state, 0, greedy.leaf_value, baseline=own - 10) != pytest.approx(read)


def test_nanga_parbats_level_4_looks_at_a_handful_of_moves():
    """Nanga Parbat's level 4 makes LEVEL_4_ROLLOUTS rollouts a move (exact looks: nothing is
    hidden after setup), so that level 5 stays a step above it; elsewhere level 4 keeps its
    cap, and an explicit cap still overrides both."""
    assert levels.limits_for("nanga-parbat", 4, 2).iterations == levels.LEVEL_4_ROLLOUTS["nanga-parbat"]
    assert levels.limits_for("nanga-parbat", 5, 2).iterations == levels.SEARCH[5].iterations
    assert levels.limits_for("rifugio", 4, 2).iterations == levels.SEARCH[4].iterations
    assert levels.limits_for("nanga-parbat", 4, 2, iterations=2).iterations == 2


def test_alpine_trails_level_5_overrules_its_default_move_on_a_smaller_lead():
    """Alpine Trails' level 5 searches at LEVEL_5_CONFIDENCE (its rollouts read points, and
    at the default z it kept the greedy move where a challenger led by a point or two);
    level 4 and the other games keep the default."""
    at_5 = levels.limits_for("alpine-trails", 5, 2, leaf=True)
    assert at_5.confidence == levels.LEVEL_5_CONFIDENCE["alpine-trails"] < search.SearchLimits.confidence
    assert levels.limits_for("alpine-trails", 4, 2, leaf=True).confidence == search.SearchLimits.confidence
    assert levels.limits_for("rifugio", 5, 2, leaf=True).confidence == search.SearchLimits.confidence
    # a challenger ahead by 1.05 standard errors over six worlds, the default's arm first
    default = search._Arm({"type": "done"}, {w: 0.0 for w in range(6)})
    lead = [2.0, -1.0, 1.0, -1.0, 2.0, 0.5]
    challenger = search._Arm({"type": "other"}, dict(enumerate(lead)))
    mean, error, _ = challenger.against(default)
    assert 0.7 < mean / error < search.SearchLimits.confidence
    assert search._decide([default, challenger], at_5) is challenger
    assert search._decide([default, challenger], search.SearchLimits(iterations=1, budget=1.0, horizon=1)) is default


def test_the_levels_that_play_by_a_search_policy_take_its_move_as_their_default():
    """Where `POLICY_LEVELS` names a game's level, its bot module offers a `search_policy`
    and the level's default move is the policy's: Roll to the Top's levels 4 and 5 write by
    the turn's plan (three boxes with the dice greedy sums into one), Alpine Trails' level 5
    by greedy. Two rollouts a move: too few to overrule the default."""
    from games.roll_to_the_top.rules import bot as rttt_bot
    from games.roll_to_the_top.tests.helpers import parse_sheet, write_state
    from games.roll_to_the_top.tests.test_policy import BLOCKING_ROLL, BLOCKING_SHEET

    for slug, policy_levels in levels.POLICY_LEVELS.items():
        assert callable(getattr(registry.bot_for(slug), "search_policy", None)) and policy_levels <= {4, 5}
    assert levels.plays_by_policy("alpine-trails", 4) and not levels.plays_by_policy("alpine-trails", 5)
    state = write_state(sheets=[parse_sheet(BLOCKING_SHEET)], roll=BLOCKING_ROLL)
    greedy_move = rttt_bot.choose(state, 0, random.Random(0))
    assert len(greedy_move["dice"]) == 3
    for level in (4, 5):
        move = registry.choose_at_level("roll-to-the-top", state, 0, random.Random(1), level=level, iterations=2,
                                        budget=60.0)
        assert move == rttt_bot.search_policy(state, 0, random.Random(0)) != greedy_move
