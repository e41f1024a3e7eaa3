"""Bytes per move per socket of the live pushes (issue 21, item 4), per game.

    .venv/bin/python bench/push_bytes.py [MOVES]     # default 40 moves per game

Plays MOVES random legal moves of each game at 5 players (2 for Nanga Parbat, its only
count) through the engine, on a scratch SQLite file with DEBUG=0, with a page open for
every seat and for the spectators (all in English), and sums per audience what each move
pushes: the full panel (what every push carried before issue 21: the render the push is cut
from) and the message sent now (the regions that changed, or the full panel when no delta
can be cut). Prints the mean per move per socket, over every audience, with the largest
audience's mean beside it.
"""
from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.summary import summarize  # noqa: E402 (the project's root is on the path only now)

DB = Path(tempfile.gettempdir()) / f"push-bytes-{os.getpid()}.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{DB}"
os.environ.pop("REDIS_URL", None)
os.environ.update(DEBUG="0", SECRET_KEY="push-bytes-" + "x" * 50, SECURE_SSL_REDIRECT="0", LIVE_PUSHES="inline")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
PLAYERS = {"alpine-trails": 5, "nanga-parbat": 2, "rift-valley-reserve": 5, "rifugio": 5, "roll-to-the-top": 5}


def play(slug: str, players: int, moves: int) -> dict:
    from asgiref.sync import async_to_sync

    from accounts.models import User
    from games import audiences, engine, notify, publisher, rules
    from games.engine import SeatPlan

    users = [User.objects.get_or_create(username=f"p{i}")[0] for i in range(players)]
    ruleset = rules.get(slug)
    game = engine.start_game(slug, [SeatPlan(user=u) for u in users], ruleset.default_options(), seed=11,
                             shuffle=False)
    groups = [notify.audience_group(game.pk, seat) for seat in [*range(players), None]]
    for group in groups:
        async_to_sync(audiences.join)(group, f"page-{group}")
    full: dict = {}
    sent: dict = {}
    real = publisher.pushed_messages

    def measured(g, renders):
        out = real(g, renders)
        for audience, html in renders.items():
            full[audience] = full.get(audience, 0) + len(html.encode())
            sent[audience] = sent.get(audience, 0) + len(out[audience].encode())
        return out

    publisher.pushed_messages = measured
    rng = random.Random(7)
    played = 0
    try:
        game = engine.submit(game.pk, users[game.to_act()[0]],
                             rng.choice(ruleset.legal_actions(game.state, game.to_act()[0]))).game  # a first push
        full.clear(), sent.clear()
        while game.is_active and played < moves:
            seat = game.to_act()[0]
            game = engine.submit(game.pk, users[seat], rng.choice(ruleset.legal_actions(game.state, seat))).game
            played += 1
    finally:
        publisher.pushed_messages = real
        for group in groups:
            async_to_sync(audiences.leave)(group, f"page-{group}")
    return {"moves": played, "full": full, "sent": sent}


def main():
    moves = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    print(f"bytes per move per socket, {moves} moves, every seat and the spectators watching (KB = 1024 bytes)")
    print(f"{'game':22} {'players':>7} {'moves':>5} {'full panel':>11} {'sent now':>9} {'ratio':>6}"
          f"   {'largest audience: full / sent':>30}")
    try:
        for slug, players in PLAYERS.items():
            result = play(slug, players, moves)
            n = max(result["moves"], 1)
            audiences = list(result["full"])
            full = sum(result["full"].values()) / n / len(audiences)
            sent = sum(result["sent"].values()) / n / len(audiences)
            top = max(audiences, key=lambda a: result["full"][a])
            top_full, top_sent = result["full"][top] / n / 1024, result["sent"][top] / n / 1024
            summarize(f"push_{slug}_full_kb", full / 1024)
            summarize(f"push_{slug}_sent_kb", sent / 1024)
            print(f"{slug:22} {players:7} {result['moves']:5} {full / 1024:9.1f} KB {sent / 1024:6.1f} KB"
                  f" {sent / full:6.2f}   {top_full:12.1f} / {top_sent:.1f} KB (seat {top[0]})", flush=True)
    finally:
        DB.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
