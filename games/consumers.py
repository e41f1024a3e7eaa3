"""WebSockets: a game page hears its own audience's panel on each change (its seat's, or
the spectators'); every page hears the user's "your turn" badge. The notifier renders
each audience's HTML once (games.notify); consumers only forward it, so a message costs
no database work. Origins are checked in config.asgi.

A game page's socket says which board the page shows (`?r=`, the panel's revision; the
page's script adds it on every connect and reconnect): when the game has moved on since,
the socket's first message is its audience's current board, so a page whose socket
dropped, or a Redis that lost a push, heals on reconnect without a reload."""
from __future__ import annotations

from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import dateformat, translation

from config.i18n import language_of_scope

from . import presence
from .models import Game
from .notify import audience_group, join_audience, leave_audience, user_group


class GroupForwarder(AsyncWebsocketConsumer):
    """Joins one group chosen at connect and leaves it at disconnect."""

    group: str | None = None
    # Messages that carry ready HTML (rendered once per audience by the publisher) and
    # touch no database. Channels closes stale DB connections before every message with a
    # thread hop; skipping it for these is a quarter of a 1,000-socket fan-out's CPU
    # (issue 21). Connect, disconnect and anything else still go through channels' path.
    FORWARD_ONLY = frozenset({"game.panel", "badge.update", "chat.message", "chat.mute"})

    async def dispatch(self, message):
        if message.get("type") in self.FORWARD_ONLY:
            await getattr(self, get_handler_name(message))(message)
        else:
            await super().dispatch(message)

    async def join(self, group: str) -> None:
        self.group = group
        await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Clients only listen; moves go through HTTP so they get the engine's checks."""


class GameConsumer(GroupForwarder):
    """Anyone may watch a game as a spectator; a seat's view goes only to its user,
    identified by the session (never by anything the client says)."""

    async def connect(self):
        game_id = self.scope["url_route"]["kwargs"]["game_id"]
        found, seat = await seat_at_game(game_id, self.scope["user"])
        if not found:
            await self.close(code=4404)
            return
        self.muted = await muted_authors(self.scope["user"])
        # The language this page reads (its player's setting, else its browser's): the
        # publisher renders the audience's panel in each language listened to (issue 23).
        self.language = await database_sync_to_async(language_of_scope)(self.scope)
        group = audience_group(game_id, seat)
        await self.channel_layer.group_add(group, self.channel_name)
        # Counted before the board is checked: a move committed after this is pushed to
        # the group, one committed before it shows in the revision read below.
        await join_audience(group, self.channel_name, self.language)
        self.group = group
        await self.accept()
        page_revision = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("r")
        if page_revision:
            board = await board_if_newer(game_id, seat, page_revision[0], self.language)
            if board:
                await self.send(text_data=board)

    async def disconnect(self, code):
        await super().disconnect(code)
        if self.group:
            await leave_audience(self.group, self.channel_name, getattr(self, "language", None))

    async def game_panel(self, event):
        """The audience's panel in this page's language (games.publisher renders one per
        language listened to; "html" is the site's default language's)."""
        await self.send(text_data=event.get("html_by_language", {}).get(getattr(self, "language", ""))
                        or event["html"])

    async def chat_message(self, event):
        await forward_chat(self, event)

    async def chat_mute(self, event):
        update_mutes(self, event)


@database_sync_to_async
def seat_at_game(game_id: int, user) -> tuple[bool, int | None]:
    """(the game exists, the user's seat in it or None): read once, at connect."""
    game = Game.objects.filter(pk=game_id).only("id").prefetch_related("seats").first()
    if game is None:
        return False, None
    return True, game.seat_of(user)


def revision(updated) -> str:
    """The panel's data-revision for a game's `updated` (the template's date:'U.u')."""
    return dateformat.format(updated, "U.u")


@database_sync_to_async
def board_if_newer(game_id: int, seat: int | None, page_revision: str, language: str | None = None) -> str | None:
    """The audience's current panel when the page shows an older one; None when it is
    current (one indexed read of one column: a page loaded a moment ago costs no render)."""
    from .panel import render_panel_for_seat

    updated = Game.objects.filter(pk=game_id).values_list("updated", flat=True).first()
    if updated is None or revision(updated) == page_revision:
        return None
    game = Game.objects.prefetch_related("seats__user").filter(pk=game_id).first()
    if game is None or not game.is_available:  # its rules package was removed: nothing to draw
        return None
    with translation.override(language):
        return render_panel_for_seat(game, seat, oob=True)


@database_sync_to_async
def muted_authors(user) -> set[int]:
    """Whose chat lines this socket's user muted: read once, at connect (chat.mute updates it)."""
    from chat.services import muted_by

    return muted_by(user)


async def forward_chat(consumer, event) -> None:
    """A chat line rendered once by chat.services.broadcast; dropped for readers who may not
    read the room (`readers`) or who muted its author."""
    user = consumer.scope["user"]
    readers = event.get("readers")
    if readers is not None and getattr(user, "pk", None) not in readers:
        return
    if event["author"] in getattr(consumer, "muted", set()):
        return
    await consumer.send(text_data=event.get("html_by_language", {}).get(getattr(consumer, "language", ""))
                        or event["html"])


def update_mutes(consumer, event) -> None:
    if event["reader"] == getattr(consumer.scope["user"], "pk", None):
        muted: set[int] = getattr(consumer, "muted", set())
        (muted.add if event["on"] else muted.discard)(event["muted"])
        consumer.muted = muted


class UserConsumer(GroupForwarder):
    """The logged-in user's own channel: the turn badge. Anonymous sockets are refused."""

    async def connect(self):
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.close(code=4401)
            return
        await self.join(user_group(user.pk))
        # Presence: no "your turn" e-mail while the user has a page open (games.mail).
        await sync_to_async(presence.socket_opened)(user.pk)

    async def disconnect(self, code):
        await super().disconnect(code)
        if self.group:
            await sync_to_async(presence.socket_closed)(self.scope["user"].pk)

    async def badge_update(self, event):
        await self.send(text_data=event["html"])
