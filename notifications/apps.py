from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # Listen to the games' and lobby's model signals (the app is never called by them).
        from . import signals

        signals.connect()
