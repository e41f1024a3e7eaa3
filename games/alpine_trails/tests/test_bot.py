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


def test_the_search_leaf_counts_own_score_and_animals_gifted_not_the_other_score():
    """`bot.leaf_value` (read by levels 4-5 where a rollout stops): the seat's own live
    score, plus its held animals at a discount, less 2 for each animal another seat has;
    the other seat's own points do not move it (nothing the seat does changes them)."""
    from games.alpine_trails.rules import board as B
    state = RULES.setup(2, {}, 11)
    mine = state["seats"][0]
    base = bot.leaf_value(state, 0)
    assert base == B.score_map(mine["map"], mine["goal"])["total"]
    gifted = RULES.setup(2, {}, 11)
    gifted["seats"][1]["animals"].append("bear")
    assert bot.leaf_value(gifted, 0) == base - 2
    held = RULES.setup(2, {}, 11)
    held["seats"][0]["animals"].append("bear")
    assert bot.leaf_value(held, 0) == base + bot.LATER_ANIMAL_SHARE * 2
    richer = RULES.setup(2, {}, 11)
    richer["seats"][1]["map"]["5,5"] = {"kind": "campsite"}
    assert bot.leaf_value(richer, 0) == base
