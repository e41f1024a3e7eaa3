"""Rift Valley Reserve: the bot against random players, 200 seeded games.

Run: .venv/bin/python -m games.rift_valley_reserve.bench_bot [games]
Seat 0 is the bot (in half the games the bot sits at the last seat instead); the others
pick uniformly among their legal actions. Prints the bot's win rate (a shared first
place counts as half), its average score against the random seats', and the time per
bot decision.
"""
from __future__ import annotations

import random
import sys
import time


from games.rift_valley_reserve.rules import RULES, bot  # noqa: E402


def play(players: int, seed: int, boards: str, bot_seat: int, timing: list) -> tuple[float, int, float]:
    rng = random.Random(seed)
    state = RULES.setup(players, {"boards": boards}, seed)
    while not RULES.is_over(state):
        seat = rng.choice(RULES.to_act(state))
        if seat == bot_seat:
            start = time.perf_counter()
            action = bot.choose(state, seat, rng)
            timing.append(time.perf_counter() - start)
        else:
            action = rng.choice(RULES.legal_actions(state, seat))
        state = RULES.apply(state, seat, action)
    ranks = RULES.ranking(state)
    totals = [e["total"] for e in RULES.scores(state)]
    win = 0.0
    if ranks[bot_seat] == 1:
        win = 1.0 / ranks.count(1)
    others = [t for s, t in enumerate(totals) if s != bot_seat]
    return win, totals[bot_seat], sum(others) / len(others)


def main(games: int = 200) -> None:
    timing: list[float] = []
    wins = bot_total = rand_total = 0.0
    by_count: dict[int, list[float]] = {}
    for i in range(games):
        players = 2 + i % 4
        boards = "identical" if i % 2 == 0 else "asymmetrical"
        bot_seat = 0 if (i // 4) % 2 == 0 else players - 1
        win, mine, theirs = play(players, 1000 + i, boards, bot_seat, timing)
        wins += win
        bot_total += mine
        rand_total += theirs
        by_count.setdefault(players, []).append(win)
    print(f"games: {games} (2-5 players, both board sets, bot vs random)")
    print(f"bot win rate: {wins / games:.1%}")
    for players, results in sorted(by_count.items()):
        print(f"  {players} players: {sum(results) / len(results):.1%} of {len(results)}")
    print(f"average score: bot {bot_total / games:.1f}, random seat {rand_total / games:.1f}")
    timing.sort()
    print(f"bot decision: mean {1000 * sum(timing) / len(timing):.1f} ms, "
          f"95th percentile {1000 * timing[int(0.95 * len(timing))]:.1f} ms, max {1000 * timing[-1]:.1f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
