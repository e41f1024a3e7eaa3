from django.conf import settings
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path

from config.abuse import limited

from . import views
from .forms import LocalizedPasswordResetForm, LoginForm

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("settings/", views.settings_view, name="settings"),
    path("settings/vacation/", views.vacation_view, name="vacation"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:slug>/", views.leaderboard, name="leaderboard_game"),
    path("u/<str:username>/", views.profile, name="profile"),
]

# Django's own auth views (login, logout, password change and reset), styled by our
# accounts/templates/registration/*; they keep their global names ("login", "password_change"...).
# Log-in and password reset are rate-limited (config.abuse); django-axes locks out
# repeated failed log-ins on top of that.
auth_urlpatterns: list[URLPattern | URLResolver] = [
    path("login/", limited("login")(auth_views.LoginView.as_view(authentication_form=LoginForm)), name="login"),
    # Our own mail (accounts/templates/registration/password_reset_*): signed with the site's name
    # and SITE_URL, never the host the request came in on ("The 127.0.0.1:8000 team").
    path("password_reset/", limited("password-reset")(auth_views.PasswordResetView.as_view(
        form_class=LocalizedPasswordResetForm,
        extra_email_context={"site_name": settings.SITE_NAME, "site_url": settings.SITE_URL})),
         name="password_reset"),
    path("", include("django.contrib.auth.urls")),
]
