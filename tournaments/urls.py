from django.urls import path

from config import inputs  # noqa: F401  (registers the <id:> URL converter)

from . import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.index, name="index"),
    path("tournaments/new/", views.create, name="create"),
    path("tournaments/<id:pk>/", views.detail, name="detail"),
    path("tournaments/<id:pk>/standings/", views.standings, name="standings"),
    path("tournaments/<id:pk>/arena/", views.arena, name="arena"),
    path("tournaments/<id:pk>/join/", views.join, name="join"),
    path("tournaments/<id:pk>/withdraw/", views.withdraw, name="withdraw"),
]
