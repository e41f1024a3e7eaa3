from django.contrib import admin
from django.urls import include, path

from accounts.urls import auth_urlpatterns

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include(auth_urlpatterns)),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("lobby.urls")),
    path("", include("chat.urls")),
]
