"""WebSocket fan-out: time from a committed move until N connected pages (2 seats and
N-2 spectators) have each received their own freshly rendered panel.

    [REDIS_URL=redis://127.0.0.1:6379/0] .venv/bin/python bench/ws_fanout.py [sockets] [moves]
"""
from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # setup code below is sync

import django  # noqa: E402

django.setup()


async def run(sockets: int, moves: int) -> None:
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.conf import settings
    from django.test import Client

    from accounts.models import User
    from config.asgi import application
    from games import engine
    from games.engine import SeatPlan

    users = [await sync_to_async(User.objects.create_user)(f"fan{i}", password="x") for i in range(2)]
    game = await sync_to_async(engine.start_game)("roll-to-the-top", [SeatPlan(u) for u in users], {}, seed=3,
                                                  shuffle=False)

    def headers_for(user):
        headers = [(b"origin", b"http://127.0.0.1:8000")]
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
        return headers

    pages = []
    for i in range(sockets):
        user = users[i] if i < 2 else None
        ws = WebsocketCommunicator(application, f"/ws/play/{game.pk}/", headers=await sync_to_async(headers_for)(user))
        connected, _ = await ws.connect()
        assert connected
        pages.append(ws)
    timings = []
    for _ in range(moves):
        await sync_to_async(game.refresh_from_db)()
        if not game.is_active:
            break
        seat = game.to_act()[0]
        action = game.rules.legal_actions(game.state, seat)[-1]
        start = time.perf_counter()
        await sync_to_async(engine.submit)(game.pk, users[seat], action)
        await asyncio.gather(*(ws.receive_from(timeout=30) for ws in pages))
        timings.append(1000 * (time.perf_counter() - start))
    for ws in pages:
        await ws.disconnect()
    layer = type(__import__("channels.layers", fromlist=["x"]).get_channel_layer()).__name__
    print(f"{sockets} sockets, {len(timings)} moves, {layer}: median {statistics.median(timings):.0f} ms, "
          f"max {max(timings):.0f} ms until every page had its panel")


def main() -> None:
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    sockets = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    moves = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        asyncio.run(run(sockets, moves))
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
