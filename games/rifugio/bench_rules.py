"""Rifugio rules cost as the game grows (issue 9 item 5): 5 players with Rivers & Rafts.

Run from the project root: `.venv/bin/python -m games.rifugio.bench_rules [games]`. Plays seeded
random games, then times legal_actions / apply / view / scores on the states of the first 10% and
the last 10% of the moves (CPU time, best of 5 repeats, so other load on the machine matters
little), and a whole random game.
"""
from __future__ import annotations

import random
import statistics
import sys
import time

from games.rifugio.rules import RULES


def playout(seed: int, players: int = 5) -> tuple[list[dict], list[dict]]:
    rng = random.Random(seed)
    state = RULES.setup(players, None, seed)
    states, actions = [state], []
    while not RULES.is_over(state):
        seat = RULES.to_act(state)[0]
        action = rng.choice(RULES.legal_actions(state, seat))
        actions.append(action)
        state = RULES.apply(state, seat, action)
        states.append(state)
    return states, actions


def best_time(fn, cases, repeats: int = 5) -> float:
    """Microseconds per call, best of `repeats` passes over `cases`."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for state, action in cases:
            fn(state, action)
        best = min(best, time.process_time() - start)
    return best / len(cases) * 1e6


CALLS = {
    "legal_actions": lambda state, action: RULES.legal_actions(state, state["active"]),
    "apply": lambda state, action: RULES.apply(state, state["active"], action),
    "view": lambda state, action: RULES.view(state, state["active"]),
    "scores": lambda state, action: RULES.scores(state),
}


def main(games: int = 10) -> None:
    early, late = [], []
    for seed in range(games):
        states, actions = playout(seed)
        tenth = len(actions) // 10
        early += list(zip(states[:tenth], actions[:tenth], strict=True))
        late += list(zip(states[-tenth - 1:-1], actions[-tenth:], strict=True))
    total_early = total_late = 0.0
    for name, fn in CALLS.items():
        first, last = best_time(fn, early), best_time(fn, late)
        total_early, total_late = total_early + first, total_late + last
        print(f"{name:14s} first 10% {first:7.0f} us   last 10% {last:7.0f} us   last/first {last / first:4.1f}x")
    print(f"{'all four':14s} first 10% {total_early:7.0f} us   last 10% {total_late:7.0f} us   "
          f"last/first {total_late / total_early:4.1f}x")
    whole = []
    for seed in range(games):
        start = time.process_time()
        playout(seed)
        whole.append(time.process_time() - start)
    print(f"whole 5-player random game: mean {statistics.mean(whole):.3f} s, max {max(whole):.3f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
