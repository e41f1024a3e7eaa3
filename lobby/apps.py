from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = gettext_lazy("Lobby")
