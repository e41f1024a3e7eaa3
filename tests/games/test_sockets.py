"""WebSockets: origins, authentication, and each seat getting only its own view."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from games import engine

pytestmark = [pytest.mark.django_db(transaction=True)]
SLUG = "roll-to-the-top"
ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def session_headers(user=None, origin=ORIGIN):
    headers = [origin]
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    return headers


async def connect(path, user=None, origin=ORIGIN):
    headers = await sync_to_async(session_headers)(user, origin)
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    return communicator, connected


@pytest.fixture
def game(start_game, alice, bob):
    return start_game(SLUG, [alice, bob])


@pytest.mark.asyncio
async def test_a_foreign_origin_is_refused(game, alice):
    communicator, connected = await connect(f"/ws/play/{game.pk}/", alice, origin=(b"origin", b"https://evil.example"))
    assert not connected


@pytest.mark.asyncio
async def test_anonymous_users_get_no_user_channel():
    communicator, connected = await connect("/ws/me/")
    assert not connected


@pytest.mark.asyncio
async def test_an_unknown_game_is_refused(alice):
    communicator, connected = await connect("/ws/play/999999/", alice)
    assert not connected


@pytest.mark.asyncio
async def test_each_seat_receives_its_own_panel_and_never_another_seats_pending(game, alice, bob):
    alice_ws, ok_a = await connect(f"/ws/play/{game.pk}/", alice)
    bob_ws, ok_b = await connect(f"/ws/play/{game.pk}/", bob)
    spectator_ws, ok_s = await connect(f"/ws/play/{game.pk}/")
    assert ok_a and ok_b and ok_s
    place = next(a for a in game.rules.legal_actions(game.state, 0) if a["type"] == "place")
    await sync_to_async(engine.submit)(game.pk, alice, place)
    alice_html = await alice_ws.receive_from(timeout=5)
    bob_html = await bob_ws.receive_from(timeout=5)
    spectator_html = await spectator_ws.receive_from(timeout=5)
    assert 'id="game-panel"' in bob_html and 'hx-swap-oob="true"' in bob_html
    # Alice sees her pending number; Bob and spectators see neither it nor its dice.
    assert "pending-num" in alice_html
    assert "pending-num" not in bob_html and "pending-num" not in spectator_html
    assert "Your sheet" in bob_html and "Your sheet" not in spectator_html
    for ws in (alice_ws, bob_ws, spectator_ws):
        await ws.disconnect()


@pytest.mark.asyncio
async def test_the_lobby_hears_about_a_new_table(alice):
    from lobby import services

    lobby_ws, connected = await connect("/ws/lobby/")
    assert connected
    await sync_to_async(services.create_table)(alice, game_slug=SLUG, seats_count=3, options={}, is_private=False,
                                               pace="live", days_per_move=None)
    html = await lobby_ws.receive_from(timeout=5)
    assert 'id="table-list"' in html and "Roll to the Top" in html
    await lobby_ws.disconnect()


@pytest.mark.asyncio
async def test_the_turn_badge_updates_live(game, alice):
    me_ws, connected = await connect("/ws/me/", alice)
    assert connected
    await sync_to_async(engine.submit)(game.pk, alice, {"type": "done"})
    html = await me_ws.receive_from(timeout=5)
    assert 'id="turn-badge"' in html
    await me_ws.disconnect()


@pytest.mark.asyncio
@pytest.mark.redis
async def test_updates_cross_processes_through_redis(game, alice):
    """With REDIS_URL the channel layer is Redis, so any worker's move reaches every socket."""
    from channels.layers import get_channel_layer
    from channels_redis.core import RedisChannelLayer
    from channels_redis.pubsub import RedisPubSubChannelLayer

    assert isinstance(get_channel_layer(), (RedisChannelLayer, RedisPubSubChannelLayer))
    alice_ws, connected = await connect(f"/ws/play/{game.pk}/", alice)
    assert connected
    await sync_to_async(engine.submit)(game.pk, alice, {"type": "done"})
    assert 'id="game-panel"' in await alice_ws.receive_from(timeout=5)
    await alice_ws.disconnect()


def test_the_redis_client_outwaits_the_layers_blocking_read():
    """redis-py closes a connection whose read outlasts its socket timeout; the layer's
    idle read blocks for brpop_timeout, so the timeout must be longer than that read."""
    from channels_redis.core import RedisChannelLayer

    if settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer"):
        pytest.skip("the in-memory layer has no socket")
    host = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]
    assert host["socket_timeout"] > RedisChannelLayer.brpop_timeout
    assert host["health_check_interval"] > 0


@pytest.mark.asyncio
@pytest.mark.redis
async def test_an_idle_game_socket_on_redis_still_hears_the_next_move(game, alice, bob):
    """A player who thinks for longer than the layer's blocking read keeps the live board."""
    import asyncio

    bob_ws, connected = await connect(f"/ws/play/{game.pk}/", bob)
    assert connected
    await asyncio.sleep(12)
    await sync_to_async(engine.submit)(game.pk, alice, {"type": "done"})
    assert 'id="game-panel"' in await bob_ws.receive_from(timeout=10)
    await bob_ws.disconnect()


@pytest.mark.asyncio
async def test_ready_html_is_forwarded_without_channels_database_hop(game, alice, monkeypatch):
    """Issue 21: a panel, badge or chat line is ready HTML, so the consumer forwards it
    without channels' per-message close_old_connections (a thread hop per socket)."""
    import channels.consumer
    from channels.layers import get_channel_layer

    from games.notify import audience_group

    hops = []

    async def counted():
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    ws, ok = await connect(f"/ws/play/{game.pk}/", alice)
    assert ok
    connect_hops = len(hops)
    assert connect_hops >= 1, "connect still goes through channels' own path"
    await get_channel_layer().group_send(audience_group(game.pk, 0), {"type": "game.panel", "html": "<p>board</p>"})
    assert await ws.receive_from() == "<p>board</p>"
    assert len(hops) == connect_hops
    await ws.disconnect()
