from django.urls import path

from games.consumers import GameConsumer, UserConsumer
from lobby.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/play/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
]
