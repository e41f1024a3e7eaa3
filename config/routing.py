"""WebSocket routes. Ids use the `<id:>` converter (config.inputs); any other path reaches
`UnknownPathConsumer`, which closes the handshake cleanly instead of failing in the
router (channels raises "No route found", which the server answers with a 500)."""
from channels.generic.websocket import WebsocketConsumer
from django.urls import path, re_path

from config import inputs  # noqa: F401  (registers the <id:> and <token:> URL converters)
from games.consumers import GameConsumer, UserConsumer
from lobby.consumers import LobbyConsumer, TableConsumer


class UnknownPathConsumer(WebsocketConsumer):
    """Refuse the handshake (the client sees 403) for a path no consumer serves."""

    def connect(self):
        self.close(code=4404)


websocket_urlpatterns = [
    path("ws/play/<id:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
    re_path(r"", UnknownPathConsumer.as_asgi()),
]
