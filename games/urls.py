from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("play/<int:game_id>/", views.play, name="play"),
    path("play/<int:game_id>/panel/", views.panel, name="panel"),
    path("play/<int:game_id>/act/", views.act, name="act"),
    path("play/<int:game_id>/undo/", views.undo, name="undo"),
    path("play/<int:game_id>/replay/", views.replay, name="replay"),
    path("games/", views.game_list, name="list"),
    path("me/turns/", views.my_turns, name="my_turns"),
]
