"""The publisher: runs an engine change in its transaction, then tells the world.

The engine's functions (games.moves, games.finishing, games.rematch) change a game and
return an Outcome; they never send, render or enqueue anything. The publisher is the one
place that acts on an Outcome (lila's RoundAsyncActor publishing MovePlayer's events):

- inside the transaction: each (re)started clock gets its deadline task (and, through the
  seat_clock_started signal, its mails); a new rematch offer gets its expiry task. A rolled-back
  change leaves no task behind, and no committed change lacks its deadline.
- after the commit: the acting seat's panel is rendered at once, in the caller's language
  (kept on the Outcome's `panels`: the mover's answer is that very HTML); every other
  listened audience and language (issue 23) is rendered after the answer, on the process's
  push line (games.deferred, issue 21), and each audience is sent only what changed since
  its previous push (games.regions), with the players' turn badges in their languages.

The public entry points (`submit`, `resign`, `accept_rematch`, ...) are these published
versions; games.engine re-exports them under the names the rest of the site calls. The
deadline tasks live here too: a deadline runs an engine change and publishes it, and
scheduling the next deadline is publishing.

Layers, each importing only those before it:
models -> clocks -> core -> finishing -> moves -> rematch -> panel -> publisher -> engine.
"""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, Callable

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone, translation
from django_tasks import task

from config.i18n import language_of

from . import deferred, finishing, moves, notify, regions, rematch
from .core import Outcome, Rejected, SeatPlan, searching_bot_to_move
from .models import Game, Seat
from .panel import render_panel_for_seat
from .signals import seat_clock_started

log = logging.getLogger(__name__)


def published(change: Callable[..., Outcome], *args: Any, **kwargs: Any) -> Outcome:
    """Run one engine change in a transaction and publish its Outcome."""
    with transaction.atomic():
        outcome = change(*args, **kwargs)
        schedule(outcome)
        if outcome.changed:
            transaction.on_commit(lambda: send(outcome))
    return outcome


# --- Inside the transaction: deadlines -------------------------------------------------

def schedule(outcome: Outcome) -> None:
    now = timezone.now()
    for seat in outcome.clocks_started.values():
        schedule_seat(outcome.game, seat, now, mail=outcome.turn_mails)
    if outcome.rematch_offered is not None:
        expire_rematch.using(run_after=rematch.deadline(outcome.rematch_offered)).enqueue(outcome.game.pk)
    if outcome.changed and searching_bot_to_move(outcome.game):
        play_bot_turn.enqueue(outcome.game.pk)
    if outcome.started is not None:
        schedule(outcome.started)


def schedule_seat(game: Game, seat: Seat, now: datetime, *, mail: bool = True) -> None:
    """A seat's clock (re)started: its deadline; the mail side (games.tasks, a receiver of
    seat_clock_started) adds the turn and reminder mails of a correspondence seat."""
    if seat.deadline is None:
        return
    expire_clock.using(run_after=seat.deadline).enqueue(game.pk, seat.index)
    seat_clock_started.send(sender=Game, game=game, seat=seat, now=now, mail=mail)


# --- After the commit: pages -----------------------------------------------------------

def send(outcome: Outcome) -> None:
    """Every listened audience's new panel, and the players' turn badges (one trip).

    Issue 21: only the acting seat's panel is drawn here, in the caller's language (the
    mover's answer is that very HTML, swapped in place); the other audiences are drawn and
    pushed after the answer (games.deferred), in the order of the game's changes."""
    game = outcome.game
    seats = sorted({s.index for s in game.seats.all() if s.user_id})
    listened = notify.listened_languages(game.pk, [*seats, None])
    language = translation.get_language() or settings.LANGUAGE_CODE
    if outcome.seat is not None and (outcome.seat, language) in listened:
        outcome.panels[(outcome.seat, language)] = render_panel_for_seat(game, outcome.seat, oob=True)
    # A deferred job sends on the server's loop (games.deferred); an inline one as before.
    loop = deferred.server_loop()
    sender = loop if deferred.deferring(loop) else None
    deferred.defer(lambda: push(game, listened, outcome.panels, sender), loop)


def push(game: Game, listened: list[tuple[int | None, str]], renders: dict[tuple[int | None, str], str],
         loop=None) -> None:
    """Draw each listened audience's panel not drawn yet (into `renders`), cut each into
    what changed since its last push (games.regions), and send them with the badges. A
    render that fails is logged and skipped: the others still go (its pages heal)."""
    for seat, language in listened:
        if (seat, language) in renders:
            continue
        try:
            with translation.override(language):
                renders[(seat, language)] = render_panel_for_seat(game, seat, oob=True)
        except Exception:
            log.exception("rendering game %s's panel for seat %s (%s) failed", game.pk, seat, language)
    by_audience: dict[int | None, dict[str, str]] = {}
    for (seat, language), html in pushed_messages(game, renders).items():
        by_audience.setdefault(seat, {})[language] = html
    # One message per audience group: "html" for a socket of the site's default language (and
    # any older consumer), "html_by_language" for the rest (games.consumers picks its own).
    messages = [(notify.audience_group(game.pk, seat),
                 {"type": "game.panel", "html": texts.get(settings.LANGUAGE_CODE) or next(iter(texts.values())),
                  "html_by_language": texts})
                for seat, texts in by_audience.items()]
    users = {s.user_id for s in game.seats.all() if s.user_id}
    known = {s.user_id: language_of(s.user) for s in game.seats.all() if s.user_id and Seat.user.is_cached(s)}
    everything = messages + notify.badge_messages(users, known)
    if loop is None:
        notify.send_many(everything)
    else:
        notify.send_many(everything, loop=loop)


REGIONS_SECONDS = 6 * 3600


def regions_key(game: Game, seat: int | None, language: str) -> str:
    # The creation time too: a game id used again (a test's rolled-back game) never meets
    # another game's fingerprint.
    return f"live-regions:{game.pk}:{game.created.timestamp()}:{'s' if seat is None else seat}:{language}"


def pushed_messages(game: Game, renders: dict[tuple[int | None, str], str]) -> dict[tuple[int | None, str], str]:
    """{(seat, language): what its sockets get}: the regions that changed since the
    audience's last push, or the full panel (games.regions says when). One cache read and
    one write for all audiences."""
    keys = {audience: regions_key(game, *audience) for audience in renders}
    try:
        before = cache.get_many(list(keys.values()))
    except Exception:  # a cache away: full panels, as before issue 21
        log.exception("reading the live regions of game %s failed", game.pk)
        before = {}
    out, remember = {}, {}
    for audience, html in renders.items():
        part = regions.split(html)
        if part is None:
            out[audience] = html
            continue
        last = before.get(keys[audience])
        now = regions.fingerprint(part, last)
        out[audience] = regions.delta(part, last, now) or html
        if last is None or float(last.get("revision") or 0) < float(part.revision or 0):
            remember[keys[audience]] = now
    try:
        cache.set_many(remember, REGIONS_SECONDS)
    except Exception:
        log.exception("saving the live regions of game %s failed", game.pk)
    return out


def game_changed(game: Game | int) -> None:
    """Redraw a game's pages for a change made outside the engine (e.g. an admin edit)."""
    if not isinstance(game, Game):
        game = Game.objects.prefetch_related("seats__user").get(pk=game)
    send(Outcome(game, None, applied=True, changed=True))


# --- The entry points (games.engine re-exports them) -----------------------------------

def start_game(slug: str, plans: list[SeatPlan], options: dict, **kwargs: Any) -> Game:
    return published(moves.start_game, slug, plans, options, **kwargs).game


def submit(game_id: int, user, action: Any, **kwargs: Any) -> Outcome:
    return published(moves.submit, game_id, user, action, **kwargs)


def undo(game_id: int, user) -> Outcome:
    return published(moves.undo, game_id, user)


def take_back(game_id: int, user) -> Outcome:
    return published(moves.take_back, game_id, user)


def play_bots(game_id: int) -> Game:
    return published(moves.play_bots_now, game_id).game


def resign(game_id: int, user) -> Outcome:
    return published(finishing.resign, game_id, user)


def abort(game_id: int, by_user=None, reason: str = "") -> Outcome:
    """A player's abort (allowed until everyone has moved), or the staff's (by_user None)."""
    if by_user is None:
        return published(finishing.abort_by_staff, game_id, reason=reason)
    return published(finishing.abort, game_id, by_user, reason)


def abort_game(game_id: int, *, by=None, reason: str = "") -> Game:
    """The admin's "abort": at any time, `by` the staff member."""
    return published(finishing.abort_by_staff, game_id, by=by, reason=reason).game


def expire(game_id: int, seat_index: int) -> bool:
    """A seat's deadline: whether the seat timed out (a no-op when the game moved on)."""
    try:
        return published(finishing.expire, game_id, seat_index).applied
    except Rejected:  # the game was deleted
        return False


def accept_rematch(game_id: int, user) -> Outcome:
    return published(rematch.accept, game_id, user)


def decline_rematch(game_id: int, user) -> Outcome:
    return published(rematch.decline, game_id, user)


def expire_rematch_offer(game_id: int) -> bool:
    try:
        return published(rematch.expire, game_id).applied
    except Rejected:
        return False


def vacation_changed(user) -> int:
    """The user's vacation began, moved or ended: their running correspondence clocks
    pause until it ends (or resume now), one game per transaction. Returns how many."""
    game_ids = moves.vacation_games(user)
    for game_id in game_ids:
        published(moves.vacation_changed_in, game_id, user)
    return len(game_ids)


# --- Deadline tasks (run by `manage.py db_worker`) -------------------------------------

@task()
def expire_clock(game_id: int, seat_index: int) -> bool:
    return expire(game_id, seat_index)


@task()
def play_bot_turn(game_id: int) -> bool:
    """A bot of level 4-5 makes its move here, in the worker, under its time budget (the
    move is published like any other; a next searching bot gets a task of its own)."""
    try:
        return published(moves.play_bots_now, game_id, search=True).applied
    except Rejected:  # the game was deleted
        return False


@task()
def expire_rematch(game_id: int) -> bool:
    """The rematch offer's deadline (a no-op if it was settled meanwhile)."""
    return expire_rematch_offer(game_id)
