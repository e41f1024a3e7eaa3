from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Players"
    default_auto_field = "django.db.models.BigAutoField"
