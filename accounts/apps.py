from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = gettext_lazy("Players")

    def ready(self) -> None:
        # Apps listen instead of being called upward: the games app announces a finished
        # game, and ratings are this app's answer (inside the result's transaction).
        from games.signals import game_finished

        from .ratings import rate_finished_game

        game_finished.connect(rate_finished_game, dispatch_uid="accounts.rate_finished_game")
