"""The bell is live: a notification reaches the player's open pages over their own socket
(/ws/me/, the user consumer that already carries the turn badge), as out-of-band HTML."""
from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from games import engine
from tests.games.test_sockets import connect

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.mark.asyncio
async def test_the_bell_updates_over_the_players_own_socket(start_game, alice, bob):
    game = await sync_to_async(start_game)("nanga-parbat", [alice, bob])
    socket, connected = await connect("/ws/me/", bob)
    assert connected
    await sync_to_async(engine.resign)(game.pk, alice)

    async def next_bell() -> str:
        while True:  # the turn badge comes on the same socket
            html = await socket.receive_from(timeout=5)
            if 'id="notification-bell"' in html:
                return html

    bell = await asyncio.wait_for(next_bell(), timeout=10)
    assert 'data-unread="1"' in bell and 'hx-swap-oob="true"' in bell
    await socket.disconnect()
