"""Rules playout speed: random games per second for every game and player count.

    .venv/bin/python bench/playouts.py [games-per-count]
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import rules as registry  # noqa: E402
from tests.rules.contract import random_playout  # noqa: E402


def main(count: int = 20) -> None:
    print(f"{'game':22} {'players':>7} {'ms/game':>9} {'moves/game':>10} {'µs/move':>8}")
    for ruleset in registry.all():
        for players in range(ruleset.min_players, ruleset.max_players + 1):
            times, lengths = [], []
            for seed in range(count):
                start = time.perf_counter()
                _, moves = random_playout(ruleset, players, seed)
                times.append(time.perf_counter() - start)
                lengths.append(len(moves))
            ms = 1000 * statistics.mean(times)
            per_move = 1e6 * sum(times) / max(1, sum(lengths))
            print(f"{ruleset.slug:22} {players:7} {ms:9.1f} {statistics.mean(lengths):10.0f} {per_move:8.0f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
