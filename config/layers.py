"""The channel layers: channels-redis's pub/sub layer decoding a group message once per
process, and its core layer with a bounded pool that waits rather than fails.

The core layer takes a pooled connection per command: 500 sockets joining their groups at
once asked for 500 connections, and redis-py's asyncio pool (100 at most) refused the
rest with "Too many connections", closing those sockets. Here each event loop's pool
holds at most REDIS_POOL_MAX_SIZE connections and a command beyond that waits for one.
(The pub/sub layer, the default, publishes under a lock on one connection plus one
subscriber: it is bounded already.)
"""
from __future__ import annotations

from collections import OrderedDict

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from redis import asyncio as aioredis


class BoundedRedisChannelLayer(RedisChannelLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        address = host.pop("address")
        host.setdefault("max_connections", settings.REDIS_POOL_MAX_SIZE)
        host.setdefault("timeout", settings.CHANNEL_BLOCKING_READ * 6)
        return aioredis.BlockingConnectionPool.from_url(address, **host)


class DecodeOncePubSubLayer(RedisPubSubChannelLayer):
    """The pub/sub layer, each group message decoded once per process.

    A group message reaches a server process once and is queued, the same bytes object, for
    every member socket; channels-redis decodes it in each socket's `receive`: with 1,000
    sockets on one game, a thousand msgpack decodes of the same panel. Decoded messages are
    kept by the identity of their bytes (the entry holds the bytes, so the identity cannot
    be reused while it is kept) for the last RECENT messages, enough for interleaved groups.
    Each socket gets its own shallow copy: a consumer adding a key changes nobody else's.
    """

    RECENT = 64

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._decoded: OrderedDict[int, tuple[bytes, dict]] = OrderedDict()

    def deserialize(self, message):
        kept = self._decoded.get(id(message))
        if kept is not None and kept[0] is message:
            return dict(kept[1])
        decoded = super().deserialize(message)
        self._decoded[id(message)] = (message, decoded)
        if len(self._decoded) > self.RECENT:
            self._decoded.popitem(last=False)
        return dict(decoded)
