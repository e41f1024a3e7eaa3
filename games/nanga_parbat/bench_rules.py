"""Nanga Parbat rules cost as the game grows (issue 9 item 5): a full 2-player game.

Run from the project root: `.venv/bin/python -m games.nanga_parbat.bench_rules [games]`. Plays
seeded random games (area scoring on), then times apply / legal_actions / view / scores on the
states of the first and the last 8 moves (CPU time, best of 5 repeats of 10 calls, so other load
on the machine matters little), and a whole random game.
"""
from __future__ import annotations

import random
import sys
import time

from games.nanga_parbat.rules import RULES

EDGE = 8            # moves timed at each end of the game
CALLS, REPEATS = 10, 5


def playout(seed: int) -> list[tuple[dict, int, dict]]:
    rng = random.Random(seed)
    state = RULES.setup(2, {"area_scoring": True}, seed)
    steps = []
    while not RULES.is_over(state):
        seat = RULES.to_act(state)[0]
        action = rng.choice(RULES.legal_actions(state, seat))
        steps.append((state, seat, action))
        state = RULES.apply(state, seat, action)
    return steps


def cost(fn, *args) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        for _ in range(CALLS):
            fn(*args)
        best = min(best, (time.process_time() - start) / CALLS)
    return best


def main(games: int = 20) -> None:
    calls = {"apply": lambda st, seat, a: RULES.apply(st, seat, a),
             "legal_actions": lambda st, seat, a: RULES.legal_actions(st, seat),
             "view": lambda st, seat, a: RULES.view(st, seat),
             "scores": lambda st, seat, a: RULES.scores(st)}
    totals = {name: [0.0, 0.0] for name in calls}
    whole = []
    for seed in range(games):
        start = time.process_time()
        steps = playout(seed)
        whole.append(time.process_time() - start)
        for end, part in enumerate((steps[:EDGE], steps[-EDGE:])):
            for step in part:
                for name, fn in calls.items():
                    totals[name][end] += cost(fn, *step)
    n = games * EDGE
    for name, (first, last) in totals.items():
        print(f"{name:14s} first {first / n * 1e6:8.1f} us   last {last / n * 1e6:8.1f} us"
              f"   last/first {last / first:5.2f}")
    print(f"whole random game: mean {sum(whole) / games * 1000:.1f} ms, max {max(whole) * 1000:.1f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
