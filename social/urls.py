from django.urls import path

from config import inputs  # noqa: F401  (registers the <id:> URL converter)

from . import views

app_name = "social"

urlpatterns = [
    path("players/", views.search, name="search"),
    path("players/<str:username>/follow/", views.follow, name="follow"),
    path("players/<str:username>/unfollow/", views.unfollow, name="unfollow"),
    path("players/<str:username>/block/", views.block, name="block"),
    path("players/<str:username>/unblock/", views.unblock, name="unblock"),
    path("blocked/", views.blocked_list, name="blocked"),
    path("challenges/", views.challenges, name="challenges"),
    path("challenges/new/", views.new_challenge, name="new_challenge"),
    path("challenges/<id:pk>/accept/", views.accept, name="accept"),
    path("challenges/<id:pk>/decline/", views.decline, name="decline"),
    path("challenges/<id:pk>/cancel/", views.cancel, name="cancel"),
    path("play-now/", views.play_now, name="play_now"),
    path("play-now/<id:pk>/", views.seek_wait, name="seek"),
    path("play-now/<id:pk>/cancel/", views.cancel_seek, name="cancel_seek"),
]
