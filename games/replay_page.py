"""A finished game's replay as pages show it: one step's board, scores and history (the
fragment the replay's buttons fetch, kept in the cache per reader's language and time zone),
and the first and last steps drawn ahead for the players when the game ends (issue 21)."""
from __future__ import annotations

from django.core.cache import cache
from django.db.models import prefetch_related_objects
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import get_language
from django_tasks import task

from config.i18n import in_users_language, language_of, zone_of
from config.shell import keep_shell

from . import presenters
from .finishing import ending_sentences
from .models import Game
from .panel import numbered_history, seat_names, with_bars
from .replay import replay_step, step_seqs, write_checkpoints
from .replay_marks import made_by_stand_in, stand_in_notes

REPLAY_PAGE = "games/replay.html"
REPLAY_FRAGMENT_SECONDS = 600
DRAWN_AHEAD_SECONDS = 24 * 3600  # the steps drawn when the game ends: its players' first look


def replay_fragment(game: Game, step: int, seconds: int = REPLAY_FRAGMENT_SECONDS) -> str:
    """One replay step's board, scores and history, cached: a finished game never changes,
    and the fragment holds nothing of the visitor's, so paging back and forth or many
    viewers of one replay cost a cache read. The key carries the game's last change, so an
    admin watching a game still in progress never sees an old board; it carries the
    reader's language and time zone too."""
    key = f"replay:{replay_key(game, step)}"
    html = cache.get(key)
    if html is None:
        if "seats" not in getattr(game, "_prefetched_objects_cache", {}):
            prefetch_related_objects([game], "seats__user")   # names, stand-ins: one read
        html = render_to_string(f"{REPLAY_PAGE}#replay-body", replay_context(game, step))
        cache.set(key, html, seconds)
    return html


def replay_page_key(game: Game, authenticated: bool) -> str:
    """The page around a game's steps (the same for all of them) for one reader."""
    return f"replay-page:{replay_key(game, None)}:{int(authenticated)}"


def replay_page_context(game: Game) -> dict:
    """The replay page's context but its step (`replay_body`, a part config.shell fills)."""
    return {"game": game, **presenters.board_assets(game.game_slug)}


def draw_replay_ends(game: Game, *, authenticated: bool) -> int:
    """The first and last steps' fragments and the page around them drawn ahead in the active
    language and time zone (write_replay_checkpoints draws them for each player's) for a
    reader logged in or not: the replay opens on the last step, and paging starts from
    either end. Returns how many of the three were drawn (not kept already)."""
    drawn = 0
    for step in sorted({0, len(step_seqs(game))}):
        if cache.get(f"replay:{replay_key(game, step)}") is None:
            replay_fragment(game, step, DRAWN_AHEAD_SECONDS)
            drawn += 1
    key = replay_page_key(game, authenticated)
    if cache.get(key) is None:
        keep_shell(key, REPLAY_PAGE, replay_page_context(game), ["replay_body"], authenticated=authenticated,
                   seconds=DRAWN_AHEAD_SECONDS)
        drawn += 1
    return drawn


def replay_key(game: Game, step: int | None) -> str:
    """A step of a game (None: what all its steps share) as one reader sees it: the game's
    last change (an admin watching a game in progress never sees an old board), the
    reader's words and clock."""
    where = f"{get_language()}:{timezone.get_current_timezone_name()}"
    shown = "" if step is None else step
    return f"{game.pk}:{game.game_slug}:{game.updated.timestamp()}:{game.version}:{shown}:{where}"


def replay_context(game: Game, step: int) -> dict:
    # Only the moves up to the step are replayed: early steps of long games stay cheap.
    # Steps skip in-turn corrections (games.replay): step k shows move seqs[k-1].
    seqs = step_seqs(game)
    last = len(seqs)
    step = max(0, min(step, last))
    rules = game.rules
    names = seat_names(game)
    shown = replay_step(game, seqs[step - 1] if step else 0, names)
    state, move = shown.state, shown.move
    view = rules.view(state, None)
    context = {
        "game": game, "rules": rules, "view": view, "names": names, "seats": game.ordered_seats(),
        "step": step, "last": last, "prev": max(0, step - 1), "next": min(last, step + 1),
        "move": move, "move_label": shown.caption,
        "move_by_stand_in": made_by_stand_in(game, move),
        "stand_in_notes": stand_in_notes(game, move.seq if move else 0),
        "scores": with_bars([{"name": names[i], "index": i, "total": s["total"], "rank": None,
                               "breakdown": s["breakdown"], "parts": list(s["breakdown"].values())}
                              for i, s in enumerate(rules.scores(state))]),
        "history": numbered_history(game.game_slug, view, names),
        "ending": ending_sentences(game) if step == last and not game.is_active else [],
        "legal": [], "seat": None, "replay": True, "selection": "", "token": "", "version": step,
    }
    context["board_template"] = presenters.board_template(game.game_slug)
    context.update(presenters.board_context(game.game_slug, context))
    return context


# --- When a game ends: its replay written and drawn ahead by the worker (issue 21). These
# tasks live here, not in games.tasks: they replay the game, and the mail tasks reach back
# into no engine layer (tests/games/test_engine_layers.py).

def schedule_replay_checkpoints(sender, game: Game, **kwargs) -> None:
    """games.signals.game_finished's receiver (GamesConfig.ready): the replay's checkpoints
    are written by the worker, not by the first visitor. Enqueued inside the finishing
    transaction (a database task row): a rolled-back ending leaves no task, and the worker
    sees the task only once the ending is committed."""
    write_replay_checkpoints.enqueue(game.pk)


@task()
def write_replay_checkpoints(game_id: int) -> int:
    """Replay the finished game once and keep its checkpoints and steps (games.replay.
    write_checkpoints), then draw its first and last steps for its readers. Safe to run twice
    or on two workers at once (it writes only what is missing), and a dead worker's run is
    re-run by run_worker's sweep; a visit before it ran (or after the cache lost them) still
    computes and keeps them itself."""
    game = Game.objects.defer("state").prefetch_related("seats__user").filter(pk=game_id).first()
    if game is None or game.is_active or not game.is_available:
        return 0
    written = write_checkpoints(game)
    draw_replay_ends_for_readers(game)
    return written


def draw_replay_ends_for_readers(game: Game) -> None:
    """The replay's first and last steps drawn ahead, fragment and page, in each player's
    language and time zone and the site's default (a visitor's): their first visit reads
    them (replay_fragment, config.shell)."""
    readers: dict[tuple[str, str, bool], object] = {
        (language_of(seat.user), str(zone_of(seat.user)), True): seat.user for seat in game.seats.all() if seat.user}
    readers.setdefault((language_of(None), str(zone_of(None)), False), None)  # a visitor, logged out
    for (_language, _zone, logged_in), reader in readers.items():
        with in_users_language(reader):
            draw_replay_ends(game, authenticated=logged_in)
