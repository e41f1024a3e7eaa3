"""Playing a game (lila's MovePlayer): start it, submit a move, take one back, take a seat
back from the bot, let bots move, pause clocks for a vacation.

Each function runs inside the transaction games.publisher opens (it locks the game row)
and returns an Outcome; the publisher schedules the deadlines and sends the pages.
"""
from __future__ import annotations

import random
import secrets
from typing import Any

from django.db.models import prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_noop

from . import clocks
from .core import (
    STALE_MESSAGE, Outcome, Rejected, SeatPlan, locked, my_seat, play_bots, record, remember_saved, replay_state,
    save_changes, seated_in_running_game, seats_with_users, sync_clocks,
)
from .finishing import after_change, is_past_deadline, time_out
from .models import Game, Pace, Seat
from .rules import get
from .rules.base import IllegalAction

LATE_MESSAGE = gettext_noop(  # translated where it is shown: _(LATE_MESSAGE)
    "Your time ran out before this move arrived: a bot plays your seat now (take it back to play on).")


def start_game(slug: str, plans: list[SeatPlan], options: dict, *, pace: str = Pace.LIVE,
               days_per_move: int | None = None, clock_minutes: int | None = None, clock_increment: int = 0,
               seed: int | None = None, shuffle: bool = True, rated: bool = True) -> Outcome:
    """Create a Game with a fresh random seed and the seats in random order.

    `rated` is the host's choice; a game is rated only when, from the start, every seat is a
    different registered player (no bot, not solo).
    """
    rules = get(slug)
    options = rules.validate_options(len(plans), options)
    seed = secrets.randbits(62) if seed is None else seed
    order = list(plans)
    if shuffle:
        random.SystemRandom().shuffle(order)
    game = Game.objects.create(
        game_slug=slug, rules_version=rules.version, options=options, seed=seed,
        players=len(order), state=rules.setup(len(order), options, seed),
        pace=pace, days_per_move=days_per_move if pace == Pace.CORRESPONDENCE else None,
        clock_minutes=clock_minutes if pace == Pace.LIVE else None,
        clock_increment=clock_increment if pace == Pace.LIVE and clock_minutes else 0,
        is_rated=rated and _people_only(order),
    )
    Seat.objects.bulk_create(
        Seat(game=game, index=i, user=plan.user, is_bot=plan.is_bot, bot_level=plan.bot_level if plan.is_bot else None)
        for i, plan in enumerate(order)
    )
    prefetch_related_objects([game], seats_with_users())
    remember_saved(game)
    started: dict[int, Seat] = {}
    play_bots(game, started)
    after_change(game, started)
    save_changes(game)
    return Outcome(game, None, applied=True, changed=True, newly_waiting=set(game.to_act()),
                   clocks_started=started)


def _people_only(plans: list[SeatPlan]) -> bool:
    users = {plan.user.pk for plan in plans if plan.user is not None and not plan.is_bot}
    return len(plans) >= 2 and len(users) == len(plans)


def submit(game_id: int, user, action: Any, *, token: str = "", seen_version: int | None = None,
           seen_turn: str | None = None) -> Outcome:
    """Apply one player's action, or raise Rejected with nothing changed.

    `seen_turn` is the `seat_turn` key the submitting page was drawn under. When given and
    the seat's key is now different, the page is stale and the submission is refused (409)
    even if the action happens to be legal now: the player chose it looking at another
    board. Without it (API clients, old pages) only legality decides, as before.

    The clock is the law, not the worker: a move that arrives after the seat's deadline is
    refused (409) and the seat goes to the bot on the spot, as the deadline task would have
    done (so the Outcome is not applied, but changed).
    """
    token = (token or "")[:64]
    game = locked(game_id)
    seat = my_seat(game, user)
    if token and game.moves.filter(token=token).exists():
        # A double click or a retried request: the first answer stands.
        return Outcome(game, seat.index, applied=False, message=_("That move was already received."))
    if not game.is_active:
        raise Rejected(_("This game is over."), 409)
    if is_past_deadline(game, seat):
        late = time_out(game, seat)
        late.applied, late.message, late.status = False, _(LATE_MESSAGE), 409
        return late
    return _apply_move(game, seat.index, action, token, seen_version, seen_turn)


def _apply_move(game: Game, seat: int, action: Any, token: str, seen_version: int | None,
                seen_turn: str | None) -> Outcome:
    rules = game.rules
    if seen_turn is not None and seen_turn != rules.seat_turn(game.state, seat):
        raise Rejected(_(STALE_MESSAGE), 409)
    stale = seen_version is not None and seen_version != game.version
    waiting_before = set(rules.to_act(game.state))
    if seat not in waiting_before:
        raise Rejected(_(STALE_MESSAGE) if stale else _("It is not your turn."), 409)
    try:
        new_state = rules.apply(game.state, seat, action)
    except IllegalAction as exc:
        if stale:
            refusal = _("%(stale)s (%(reason)s)") % {"stale": _(STALE_MESSAGE), "reason": exc.message}
            raise Rejected(refusal, 409) from None
        raise Rejected(exc.message, 400) from None
    undoable = rules.undoable(game.state, seat, action, new_state)
    record(game, seat, action, new_state, token=token, undoable=undoable)
    started: dict[int, Seat] = {}
    sync_clocks(game, started, moved={seat})  # the mover's turn may end here, before any bot replies
    play_bots(game, started)
    after_change(game, started)
    save_changes(game)
    return Outcome(game, seat, applied=True, changed=True, newly_waiting=set(game.to_act()) - waiting_before,
                   clocks_started=started)


def undo(game_id: int, user) -> Outcome:
    """Take back the seat's last move, when the rules allow it (see Ruleset.undoable)."""
    game, my = seated_in_running_game(game_id, user)
    last = game.moves.order_by("-seq").first()
    if last is None or last.seat != my.index or last.by_bot:
        raise Rejected(_("There is no move of yours to take back."), 409)
    if not last.undoable:
        raise Rejected(_("That move cannot be taken back."), 409)
    before = replay_state(game, upto=game.version - 1)
    last.delete()
    game.state, game.version = before, game.version - 1
    started: dict[int, Seat] = {}
    after_change(game, started)
    save_changes(game)
    return Outcome(game, my.index, applied=True, changed=True, message=_("Move taken back."), clocks_started=started)


def play_bots_now(game_id: int, *, search: bool = False) -> Outcome:
    """Let bots move in a game that waits for them (e.g. after a seat became a bot); with
    `search`, the worker's call, a bot of level 4-5 makes its move too."""
    game = locked(game_id)
    started: dict[int, Seat] = {}
    if not (game.is_active and play_bots(game, started, search=search)):
        return Outcome(game, None, applied=False)
    after_change(game, started)
    save_changes(game)
    return Outcome(game, None, applied=True, changed=True, clocks_started=started)


def take_back(game_id: int, user) -> Outcome:
    """The player returns: the bot hands the seat over at once, with a clock that shows the
    time the player really has (never the 0:00 the timeout left)."""
    game, seat = seated_in_running_game(game_id, user)
    if seat.resigned:
        raise Rejected(_("You resigned this game: the bot plays your seat to the end."), 409)
    if seat.bot_since is None:
        return Outcome(game, seat.index, applied=False, message=_("You are already playing this seat."))
    seat.bot_since = None
    clocks.taken_back(game, seat)
    seat.save(update_fields=["bot_since"])
    started: dict[int, Seat] = {}
    after_change(game, started)
    save_changes(game)
    return Outcome(game, seat.index, applied=True, changed=True, message=_("Welcome back: the seat is yours again."),
                   newly_waiting=set(game.to_act()) & {seat.index}, clocks_started=started)


# --- Vacations ------------------------------------------------------------------------

def vacation_games(user) -> list[int]:
    """The user's games whose correspondence clock runs (or waits for a vacation's end)."""
    return list(Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE, game__pace=Pace.CORRESPONDENCE,
                                    running_since__isnull=False).values_list("game_id", flat=True))


def vacation_changed_in(game_id: int, user) -> Outcome:
    """The user's vacation began, moved or ended: their running clock in this game pauses
    until it ends (or resumes now). A clock whose deadline has already passed cannot be
    paused: the seat times out on the spot, as the deadline task would have done."""
    now = timezone.now()
    until = user.vacation_until if user.on_vacation(now) else now
    game = locked(game_id)
    seat = next((s for s in game.ordered_seats() if s.user_id == user.pk), None)
    if seat is None or not game.is_active:
        return Outcome(game, None, applied=False)
    if is_past_deadline(game, seat):
        return time_out(game, seat)
    started: dict[int, Seat] = {}
    if clocks.pause_for_vacation(seat, until, now):
        started[seat.index] = seat
    deadlines = [s.deadline for s in game.seats.all() if s.deadline is not None]
    game.turn_deadline = min(deadlines) if deadlines else None
    save_changes(game)
    return Outcome(game, seat.index, applied=True, changed=True, clocks_started=started, turn_mails=False)
