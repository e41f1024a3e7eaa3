"""The bot plays only legal actions and clearly beats random players (checklist 29)."""
from __future__ import annotations

import random

from games.rift_valley_reserve.rules import RULES, bot

from .helpers import fill_with_tents, fresh, holding, position, stop


def _play(players, seed, boards, check=False):
    rng = random.Random(seed)
    state = RULES.setup(players, {"boards": boards}, seed)
    while not RULES.is_over(state):
        seat = rng.choice(RULES.to_act(state))
        if seat == 0:
            action = bot.choose(state, 0, rng)
            if check:
                assert action in RULES.legal_actions(state, 0)
        else:
            action = rng.choice(RULES.legal_actions(state, seat))
        state = RULES.apply(state, seat, action)
    return state


def test_bot_only_returns_legal_actions():
    for players, boards in ((2, "asymmetrical"), (4, "identical")):
        assert RULES.is_over(_play(players, 7, boards, check=True))


def test_bot_beats_random_players_clearly():
    wins, margin = 0, 0
    games = 12
    for i in range(games):
        state = _play(2 + i % 4, 50 + i, "identical" if i % 2 else "asymmetrical")
        wins += RULES.ranking(state)[0] == 1
        totals = [e["total"] for e in RULES.scores(state)]
        margin += totals[0] - max(totals[1:])
    assert wins >= games - 1
    assert margin / games > 20


def test_bot_prefers_closing_a_trail_to_a_tent():
    def build(m):
        return fill_with_tents(stop(m, 0, (0, 3), (0, 5)), 1, keep={(0, 4)})
    state, _ = holding("ID9", 0, 0, build=build)
    assert bot.choose(state, 0, random.Random(1)) == {"type": "trail", "from": [0, 3], "to": [0, 5],
                                                      "corner": None}


def test_bot_passes_in_the_final_stage_rather_than_lose_points():
    m = stop(fresh("ID9", 1), 0, (0, 0))
    state = position([fresh("ID9", 0), m], turn=6, trigger_turn=5, final_turn=7)
    assert bot.choose(state, 0, random.Random(1)) in ({"type": "pass"},) + tuple(
        a for a in RULES.legal_actions(state, 0) if a["type"] == "tent")
