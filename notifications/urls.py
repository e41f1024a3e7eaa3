from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("notifications/", views.inbox, name="inbox"),
    path("notifications/<int:pk>/open/", views.open_line, name="open"),
    path("notifications/<int:pk>/read/", views.mark, name="mark"),
    path("notifications/read-all/", views.mark_all, name="mark_all"),
    path("notifications/settings/", views.settings_page, name="settings"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("notifications/push/subscribe/", views.subscribe, name="subscribe"),
    path("notifications/push/<int:pk>/remove/", views.remove_device, name="remove_device"),
    path("notifications/invite/<int:table_id>/", views.invite, name="invite"),
    path("me/next-game/", views.next_game, name="next_game"),
    path("offline/", views.offline, name="offline"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("robots.txt", views.robots, name="robots"),
]
