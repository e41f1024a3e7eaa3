"""Rifugio bot benchmark: 200 seeded 2-player games, bot against a random player.

Run from the project root: `.venv/bin/python -m games.rifugio.bench_bot [games]`. Seats alternate
so the bot starts on either side; prints the bot's win rate (ties count half), average margin and
timing.
"""
from __future__ import annotations

import random
import sys
import time

from games.rifugio.rules import RULES, bot


def play(seed: int, bot_seat: int, players: int = 2, options: dict | None = None):
    rng = random.Random(seed)
    state = RULES.setup(players, RULES.validate_options(players, options), seed)
    slowest = 0.0
    calls = 0
    spent = 0.0
    while not RULES.is_over(state):
        seat = RULES.to_act(state)[0]
        if seat == bot_seat:
            start = time.perf_counter()
            action = bot.choose(state, seat, rng)
            took = time.perf_counter() - start
            slowest, spent, calls = max(slowest, took), spent + took, calls + 1
        else:
            action = rng.choice(RULES.legal_actions(state, seat))
        state = RULES.apply(state, seat, action)
    return state, slowest, spent / max(calls, 1)


def main(games: int = 200) -> None:
    for players, options in ((2, None), (2, {"rivers_and_rafts": False}), (4, None)):
        wins = 0.0
        margin = 0
        slowest = mean = 0.0
        started = time.perf_counter()
        for seed in range(games):
            bot_seat = seed % players
            state, slow, avg = play(seed, bot_seat, players, options)
            ranking = RULES.ranking(state)
            totals = [s["total"] for s in RULES.scores(state)]
            if ranking[bot_seat] == 1:
                wins += 1.0 / ranking.count(1)
            margin += totals[bot_seat] - max(t for i, t in enumerate(totals) if i != bot_seat)
            slowest, mean = max(slowest, slow), mean + avg / games
        label = f"{players}p {'base' if options else 'rivers&rafts'}"
        print(f"{label}: bot win rate {wins / games:.1%} over {games} games vs random; "
              f"mean margin {margin / games:+.1f}; choose() mean {mean * 1000:.1f} ms, "
              f"max {slowest * 1000:.0f} ms; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
