"""Alpine Trails greedy move: the incremental score (board.PlacementScorer) against the full
rescore it replaced, on the same positions, one after the other, in CPU time (the shared
machine's load counts less than in wall time). Asserts the same move at every position.

    nice -n 19 .venv/bin/python bench/alpine_greedy.py [seeds-per-player-count]
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.alpine_trails.rules import RULES, bot  # noqa: E402
from games.alpine_trails.tests.test_placement_score import RescoringTrial  # noqa: E402


def timed(choose_with, state: dict, seat: int, rng: random.Random) -> tuple[dict, float]:
    start = time.process_time()
    action = choose_with(state, seat, rng)
    return action, time.process_time() - start


def with_full_rescore(state: dict, seat: int, rng: random.Random) -> dict:
    incremental = bot._Trial
    bot._Trial = RescoringTrial
    try:
        return bot.choose(state, seat, rng)
    finally:
        bot._Trial = incremental


def main(seeds: int = 10) -> None:
    times: dict[str, list[float]] = {"full rescore": [], "incremental": []}
    for players in (1, 2):
        for seed in range(seeds):
            rng = random.Random(seed)
            state = RULES.setup(players, {}, seed)
            while not RULES.is_over(state):
                seat = rng.choice(RULES.to_act(state))
                reference_rng = random.Random()
                reference_rng.setstate(rng.getstate())
                reference, spent = timed(with_full_rescore, state, seat, reference_rng)
                times["full rescore"].append(spent)
                action, spent = timed(bot.choose, state, seat, rng)
                times["incremental"].append(spent)
                assert action == reference, (players, seed, seat)
                state = RULES.apply(state, seat, action)
    for name, spent in times.items():
        spent.sort()
        print(f"{name:13} moves {len(spent)}  mean {1000 * statistics.mean(spent):.2f} ms  "
              f"p95 {1000 * spent[int(0.95 * len(spent))]:.2f} ms  total {sum(spent):.2f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
