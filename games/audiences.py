"""Which audiences of a game have a page open: a registry rebuilt, never trusted blindly.

The notifier renders a game's panel only for audiences someone watches (games.notify).
Counting sockets +1/-1 in the cache drifted: the cache's increments were not atomic, a
dead worker's counts stayed, and a Redis restart or flush left every audience "unwatched"
and dark for good. Instead:

- Each server process knows its own sockets exactly: `join`/`leave` keep, per audience
  group, the set of its channel names (one event loop, sets, so no drift).
- It publishes the groups it has sockets for in Redis: one sorted set per group, members
  are process ids scored by an expiry time. Publishing happens when a group gains its
  first or loses its last local socket, and a heartbeat thread re-publishes everything
  every HEARTBEAT_SECONDS. A process that dies stops counting after TTL_SECONDS.
- Readers (`listened_to`, in any process) read all of a game's groups in one pipeline.
  The registry's birth time is kept in Redis too (`since`); after a restart or a flush
  it is missing or young, and until every process has had a heartbeat to re-publish,
  readers treat every audience as watched: a few renders nobody needs, never a dark page.

Without REDIS_URL the site is one process with the in-memory layer, and the local sets
are the answer.

Listeners are counted per (audience, language) (issue 23): a socket registers under its
group's name for the site's default language and under "group@nl" for Dutch, so the
publisher renders each audience once per language somebody reads it in. The channel-layer
group stays one per audience (chat and the rest send there as before); a panel message
carries one render per listened language and each socket forwards its own.
"""
from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings

from .groups import audience_group

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 10.0
TTL_SECONDS = 3 * HEARTBEAT_SECONDS  # a process missing three heartbeats is gone
SETTLE_SECONDS = HEARTBEAT_SECONDS + 2  # after a (re)birth, every process has re-published


class LocalAudiences:
    """This process's sockets per group, and which groups Redis was last told about."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # the event loop writes, the heartbeat thread reads
        self.channels: dict[str, set[str]] = {}
        self.published: set[str] = set()
        self.process_id = new_process_id()

    def add(self, group: str, channel: str) -> bool:
        """Add a socket; True when Redis may not know the group is watched yet."""
        with self.lock:
            self.channels.setdefault(group, set()).add(channel)
            return group not in self.published

    def remove(self, group: str, channel: str) -> bool:
        """Remove a socket; True when that left the group without any."""
        with self.lock:
            members = self.channels.get(group)
            if members is None:
                return False
            members.discard(channel)
            if members:
                return False
            del self.channels[group]
            return True

    def is_published(self, group: str) -> bool:
        with self.lock:
            return group in self.published

    def set_published(self, groups: list[str], published: bool) -> None:
        with self.lock:
            (self.published.update if published else self.published.difference_update)(groups)

    def count(self, group: str) -> int:
        with self.lock:
            return len(self.channels.get(group, ()))

    def groups(self) -> list[str]:
        with self.lock:
            return list(self.channels)


def new_process_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


local = LocalAudiences()
# Registry writes run one at a time, in order, off the event loop (the Redis client is
# the process's shared, bounded pool: config.redis_pool).
_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="audiences")
_heartbeat: threading.Thread | None = None
_heartbeat_lock = threading.Lock()


def _redis_on() -> bool:
    return bool(getattr(settings, "REDIS_URL", ""))


def _client():
    from config.redis_pool import client

    return client()


def _prefix() -> str:
    return f"{settings.CHANNEL_PREFIX or 'switchback'}:audiences"   # keys of the URL's own database


def _key(group: str) -> str:
    return f"{_prefix()}:{group}"


def _since_key() -> str:
    return f"{_prefix()}:since"


# --- sockets (async, in the server process) ---------------------------------------------

def languages() -> list[str]:
    """Every language a page may be read in, the site's default first."""
    default = settings.LANGUAGE_CODE
    return [default, *(code for code, _name in settings.LANGUAGES if code != default)]


def listener_key(group: str, language: str | None = None) -> str:
    """What the registry counts: the group itself for the site's default language (so an
    English page is counted as before), "group@nl" for a Dutch one."""
    return group if not language or language == settings.LANGUAGE_CODE else f"{group}@{language}"


async def join(group: str, channel: str, language: str | None = None) -> None:
    """A socket listens to `group` in `language`: once this returns, readers count it watched."""
    key = listener_key(group, language)
    if local.add(key, channel) and _redis_on():
        _ensure_heartbeat()
        await _run_write(_sync_group, key)


async def leave(group: str, channel: str, language: str | None = None) -> None:
    key = listener_key(group, language)
    if local.remove(key, channel) and _redis_on():
        await _run_write(_sync_group, key)


async def _run_write(func, *args) -> None:
    try:
        await asyncio.get_running_loop().run_in_executor(_writer, func, *args)
    except RuntimeError:
        # The interpreter is exiting (concurrent.futures shut the writer down at exit) and a
        # closing socket leaves: this process's entries expire by themselves in TTL_SECONDS.
        if not _writer_shut_down():
            raise


def _sync_group(group: str) -> None:
    """Tell Redis what this process knows now about `group` (decided here, on the writer
    thread, so that writes queued in any order end on the latest local state)."""
    watched = local.count(group) > 0
    if watched == local.is_published(group) or _redis_away():
        return  # nothing new, or Redis is away: the heartbeat catches up when it is back
    try:
        client = _client()
        if watched:
            _publish(client, [group])
        else:
            client.zrem(_key(group), local.process_id)
            local.set_published([group], False)
    except Exception as exc:
        _went_away(exc)


def _publish(client, groups: list[str], *, reborn: bool = False) -> None:
    """Re-assert this process's membership of each group, expiring in TTL_SECONDS.
    `reborn`: this process lost Redis for a while; restart the registry's settling time
    so no reader trusts it before every process has re-published."""
    now = time.time()
    pipe = client.pipeline(transaction=False)
    pipe.set(_since_key(), now, nx=not reborn)
    for group in groups:
        key = _key(group)
        pipe.zadd(key, {local.process_id: now + TTL_SECONDS})
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.expire(key, int(TTL_SECONDS) + 1)
    pipe.execute()
    local.set_published(groups, True)


def heartbeat_once() -> None:
    """Re-publish every group this process has sockets for (a flushed or restarted Redis
    learns them again here)."""
    global _away_since
    try:
        _publish(_client(), local.groups(), reborn=_away_since is not None)
    except Exception as exc:
        _went_away(exc)
        return
    if _away_since is not None:
        log.warning("audience registry back after %.0f s", time.monotonic() - _away_since)
        _away_since = None


def _writer_shut_down() -> bool:
    """The writer was shut down, or every thread pool was (concurrent.futures' exit hook):
    the flags its own `submit` checks before refusing."""
    from concurrent.futures import thread

    return bool(getattr(_writer, "_shutdown", False) or getattr(thread, "_shutdown", False))


def _heartbeat_loop() -> None:
    """Until the interpreter exits: then the writer refuses new work, and the thread ends
    quietly instead of dying on "cannot schedule new futures after shutdown"."""
    while True:
        time.sleep(HEARTBEAT_SECONDS)
        if not _redis_on():
            continue
        try:
            _writer.submit(heartbeat_once)
        except RuntimeError:
            if _writer_shut_down():
                return
            raise


def _ensure_heartbeat() -> None:
    global _heartbeat
    with _heartbeat_lock:
        if _heartbeat is None or not _heartbeat.is_alive():
            _heartbeat = threading.Thread(target=_heartbeat_loop, name="audiences-heartbeat", daemon=True)
            _heartbeat.start()


_away_since: float | None = None  # when this process last failed to reach Redis (writer thread)
_last_warning = 0.0


def _redis_away() -> bool:
    return _away_since is not None


def _went_away(exc: Exception) -> None:
    """Redis failed a write: stop trying on every socket, let the heartbeat retry."""
    global _away_since
    if _away_since is None:
        _away_since = time.monotonic()
    _warn_unavailable(exc)


def _warn_unavailable(exc: Exception) -> None:
    """One line per minute while Redis is away, not one per socket."""
    global _last_warning
    if time.monotonic() - _last_warning > 60:
        _last_warning = time.monotonic()
        log.warning("audience registry unavailable (%s): every audience counts as watched", exc)


# --- readers (sync, in any process) -------------------------------------------------------

def listened_languages(game_id: int, audiences: list[int | None]) -> list[tuple[int | None, str]]:
    """Each (audience, language) of the game with at least one socket somewhere (one Redis
    trip); while the registry is unknown, every audience in every language."""
    pairs = [(seat, language) for seat in audiences for language in languages()]
    keys = [listener_key(audience_group(game_id, seat), language) for seat, language in pairs]
    if not _redis_on():
        return [pair for pair, key in zip(pairs, keys, strict=True) if local.count(key) > 0]
    try:
        counts = _watched_counts(keys)
    except Exception as exc:
        _warn_unavailable(exc)
        return pairs
    if counts is None:
        return pairs
    return [pair for pair, count in zip(pairs, counts, strict=True) if count > 0]


def listened_to(game_id: int, audiences: list[int | None]) -> list[int | None]:
    """The audiences of the game with at least one socket somewhere, in any language."""
    listened = {seat for seat, _language in listened_languages(game_id, audiences)}
    return [seat for seat in audiences if seat in listened]


def seat_is_watched(game_id: int, seat: int) -> bool:
    """Whether some page of that seat is open now, for callers that would rather act once too
    often than not at all (a push to a player who may be looking): unknown is False."""
    keys = [listener_key(audience_group(game_id, seat), language) for language in languages()]
    if not _redis_on():
        return any(local.count(key) > 0 for key in keys)
    try:
        counts = _watched_counts(keys)
    except Exception as exc:
        _warn_unavailable(exc)
        return False
    return bool(counts and any(count > 0 for count in counts))


def _watched_counts(groups: list[str]) -> list[int] | None:
    """Live processes per group, or None while the registry is being rebuilt."""
    now = time.time()
    pipe = _client().pipeline(transaction=False)
    pipe.get(_since_key())
    for group in groups:
        pipe.zcount(_key(group), now, "+inf")
    since, *counts = pipe.execute()
    if since is None:  # new, restarted or flushed: every process re-publishes within a heartbeat
        _client().set(_since_key(), now, nx=True)
        return None
    if now - float(since) < SETTLE_SECONDS:
        return None
    return counts
