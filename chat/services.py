"""Who may read and write a chat, posting a line, and sending it live.

A room is a game, or a table before its game starts. Seats talk; other visitors read a
room only when its table allows spectators to (`Table.chat_public`); admins read every
room. A new line is rendered once and sent through the channel layer to the groups that
may read it; each socket drops lines from authors its user muted (the consumer keeps that
set, so a message costs no database work).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils.translation import gettext as _, ngettext

from config.i18n import render_in_every_language
from games import notify
from games.engine import Rejected
from games.models import Game
from lobby.models import Table
from social import blocks

from .models import MAX_LENGTH, ChatMessage, ChatMute

HISTORY = 60


@dataclass
class Room:
    """A game's chat (with its table's lines from before the start), or a table's."""

    game: Game | None
    table: Table | None

    @property
    def kind(self) -> str:
        """The room's kind in chat URLs ("game" or "table")."""
        return "game" if self.game is not None else "table"

    @property
    def pk(self) -> int:
        room = self.game if self.game is not None else self.table
        assert room is not None
        return room.pk

    @property
    def public(self) -> bool:
        return bool(self.table and self.table.chat_public)

    def talkers(self) -> set[int]:
        """Users who may write: the game's seated players, or the table's."""
        if self.game is not None:
            return {s.user_id for s in self.game.seats.all() if s.user_id and not s.is_bot}
        assert self.table is not None
        return {s.user_id for s in self.table.seats.all() if s.user_id}

    def can_read(self, user) -> bool:
        if user.is_authenticated and (user.is_superuser or user.pk in self.talkers()):
            return True
        return self.public

    def can_write(self, user) -> bool:
        return user.is_authenticated and user.pk in self.talkers()

    def lines(self) -> Q:
        if self.game is not None:
            where = Q(game=self.game)
            return where | Q(table=self.table) if self.table else where
        return Q(table=self.table)


def game_room(game: Game) -> Room:
    return Room(game, Table.objects.filter(game=game).first())


def table_room(table: Table) -> Room:
    return Room(None, table)


def history(room: Room, reader) -> list[ChatMessage]:
    """The last lines the reader may see: no hidden lines (but for admins), no muted authors."""
    lines = ChatMessage.objects.filter(room.lines()).select_related("author")
    if not (reader.is_authenticated and reader.is_superuser):
        lines = lines.filter(hidden=False)
    if reader.is_authenticated:
        lines = lines.exclude(author__in=ChatMute.objects.filter(reader=reader).values("muted"))
        lines = lines.exclude(author__in=blocks.blocked_among(reader, room.talkers()))
    return list(reversed(lines.order_by("-id")[:HISTORY]))


def clean_text(raw: str) -> str:
    text = " ".join((raw or "").split())
    if not text:
        raise Rejected(_("Write something first."), 400)
    if len(text) > MAX_LENGTH:
        raise Rejected(ngettext("Keep it under %(count)s character.", "Keep it under %(count)s characters.", MAX_LENGTH)
                       % {"count": MAX_LENGTH}, 400)
    return text


def post(room: Room, author, raw: str) -> ChatMessage:
    if not room.can_write(author):
        raise Rejected(_("Only the players at this table can write here."), 403)
    if blocks.blocked_among(author, room.talkers() - {author.pk}):
        raise Rejected(_("You cannot write here: a player at this table blocked you, or you them."), 403)
    text = clean_text(raw)
    with transaction.atomic():
        message = ChatMessage.objects.create(game=room.game, table=room.table if room.game is None else None,
                                             author=author, text=text)
        transaction.on_commit(lambda: broadcast(room, message))
    return message


def groups(room: Room) -> list[str]:
    """The groups whose sockets may read the room's new lines."""
    if room.game is not None:
        seats = [s.index for s in room.game.seats.all() if s.user_id and not s.is_bot]
        names = [notify.audience_group(room.game.pk, seat) for seat in seats]
        # Spectators hear the chat only on public tables; admins watching read it on reload.
        return names + [notify.spectator_group(room.game.pk)] if room.public else names
    assert room.table is not None
    return [notify.table_group(room.table.pk)]


def broadcast(room: Room, message: ChatMessage) -> None:
    """Render the line once and send it to every group that may read it. The same HTML goes
    to every reader, so it carries the mute and report controls for anyone: the chat box
    names its reader (data-reader) and site.js hides the controls on the reader's own lines."""
    # Once per language of the site (its controls' words), each socket forwarding its own
    # (games.consumers.forward_chat); "html" is the default language's.
    renders = render_in_every_language(
        lambda: render_to_string("chat/_live_line.html", {"line": message, "kind": room.kind, "pk": room.pk}))
    readers = None if room.public or room.game is not None else sorted(room.talkers())
    event = {"type": "chat.message", "html": renders[settings.LANGUAGE_CODE], "html_by_language": renders,
             "author": message.author_id, "readers": readers}
    notify.send_many([(group, event) for group in groups(room)])


def set_mute(room: Room, reader, muted_id: int, muted: bool) -> None:
    if muted_id == reader.pk:
        raise Rejected(_("You cannot mute yourself."), 400)
    if muted:
        ChatMute.objects.get_or_create(reader=reader, muted_id=muted_id)
    else:
        ChatMute.objects.filter(reader=reader, muted_id=muted_id).delete()
    # Open sockets of this reader update their muted set (no database work there).
    event = {"type": "chat.mute", "reader": reader.pk, "muted": muted_id, "on": muted}
    transaction.on_commit(lambda: notify.send_many([(group, event) for group in groups(room)]))


def muted_by(user) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(ChatMute.objects.filter(reader=user).values_list("muted_id", flat=True))
