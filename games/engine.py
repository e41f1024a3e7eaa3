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
from dataclasses import dataclass
from typing import Any, Iterable

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone

from . import notify
from .models import Game, Move, Pace, Seat
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
               days_per_move: int | None = None, seed: int | None = None,
               shuffle: bool = True, rated: bool = True) -> Game:
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
            pace=pace, days_per_move=days_per_move, is_rated=rated and _people_only(order),
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
        seat = game.seat_of(user)
        if seat is None:
            raise Rejected("You are not seated at this game.", 403)
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
        _after_change(game)
        _save_changes(game)
        newly_waiting = set(game.to_act()) - waiting_before
        transaction.on_commit(lambda: notify.game_changed(game, newly_waiting))
    return Outcome(game, seat, applied=True)


def undo(game_id: int, user) -> Outcome:
    """Take back the seat's last move, when the rules allow it (see Ruleset.undoable)."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = game.seat_of(user)
        if seat is None:
            raise Rejected("You are not seated at this game.", 403)
        if not game.is_active:
            raise Rejected("This game is over.", 409)
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


def replay_state(game: Game, upto: int | None = None) -> dict:
    """The state rebuilt from seed + the first `upto` moves (all when None). A finished
    game never changes, so its replay starts from the nearest checkpoint (a cached state
    every REPLAY_CHECKPOINT moves): any step costs at most that many applies."""
    upto = game.version if upto is None else max(0, min(upto, game.version))
    if game.is_active:  # moves may still be taken back: no checkpoints to go stale
        return _replayed(game, game.rules.setup(game.players, game.options, game.seed), 0, upto)
    checkpoints = range(REPLAY_CHECKPOINT, upto + 1, REPLAY_CHECKPOINT)
    cached = cache.get_many([_checkpoint_key(game, seq) for seq in checkpoints])
    start = max((seq for seq in checkpoints if _checkpoint_key(game, seq) in cached), default=0)
    state = cached[_checkpoint_key(game, start)] if start else game.rules.setup(game.players, game.options,
                                                                                  game.seed)
    return _replayed(game, state, start, upto, keep_checkpoints=True)


REPLAY_CHECKPOINT = 25


def _checkpoint_key(game: Game, seq: int) -> str:
    # The seed and creation time too: a database restored or reset may reuse a game's id.
    return f"replay:{game.pk}:{game.seed}:{game.created.timestamp()}:{game.rules_version}:{seq}"


def _replayed(game: Game, state: dict, after: int, upto: int, *, keep_checkpoints: bool = False) -> dict:
    """`state` (the state after move `after`) brought forward to move `upto`."""
    rules = game.rules
    for move in game.moves.filter(seq__gt=after, seq__lte=upto).order_by("seq").only("seq", "seat", "action"):
        state = rules.apply(state, move.seat, move.action)
        if keep_checkpoints and move.seq % REPLAY_CHECKPOINT == 0:
            cache.set(_checkpoint_key(game, move.seq), state, timeout=7 * 24 * 3600)
    return state


def replay_states(game: Game) -> Iterable[tuple[Move | None, dict]]:
    """(move, state after it) for the start position and every move, in order."""
    rules = game.rules
    state = rules.setup(game.players, game.options, game.seed)
    yield None, state
    for move in game.moves.order_by("seq"):
        state = rules.apply(state, move.seat, move.action)
        yield move, state


def abort_game(game_id: int, *, by=None, reason: str = "") -> Game:
    """Stop a running game without a result (the admin's "abort"): no ranks, no ratings,
    no deadline. The moves stay, so the game can still be verified; `by` is logged."""
    with transaction.atomic():
        game = _locked(game_id)
        if not game.is_active:
            raise Rejected("This game is not running.", 409)
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.waiting_for = []
        game.refresh_deadline()
        _save_changes(game)
        log.warning("game %s aborted by %s%s", game.pk, getattr(by, "username", by), f": {reason}" if reason else "")
        transaction.on_commit(lambda: notify.game_changed(game))
    return game


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
    move = Move.objects.create(game=game, seq=game.version, seat=seat, action=json.loads(json.dumps(action)),
                               token=token, by_bot=by_bot, undoable=undoable)
    game.state = new_state
    game._last_move, game._last_move_version = move, game.version  # the panel's undo button


def _play_bots(game: Game) -> int:
    """Bots answer at once, so a game with bots never waits for them. Returns moves made."""
    rules = game.rules
    bot_seats = {s.index for s in game.seats.all() if s.is_bot}
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


def _after_change(game: Game) -> None:
    """Deadlines, and the result once the game is over (ratings exactly once)."""
    rules = game.rules
    if game.is_active and rules.is_over(game.state):
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        _store_result(game)
    game.waiting_for = game.to_act()  # badges and lists read this, never `state`
    game.refresh_deadline()


def _store_result(game: Game) -> None:
    rules = game.rules
    scores, ranks = rules.scores(game.state), rules.ranking(game.state)
    seats = game.ordered_seats()
    for seat in seats:
        seat.rank, seat.score = ranks[seat.index], scores[seat.index]["total"]
        seat.save(update_fields=["rank", "score"])
    # A rated game stays rated if a seat is later played by a bot (a timeout): its player
    # is rated with the seat's rank. Seats whose account was deleted are left out.
    people = [(s.user, s.rank) for s in seats if s.user is not None and s.rank is not None]
    if game.is_rated and not game.rated and len(people) >= 2:
        from accounts.ratings import update_ratings

        update_ratings(game.game_slug, [user for user, _ in people], [rank for _, rank in people], game=game)
        game.rated = True
