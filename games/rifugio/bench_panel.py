"""Rifugio's panel render against a bare request (issue 21 item 1), in one process.

Run from the project root: `.venv/bin/python -m games.rifugio.bench_panel [rounds]`. Plays the
5-player games of bench/panel_profile.py (start, 7 and 40 moves, the end) on a scratch SQLite
file, then prints per phase the median CPU time of a panel render (every seat and a spectator,
5 times) beside the median of 300 in-process GETs of bench.urls' bare authenticated view, and
the same render with Rifugio's board emptied (what the platform costs alone). Compare runs made
in the same minutes: the machine's load moves both figures.
"""
from __future__ import annotations

import statistics
import sys
import time


def _median_ms(samples: list[float]) -> float:
    return 1000 * statistics.median(samples)


def bare_request_ms(client) -> float:
    samples = []
    for _ in range(300):
        start = time.process_time()
        client.get("/bench/bare/")
        samples.append(time.process_time() - start)
    return _median_ms(samples)


def panel_ms(profile, game) -> float:
    profile.render(game, 0)
    samples = []
    for _ in range(5):
        for seat in [*range(game.seats.count()), None]:
            start = time.process_time()
            profile.render(game, seat)
            samples.append(time.process_time() - start)
    return _median_ms(samples)


def _no_board(slug: str, panel: dict) -> dict:
    return {}


def _defs_only(slug: str) -> str:
    return "games/rifugio/_defs.html"      # a template that prints no board at all


def main(rounds: int = 1) -> None:
    from bench import panel_profile as profile

    profile.setup()
    try:
        from django.test import Client
        from django.test.utils import override_settings

        from accounts.models import User
        from games import presenters

        profile.PLAYERS.clear()
        profile.PLAYERS["rifugio"] = 5
        built = list(profile.games())
        with override_settings(ROOT_URLCONF="bench.urls", ALLOWED_HOSTS=["*"]):
            client = Client()
            client.force_login(User.objects.get(username="p0"))
            for _ in range(rounds):
                bare = bare_request_ms(client)
                print(f"bare request {bare:.2f} ms CPU", flush=True)
                for _slug, moves, game in built:
                    ms = panel_ms(profile, game)
                    print(f"  rifugio after {moves:6} moves  {ms:6.2f} ms  {ms / bare:5.1f}x bare"
                          f"  ({len(profile.render(game, 0)) // 1024} kB)", flush=True)
                board_context, board_template = presenters.board_context, presenters.board_template
                presenters.board_context = _no_board
                presenters.board_template = _defs_only
                try:
                    for _slug, moves, game in built:
                        ms = panel_ms(profile, game)
                        print(f"  platform alone, {moves:6} moves  {ms:6.2f} ms  {ms / bare:5.1f}x bare", flush=True)
                finally:
                    presenters.board_context, presenters.board_template = board_context, board_template
    finally:
        profile.DB.unlink(missing_ok=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
