from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from accounts.urls import auth_urlpatterns
from config.i18n import set_language

urlpatterns = [
    path("admin/", admin.site.urls),
    path("help/", TemplateView.as_view(template_name="help.html",
                                               extra_context={"digest_hour": settings.DIGEST_HOUR}), name="help"),
    # The header's language chooser posts here (Django's set_language; a player's choice is
    # stored on their account too). URLs carry no language prefix.
    path("i18n/setlang/", set_language, name="set_language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include(auth_urlpatterns)),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("lobby.urls")),
    path("", include("chat.urls")),
    path("", include("notifications.urls")),
    path("", include("social.urls")),
    path("", include("tournaments.urls")),
]
