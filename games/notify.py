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

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.utils import translation

from config.header import forget as forget_headers

from .deferred import run_coroutine

# Who watches which audience lives in games.audiences (a registry rebuilt by heartbeats);
# these names stay here for the notifier and its callers.
from .audiences import join as join_audience  # noqa: F401
from .audiences import leave as leave_audience  # noqa: F401
from .audiences import listened_languages, listened_to  # noqa: F401  (games.publisher asks them here)
from .groups import audience_group, seat_group, spectator_group, table_group, user_group  # noqa: F401

log = logging.getLogger(__name__)


LOBBY_GROUP = "lobby"


def send(group: str, message: dict) -> None:
    send_many([(group, message)])


def send_many(messages: list[tuple[str, dict]], *, loop=None) -> None:
    """Send every (group, message) in one trip to the event loop: `loop` (the server's, for
    a deferred push: games.deferred), else the one asgiref picks for this thread."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all():
        for group, message in messages:
            await layer.group_send(group, message)

    try:
        if loop is None:
            async_to_sync(send_all)()
        else:
            run_coroutine(send_all, loop)
    except Exception:  # a missing Redis must not undo a committed move
        log.exception("channel layer send to %s failed", [group for group, _ in messages])


def badge_messages(user_ids: set[int], languages: dict[int, str] | None = None) -> list[tuple[str, dict]]:
    """Each user's "your turn" badge, rendered once per user from one query, in the user's
    language (`languages` when the caller has it, else one more query). Their header records
    are forgotten (config.header): what changed their badge may have changed their header."""
    if not user_ids:
        return []
    forget_headers(user_ids)
    waiting = games_waiting_for_users(user_ids)
    languages = {**users_languages(user_ids - set(languages or {})), **(languages or {})}
    messages = []
    for uid in sorted(user_ids):
        with translation.override(languages[uid]):
            html = render_to_string("games/_turn_badge.html", {"turn_count": len(waiting[uid]), "oob": True})
        messages.append((user_group(uid), {"type": "badge.update", "html": html}))
    return messages


def users_languages(user_ids: set[int]) -> dict[int, str]:
    """{user id: the language they read} (config.i18n.language_of), in one query."""
    from django.contrib.auth import get_user_model

    from config.i18n import language_of

    if not user_ids:
        return {}
    found = {uid: language_of(user) for uid, user in
             get_user_model().objects.only("id", "language").in_bulk(list(user_ids)).items()}
    return {uid: found.get(uid) or language_of(None) for uid in user_ids}


def games_waiting_for_users(user_ids: set[int]) -> dict[int, list]:
    """{user id: active games waiting for that user}, without loading any game's state."""
    from .models import Game

    return Game.objects.waiting_for_users(user_ids)
