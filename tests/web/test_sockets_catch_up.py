"""A lobby or table page whose socket opens after a change still shows it (lobby.consumers):
the page sends the fingerprint it was drawn at, and a socket whose page is behind gets the
fresh fragment at once. Found by the browser test of a table card: the guest left while the
host's page was reloading after "Add a bot", and the host's card kept the guest."""
from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from lobby import services
from tests.games.test_sockets import connect

pytestmark = [pytest.mark.django_db(transaction=True)]
SLUG = "roll-to-the-top"


def socket_path_of(page_html: str, prefix: str) -> str:
    """The ws-connect address the page's script would open."""
    return re.search(rf'ws-connect="({re.escape(prefix)}[^"]*)"', page_html).group(1).replace("&amp;", "&")


def page_of(user, url: str) -> str:
    client = Client()
    client.force_login(user)
    return client.get(url).content.decode()


def open_table(host):
    return services.create_table(host, game_slug=SLUG, seats_count=4, options={}, is_private=False, pace="live",
                                 days_per_move=None)


@pytest.mark.asyncio
async def test_a_table_page_whose_guest_left_before_its_socket_opened_is_redrawn(alice, bob):
    table = await sync_to_async(open_table)(alice)
    await sync_to_async(services.join)(table.pk, bob)
    page = await sync_to_async(page_of)(alice, f"/tables/{table.pk}/")
    assert "bob" in page
    await sync_to_async(services.leave)(table.pk, bob)        # before the host's socket opens
    ws, connected = await connect(socket_path_of(page, "/ws/tables/"), alice)
    assert connected
    card = await ws.receive_from(timeout=5)
    assert 'id="table-card"' in card and "bob" not in card
    await ws.disconnect()


@pytest.mark.asyncio
async def test_a_table_page_that_is_up_to_date_gets_nothing_when_its_socket_opens(alice, bob):
    table = await sync_to_async(open_table)(alice)
    page = await sync_to_async(page_of)(alice, f"/tables/{table.pk}/")
    path = socket_path_of(page, "/ws/tables/")
    assert "?v=" in path
    ws, connected = await connect(path, alice)
    assert connected
    assert await ws.receive_nothing(timeout=0.5)
    await sync_to_async(services.join)(table.pk, bob)         # and later changes still come
    assert "bob" in await ws.receive_from(timeout=5)
    await ws.disconnect()


@pytest.mark.asyncio
async def test_the_lobby_page_catches_up_with_a_table_opened_before_its_socket(alice, bob):
    page = await sync_to_async(page_of)(bob, "/")
    await sync_to_async(open_table)(alice)
    ws, connected = await connect(socket_path_of(page, "/ws/lobby/"), bob)
    assert connected
    listing = await ws.receive_from(timeout=5)
    assert 'id="table-list"' in listing and "Roll to the Top" in listing
    await ws.disconnect()
