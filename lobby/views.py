from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.middleware import HtmxDetails

from config.abuse import limited
from games import rules as registry
from games.engine import Rejected
from games.models import Game
from games.views import my_games_context
from social import filters as lobby_filters

from . import services
from .forms import TableForm
from .models import Table


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails  # set on every request by django_htmx's middleware


def open_tables(user):
    """Public open tables, plus the private ones the user sits at."""
    tables = Table.objects.filter(status=Table.Status.OPEN).select_related("host").prefetch_related("seats__user")
    return [t for t in tables if not t.is_private or t.has_user(user)]


def lobby_context(user) -> dict:
    context: dict = {"tables": lobby_filters.apply(user, open_tables(user)), "rulesets": registry.all()}
    if user.is_authenticated:
        context.update(my_games_context(user))  # the home page leads with "my games"
    context["recent_games"] = (
        Game.objects.filter(status=Game.Status.FINISHED).defer("state").prefetch_related("seats__user")
        .order_by("-finished_at")[:10]
    )
    return context


def index(request: HttpRequest) -> HttpResponse:
    lobby_filters.remember(request)  # the player's filters, kept for the next visit
    return render(request, "lobby/index.html", lobby_context(request.user))


def table_list(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby/index.html#table-list", lobby_context(request.user))


@login_required
@limited("tables")
def create(request: HtmxHttpRequest) -> HttpResponse:
    slug = request.POST.get("game") or request.GET.get("game")
    form = TableForm(request.POST or None, game_slug=slug)
    if request.method == "POST" and not request.POST.get("refresh") and form.is_valid():
        data = form.cleaned_data
        table = services.create_table(
            request.user, game_slug=data["game"], seats_count=data["seats"], options=data["options"],
            is_private=data["is_private"], pace=data["pace"], days_per_move=data["days_per_move"],
            is_rated=data["is_rated"], chat_public=data["chat_public"],
            clock_minutes=data["clock_minutes"], clock_increment=data["clock_increment"],
        )
        return redirect(table.game or table)
    if request.POST.get("refresh"):
        form = TableForm(initial={"game": slug}, game_slug=slug)
    template = "lobby/create.html#table-form" if request.htmx else "lobby/create.html"
    return render(request, template, {"form": form})


def table_context(table: Table, user, *, invited: bool = False) -> dict:
    return {
        "table": table,
        "user": user,
        "seated": table.has_user(user),
        "has_bot": any(s.is_bot for s in table.seats.all()),
        "free_range": range(max(0, table.free)),
        "invited": invited,
        "invite_url": settings.SITE_URL + reverse("lobby:invite", args=[table.invite_token]),
    }


def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.prefetch_related("seats__user"), pk=table_id)
    if table.status == Table.Status.STARTED and table.game is not None:
        return redirect(table.game)
    if table.is_private and not table.has_user(request.user):
        return render(request, "lobby/private.html", {"table": table}, status=404)
    return render(request, "lobby/table.html", table_context(table, request.user))


def invite(request: HttpRequest, token: str) -> HttpResponse:
    table = get_object_or_404(Table.objects.prefetch_related("seats__user"), invite_token=token)
    if table.game is not None:  # no query when the table has no game yet
        return redirect(table.game)
    return render(request, "lobby/table.html", table_context(table, request.user, invited=True))


def _table_action(action):
    """POST-only, logged-in table actions: a refusal becomes a message, never a 500."""

    @login_required
    @require_POST
    def view(request: HttpRequest, table_id: int) -> HttpResponse:
        try:
            table = action(table_id, request.user)
        except Rejected as exc:
            messages.error(request, exc.message)
            if exc.status == 404:
                return redirect("lobby:index")
            return redirect("lobby:table", table_id=table_id)
        if table.game_id:
            return redirect(table.game)
        if table.status == Table.Status.CANCELLED:
            messages.info(request, "The table was closed.")
            return redirect("lobby:index")
        return redirect(table)

    view.__name__ = action.__name__
    return view


def join_private(request: HttpRequest, token: str) -> HttpResponse:
    table = get_object_or_404(Table, invite_token=token)

    def join_with_token(table_id, user):
        return services.join(table_id, user, token=token)

    return _table_action(join_with_token)(request, table.pk)


join = _table_action(services.join)
leave = _table_action(services.leave)
add_bot = _table_action(services.add_bot)
remove_bot = _table_action(services.remove_bot)
start = _table_action(services.start)
