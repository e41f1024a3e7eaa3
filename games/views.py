"""Game pages. Every write goes through games.engine; every answer is the seat's panel."""
from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language, gettext as _
from django.views.decorators.http import require_POST

from config.abuse import limited
from config.http import AuthenticatedHttpRequest, HtmxHttpRequest
from config.inputs import InputError, clean_text, parse_json
from config.shell import shell_page

from . import engine, presenters, shell
from . import rules as registry
from .engine import Outcome, Rejected
from .models import Game
from .my_games import my_games_context, my_games_html
from .notify import games_waiting_for_users
from .record import export_record
from .panel import page_panel_context
from .replay import step_seqs
from .replay_page import (REPLAY_FRAGMENT_SECONDS, REPLAY_PAGE, replay_context, replay_fragment,  # noqa: F401
                          replay_page_context, replay_page_key)

MAX_ACTION_BYTES = 10_000
OOB_SWAP = ' hx-swap-oob="true"'


class GameUnavailable(Exception):
    """The game's package is no longer installed: its pages say so instead of failing."""


def _game(game_id: int, *, without_state: bool = False, with_seats: bool = True) -> Game:
    """The game with its seats (unless `with_seats` is False); `without_state` leaves the
    (large) state unread until used."""
    games = Game.objects.prefetch_related("seats__user") if with_seats else Game.objects.all()
    game = get_object_or_404(games.defer("state") if without_state else games, pk=game_id)
    if not game.is_available:
        raise GameUnavailable
    return game


def unavailable(request: HttpRequest) -> HttpResponse:
    return render(request, "404.html", {"message": _("This game is no longer available on this site.")},
                  status=404)


def play(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = _game(game_id)
    except GameUnavailable:
        return unavailable(request)
    context = page_panel_context(game, request.user, selection=request.GET.get("sel", ""))
    context["panel_html"] = shell.render_panel(context)
    return render(request, "games/play.html", context)


def panel(request: HttpRequest, game_id: int) -> HttpResponse:
    """The panel alone, e.g. after choosing a die or a tile (a selection)."""
    try:
        game = _game(game_id)
    except GameUnavailable:
        return unavailable(request)
    selection = request.GET.get("sel", "")
    return HttpResponse(shell.render_panel(page_panel_context(game, request.user, selection=selection)))


def _parse_action(raw: str):
    try:
        return parse_json(raw, max_bytes=MAX_ACTION_BYTES)
    except InputError as exc:
        raise Rejected(str(exc), 400) from None


def _parse_version(raw: str | None) -> int | None:
    try:
        return int(raw) if raw not in (None, "") else None
    except ValueError:
        raise Rejected(_("The page version could not be read."), 400) from None


def _parse_turn(raw: str | None) -> str | None:
    """The page's `seat_turn` key; None when the client sent none (API, old pages)."""
    if not raw:
        return None
    try:
        return clean_text(raw, max_length=64, too_long=_("The page's turn key is too long."),
                          not_allowed=_("The page's turn key holds characters that are not allowed."))
    except InputError as exc:
        raise Rejected(str(exc), 400) from None


def _parse_token(raw: str | None) -> str:
    """The submission's token (one per rendered page; repeated = a double click)."""
    try:
        return clean_text(raw or "", max_length=64, too_long=_("The move token is too long."),
                          not_allowed=_("The move token holds characters that are not allowed."))
    except InputError as exc:
        raise Rejected(str(exc), 400) from None


def _answer(request: HttpRequest, game_id: int, *, message: str, status: int = 200, error: bool = False,
            outcome: Outcome | None = None) -> HttpResponse:
    """The panel after a submission: from the engine's Outcome when there is one (its game,
    no re-read; its pushed panel, no second render)."""
    game = outcome.game if outcome is not None else _game(game_id)
    pushed = outcome.panels.get((game.seat_of(request.user), get_language())) if outcome is not None else None
    if pushed and not message and not error:
        # The publisher just drew this seat's panel for its sockets: the same HTML, swapped
        # in place rather than out of band, is the answer (one render fewer per move).
        return HttpResponse(pushed.replace(OOB_SWAP, "", 1), status=status)
    return HttpResponse(shell.render_panel(page_panel_context(game, request.user, message=message, error=error)),
                        status=status)


def _refusal(request: HttpRequest, game_id: int, exc: Rejected) -> HttpResponse:
    if exc.status == 404:
        return render(request, "games/_message.html", {"message": exc.message}, status=404)
    return _answer(request, game_id, message=exc.message, status=exc.status, error=True)


@require_POST
@limited("moves")
def act(request: HttpRequest, game_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "games/_message.html", {"message": _("Log in to play.")}, status=403)
    try:
        action = _parse_action(request.POST.get("action", ""))
        outcome = engine.submit(game_id, request.user, action, token=_parse_token(request.POST.get("token")),
                                seen_version=_parse_version(request.POST.get("version")),
                                seen_turn=_parse_turn(request.POST.get("turn")))
    except Rejected as exc:
        return _refusal(request, game_id, exc)
    return _answer(request, game_id, message=outcome.message, status=outcome.status,
                   error=outcome.status >= 400, outcome=outcome)


@require_POST
@limited("moves")
def undo(request: HttpRequest, game_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "games/_message.html", {"message": _("Log in to play.")}, status=403)
    try:
        outcome = engine.undo(game_id, request.user)
    except Rejected as exc:
        return _refusal(request, game_id, exc)
    return _answer(request, game_id, message=outcome.message, outcome=outcome)


def replay(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Step through a finished game, rebuilt from its seed and moves."""
    try:
        game = _game(game_id, without_state=True, with_seats=False)  # a cached step needs neither
    except GameUnavailable:
        return unavailable(request)
    if game.is_active and not request.user.is_superuser:
        if request.htmx:
            return render(request, "games/_message.html",
                          {"message": _("The replay opens when the game is over.")}, status=403)
        return render(request, "games/replay_closed.html", {"game": game}, status=403)
    step = _replay_step(request, len(step_seqs(game)))
    if request.htmx:
        return HttpResponse(replay_fragment(game, step))
    # The cached step in the game's page, itself kept with only the visitor's header drawn
    # per visit (config.shell): a repeat visit replays and draws nothing of the game (issue 21).
    return shell_page(request, REPLAY_PAGE, lambda: replay_page_context(game),
                      replay_page_key(game, request.user.is_authenticated), REPLAY_FRAGMENT_SECONDS,
                      parts={"replay_body": replay_fragment(game, step)})


def _replay_step(request: HttpRequest, last: int) -> int:
    try:
        return max(0, min(last, int(request.GET.get("step", last))))
    except ValueError:
        return last


def record(request: HttpRequest, game_id: int) -> HttpResponse:
    """The open game record (docs/game-record.md): complete once the game is over, or for
    admins; while it is in progress, only what a spectator sees."""
    game = _game(game_id)
    data = export_record(game, full=not game.is_active or request.user.is_superuser)
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="{game.game_slug}-{game.pk}.json"'
    return response


def how_to_play(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's rules in the project's own words: its package's how_to_play.html, or a
    generic page from the rules' title, player counts and options until it has one."""
    try:
        rules = registry.get(slug)
    except KeyError:
        return render(request, "404.html", {"message": _("There is no game by that name here.")}, status=404)
    context = {"rules": rules, "rulesets": registry.all(), "variants": presenters.option_specs_shown(slug)}
    context.update(presenters.how_to_play_context(slug))
    return render(request, presenters.how_to_play_template(slug), context)


ARCHIVE_FILTERS = ("status", "game", "player", "kind")


def game_list(request: HttpRequest) -> HttpResponse:
    """Every game, newest first; the archive's filters: status, game, player, rated/casual."""
    games = Game.objects.defer("state").prefetch_related("seats__user").order_by("-updated")
    chosen = {name: request.GET.get(name, "").strip() for name in ARCHIVE_FILTERS}
    if chosen["status"] in Game.Status.values:
        games = games.filter(status=chosen["status"])
    if chosen["game"] in registry.slugs():
        games = games.filter(game_slug=chosen["game"])
    if chosen["player"]:
        games = games.filter(seats__user__username=chosen["player"])
    if chosen["kind"] in ("rated", "casual"):
        games = games.filter(is_rated=chosen["kind"] == "rated")
    page = Paginator(games, 25).get_page(request.GET.get("page"))
    query = urlencode({k: v for k, v in chosen.items() if v})
    return render(request, "games/list.html", {
        "page": page, "status": chosen["status"], "chosen": chosen, "query": query,
        "rulesets": registry.all(), "statuses": Game.Status.choices,
    })


def _seat_action(engine_call):
    """POST-only seat actions (take back, resign, abort, rematch): the engine decides,
    the answer is the fresh panel with its message."""

    @require_POST
    def view(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
        if not request.user.is_authenticated:
            return render(request, "games/_message.html", {"message": _("Log in to play.")}, status=403)
        try:
            outcome = engine_call(game_id, request.user)
        except Rejected as exc:
            return _refusal(request, game_id, exc)
        response = _answer(request, game_id, message=outcome.message, outcome=outcome)
        if outcome.started is not None and request.htmx:
            # An accepted rematch: this player's page goes to the new game at once (the
            # others' pages follow the pushed panel's data-redirect).
            response["HX-Redirect"] = outcome.started.game.get_absolute_url()
        return response

    view.__name__ = engine_call.__name__
    return view


take_back = _seat_action(engine.take_back)
resign = _seat_action(engine.resign)
abort = _seat_action(lambda game_id, user: engine.abort(game_id, by_user=user, reason="a player aborted"))
accept_rematch = _seat_action(engine.accept_rematch)
decline_rematch = _seat_action(engine.decline_rematch)


@login_required
def my_turns(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "games/_turn_badge.html", {"turn_count": len(games_waiting_for(request.user))})


def games_waiting_for(user) -> list[Game]:
    """The user's active games waiting for their move: one query, no game state loaded."""
    if not user.is_authenticated:
        return []
    return games_waiting_for_users({user.pk})[user.pk]


@login_required
def my_games(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.htmx:   # the box's live refresh: kept while nothing it shows has changed
        return HttpResponse(my_games_html(request.user))
    return render(request, "games/my_games.html", my_games_context(request.user))
