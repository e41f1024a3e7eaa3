"""Bot levels 1-5 (games/rules/levels.py, issue 25), checked for every registered game."""
from __future__ import annotations

import json
import random

import pytest

from games import rules as registry
from games.rules import levels, search

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
