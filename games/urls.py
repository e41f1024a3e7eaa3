from django.urls import path

from config import inputs  # noqa: F401  (registers the <id:> and <token:> URL converters)

from . import views

app_name = "games"

urlpatterns = [
    path("play/<id:game_id>/", views.play, name="play"),
    path("play/<id:game_id>/panel/", views.panel, name="panel"),
    path("play/<id:game_id>/act/", views.act, name="act"),
    path("play/<id:game_id>/undo/", views.undo, name="undo"),
    path("play/<id:game_id>/replay/", views.replay, name="replay"),
    path("play/<int:game_id>/record.json", views.record, name="record"),
    path("games/", views.game_list, name="list"),
    path("games/<slug:slug>/how-to-play/", views.how_to_play, name="how_to_play"),
    path("play/<int:game_id>/take-back/", views.take_back, name="take_back"),
    path("play/<int:game_id>/resign/", views.resign, name="resign"),
    path("play/<int:game_id>/abort/", views.abort, name="abort"),
    path("play/<int:game_id>/rematch/", views.accept_rematch, name="rematch"),
    path("play/<int:game_id>/rematch/decline/", views.decline_rematch, name="decline_rematch"),
    path("me/turns/", views.my_turns, name="my_turns"),
    path("me/games/", views.my_games, name="mine"),
]
