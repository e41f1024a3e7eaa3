"""Lobby sockets: the open-table list (every table change) and a table's own card (that
table's changes only), rendered for the socket's user.

A page opens its socket a moment after it was drawn (longer on a busy phone or server),
and a change made in between was pushed to nobody: the host's card kept a guest who had
left. Each page sends the fingerprint of what it shows (lobby.live, read before the page's
data) as `?v=`; a socket whose page is behind gets the fresh fragment as soon as it opens."""
from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from config.i18n import in_scope_language, language_of_scope

from games.consumers import forward_chat, muted_authors, update_mutes
from games.notify import LOBBY_GROUP, table_group

from . import live
from .models import Table
from .views import lobby_context, table_context


def page_version(scope) -> str:
    """The fingerprint the page was drawn at (its socket's `?v=`), "" when it sent none."""
    return parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [""])[0]


async def page_is_behind(scope, fingerprint) -> bool:
    seen = page_version(scope)
    return bool(seen) and seen != await database_sync_to_async(fingerprint)()


class LobbyConsumer(AsyncWebsocketConsumer):
    groups = [LOBBY_GROUP]   # joined before connect(): a change after the check below is pushed

    async def connect(self):
        await self.accept()
        if await page_is_behind(self.scope, live.lobby_fingerprint):
            await self.lobby_update({})

    async def lobby_update(self, event):
        await self.send(text_data=await database_sync_to_async(self.render)())

    def render(self) -> str:
        user = self.scope["user"]
        with in_scope_language(self.scope):  # the socket's reader's language and zone (issue 23)
            return render_to_string("lobby/index.html#table-list", {**lobby_context(user), "user": user, "oob": True})


class TableConsumer(AsyncWebsocketConsumer):
    """Listens to its own table's group: other tables' changes never reach it."""

    async def connect(self):
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.groups = [table_group(self.table_id)]
        self.muted = await muted_authors(self.scope["user"])
        self.language = await database_sync_to_async(language_of_scope)(self.scope)  # for chat lines
        await self.channel_layer.group_add(self.groups[0], self.channel_name)
        await self.accept()
        if await page_is_behind(self.scope, lambda: live.table_fingerprint(self.table_id)):
            await self.table_update({})

    async def chat_message(self, event):
        await forward_chat(self, event)

    async def chat_mute(self, event):
        update_mutes(self, event)

    async def table_update(self, event):
        html = await database_sync_to_async(self.render)()
        if html:
            await self.send(text_data=html)

    def render(self) -> str:
        table = Table.objects.prefetch_related("seats__user").filter(pk=self.table_id).first()
        user = self.scope["user"]
        if table is None or (table.is_private and not table.has_user(user)):
            return ""
        with in_scope_language(self.scope):  # the socket's reader's language and zone (issue 23)
            return render_to_string("lobby/table.html#table-card", {**table_context(table, user), "oob": True})
