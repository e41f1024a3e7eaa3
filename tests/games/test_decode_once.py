"""A group message is decoded once per server process, not once per socket (issue 21, item
3): the pub/sub layer queues the same bytes for every member socket, and
config.layers.DecodeOncePubSubLayer keeps what it decoded by the identity of those bytes."""
from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.asgi import application
from config.layers import DecodeOncePubSubLayer
from games.groups import audience_group
from tests.games.test_sockets import session_headers
from tests.redis_server import own_redis  # noqa: F401  (fixture)


def counting_decodes(layer) -> list:
    """Wrap the layer's serializer so each real decode is recorded."""
    decodes: list = []
    decode = layer._serializer.deserialize

    def counted(message):
        decodes.append(message)
        return decode(message)

    layer._serializer.deserialize = counted
    return decodes


def test_the_same_bytes_are_decoded_once_and_each_reader_gets_its_own_copy():
    layer = DecodeOncePubSubLayer(hosts=["redis://127.0.0.1:1/0"])  # no connection is made
    decodes = counting_decodes(layer)
    raw = layer.serialize({"type": "game.panel", "html": "<div>board</div>"})
    first, second, third = (layer.deserialize(raw) for _ in range(3))
    assert len(decodes) == 1
    assert first == second == third == {"type": "game.panel", "html": "<div>board</div>"}
    first["seen"] = True                      # one consumer's change stays its own
    assert "seen" not in second and "seen" not in layer.deserialize(raw)


def test_equal_bytes_that_are_another_message_are_decoded_again():
    """Identity, not equality: two publications with the same content are two messages."""
    layer = DecodeOncePubSubLayer(hosts=["redis://127.0.0.1:1/0"])
    decodes = counting_decodes(layer)
    raw = layer.serialize({"type": "game.panel", "html": "x"})
    layer.deserialize(raw)
    layer.deserialize(bytes(bytearray(raw)))
    assert len(decodes) == 2


def test_only_the_recent_messages_are_kept():
    layer = DecodeOncePubSubLayer(hosts=["redis://127.0.0.1:1/0"])
    kept = [layer.serialize({"type": "game.panel", "html": str(i)}) for i in range(layer.RECENT + 10)]
    for raw in kept:
        layer.deserialize(raw)
    assert len(layer._decoded) == layer.RECENT
    decodes = counting_decodes(layer)
    layer.deserialize(kept[0])                # dropped: decoded again
    layer.deserialize(kept[-1])               # kept: not
    assert decodes == [kept[0]]


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_five_sockets_on_one_game_take_a_group_message_with_one_decode(start_game, make_user, own_redis):  # noqa: F811
    users = [await sync_to_async(make_user)(f"walker{i}") for i in range(2)]
    game = await sync_to_async(start_game)("roll-to-the-top", users)
    headers = await sync_to_async(session_headers)(users[0])
    sockets = []
    for _ in range(5):
        ws = WebsocketCommunicator(application, f"/ws/play/{game.pk}/", headers=headers)
        assert (await ws.connect(timeout=10))[0]
        sockets.append(ws)
    layer = get_channel_layer()
    assert isinstance(layer, DecodeOncePubSubLayer)
    for ws in sockets:                        # whatever a page gets on connect
        while not await ws.receive_nothing(timeout=0.3):
            await ws.receive_output()
    decodes = counting_decodes(layer)
    seat = await sync_to_async(lambda: game.seats.get(user=users[0]).index)()
    await layer.group_send(audience_group(game.pk, seat), {"type": "game.panel", "html": "<p>moved</p>"})
    received = await asyncio.gather(*(ws.receive_from(timeout=10) for ws in sockets))
    assert received == ["<p>moved</p>"] * 5
    assert len(decodes) == 1
    for ws in sockets:
        await ws.disconnect()
