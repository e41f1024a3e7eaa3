"""Nanga Parbat: the greedy bot against a random player over seeded games.

Run from the repository root:  .venv/bin/python -m games.nanga_parbat.bench_bot [games]
The bot takes seat `seed % 2`, so it plays first and second about equally often.
"""
from __future__ import annotations

import random
import sys
import time


from games.nanga_parbat.rules import RULES, bot  # noqa: E402


def play(seed: int, options: dict) -> tuple[int, int, int, float]:
    rng = random.Random(seed)
    state = RULES.setup(2, options, seed)
    bot_seat = seed % 2
    slowest = 0.0
    while not RULES.is_over(state):
        seat = RULES.to_act(state)[0]
        if seat == bot_seat:
            start = time.perf_counter()
            action = bot.choose(state, seat, rng)
            slowest = max(slowest, time.perf_counter() - start)
        else:
            action = rng.choice(RULES.legal_actions(state, seat))
        state = RULES.apply(state, seat, action)
    scores = [s["score"] for s in state["seats"]]
    ranks = RULES.ranking(state)
    rank = 0 if ranks[0] == ranks[1] else ranks[bot_seat]  # 0 marks a draw
    return rank, scores[bot_seat], scores[1 - bot_seat], slowest


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for options in ({"area_scoring": False}, {"area_scoring": True}):
        start = time.perf_counter()
        results = [play(seed, options) for seed in range(games)]
        elapsed = time.perf_counter() - start
        wins = sum(1 for r in results if r[0] == 1)
        draws = sum(1 for r in results if r[0] == 0)
        print(f"area_scoring={options['area_scoring']}: bot won {wins}/{games} "
              f"({100 * wins / games:.1f} %), draws {draws}; "
              f"average score bot {sum(r[1] for r in results) / games:.1f} "
              f"vs random {sum(r[2] for r in results) / games:.1f}; "
              f"slowest choose {1000 * max(r[3] for r in results):.1f} ms; "
              f"{elapsed / games * 1000:.0f} ms per game")


if __name__ == "__main__":
    main()
