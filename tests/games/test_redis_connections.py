"""Redis connections are bounded per process (issue 18, row 5, build 5): 500 sockets
opened at once share the process's one pool (config.redis_pool) instead of opening a
connection each and keeping it after they close."""
from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.asgi import application
from tests.games.test_sockets import session_headers
from tests.redis_server import own_redis  # noqa: F401  (fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]
SLUG = "roll-to-the-top"


async def open_socket(path: str, headers) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect(timeout=120)
    assert connected, path
    return ws


@pytest.mark.asyncio
async def test_500_sockets_share_a_bounded_pool_of_redis_connections(start_game, make_user, own_redis):  # noqa: F811
    users = [await sync_to_async(make_user)(f"walker{i}") for i in range(20)]
    game = await sync_to_async(start_game)(SLUG, users[:2])
    headers = [await sync_to_async(session_headers)(user) for user in users]
    before = len(own_redis.clients())
    # Each user: 10 pages' own sockets (presence is kept in the cache) and 15 game pages.
    sockets = await asyncio.gather(*(
        open_socket(path, headers[i % 20])
        for i in range(500) for path in [("/ws/me/" if i < 200 else f"/ws/play/{game.pk}/")]))
    during = len(own_redis.clients())
    for ws in sockets:
        await ws.disconnect()
    after = len(own_redis.clients())
    print(f"Redis clients: before {before}, with 500 sockets open {during}, after they closed {after}")
    # The shared pool, the channel layer's publisher and subscriber, and the registry.
    bound = settings.REDIS_POOL_MAX_SIZE + 4
    assert during <= bound and after <= bound
