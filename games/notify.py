"""Channel groups for live pages and sending to them. What a game change sends is
games.publisher's business; this module only names the groups and carries messages
(chat and the lobby use it too). E-mail is not sent here (games.tasks, games.mail).

Live pages hear one group per audience: each seat of a game has its own group and all
spectators share one, so the notifier renders a game's panel once per audience (never
once per socket) and every socket gets the HTML its audience may see. Consumers only
forward that HTML (games.consumers): no database work per socket.
"""
from __future__ import annotations

import logging
from collections import defaultdict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db.models import F
from django.template.loader import render_to_string

log = logging.getLogger(__name__)


def seat_group(game_id: int, seat: int) -> str:
    return f"game-{game_id}-seat-{seat}"


def spectator_group(game_id: int) -> str:
    return f"game-{game_id}-spectators"


def audience_group(game_id: int, seat: int | None) -> str:
    """The group a page of `game_id` listens to: its seat's, or the spectators'."""
    return spectator_group(game_id) if seat is None else seat_group(game_id, seat)


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


LOBBY_GROUP = "lobby"


def send(group: str, message: dict) -> None:
    send_many([(group, message)])


def send_many(messages: list[tuple[str, dict]]) -> None:
    """Send every (group, message) in one trip to the event loop."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all():
        for group, message in messages:
            await layer.group_send(group, message)

    try:
        async_to_sync(send_all)()
    except Exception:  # a missing Redis must not undo a committed move
        log.exception("channel layer send to %s failed", [group for group, _ in messages])


def listeners_key(group: str) -> str:
    return f"listeners:{group}"


async def count_listener(group: str, delta: int) -> None:
    """Sockets joining (+1) or leaving (-1) an audience, counted in the shared cache so the
    notifier renders only for audiences someone watches. A worker that dies leaves its
    counts too high, which only costs a render nobody receives."""
    key = listeners_key(group)
    try:
        if delta > 0:
            await cache.aadd(key, 0, timeout=None)
            await cache.aincr(key)
        else:
            await cache.adecr(key)
    except ValueError:  # the count expired or was cleared
        pass
    except Exception:  # a missing cache must not refuse the socket
        log.exception("listener count for %s failed", group)


def listened_to(game_id: int, audiences: list[int | None]) -> list[int | None]:
    """The audiences of the game with at least one socket (one cache read)."""
    keys = {seat: listeners_key(audience_group(game_id, seat)) for seat in audiences}
    try:
        counts = cache.get_many(list(keys.values()))
    except Exception:
        log.exception("listener counts unavailable: rendering for every audience")
        return audiences
    return [seat for seat in audiences if counts.get(keys[seat], 0) > 0]


def badge_messages(user_ids: set[int]) -> list[tuple[str, dict]]:
    """Each user's "your turn" badge, rendered once per user from one query."""
    if not user_ids:
        return []
    waiting = games_waiting_for_users(user_ids)
    return [(user_group(uid), {"type": "badge.update",
                               "html": render_to_string("games/_turn_badge.html",
                                                        {"turn_games": waiting[uid], "oob": True})})
            for uid in sorted(user_ids)]


def games_waiting_for_users(user_ids: set[int]) -> dict[int, list]:
    """{user id: active games waiting for that user}, without loading any game's state."""
    from .models import Game

    rows = (Game.objects.filter(seats__user_id__in=user_ids, status=Game.Status.ACTIVE)
            .only("id", "waiting_for").annotate(seat_user=F("seats__user_id"), seat_index=F("seats__index")))
    waiting: dict[int, list] = defaultdict(list)
    seen: set[tuple[int, int]] = set()
    for game in rows:
        if game.seat_index in (game.waiting_for or []) and (game.seat_user, game.pk) not in seen:
            seen.add((game.seat_user, game.pk))
            waiting[game.seat_user].append(game)
    return {uid: waiting.get(uid, []) for uid in user_ids}
