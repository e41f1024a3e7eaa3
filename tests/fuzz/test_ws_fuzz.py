"""WebSocket fuzz: hostile paths, origins and messages, as an anonymous visitor, an
outsider and a seated player. The application never fails (a crash is the server's 500
at the handshake); unknown paths are closed; sockets never write a game."""
from __future__ import annotations

from urllib.parse import quote

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from config.asgi import application
from games.models import Game, Move

from .report import count, examples
from .strategies import hostile_text

pytestmark = pytest.mark.django_db(transaction=True)
ORIGINS = [b"http://127.0.0.1:8000", b"https://evil.example", b"", b"null", b"http://localhost"]


def headers_for(user, origin: bytes) -> list[tuple[bytes, bytes]]:
    headers = [(b"origin", origin)] if origin else []
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()))
    return headers


def paths(game_id: int):
    text = hostile_text.map(lambda t: quote(t, safe=""))
    part = st.one_of(st.just(str(game_id)), st.integers(-5, 10**20).map(str), text)
    return st.one_of(
        st.builds(lambda p: f"/ws/play/{p}/", part), st.builds(lambda p: f"/ws/tables/{p}/", part),
        st.sampled_from(["/ws/lobby/", "/ws/me/", "/ws/", "/", "/ws/play/", "/admin/"]),
        st.builds(lambda p: f"/ws/{p}", text),
    )


async def one_session(path: str, headers, messages: list[str]) -> bool:
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=3)
    if connected:
        for message in messages:
            # send_input, not send_to: an empty text frame is valid WebSocket traffic.
            await communicator.send_input({"type": "websocket.receive", "text": message})
    await communicator.disconnect()
    return connected


def fuzz_sockets(role: str, user, game) -> None:
    name = f"websocket fuzz ({role})"
    before = (Game.objects.get(pk=game.pk).version, Move.objects.count())

    @examples(1)
    @given(paths(game.pk), st.sampled_from(ORIGINS), st.lists(hostile_text, max_size=3))
    def check(path, origin, messages):
        try:
            async_to_sync(one_session)(path, headers_for(user, origin), messages)
        except Exception:
            count(name, server_error=True)
            raise
        count(name)

    check()
    assert (Game.objects.get(pk=game.pk).version, Move.objects.count()) == before, "a socket changed a game"


@pytest.fixture
def game(start_game, alice, bob):
    return start_game("roll-to-the-top", [alice, bob])


def test_anonymous_sockets_never_crash_the_application(game):
    fuzz_sockets("anonymous", None, game)


def test_outsider_sockets_never_crash_the_application(game, charlie):
    fuzz_sockets("outsider", charlie, game)


def test_seated_sockets_never_crash_the_application(game, alice):
    fuzz_sockets("seated", alice, game)
