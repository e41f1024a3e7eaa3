from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from accounts.urls import auth_urlpatterns

urlpatterns = [
    path("admin/", admin.site.urls),
    path("help/", TemplateView.as_view(template_name="help.html",
                                               extra_context={"digest_hour": settings.DIGEST_HOUR_UTC}), name="help"),
    path("accounts/", include(auth_urlpatterns)),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("lobby.urls")),
    path("", include("chat.urls")),
    path("", include("notifications.urls")),
    path("", include("social.urls")),
    path("", include("tournaments.urls")),
]
