"""The bot: legal moves only, and clearly better than random (checklist 32)."""
from __future__ import annotations

import random

from games.roll_to_the_top.rules import RULES, bot
from games.roll_to_the_top.rules.data import BOARD_ORDER


def random_choose(state, seat, rng):
    return rng.choice(RULES.legal_actions(state, seat))


def play(players, choosers, seed, options, check=False):
    rng = random.Random(seed)
    state = RULES.setup(players, RULES.validate_options(players, options), seed)
    while not RULES.is_over(state):
        seat = rng.choice(RULES.to_act(state))
        action = choosers[seat](state, seat, rng)
        if check:
            assert action in RULES.legal_actions(state, seat)
        state = RULES.apply(state, seat, action)
    return state


def test_bot_only_returns_legal_moves_on_every_board_and_mode():
    for seed, board in enumerate(BOARD_ORDER):
        for mode in ("normal", "reverse"):
            play(3, [bot.choose] * 3, seed, {"board": board, "mode": mode, "max_turns": 40, "games": 2}, check=True)


def test_bot_finishes_solo_giza_in_fewer_turns_than_random():
    bot_turns = [RULES.scores(play(1, [bot.choose], s, {"max_turns": 60}))[0]["total"] for s in range(12)]
    random_turns = [RULES.scores(play(1, [random_choose], s, {"max_turns": 60}))[0]["total"] for s in range(12)]
    assert sum(bot_turns) / 12 < 20
    assert sum(bot_turns) * 2 < sum(random_turns)


def test_bot_beats_a_random_player_clearly():
    wins = 0
    for seed in range(16):
        bot_seat = seed % 2
        choosers = [random_choose, random_choose]
        choosers[bot_seat] = bot.choose
        state = play(2, choosers, seed, {"board": BOARD_ORDER[seed % 6], "mode": ("normal", "reverse")[seed % 2 == 0]})
        wins += RULES.ranking(state)[bot_seat] == 1 and RULES.ranking(state)[1 - bot_seat] != 1
    assert wins >= 14
