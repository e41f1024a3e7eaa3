from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = gettext_lazy("Players")
    default_auto_field = "django.db.models.BigAutoField"
