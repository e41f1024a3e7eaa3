"""The header's per-user record (issue 21): what every page's header shows of a player — how
many games wait for their move (the turn badge), how many inbox lines are unread (the bell)
and what an open tab does (the tab preferences) — in one cache read instead of three queries.

A miss reads the three (the fallback, as before) and keeps them for RECORD_SECONDS. The record
is never updated, only deleted (`forget`), by every change that could alter it:

- a game's `status` or `waiting_for` saved (a move that passes the turn, a game starting,
  ending, aborted, a bot's move) and a seat taken, handed to a bot or back, or deleted:
  notifications.signals' receivers of the games' models;
- an inbox line created (notifications.services, bulk: no signal), read or unread (the inbox
  views, a queryset update: no signal, but they push the bell: `send_bells`), or deleted
  (expired: a post_delete receiver), and any line saved elsewhere (a post_save receiver);
- the tab preferences saved (post_save / post_delete of notifications.Preferences);
- and wherever the badge and bell are pushed (games.notify.badge_messages,
  notifications.services.send_bells), after the commit: belt and braces.

Deleted twice: at once (a reader in the same transaction, and tests, which never commit) and
again once the change commits (a reader who read the old rows before the commit and kept
them just before it is forgotten too). What is left is a reader whose queries ran before the
commit and whose write lands after the second delete (a few milliseconds of window): the
record's short life bounds that, and a writer this list missed, to RECORD_SECONDS. A stale
badge is the worst outcome: hence both.

Kept in the "shared" cache: Redis in production, and without it a file cache both of `make
run`'s processes read (the worker's bot moves, timeouts and inbox lines forget records the
server's memory cache would have kept).

A record carries the user's date_joined: a user id used again (tests roll their rows back,
SQLite then hands the same id out again) never reads another user's record.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import caches
from django.db import transaction
from django.utils.functional import SimpleLazyObject

RECORD_SECONDS = 60


@dataclass(frozen=True)
class Header:
    turn_count: int  # active games waiting for the user's move
    bell_unread: int  # unread inbox lines
    tab_prefs: dict  # {"sound", "blink", "theme"} (notifications.models.tab_preferences)

    def state(self) -> tuple:
        prefs = self.tab_prefs
        return self.turn_count, self.bell_unread, prefs["sound"], prefs["blink"], prefs["theme"]


def record_key(user_id: int) -> str:
    return f"header:{user_id}"


def header_of(user) -> Header:
    """The logged-in `user`'s header: one cache read, or on a miss the three queries, kept."""
    joined = user.date_joined.timestamp()
    kept = caches["shared"].get(record_key(user.pk))
    if kept is not None and kept[0] == joined:
        turn_count, unread, sound, blink, theme = kept[1:]
        return Header(turn_count, unread, {"sound": sound, "blink": blink, "theme": theme})
    header = read_header(user)
    caches["shared"].set(record_key(user.pk), (joined, *header.state()), RECORD_SECONDS)
    return header


def read_header(user) -> Header:
    """The three queries the record saves (its fallback)."""
    from games.models import Game
    from notifications.models import tab_preferences, unread_count

    turn_count = len(Game.objects.waiting_for_users({user.pk})[user.pk])
    return Header(turn_count, unread_count(user.pk), tab_preferences(user))


def forget(user_ids: Iterable[int | None]) -> None:
    """Delete these users' records, now and again once the current transaction commits."""
    keys = sorted({record_key(uid) for uid in user_ids if uid})
    if not keys:
        return
    caches["shared"].delete_many(keys)
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: caches["shared"].delete_many(keys))


def context(request) -> dict:
    """The template context processor: `header`, read on first use (a page that draws no
    header reads nothing), once per page; none for visitors (the tags draw their defaults)
    nor htmx fragments (a move's answer, a selection: they have no header)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.boosted:
        return {}
    return {"header": SimpleLazyObject(lambda: header_of(user))}
