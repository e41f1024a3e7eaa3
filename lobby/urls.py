from django.urls import path

from config import inputs  # noqa: F401  (registers the <id:> and <token:> URL converters)

from . import views

app_name = "lobby"

urlpatterns = [
    path("", views.index, name="index"),
    path("lobby/tables/", views.table_list, name="table_list"),
    path("tables/new/", views.create, name="create"),
    path("tables/<id:table_id>/", views.table_detail, name="table"),
    path("tables/<id:table_id>/join/", views.join, name="join"),
    path("tables/<id:table_id>/leave/", views.leave, name="leave"),
    path("tables/<id:table_id>/bots/add/", views.add_bot, name="add_bot"),
    path("tables/<id:table_id>/bots/remove/", views.remove_bot, name="remove_bot"),
    path("tables/<id:table_id>/start/", views.start, name="start"),
    path("invite/<token:token>/", views.invite, name="invite"),
    path("invite/<token:token>/join/", views.join_private, name="join_private"),
    path("live/lobby/", views.live_version, {"kind": "lobby"}, name="live_lobby"),
    path("live/me/", views.live_version, {"kind": "me"}, name="live_me"),
    path("live/me/badge/", views.turn_badge, name="turn_badge"),
    path("live/tables/<id:object_id>/", views.live_version, {"kind": "table"}, name="live_table"),
    path("live/games/<id:object_id>/", views.live_version, {"kind": "game"}, name="live_game"),
]
