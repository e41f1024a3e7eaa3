"""One Redis connection pool per server process, bounded, shared by every thread and task.

Django builds a cache backend per thread and per async context (a WebSocket consumer's
`cache.aadd` runs in its own context), and its RedisCache gives each backend its own
pool: 500 sockets opened 500 connections and kept them. `SharedPool` is the cache's
`pool_class`: whatever backend asks, it hands out the process's one pool for that URL,
a BlockingConnectionPool of at most REDIS_POOL_MAX_SIZE connections (callers beyond it
wait up to REDIS_POOL_TIMEOUT seconds). The audience registry (games.audiences) uses the
same pool through `client()`.
"""
from __future__ import annotations

import threading

import redis
from django.conf import settings

_pools: dict[str, redis.BlockingConnectionPool] = {}
_lock = threading.Lock()


def pool_options() -> dict:
    """Fail fast when Redis is away (the site answers without it): short timeouts, no retries."""
    return {
        "max_connections": settings.REDIS_POOL_MAX_SIZE,
        "timeout": settings.REDIS_POOL_TIMEOUT,
        "socket_connect_timeout": 2,
        "socket_timeout": 5,
        "socket_keepalive": True,
        "health_check_interval": 15,
    }


def shared_pool(url: str | None = None, **options) -> redis.BlockingConnectionPool:
    """The process's pool for `url` (default: settings.REDIS_URL), made on first use.
    redis-py resets a pool inherited across fork(), so each worker process has its own."""
    url = url or settings.REDIS_URL
    with _lock:
        pool = _pools.get(url)
        if pool is None:
            pool = _pools[url] = redis.BlockingConnectionPool.from_url(url, **{**pool_options(), **options})
    return pool


class SharedPool(redis.BlockingConnectionPool):
    """CACHES[...]["OPTIONS"]["pool_class"]: every cache backend gets the shared pool."""

    @classmethod
    def from_url(cls, url, **options):
        options.pop("parser_class", None)  # Django's default; the pool keeps redis-py's own
        return shared_pool(url, **options)


def client(url: str | None = None) -> redis.Redis:
    return redis.Redis(connection_pool=shared_pool(url))
