"""Lobby sockets: the open-table list (every table change) and a table's own card (that
table's changes only), rendered for the socket's user."""
from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from config.i18n import in_scope_language, language_of_scope

from games.consumers import forward_chat, muted_authors, update_mutes
from games.notify import LOBBY_GROUP, table_group

from .models import Table
from .views import lobby_context, table_context


class LobbyConsumer(AsyncWebsocketConsumer):
    groups = [LOBBY_GROUP]

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
