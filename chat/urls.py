from django.urls import path, register_converter

from config import inputs  # noqa: F401  (registers the <id:> URL converter: at most 18 digits)

from . import views


class RoomKind:
    """A chat room is a game's or a table's."""

    regex = "game|table"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(RoomKind, "room")

app_name = "chat"

urlpatterns = [
    path("chat/<room:kind>/<id:pk>/", views.box, name="box"),
    path("chat/<room:kind>/<id:pk>/post/", views.post, name="post"),
    path("chat/<room:kind>/<id:pk>/mute/<id:user_id>/", views.mute, name="mute"),
    path("chat/<room:kind>/<id:pk>/report/<id:message_id>/", views.report, name="report"),
    path("chat/muted/<id:user_id>/unmute/", views.unmute, name="unmute"),
]
