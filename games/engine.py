"""The only code that changes a game.

Each submission runs in one transaction: lock the game row, check the submission is
still valid, `apply`, append a Move, let bots answer, save the snapshot, and after
commit tell the channel groups. Errors are `Rejected` with an HTTP status and a message
a player understands; nothing is written when a submission is rejected.
"""
from __future__ import annotations

import json
import logging
import random
import secrets
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone

from . import clocks, notify
from .models import Game, Move, Pace, RematchOffer, Seat
from .replay import REPLAY_CHECKPOINT, replay_state, replay_states  # noqa: F401  (re-exported: moved to games.replay)
from .rules import bot_for
from .rules.base import IllegalAction

log = logging.getLogger(__name__)
STALE_MESSAGE = "The board changed since your page was drawn: here is the fresh one."


class Rejected(Exception):
    """A submission the site refuses; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class Outcome:
    game: Game
    seat: int | None
    applied: bool
    message: str = ""


@dataclass
class SeatPlan:
    """Who sits where when a game starts: a user, or a bot when `user` is None."""

    user: Any = None
    is_bot: bool = False


def start_game(slug: str, plans: list[SeatPlan], options: dict, *, pace: str = Pace.LIVE,
               days_per_move: int | None = None, clock_minutes: int | None = None, clock_increment: int = 0,
               seed: int | None = None, shuffle: bool = True, rated: bool = True) -> Game:
    """Create a Game with a fresh random seed and the seats in random order.

    `rated` is the host's choice; a game is rated only when, from the start, every seat is a
    different registered player (no bot, not solo).
    """
    from .rules import get

    rules = get(slug)
    options = rules.validate_options(len(plans), options)
    seed = secrets.randbits(62) if seed is None else seed
    order = list(plans)
    if shuffle:
        random.SystemRandom().shuffle(order)
    with transaction.atomic():
        game = Game.objects.create(
            game_slug=slug, rules_version=rules.version, options=options, seed=seed,
            players=len(order), state=rules.setup(len(order), options, seed),
            pace=pace, days_per_move=days_per_move if pace == Pace.CORRESPONDENCE else None,
            clock_minutes=clock_minutes if pace == Pace.LIVE else None,
            clock_increment=clock_increment if pace == Pace.LIVE and clock_minutes else 0,
            is_rated=rated and _people_only(order),
        )
        Seat.objects.bulk_create(
            Seat(game=game, index=i, user=plan.user, is_bot=plan.is_bot) for i, plan in enumerate(order)
        )
        prefetch_related_objects([game], _seats_with_users())
        _remember_saved(game)
        _play_bots(game)
        _after_change(game)
        _save_changes(game)
        waiting = set(game.to_act())
        transaction.on_commit(lambda: notify.game_changed(game, waiting))
    return game


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
    """
    token = (token or "")[:64]
    with transaction.atomic():
        game = _locked(game_id)
        seat = _my_seat(game, user).index
        if token and game.moves.filter(token=token).exists():
            # A double click or a retried request: the first answer stands.
            return Outcome(game, seat, applied=False, message="That move was already received.")
        if not game.is_active:
            raise Rejected("This game is over.", 409)
        rules = game.rules
        if seen_turn is not None and seen_turn != rules.seat_turn(game.state, seat):
            raise Rejected(STALE_MESSAGE, 409)
        stale = seen_version is not None and seen_version != game.version
        waiting_before = set(rules.to_act(game.state))
        if seat not in waiting_before:
            raise Rejected(STALE_MESSAGE if stale else "It is not your turn.", 409)
        try:
            new_state = rules.apply(game.state, seat, action)
        except IllegalAction as exc:
            if stale:
                raise Rejected(f"{STALE_MESSAGE} ({exc.message})", 409) from None
            raise Rejected(exc.message, 400) from None
        undoable = rules.undoable(game.state, seat, action, new_state)
        _record(game, seat, action, new_state, token=token, undoable=undoable)
        _play_bots(game)
        _after_change(game, moved={seat})
        _save_changes(game)
        newly_waiting = set(game.to_act()) - waiting_before
        transaction.on_commit(lambda: notify.game_changed(game, newly_waiting))
    return Outcome(game, seat, applied=True)


def undo(game_id: int, user) -> Outcome:
    """Take back the seat's last move, when the rules allow it (see Ruleset.undoable)."""
    with transaction.atomic():
        game, my_seat = _seated_in_running_game(game_id, user)
        seat = my_seat.index
        last = game.moves.order_by("-seq").first()
        if last is None or last.seat != seat or last.by_bot:
            raise Rejected("There is no move of yours to take back.", 409)
        if not last.undoable:
            raise Rejected("That move cannot be taken back.", 409)
        before = replay_state(game, upto=game.version - 1)
        last.delete()
        game.state, game.version = before, game.version - 1
        _after_change(game)
        _save_changes(game)
        transaction.on_commit(lambda: notify.game_changed(game))
    return Outcome(game, seat, applied=True, message="Move taken back.")


def abort_game(game_id: int, *, by=None, reason: str = "") -> Game:
    """Stop a running game without a result (the admin's "abort"): no ranks, no ratings,
    no deadline. The moves stay, so the game can still be verified; `by` is logged."""
    with transaction.atomic():
        game = _locked(game_id)
        if not game.is_active:
            raise Rejected("This game is not running.", 409)
        _abort(game, by, reason)
    return game


def _abort(game: Game, by, reason: str) -> None:
    """No result, no ratings; the clocks stop (and with them every deadline)."""
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    _sync_clocks(game)
    _save_changes(game)
    log.warning("game %s aborted by %s%s", game.pk, getattr(by, "username", by), f": {reason}" if reason else "")
    transaction.on_commit(lambda: notify.game_changed(game))


def play_bots(game_id: int) -> Game:
    """Let bots move in a game that waits for them (e.g. after a seat became a bot)."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.is_active and _play_bots(game):
            _after_change(game)
            _save_changes(game)
            transaction.on_commit(lambda: notify.game_changed(game))
    return game


def _locked(game_id: int) -> Game:
    """The game row, locked, with its seats and their users (one query each)."""
    try:
        game = Game.objects.select_for_update(of=("self",)).prefetch_related(_seats_with_users()).get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        raise Rejected("There is no such game.", 404) from None
    _remember_saved(game)
    return game


def _seats_with_users() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("user"))


def _remember_saved(game: Game) -> None:
    """Note the stored values, so _save_changes writes only the fields a change touched."""
    game._saved_values = {f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields}


def _save_changes(game: Game) -> None:
    """UPDATE only the changed columns: `state` by identity (the rules return a new
    state, never mutate it), the rest by value; `updated` always (pages compare it)."""
    saved = game._saved_values
    changed = [f.attname for f in Game._meta.concrete_fields
               if not f.primary_key and f.attname != "updated"
               and (getattr(game, f.attname) is not saved[f.attname] if f.attname == "state"
                    else getattr(game, f.attname) != saved[f.attname])]
    game.save(update_fields=[*changed, "updated"])
    _remember_saved(game)


def _record(game: Game, seat: int, action: dict, new_state: dict, *, token: str = "", by_bot: bool = False,
            undoable: bool = False) -> None:
    # Store the action as JSON text would come back, so a replay sees the same input.
    game.version += 1
    if not by_bot and seat not in game.seats_moved:
        game.seats_moved = sorted([*game.seats_moved, seat])
    move = Move.objects.create(game=game, seq=game.version, seat=seat, action=json.loads(json.dumps(action)),
                               token=token, by_bot=by_bot, undoable=undoable)
    game.state = new_state
    game._last_move, game._last_move_version = move, game.version  # the panel's undo button


def _play_bots(game: Game) -> int:
    """Bots answer at once, so a game with bots never waits for them. Returns moves made."""
    rules = game.rules
    bot_seats = {s.index for s in game.seats.all() if s.played_by_bot}
    if not bot_seats:
        return 0
    bot = bot_for(game.game_slug, game.rules_version or None)
    made = 0
    while made < settings.BOT_MOVE_LIMIT and not rules.is_over(game.state):
        waiting = [s for s in rules.to_act(game.state) if s in bot_seats]
        if not waiting:
            break
        seat = waiting[0]
        rng = random.Random(f"{game.seed}:bot:{game.version}")
        action = bot.choose(game.state, seat, rng)
        _record(game, seat, action, rules.apply(game.state, seat, action), by_bot=True)
        made += 1
    return made


def _after_change(game: Game, moved: AbstractSet[int] = frozenset()) -> None:
    """The result once the game is over (ratings exactly once), then the clocks."""
    rules = game.rules
    if game.is_active and rules.is_over(game.state):
        _finish(game)
    _sync_clocks(game, moved)


def _finish(game: Game) -> None:
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    _store_result(game)


def _sync_clocks(game: Game, moved: AbstractSet[int] = frozenset()) -> None:
    """Who the game waits for (badges and lists read `waiting_for`, never `state`), and
    the clocks that follow it. Each started clock gets its deadline task (and mails),
    enqueued in this transaction so a rolled-back change leaves none behind."""
    from . import tasks

    game.waiting_for = game.to_act()
    now = timezone.now()
    seats = game.ordered_seats()
    before = {s.pk: (s.time_left, s.running_since) for s in seats}
    started = clocks.sync(game, seats, now, moved)
    for seat in seats:
        if (seat.time_left, seat.running_since) != before[seat.pk]:
            seat.save(update_fields=["time_left", "running_since"])
    for seat in started:
        tasks.schedule_seat(game, seat, now)


def final_ranks(game_ranks: list[int], absent: set[int]) -> list[int]:
    """Ranks once absent seats (timed out and not back, or resigned) are put last.

    The rule players read on the help page: the seats still played by their player are
    ranked by the game's own ranking among themselves (ties share a rank, the next is
    skipped: 1, 1, 3); every absent seat shares the rank after them, whatever the bot
    playing it scored.
    """
    present = [i for i in range(len(game_ranks)) if i not in absent]
    ranks = [0] * len(game_ranks)
    for i in present:
        ranks[i] = 1 + sum(1 for j in present if game_ranks[j] < game_ranks[i])
    for i in absent:
        ranks[i] = len(present) + 1
    return ranks


def _store_result(game: Game) -> None:
    rules = game.rules
    scores = rules.scores(game.state)
    seats = game.ordered_seats()
    # Timed out and not back, or resigned: last, whatever the bot scored (final_ranks).
    ranks = final_ranks(rules.ranking(game.state), {s.index for s in seats if s.bot_since is not None})
    for seat in seats:
        seat.rank, seat.score = ranks[seat.index], scores[seat.index]["total"]
        seat.save(update_fields=["rank", "score"])
    # A rated game stays rated if a seat is later played by a bot (a timeout): its player
    # is rated last (the seat's rank above). Seats whose account was deleted are left out.
    people = [(s.user, s.rank) for s in seats if s.user is not None and s.rank is not None]
    if game.is_rated and not game.rated and len(people) >= 2:
        from accounts.ratings import update_ratings

        update_ratings(game.game_slug, [user for user, _ in people], [rank for _, rank in people], game=game)
        game.rated = True


# --- Clocks, timeouts and the table's own actions -------------------------------------

def expire(game_id: int, seat_index: int) -> bool:
    """A deadline task: if the seat's time is really up, the bot takes the seat.

    The game row is locked, so when several workers run the same expiry only the first
    finds the seat still waiting; a game that moved on (the seat played, a vacation
    moved the deadline) is left alone. Returns whether the bot took the seat.
    """
    with transaction.atomic():
        try:
            game = _locked(game_id)
        except Rejected:
            return False
        seat = next((s for s in game.ordered_seats() if s.index == seat_index), None)
        now = timezone.now()
        if (not game.is_active or seat is None or seat.played_by_bot or seat.deadline is None
                or seat.deadline > now or seat_index not in game.to_act()):
            return False
        seat.bot_since = game.version
        seat.time_left, seat.running_since = timedelta(0), None
        seat.save(update_fields=["bot_since", "time_left", "running_since"])
        _play_bots(game)
        _after_change(game)
        _save_changes(game)
        log.info("game %s: seat %s timed out, the bot plays it", game.pk, seat_index)
        transaction.on_commit(lambda: notify.game_changed(game, set(game.to_act())))
    return True


def _my_seat(game: Game, user) -> Seat:
    # The game row is locked: its seats change only under that lock (the engine's rule).
    index = game.seat_of(user)  # never a bot's seat: anonymous users have no pk to match
    seat = next((s for s in game.ordered_seats() if s.index == index), None)
    if seat is None:
        raise Rejected("You are not seated at this game.", 403)
    return seat


def _seated_in_running_game(game_id: int, user) -> tuple[Game, Seat]:
    """The locked game and the user's seat in it, or Rejected: not seated, or over."""
    game = _locked(game_id)
    seat = _my_seat(game, user)
    if not game.is_active:
        raise Rejected("This game is over.", 409)
    return game, seat


def take_back(game_id: int, user) -> Outcome:
    """The player returns: the bot hands the seat over at once."""
    with transaction.atomic():
        game, seat = _seated_in_running_game(game_id, user)
        if seat.resigned:
            raise Rejected("You resigned this game: the bot plays your seat to the end.", 409)
        if seat.bot_since is None:
            return Outcome(game, seat.index, applied=False, message="You are already playing this seat.")
        seat.bot_since = None
        clocks.taken_back(game, seat)
        seat.save(update_fields=["bot_since", "time_left"])
        _after_change(game)
        _save_changes(game)
        transaction.on_commit(lambda: notify.game_changed(game))
    return Outcome(game, seat.index, applied=True, message="Welcome back: the seat is yours again.")


def resign(game_id: int, user) -> Outcome:
    """You rank last. Two players (or one): the game ends; more: a bot plays your seat."""
    with transaction.atomic():
        game, seat = _seated_in_running_game(game_id, user)
        if seat.resigned:
            return Outcome(game, seat.index, applied=False, message="You already resigned.")
        seat.resigned = True
        if seat.bot_since is None:
            seat.bot_since = game.version
        seat.save(update_fields=["resigned", "bot_since"])
        if game.players <= 2:
            _finish(game)
        else:
            _play_bots(game)
        _after_change(game)
        _save_changes(game)
        transaction.on_commit(lambda: notify.game_changed(game, set(game.to_act())))
    return Outcome(game, seat.index, applied=True, message="You resigned.")


def can_abort(game: Game) -> bool:
    """Abort is for games that have not really started: some seat has not moved yet."""
    humans = {s.index for s in game.seats.all() if not s.is_bot}
    return game.is_active and not humans <= set(game.seats_moved)


def abort(game_id: int, by_user=None, reason: str = "") -> Outcome:
    """End a game with no result and no rating change. A player may do it only before
    every seat has moved once; the admin (by_user=None, see abort_game) at any time."""
    if by_user is None:
        return Outcome(abort_game(game_id, reason=reason), None, applied=True, message="The game was aborted.")
    with transaction.atomic():
        game, my_seat = _seated_in_running_game(game_id, by_user)
        seat = my_seat.index
        if not can_abort(game):
            raise Rejected("Every player has moved: the game can no longer be aborted (resign instead).", 409)
        _abort(game, by_user, reason)
    return Outcome(game, seat, applied=True, message="The game was aborted.")


def _rematch_deadline(offer: RematchOffer):
    return offer.created + timedelta(hours=settings.REMATCH_OFFER_HOURS)


def rematch_offer(game: Game) -> RematchOffer | None:
    """The game's rematch offer. Reading never writes: the expire_rematch task marks an old
    offer expired; until it has run (a late worker), an old offer reads as expired here."""
    if game.is_active:
        return None
    offer = RematchOffer.objects.filter(game=game).select_related("declined_by").first()
    if offer and offer.status == RematchOffer.Status.OPEN and _rematch_deadline(offer) <= timezone.now():
        offer.status = RematchOffer.Status.EXPIRED
    return offer


def _new_rematch_offer(game: Game) -> RematchOffer:
    from .tasks import expire_rematch

    offer = RematchOffer.objects.create(game=game)
    # Enqueued in the same transaction: no offer without its deadline, nor the reverse.
    expire_rematch.using(run_after=_rematch_deadline(offer)).enqueue(game.pk)
    return offer


def expire_rematch(game_id: int) -> bool:
    """A deadline task: an open rematch offer past its time is marked expired, and the
    game's pages hear it. The game row is locked (as accept and decline lock it), so an
    offer accepted meanwhile stays accepted. Returns whether the offer expired."""
    with transaction.atomic():
        try:
            game = _locked(game_id)
        except Rejected:
            return False
        expired = RematchOffer.objects.filter(
            game=game, status=RematchOffer.Status.OPEN,
            created__lte=timezone.now() - timedelta(hours=settings.REMATCH_OFFER_HOURS),
        ).update(status=RematchOffer.Status.EXPIRED)
        if expired:
            transaction.on_commit(lambda: notify.game_changed(game))
    return bool(expired)


def accept_rematch(game_id: int, user) -> Outcome:
    """Offer or accept a rematch; when every player accepted, the new game starts with the
    same options and the seats rotated by one."""
    with transaction.atomic():
        game = _locked(game_id)
        _my_seat(game, user)
        if game.is_active:
            raise Rejected("A rematch is offered once the game is over.", 409)
        offer = rematch_offer(game) or _new_rematch_offer(game)
        if offer.status != RematchOffer.Status.OPEN:
            raise Rejected(f"The rematch offer was {offer.status}.", 409)
        if user.pk not in offer.accepted_by:
            offer.accepted_by.append(user.pk)
        seats = game.ordered_seats()
        if {s.user_id for s in seats if s.user_id} <= set(offer.accepted_by):
            rotated = seats[1:] + seats[:1]
            offer.new_game = start_game(
                game.game_slug, [SeatPlan(user=s.user, is_bot=s.is_bot) for s in rotated], game.options,
                pace=game.pace, days_per_move=game.days_per_move, clock_minutes=game.clock_minutes,
                clock_increment=game.clock_increment, shuffle=False, rated=game.is_rated)
            offer.status = RematchOffer.Status.ACCEPTED
        offer.save()
        transaction.on_commit(lambda: notify.game_changed(game))
    return Outcome(game, None, applied=True, message="Rematch accepted.")


def decline_rematch(game_id: int, user) -> Outcome:
    with transaction.atomic():
        game = _locked(game_id)
        _my_seat(game, user)
        offer = rematch_offer(game)
        if offer is None or offer.status != RematchOffer.Status.OPEN:
            raise Rejected("There is no open rematch offer.", 409)
        offer.status, offer.declined_by = RematchOffer.Status.DECLINED, user
        offer.save(update_fields=["status", "declined_by"])
        transaction.on_commit(lambda: notify.game_changed(game))
    return Outcome(game, None, applied=True, message="Rematch declined.")


def vacation_changed(user) -> int:
    """The user's vacation began, moved or ended: their running correspondence clocks
    pause until it ends (or resume now). Returns how many games changed."""
    from . import tasks

    now = timezone.now()
    until = user.vacation_until if user.on_vacation(now) else now
    game_ids = list(Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE, game__pace=Pace.CORRESPONDENCE,
                                        running_since__isnull=False).values_list("game_id", flat=True))
    for game_id in game_ids:
        with transaction.atomic():
            game = _locked(game_id)
            for seat in game.ordered_seats():
                if seat.user_id == user.pk and clocks.pause_for_vacation(seat, until, now):
                    seat.save(update_fields=["time_left", "running_since"])
                    tasks.schedule_seat(game, seat, now, mail=False)
            deadlines = [s.deadline for s in game.seats.all() if s.deadline is not None]
            game.turn_deadline = min(deadlines) if deadlines else None
            _save_changes(game)
            transaction.on_commit(partial(notify.game_changed, game))
    return len(game_ids)
