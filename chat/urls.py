from django.urls import path, register_converter

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
    path("chat/<room:kind>/<int:pk>/", views.box, name="box"),
    path("chat/<room:kind>/<int:pk>/post/", views.post, name="post"),
    path("chat/<room:kind>/<int:pk>/mute/<int:user_id>/", views.mute, name="mute"),
    path("chat/<room:kind>/<int:pk>/report/<int:message_id>/", views.report, name="report"),
]
