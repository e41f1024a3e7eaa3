"""Tournament pages. Standings and the arena leaderboard refresh by htmx polling (every
20 s and 3 s): results change when games end, and a poll costs a constant few queries."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import Game

from . import services
from .forms import TournamentForm
from .models import Tournament


def index(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.select_related("organiser").order_by("status", "starts_at")[:100]
    return render(request, "tournaments/index.html", {"tournaments": tournaments})


@login_required
def create(request: HttpRequest) -> HttpResponse:
    if request.GET.get("refresh"):  # another game chosen: its options, the rest kept
        kept = {name: value for name, value in request.GET.items() if not name.startswith("opt_")}
        form = TournamentForm(initial=kept, game_slug=request.GET.get("game_slug"))
        return render(request, "tournaments/create.html#tournament-form", {"form": form})
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = form.save(commit=False)
        tournament.organiser = request.user
        tournament.official = request.user.is_staff
        tournament.save()
        services.sign_up(tournament, request.user)
        return redirect(tournament)
    return render(request, "tournaments/create.html", {"form": form})


def _context(request: HttpRequest, tournament: Tournament) -> dict:
    entered = request.user.is_authenticated and tournament.entries.filter(user=request.user).exists()
    return {"tournament": tournament, "entered": entered,
            "rows": [] if tournament.is_arena else services.standings(tournament),
            "leaders": services.arena_leaderboard(tournament) if tournament.is_arena else []}


def detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("organiser"), pk=pk)
    rounds = tournament.round_set.prefetch_related("pairings__game__seats__user", "byes__user")
    return render(request, "tournaments/detail.html", {**_context(request, tournament), "rounds": rounds})


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(request, "tournaments/detail.html#standings", _context(request, tournament))


def arena(request: HttpRequest, pk: int) -> HttpResponse:
    """The arena's poll: marks the player present, pairs whoever waits, and sends a player
    whose new game just started to it."""
    tournament = get_object_or_404(Tournament, pk=pk, format=Tournament.Format.ARENA)
    if request.user.is_authenticated and tournament.status == Tournament.Status.RUNNING:
        services.arena_seen(tournament, request.user)
        services.advance(tournament.pk)
        mine = (Game.objects.filter(tournament_pairing__tournament=tournament, status=Game.Status.ACTIVE,
                                    seats__user=request.user).first())
        if mine is not None and request.headers.get("HX-Request"):
            response = HttpResponse(status=204)
            response["HX-Redirect"] = mine.get_absolute_url()
            return response
    tournament.refresh_from_db()
    return render(request, "tournaments/detail.html#arena", _context(request, tournament))


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        services.sign_up(tournament, request.user)
        if tournament.is_arena:
            services.arena_seen(tournament, request.user, timezone.now())
        messages.success(request, _("You are in."))
    except services.TournamentError as exc:
        messages.error(request, str(exc))
    return redirect(tournament)


@login_required
@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        services.withdraw(tournament, request.user)
        messages.success(request, _("You withdrew."))
    except services.TournamentError as exc:
        messages.error(request, str(exc))
    return redirect(tournament)
