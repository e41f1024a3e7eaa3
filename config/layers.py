"""channels-redis's core layer with a bounded pool that waits rather than fails.

The core layer takes a pooled connection per command: 500 sockets joining their groups at
once asked for 500 connections, and redis-py's asyncio pool (100 at most) refused the
rest with "Too many connections", closing those sockets. Here each event loop's pool
holds at most REDIS_POOL_MAX_SIZE connections and a command beyond that waits for one.
(The pub/sub layer, the default, publishes under a lock on one connection plus one
subscriber: it is bounded already.)
"""
from __future__ import annotations

from channels_redis.core import RedisChannelLayer
from django.conf import settings
from redis import asyncio as aioredis


class BoundedRedisChannelLayer(RedisChannelLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        address = host.pop("address")
        host.setdefault("max_connections", settings.REDIS_POOL_MAX_SIZE)
        host.setdefault("timeout", settings.CHANNEL_BLOCKING_READ * 6)
        return aioredis.BlockingConnectionPool.from_url(address, **host)
