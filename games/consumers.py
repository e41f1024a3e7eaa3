"""WebSockets: a game page gets its own seat's panel on each change; every page gets
the user's "your turn" badge. Origins are checked in config.asgi."""
from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string

from .models import Game
from .notify import game_group, user_group
from .panel import render_panel


class GameConsumer(WebsocketConsumer):
    """Anyone may watch a game as a spectator; a seat's view goes only to its user,
    identified by the session (never by anything the client says)."""

    def connect(self):
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        if not Game.objects.filter(pk=self.game_id).exists():
            self.close(code=4404)
            return
        self.group = game_group(self.game_id)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()

    def disconnect(self, code):
        if hasattr(self, "group"):
                async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def receive(self, text_data=None, bytes_data=None):
        """Clients only listen; moves go through HTTP so they get the engine's checks."""

    def game_update(self, event):
        game = Game.objects.prefetch_related("seats__user").get(pk=self.game_id)
        self.send(text_data=render_panel(game, self.scope["user"], oob=True))


class UserConsumer(WebsocketConsumer):
    """The logged-in user's own channel: the turn badge. Anonymous sockets are refused."""

    def connect(self):
        user = self.scope["user"]
        if not user.is_authenticated:
            self.close(code=4401)
            return
        self.group = user_group(user.pk)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()

    def disconnect(self, code):
        if hasattr(self, "group"):
                async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def badge_update(self, event):
        from .views import games_waiting_for

        user = self.scope["user"]
        html = render_to_string("games/_turn_badge.html", {"turn_games": games_waiting_for(user), "oob": True})
        self.send(text_data=html)
