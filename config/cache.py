"""The Redis cache, answering without Redis when Redis is away.

Everything the site keeps in the cache can be done without: rate-limit counters
(django-ratelimit, with RATELIMIT_FAIL_OPEN: an unreadable counter lets the request
through), replay checkpoints (recomputed), presence (a missed "online" at worst sends a
"your turn" e-mail). So while Redis is down, a cache call that fails is logged (a line
when it starts failing, one a minute while it lasts, one when it is back) and answers as
a miss, instead of turning every move into a 500.
"""
from __future__ import annotations

import logging
import threading
import time
from functools import wraps

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
WARN_EVERY_SECONDS = 60


class _Outage:
    """When Redis started failing for this process (None: it answers)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.since: float | None = None
        self.warned = 0.0

    def failed(self, operation: str, exc: Exception) -> None:
        with self.lock:
            now = time.monotonic()
            if self.since is None:
                self.since = now
            elif now - self.warned < WARN_EVERY_SECONDS:
                return
            self.warned = now
        log.warning("cache unavailable for %s (%s): answering without it; rate limits fail open", operation, exc)

    def answered(self) -> None:
        if self.since is None:
            return
        with self.lock:
            if self.since is None:
                return
            down, self.since = time.monotonic() - self.since, None
        log.warning("cache back after %.0f s", down)


outage = _Outage()


def _or_miss(miss):
    """Wrap a cache method: a Redis error answers `miss()` (or raises it, an exception)."""
    def decorate(method):
        @wraps(method)
        def call(self, *args, **kwargs):
            try:
                result = method(self, *args, **kwargs)
            except RedisError as exc:
                outage.failed(method.__name__, exc)
                answer = miss(*args, **kwargs)
                if isinstance(answer, Exception):
                    raise answer from exc
                return answer
            outage.answered()
            return result
        return call
    return decorate


class ResilientRedisCache(RedisCache):
    add = _or_miss(lambda *a, **k: False)(RedisCache.add)
    get = _or_miss(lambda key, default=None, version=None: default)(RedisCache.get)
    set = _or_miss(lambda *a, **k: None)(RedisCache.set)
    touch = _or_miss(lambda *a, **k: False)(RedisCache.touch)
    delete = _or_miss(lambda *a, **k: False)(RedisCache.delete)
    get_many = _or_miss(lambda *a, **k: {})(RedisCache.get_many)
    has_key = _or_miss(lambda *a, **k: False)(RedisCache.has_key)
    # Django's own answer for a key it cannot count: django-ratelimit then fails open.
    incr = _or_miss(lambda key, *a, **k: ValueError(f"cache unavailable: cannot count {key!r}"))(RedisCache.incr)
    set_many = _or_miss(lambda data, *a, **k: list(data))(RedisCache.set_many)
    delete_many = _or_miss(lambda *a, **k: None)(RedisCache.delete_many)
    clear = _or_miss(lambda *a, **k: False)(RedisCache.clear)
