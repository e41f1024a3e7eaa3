"""HTTP move latency: POST /play/<id>/act/ through the whole stack (view, engine, lock,
rules, snapshot, panel render), on the configured database.

    DATABASE_URL=... .venv/bin/python bench/http_moves.py [moves]
"""
from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment, get_runner  # noqa: E402,F401


def main(moves: int = 300) -> None:
    from django.conf import settings
    from django.test.utils import setup_databases, teardown_databases

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        run(moves)
    finally:
        teardown_databases(old, verbosity=0)
        del settings


def run(moves: int) -> None:
    from accounts.models import User
    from games import engine
    from games.engine import SeatPlan
    from games.models import Game

    users = [User.objects.create_user(f"bench{i}", password="x") for i in range(2)]
    clients = []
    for user in users:
        client = Client()
        client.force_login(user)
        clients.append(client)
    rng = random.Random(1)
    latencies = []
    game = engine.start_game("roll-to-the-top", [SeatPlan(u) for u in users], {}, seed=1, shuffle=False)
    while len(latencies) < moves:
        game.refresh_from_db()
        if not game.is_active:
            game = engine.start_game("roll-to-the-top", [SeatPlan(u) for u in users], {}, seed=len(latencies),
                                     shuffle=False)
            continue
        seat = rng.choice(game.to_act())
        action = rng.choice(game.rules.legal_actions(game.state, seat))
        start = time.perf_counter()
        payload = {"action": json.dumps(action), "token": os.urandom(8).hex(), "version": game.version}
        response = clients[seat].post(f"/play/{game.pk}/act/", payload)
        latencies.append(time.perf_counter() - start)
        assert response.status_code == 200, response.content[:300]
    latencies.sort()
    ms = [1000 * x for x in latencies]
    print(f"{Game.objects.count()} games, {len(ms)} moves over HTTP ({django_db()}): "
          f"median {statistics.median(ms):.1f} ms, p90 {ms[int(.9 * len(ms))]:.1f} ms, max {ms[-1]:.1f} ms")


def django_db() -> str:
    from django.conf import settings

    return settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
