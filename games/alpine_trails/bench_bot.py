"""Alpine Trails: the bot against random players, and the bot's solo scores.

Usage: .venv/bin/python -m games.alpine_trails.bench_bot [games]
Plays seeded 2-player games (bot in seat 0 or 1 alternately, the other seat random) and
reports the bot's win rate (ties count half), then the average solo score of the bot.
"""
from __future__ import annotations

import random
import statistics
import sys
import time


from games.alpine_trails.rules import RULES, bot, solo_title  # noqa: E402


def play(players: int, seed: int, bot_seats: set) -> dict:
    rng = random.Random(seed)
    state = RULES.setup(players, {}, seed)
    while not RULES.is_over(state):
        seat = rng.choice(RULES.to_act(state))
        if seat in bot_seats:
            action = bot.choose(state, seat, rng)
        else:
            action = rng.choice(RULES.legal_actions(state, seat))
        state = RULES.apply(state, seat, action)
    return state


def main(games: int = 200) -> None:
    started = time.time()
    wins = 0.0
    margins = []
    for g in range(games):
        bot_seat = g % 2
        state = play(2, 10_000 + g, {bot_seat})
        totals = [s["total"] for s in RULES.scores(state)]
        ranks = RULES.ranking(state)
        if ranks[bot_seat] == 1:
            wins += 1.0 if ranks.count(1) == 1 else 0.5
        margins.append(totals[bot_seat] - totals[1 - bot_seat])
    print(f"2 players, bot vs random: {games} games, bot win rate {wins / games:.1%}, "
          f"average margin {statistics.mean(margins):+.1f} points")
    solo_scores, random_scores = [], []
    titles: dict = {}
    for g in range(games):
        total = RULES.scores(play(1, 20_000 + g, {0}))[0]["total"]
        solo_scores.append(total)
        title = solo_title(total) or "no title"
        titles[title] = titles.get(title, 0) + 1
        random_scores.append(RULES.scores(play(1, 20_000 + g, set()))[0]["total"])
    print(f"solo: bot average {statistics.mean(solo_scores):.1f} (min {min(solo_scores)}, max {max(solo_scores)}), "
          f"random average {statistics.mean(random_scores):.1f}; titles {titles}")
    print(f"elapsed {time.time() - started:.1f}s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
