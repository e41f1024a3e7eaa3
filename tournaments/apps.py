from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = gettext_lazy("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"
