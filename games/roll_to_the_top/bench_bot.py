"""Roll to the Top: Journeys — the bot against a random player.

Plays 200 seeded two-seat games (the bot alternates seats) and 200 solo games for the
bot and for a random player, and prints the bot's win rate and average solo turns.
Run: cd /work/main && .venv/bin/python -m games.roll_to_the_top.bench_bot [games]
"""
from __future__ import annotations

import random
import sys
import time


from games.roll_to_the_top.rules import RULES, bot  # noqa: E402
from games.roll_to_the_top.rules.data import BOARD_ORDER  # noqa: E402


def random_choose(state, seat, rng):
    return rng.choice(RULES.legal_actions(state, seat))


def play(players, choosers, seed, options):
    rng = random.Random(seed)
    state = RULES.setup(players, RULES.validate_options(players, options), seed)
    moves = 0
    while not RULES.is_over(state):
        seat = rng.choice(RULES.to_act(state))
        state = RULES.apply(state, seat, choosers[seat](state, seat, rng))
        moves += 1
    return state, moves


def duel(n):
    wins = sole = 0
    for seed in range(n):
        bot_seat = seed % 2
        choosers = [random_choose, random_choose]
        choosers[bot_seat] = bot.choose
        options = {"board": BOARD_ORDER[seed % 6], "mode": "reverse" if seed % 4 >= 2 else "normal"}
        state, _ = play(2, choosers, seed, options)
        ranking = RULES.ranking(state)
        if ranking[bot_seat] == 1:
            wins += 1
            if ranking[1 - bot_seat] != 1:
                sole += 1
    return wins, sole


def solo(chooser, n, board="giza", mode="normal"):
    turns = []
    for seed in range(n):
        state, _ = play(1, [chooser], seed, {"board": board, "mode": mode})
        turns.append(RULES.scores(state)[0]["total"])
    return sum(turns) / len(turns), sum(1 for t in turns if t >= 150)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    start = time.time()
    wins, sole = duel(n)
    print(f"2 seats, bot vs random, {n} games over all boards and both modes: "
          f"bot ranked first in {wins / n:.1%} ({sole / n:.1%} outright)")
    for mode in ("normal", "reverse"):
        avg, capped = solo(bot.choose, n, mode=mode)
        print(f"solo giza {mode}: bot averages {avg:.1f} turns ({capped} games hit the 150-turn cap)")
    avg, capped = solo(random_choose, min(n, 50))
    print(f"solo giza normal: random averages {avg:.1f} turns ({capped} of {min(n, 50)} games hit the cap)")
    boards = {b: solo(bot.choose, 50, board=b)[0] for b in BOARD_ORDER}
    print("solo bot average turns per board (50 games each): "
          + ", ".join(f"{b} {t:.1f}" for b, t in boards.items()))
    print(f"took {time.time() - start:.1f}s")


if __name__ == "__main__":
    main()
