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
        from .signals import seat_clock_started
        from .tasks import schedule_turn_mails

        seat_clock_started.connect(schedule_turn_mails, dispatch_uid="games.schedule_turn_mails")
