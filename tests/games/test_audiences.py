"""Live pages heal (issue 18, row 2): who watches an audience is a registry rebuilt by
heartbeats (games.audiences), not a cache counter that drifts; a page whose socket
(re)connects with an old board gets the current one."""
from __future__ import annotations

import asyncio
import pytest
from asgiref.sync import sync_to_async

from games import audiences, engine
from games.consumers import revision
from games.models import Game
from games.notify import spectator_group
from tests.games.test_sockets import connect, session_headers
from tests.redis_server import own_redis  # noqa: F401  (fixture)
from tests.redis_server import settle_registry

pytestmark = [pytest.mark.django_db(transaction=True)]
SLUG = "roll-to-the-top"


async def spectator(game_id: int):
    """A spectator's socket, connected with time to spare: a crowd connects at once."""
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    ws = WebsocketCommunicator(application, f"/ws/play/{game_id}/", headers=session_headers())
    connected, _ = await ws.connect(timeout=120)
    assert connected
    return ws


def a_move(game):
    seat = game.to_act()[0]
    return seat, game.rules.legal_actions(game.state, seat)[0]


def test_a_process_counts_each_socket_once_however_often_it_joins_or_leaves():
    registry = audiences.LocalAudiences()
    assert registry.add("game-1-spectators", "a") and registry.add("game-1-spectators", "b")
    registry.add("game-1-spectators", "a")
    assert registry.count("game-1-spectators") == 2
    assert not registry.remove("game-1-spectators", "a")
    assert not registry.remove("game-1-spectators", "a")  # a second disconnect changes nothing
    assert registry.remove("game-1-spectators", "b")
    assert registry.count("game-1-spectators") == 0 and not registry.remove("game-1-spectators", "b")


@pytest.mark.asyncio
@pytest.mark.redis
async def test_500_spectators_arriving_at_once_and_leaving_one_by_one_leave_the_next_one_served(start_game, alice, bob):
    game = await sync_to_async(start_game)(SLUG, [alice, bob])
    await sync_to_async(settle_registry)()
    crowd = await asyncio.gather(*(spectator(game.pk) for _ in range(500)))
    for ws in crowd:
        await ws.disconnect()
    await sync_to_async(settle_registry)()
    assert await sync_to_async(audiences.listened_to)(game.pk, [None]) == []  # exactly nobody
    late, connected = await connect(f"/ws/play/{game.pk}/")
    assert connected
    seat, action = a_move(game)
    await sync_to_async(engine.submit)(game.pk, [alice, bob][seat], action)
    assert 'id="game-panel"' in await late.receive_from(timeout=10)
    await late.disconnect()


@pytest.mark.asyncio
@pytest.mark.redis
async def test_a_flushed_redis_leaves_no_audience_dark(start_game, alice, bob, charlie, own_redis):  # noqa: F811
    game = await sync_to_async(start_game)(SLUG, [alice, bob])
    pages = {}
    for name, user in (("alice", alice), ("bob", bob), ("charlie watching", charlie)):
        pages[name], connected = await connect(f"/ws/play/{game.pk}/", user)
        assert connected
    await sync_to_async(settle_registry)()
    await sync_to_async(own_redis.client().flushall)()
    seat, action = a_move(game)
    await sync_to_async(engine.submit)(game.pk, [alice, bob][seat], action)
    for name, ws in pages.items():
        assert 'id="game-panel"' in await ws.receive_from(timeout=10), name
    # The next heartbeat rebuilds the registry: the audiences are known again.
    await sync_to_async(audiences.heartbeat_once)()
    await sync_to_async(settle_registry)()
    assert await sync_to_async(audiences.listened_to)(game.pk, [0, 1, None]) == [0, 1, None]
    for ws in pages.values():
        await ws.disconnect()


@pytest.mark.asyncio
async def test_a_page_showing_an_old_board_gets_the_current_one_when_its_socket_connects(start_game, alice, bob):
    game = await sync_to_async(start_game)(SLUG, [alice, bob])
    shown = revision(game.updated)
    seat, action = a_move(game)
    await sync_to_async(engine.submit)(game.pk, [alice, bob][seat], action)  # while the page had no socket
    fresh = await sync_to_async(Game.objects.get)(pk=game.pk)
    ws, connected = await connect(f"/ws/play/{game.pk}/?r={shown}", bob)
    assert connected
    board = await ws.receive_from(timeout=5)
    assert 'id="game-panel"' in board and 'hx-swap-oob="true"' in board
    assert f'data-revision="{revision(fresh.updated)}"' in board and "Your sheet" in board
    await ws.disconnect()


@pytest.mark.asyncio
async def test_a_page_showing_the_current_board_costs_no_render_on_connect(start_game, alice, bob, monkeypatch):
    from games import panel

    game = await sync_to_async(start_game)(SLUG, [alice, bob])
    drawn = []
    real = panel.seat_panel_context
    monkeypatch.setattr(panel, "seat_panel_context", lambda g, s, **kw: drawn.append(s) or real(g, s, **kw))
    ws, connected = await connect(f"/ws/play/{game.pk}/?r={revision(game.updated)}", alice)
    assert connected
    assert await ws.receive_nothing(timeout=0.3)
    assert drawn == []
    await ws.disconnect()


@pytest.mark.asyncio
async def test_an_audience_left_by_its_last_socket_is_not_drawn_for(start_game, alice, bob):
    game = await sync_to_async(start_game)(SLUG, [alice, bob])
    ws, connected = await connect(f"/ws/play/{game.pk}/")
    assert connected
    if audiences._redis_on():
        await sync_to_async(settle_registry)()
    assert await sync_to_async(audiences.listened_to)(game.pk, [0, 1, None]) == [None]
    await ws.disconnect()
    assert await sync_to_async(audiences.listened_to)(game.pk, [0, 1, None]) == []
    assert audiences.local.count(spectator_group(game.pk)) == 0
