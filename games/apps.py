from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Rules and presenters translate through games.rules.base (they import no Django):
        # Django's catalogues, read once per language while a panel is drawn (games.translations).
        from .rules.base import install_translator
        from .translations import gettext, ngettext, pgettext

        install_translator(gettext, ngettext, pgettext)

        # The publisher announces started clocks; the mail side answers with its mails.
        from .replay_page import schedule_replay_checkpoints
        from .signals import game_finished, seat_clock_started
        from .tasks import schedule_turn_mails

        seat_clock_started.connect(schedule_turn_mails, dispatch_uid="games.schedule_turn_mails")
        # A game that ends gets its replay's checkpoints written by the worker (issue 21).
        game_finished.connect(schedule_replay_checkpoints, dispatch_uid="games.schedule_replay_checkpoints")
