"""Who is on the site: a counter of open user sockets per user, in the shared cache.

The user consumer (every page opens one) counts up on connect and down on disconnect;
mail tasks, in the worker process, read it. The key expires, so a server killed with
sockets open cannot leave someone "online" forever.
"""
from __future__ import annotations

from django.core.cache import caches

TTL_SECONDS = 6 * 3600


def _cache():
    return caches["presence"]


def _key(user_id: int) -> str:
    return f"presence:user:{user_id}"


def socket_opened(user_id: int) -> None:
    cache = _cache()
    if cache.add(_key(user_id), 1, TTL_SECONDS):
        return
    try:
        cache.incr(_key(user_id))
        cache.touch(_key(user_id), TTL_SECONDS)
    except ValueError:  # expired between add and incr
        cache.set(_key(user_id), 1, TTL_SECONDS)


def socket_closed(user_id: int) -> None:
    cache = _cache()
    try:
        if cache.decr(_key(user_id)) <= 0:
            cache.delete(_key(user_id))
    except ValueError:
        pass


def is_online(user_id: int) -> bool:
    return (_cache().get(_key(user_id)) or 0) > 0
