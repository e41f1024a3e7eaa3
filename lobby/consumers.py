"""Lobby sockets: the open-table list and a table's own card, re-rendered per user on
every change (a table created, joined, left, started or closed anywhere)."""
from __future__ import annotations

from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string

from games.notify import LOBBY_GROUP

from .models import Table
from .views import lobby_context, table_context


class LobbyConsumer(WebsocketConsumer):
    groups = [LOBBY_GROUP]

    def connect(self):
        self.accept()

    def lobby_update(self, event):
        user = self.scope["user"]
        html = render_to_string("lobby/index.html#table-list", {**lobby_context(user), "user": user, "oob": True})
        self.send(text_data=html)


class TableConsumer(WebsocketConsumer):
    groups = [LOBBY_GROUP]

    def connect(self):
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.accept()

    def lobby_update(self, event):
        table = Table.objects.prefetch_related("seats__user").filter(pk=self.table_id).first()
        if table is None:
            return
        user = self.scope["user"]
        if table.is_private and not table.has_user(user):
            return
        html = render_to_string("lobby/table.html#table-card", {**table_context(table, user), "oob": True})
        self.send(text_data=html)
