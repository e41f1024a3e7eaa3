from __future__ import annotations

from django.conf import settings
from django.db.models import Q
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, pgettext_lazy
from django.views.decorators.http import require_POST

from config.abuse import limited
from config.http import HtmxHttpRequest
from games import rules as registry
from games.engine import Rejected
from games.rules import levels
from games.my_games import my_games_html
from social import filters as lobby_filters

from . import live, services
from .kept import recently_finished_html
from .forms import TableForm
from .models import Table, TableSeat


def open_tables(user):
    """Public open tables, plus the private ones the user sits at."""
    visible = Q(is_private=False)
    if user.is_authenticated:  # in SQL, so a crowd of private tables costs the page nothing
        visible |= Q(pk__in=TableSeat.objects.filter(user=user).values("table_id"))
    tables = Table.objects.filter(visible, status=Table.Status.OPEN)
    return list(tables.select_related("host").prefetch_related("seats__user"))


def lobby_context(user) -> dict:
    """The open tables as `user` sees them (the page, its refresh and the lobby's socket)."""
    return {"tables": lobby_filters.apply(user, open_tables(user)), "rulesets": registry.all()}


def index(request: HttpRequest) -> HttpResponse:
    lobby_filters.remember(request)  # the player's filters, kept for the next visit
    # Read before the tables: a change after it reaches the page's socket when it opens.
    seen = live.lobby_fingerprint()
    # The home page leads with "my games"; both boxes are kept between visits (issue 21).
    mine = my_games_html(request.user) if request.user.is_authenticated else ""
    return render(request, "lobby/index.html", {
        **lobby_context(request.user), "live_version": seen,
        "my_games_html": mine, "recently_finished_html": recently_finished_html()})


def table_list(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby/index.html#table-list", lobby_context(request.user))


# What a switch of game keeps of the form (the game's own options and seat range change).
KEPT_ON_SWITCH = ("pace", "rated", "days_per_move", "clock", "clock_minutes", "clock_increment")
KEPT_CHECKBOXES = ("is_private", "chat_public")


def switched_game_form(data, slug: str | None) -> TableForm:
    """The form redrawn for another game, unbound (no errors shown yet), keeping what the
    player had chosen that does not depend on the game."""
    form = TableForm(game_slug=slug)
    kept = {name: data[name] for name in KEPT_ON_SWITCH if data.get(name)}
    kept.update({name: bool(data.get(name)) for name in KEPT_CHECKBOXES})
    seats = form.fields["seats"]
    low, high = getattr(seats, "min_value", None) or 1, getattr(seats, "max_value", None) or 1
    if (data.get("seats") or "").isdigit() and low <= int(data["seats"]) <= high:
        kept["seats"] = int(data["seats"])
    form.initial = {"game": form.fields["game"].initial, **kept}
    return form


@login_required
@limited("tables")   # posts only: switching game (a GET) never counts toward the limit
def create(request: HtmxHttpRequest) -> HttpResponse:
    slug = request.POST.get("game") or request.GET.get("game")
    if request.GET.get("refresh") or request.POST.get("refresh"):   # another game chosen
        form = switched_game_form(request.GET if request.method == "GET" else request.POST, slug)
        template = "lobby/create.html#table-form" if request.htmx else "lobby/create.html"
        return render(request, template, {"form": form})
    form = TableForm(request.POST or None, game_slug=slug)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        table = services.create_table(
            request.user, game_slug=data["game"], seats_count=data["seats"], options=data["options"],
            is_private=data["is_private"], pace=data["pace"], days_per_move=data["days_per_move"],
            is_rated=data["is_rated"], chat_public=data["chat_public"],
            clock_minutes=data["clock_minutes"], clock_increment=data["clock_increment"],
            min_rating=data.get("min_rating"), max_rating=data.get("max_rating"),
        )
        return redirect(table.game or table)
    template = "lobby/create.html#table-form" if request.htmx else "lobby/create.html"
    return render(request, template, {"form": form})


# The bot levels' names as pages show them (games.rules.levels.NAMES, translated).
BOT_LEVELS = {1: pgettext_lazy("bot level", "beginner"), 2: pgettext_lazy("bot level", "casual"),
              3: pgettext_lazy("bot level", "greedy"), 4: pgettext_lazy("bot level", "planner"),
              5: pgettext_lazy("bot level", "strong")}


def table_context(table: Table, user, *, invited: bool = False) -> dict:
    return {
        "table": table,
        "user": user,
        "seated": table.has_user(user),
        "has_bot": any(s.is_bot for s in table.seats.all()),
        "free_range": range(max(0, table.free)),
        "invited": invited,
        "invite_url": settings.SITE_URL + reverse("lobby:invite", args=[table.invite_token]),
        "bot_levels": [(level, str(name)) for level, name in BOT_LEVELS.items()],
    }


def table_detail(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    seen = live.table_fingerprint(table_id)  # before the table is read (lobby.consumers)
    table = get_object_or_404(Table.objects.prefetch_related("seats__user"), pk=table_id)
    if table.is_private and not table.has_user(request.user):
        return render(request, "lobby/private.html", {"table": table}, status=404)
    if request.htmx:   # the card alone, as a page that polls asks for it (lobby.live)
        return render(request, "lobby/table.html#table-card", table_context(table, request.user))
    if table.status == Table.Status.STARTED and table.game is not None:
        return redirect(table.game)
    return render(request, "lobby/table.html", {**table_context(table, request.user), "live_version": seen})


def live_version(request: HttpRequest, kind: str, object_id: int | None = None) -> HttpResponse:
    """The fingerprint of what a page shows (lobby.live): the page polls it and fetches its
    fragment again when it changes. Never cached."""
    found: str | None
    if kind in ("game", "table") and object_id is None:
        found = None
    elif kind == "game" and object_id is not None:
        found = live.game_fingerprint(object_id)
    elif kind == "table" and object_id is not None:
        table = Table.objects.filter(pk=object_id).first()
        visible = table is not None and (not table.is_private or table.has_user(request.user))
        found = live.table_fingerprint(object_id) if visible else None
    elif kind == "me":
        found = live.badge_fingerprint(request.user) if request.user.is_authenticated else None
    else:
        found = live.lobby_fingerprint()
    if found is None:
        raise Http404(_("Nothing to follow here."))
    response = HttpResponse(found, content_type="text/plain")
    response["Cache-Control"] = "no-store"
    return response


def turn_badge(request: HttpRequest) -> HttpResponse:
    """The "your turn" badge alone, for a page that polls (lobby.live)."""
    from games.views import games_waiting_for

    waiting = games_waiting_for(request.user) if request.user.is_authenticated else []
    return render(request, "games/_turn_badge.html", {"turn_count": len(waiting)})


def invite(request: HttpRequest, token: str) -> HttpResponse:
    table_id = Table.objects.filter(invite_token=token).values_list("pk", flat=True).first()
    seen = live.table_fingerprint(table_id) if table_id else None  # before the table is read
    table = get_object_or_404(Table.objects.prefetch_related("seats__user"), invite_token=token)
    if table.game is not None:  # no query when the table has no game yet
        return redirect(table.game)
    return render(request, "lobby/table.html",
                  {**table_context(table, request.user, invited=True), "live_version": seen})


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
            messages.info(request, _("The table was closed."))
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


def add_bot(request: HttpRequest, table_id: int) -> HttpResponse:
    """"Add a bot" with the level the host picked (the greedy level 3 when none is sent)."""
    level = request.POST.get("level") or str(levels.GREEDY)
    chosen = int(level) if level in {str(n) for n in levels.LEVELS} else 0  # 0: refused with a message

    def add_bot(table_id: int, user) -> Table:
        return services.add_bot(table_id, user, level=chosen)

    return _table_action(add_bot)(request, table_id)


remove_bot = _table_action(services.remove_bot)
start = _table_action(services.start)
