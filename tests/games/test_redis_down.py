"""The site answers moves while Redis is down (issue 18, row 2's last sentence, build 1):
rate limits fail open with a log line, the cache misses, pushes are logged and dropped;
when Redis is back, pushes resume. Redis here is a server of the test's own, killed and
restarted on the same port."""
from __future__ import annotations

import logging

import pytest
from asgiref.sync import sync_to_async

from games.models import Game
from tests.fixtures import client_for, post_action
from tests.games.test_sockets import connect
from tests.redis_server import own_redis  # noqa: F401  (fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]
SLUG = "roll-to-the-top"


def a_move(game):
    seat = game.to_act()[0]
    return seat, game.rules.legal_actions(game.state, seat)[0]


def move_over_http(game, players):
    game.refresh_from_db()
    seat, action = a_move(game)
    return post_action(client_for(players[seat]), game, action, version=game.version)


@pytest.fixture
def limits_on(settings):
    settings.RATELIMITS = {**settings.RATELIMITS, "moves": "120/m"}


@pytest.mark.asyncio
async def test_moves_are_answered_while_redis_is_down_and_pushes_resume_when_it_is_back(
        start_game, alice, bob, own_redis, limits_on, caplog):  # noqa: F811
    game = await sync_to_async(start_game)(SLUG, [alice, bob])
    before, connected = await connect(f"/ws/play/{game.pk}/", alice)  # open through the outage
    assert connected
    own_redis.kill()
    with caplog.at_level(logging.WARNING):
        response = await sync_to_async(move_over_http)(game, [alice, bob])
    assert response.status_code == 200, response.content[:500]
    assert await sync_to_async(Game.objects.filter(pk=game.pk, version=1).exists)()
    assert any("rate limit" in r.getMessage() and "fail" in r.getMessage() for r in caplog.records)

    own_redis.start()
    after, connected = await connect(f"/ws/play/{game.pk}/", bob)
    assert connected
    response = await sync_to_async(move_over_http)(game, [alice, bob])
    assert response.status_code == 200
    assert 'id="game-panel"' in await after.receive_from(timeout=10)
    assert 'id="game-panel"' in await before.receive_from(timeout=10)
    for ws in (before, after):
        await ws.disconnect()
