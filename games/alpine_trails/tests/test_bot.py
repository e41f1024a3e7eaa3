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


def _solo_game(seed: int, player, moves: int | None = None) -> dict:
    """A solo game played by `player` to the end, or for `moves` actions."""
    state, rng, played = RULES.setup(1, {}, seed), random.Random(seed), 0
    while not RULES.is_over(state) and (moves is None or played < moves):
        state = RULES.apply(state, 0, player(state, 0, rng))
        played += 1
    return state


def test_the_search_policy_pitches_the_tents_greedy_walks_past():
    """Greedy charges a campsite half the tile it gives up and seldom takes one (a tent is
    8 points); the policy levels 4-5 play by takes them: over five solo deals it pitches
    several times as many."""
    tents = {player: sum(RULES.scores(_solo_game(seed, player))[0]["breakdown"]["tents"] for seed in range(1, 6))
             for player in (bot.choose, bot.search_policy)}
    assert tents[bot.search_policy] >= 3 * max(tents[bot.choose], 8)


def test_the_search_policy_takes_a_campsite_where_greedy_places_the_tile():
    state = _solo_game(1, bot.search_policy, moves=22)
    assert bot.choose(state, 0, random.Random(0))["type"] == "place"
    assert bot.search_policy(state, 0, random.Random(0))["type"] == "campsite"


def test_the_search_policy_runs_a_trail_out_to_a_campsite_spot():
    """Where the map has no spot 6 miles out, a trail that opens one is worth +2 to the
    policy: seed 3, move 6, it places another trail than greedy, and that trail opens a
    spot greedy's does not."""
    from games.alpine_trails.rules import board as B

    def spots(state):
        board = B.parse(state["seats"][0]["map"])
        return [cell for cell in B.targeted_cells(board) if B.campsite_ok(board, cell)[0]]

    state = _solo_game(3, bot.search_policy, moves=6)
    greedy, planned = bot.choose(state, 0, random.Random(0)), bot.search_policy(state, 0, random.Random(0))
    assert greedy != planned and planned["type"] == "place" and not spots(state)
    assert spots(RULES.apply(state, 0, planned)) and not spots(RULES.apply(state, 0, greedy))


def test_level_4_plays_by_the_search_policy_levels_3_and_5_by_greedy():
    """Level 4's default move is the policy's campsite; level 5 searches from greedy's
    placement (its rollouts to the end find the campsites that pay: docs/bots.md, ninth
    round), as level 3 plays it."""
    from games import rules as registry

    state = _solo_game(1, bot.search_policy, moves=22)
    assert registry.bot_for("alpine-trails", level=4).policy is bot.search_policy
    for level, kind in ((4, "campsite"), (5, "place")):
        unsearched = registry.choose_at_level("alpine-trails", state, 0, random.Random(0), level=level,
                                              iterations=0)
        assert unsearched["type"] == kind
    assert registry.choose_at_level("alpine-trails", state, 0, random.Random(0), level=3)["type"] == "place"
