from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from games import rules as registry
from games.models import Game

from .forms import SettingsForm, SignupForm
from .models import Rating, User


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby:index")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Switchback, {user.username}! Pick a table or create one.")
        return redirect("lobby:index")
    return render(request, "registration/signup.html", {"form": form})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    games = (
        Game.objects.filter(seats__user=player)
        .prefetch_related("seats__user")
        .order_by("-updated")
        .distinct()[:30]
    )
    return render(
        request,
        "accounts/profile.html",
        {"player": player, "ratings": player.ratings.all(), "games": games},
    )


@login_required
def settings_view(request: HttpRequest) -> HttpResponse:
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Settings saved.")
        return redirect("accounts:settings")
    return render(request, "accounts/settings.html", {"form": form})


def leaderboard(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    rulesets = registry.all()
    slug = slug or (rulesets[0].slug if rulesets else "")
    try:
        current = registry.get(slug)
    except KeyError:
        return render(request, "404.html", {"message": "No such game."}, status=404)
    ratings = Rating.objects.filter(game_slug=slug, user__is_active=True).select_related("user")[:100]
    return render(
        request,
        "accounts/leaderboard.html",
        {"rulesets": rulesets, "current": current, "ratings": ratings},
    )
