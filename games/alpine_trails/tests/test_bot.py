"""The Alpine Trails bot: always legal, and clearly better than random."""
from __future__ import annotations

import random

from games.alpine_trails.rules import RULES, bot


def play(players, seed, bot_seats):
    rng = random.Random(seed)
    state = RULES.setup(players, {}, seed)
    while not RULES.is_over(state):
        seat = rng.choice(RULES.to_act(state))
        if seat in bot_seats:
            action = bot.choose(state, seat, rng)
            assert action in RULES.legal_actions(state, seat)
        else:
            action = rng.choice(RULES.legal_actions(state, seat))
        state = RULES.apply(state, seat, action)
    return state


def test_bot_beats_a_random_player_clearly():
    wins = 0
    for g in range(10):
        bot_seat = g % 2
        state = play(2, 700 + g, {bot_seat})
        wins += RULES.ranking(state)[bot_seat] == 1
    assert wins >= 9


def test_bot_scores_far_more_than_random_in_solo():
    bot_total = sum(RULES.scores(play(1, 900 + g, {0}))[0]["total"] for g in range(5))
    random_total = sum(RULES.scores(play(1, 900 + g, set()))[0]["total"] for g in range(5))
    assert bot_total > 1.5 * random_total


def test_bot_places_its_waterfall_on_the_best_cell():
    from .helpers import build, trail
    state = build("BC2", [trail("T079", 0, -1, 1), trail("T080", 1, -1, 2)])
    action = bot.choose(state, 0, random.Random(1))
    assert action["type"] == "waterfall"
    points = {(a["x"], a["y"]): a for a in RULES.legal_actions(state, 0)}
    assert (action["x"], action["y"]) in points
