"""The engine's primitives: lock a game, record a move, let bots answer, keep the clocks,
save only what changed, rebuild a state from its moves.

Nothing here opens a transaction or talks to the outside world: the entry points
(games.moves, games.finishing, games.rematch) run inside the transaction that
games.publisher opens, and return an `Outcome` saying what changed; the publisher sends
it. `select_for_update` refuses to run outside a transaction, so calling a primitive
without one fails loudly instead of racing.
"""
from __future__ import annotations

import json
import random
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from . import clocks
from .models import Game, Move, RematchOffer, Seat
from .replay import REPLAY_CHECKPOINT, replay_state, replay_states  # noqa: F401  (the engine's names; games.replay)
from .rules import bot_for, levels
from .rules import get as current_rules

# In English (tests compare it); translated where it is refused: gettext(STALE_MESSAGE).
STALE_MESSAGE = gettext_noop("The board changed since your page was drawn: here is the fresh one.")


class Rejected(Exception):
    """A submission the site refuses; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400):
        message = str(message)  # a lazy text, in the language active where it is refused
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class Outcome:
    """What one engine call changed, for the publisher (and the caller) to act on.

    `changed`: the game's pages must be redrawn. `newly_waiting`: seats the game now asks
    that it did not ask before. `clocks_started`: seats whose clock (re)started, each needing
    its deadline (and for correspondence its mails) scheduled. `rematch_offered`: a new
    rematch offer whose expiry must be scheduled. `started`: the outcome of a game this call
    started (an accepted rematch). `status`: the HTTP status of an answer that is a refusal
    although something changed (a move after the deadline: the seat went to the bot).
    `panels` is filled by the publisher: the acting seat's panel at once (the mover's answer
    is the HTML its sockets get), the other listened audiences' after the answer.
    """

    game: Game
    seat: int | None
    applied: bool
    message: str = ""
    changed: bool = False
    newly_waiting: set[int] = field(default_factory=set)
    clocks_started: dict[int, Seat] = field(default_factory=dict)
    turn_mails: bool = True
    rematch_offered: RematchOffer | None = None
    started: Outcome | None = None
    status: int = 200
    panels: dict[tuple[int | None, str], str] = field(default_factory=dict)  # (seat, language): html


@dataclass
class SeatPlan:
    """Who sits where when a game starts: a user, or a bot when `user` is None."""

    user: Any = None
    is_bot: bool = False
    bot_level: int | None = None  # 1-5 (games.rules.levels); None: the greedy level 3


def locked(game_id: int) -> Game:
    """The game row, locked, with its seats and their users (one query each)."""
    try:
        game = Game.objects.select_for_update(of=("self",)).prefetch_related(seats_with_users()).get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        raise Rejected(gettext("There is no such game."), 404) from None
    remember_saved(game)
    return game


def seats_with_users() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("user"))


def remember_saved(game: Game) -> None:
    """Note the stored values, so save_changes writes only the fields a change touched."""
    game._saved_values = {f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields}
    game._saved_clocks = {s.pk: (s.time_left, s.running_since) for s in game.seats.all()}


def save_changes(game: Game) -> None:
    """UPDATE only the changed columns: `state` by identity (the rules return a new
    state, never mutate it), the rest by value; `updated` always (pages compare it). Seats
    whose clock changed (perhaps several times in this change) are written once."""
    saved = game._saved_values
    changed = [f.attname for f in Game._meta.concrete_fields
               if not f.primary_key and f.attname != "updated"
               and (getattr(game, f.attname) is not saved[f.attname] if f.attname == "state"
                    else getattr(game, f.attname) != saved[f.attname])]
    for seat in game.seats.all():
        if (seat.time_left, seat.running_since) != game._saved_clocks.get(seat.pk):
            seat.save(update_fields=["time_left", "running_since"])
    game.save(update_fields=[*changed, "updated"])
    remember_saved(game)


def record(game: Game, seat: int, action: dict, new_state: dict, *, token: str = "", by_bot: bool = False,
           undoable: bool = False) -> None:
    # Store the action as JSON text would come back, so a replay sees the same input.
    game.version += 1
    if not by_bot and seat not in game.seats_moved:
        game.seats_moved = sorted([*game.seats_moved, seat])
    move = Move.objects.create(game=game, seq=game.version, seat=seat, action=json.loads(json.dumps(action)),
                               token=token, by_bot=by_bot, undoable=undoable)
    game.state = new_state
    game._last_move, game._last_move_version = move, game.version  # the panel's undo button


# The level of a bot standing in for an absent or resigned player: the greedy bot. It answers
# at once (a timed-out seat never waits for the worker), keeps the seat's position sensible
# for the players still in the game, and is not a strength the absent player chose.
STAND_IN_LEVEL = levels.GREEDY


def _older_rules(game: Game) -> bool:
    return bool(game.rules_version) and game.rules_version != current_rules(game.game_slug).version


def bot_level(seat: Seat) -> int:
    return (seat.bot_level or levels.GREEDY) if seat.is_bot else STAND_IN_LEVEL


def searching_bot_to_move(game: Game) -> bool:
    """Does the game wait for a bot that searches (level 4-5)? Such a move takes its time
    budget, so it is made by the task worker (games.publisher.play_bot_turn), never inside
    a player's request."""
    if not game.is_active or _older_rules(game):
        return False
    bots = {s.index: bot_level(s) for s in game.seats.all() if s.played_by_bot}
    return any(bots.get(i, 0) in levels.SEARCH for i in game.to_act())


def play_bots(game: Game, started: dict[int, Seat], *, search: bool = False) -> int:
    """Bots answer at once, so a game with bots never waits for them. Returns moves made.

    Bots that search (levels 4-5) move only where `search` is allowed (the task worker),
    one search move per call, so each shows on the pages as it is made; everywhere else
    the game waits for them and the publisher hands their turn to the worker.

    The clocks follow every move, the bots' too: a player whose turn ended with their move
    and who is asked again after a bot's reply had their clock stopped (with its increment)
    and started again, as if the bot had taken its time. Seats whose clock started are
    added to `started`.
    """
    rules = game.rules
    bot_seats = {s.index: bot_level(s) for s in game.seats.all() if s.played_by_bot}
    if not bot_seats:
        return 0
    older = _older_rules(game)  # a game under older rules keeps the greedy bot kept beside them
    made = 0
    while made < settings.BOT_MOVE_LIMIT and not rules.is_over(game.state):
        waiting = [s for s in rules.to_act(game.state) if s in bot_seats]
        if not waiting:
            break
        seat = waiting[0]
        level = levels.GREEDY if older else bot_seats[seat]
        if level in levels.SEARCH:
            if not search:
                break
            search = False  # one search move per call
        bot = bot_for(game.game_slug, game.rules_version or None) if older else bot_for(game.game_slug, level=level)
        rng = random.Random(f"{game.seed}:bot:{game.version}")
        action = bot.choose(game.state, seat, rng)
        record(game, seat, action, rules.apply(game.state, seat, action), by_bot=True)
        made += 1
        if game.has_clock:  # (games without clocks learn who waits once, after the bots)
            sync_clocks(game, started)
    return made


def sync_clocks(game: Game, started: dict[int, Seat], moved: AbstractSet[int] = frozenset()) -> None:
    """Who the game waits for (badges and lists read `waiting_for`, never `state`), and
    the clocks that follow it, in memory (save_changes writes them). Called after every
    move, so each turn that ends stops its clock. Seats whose clock (re)started are put in
    `started` by index: the publisher schedules each one's final deadline once."""
    game.waiting_for = game.to_act()
    for seat in clocks.sync(game, game.ordered_seats(), timezone.now(), moved):
        started[seat.index] = seat


def my_seat(game: Game, user) -> Seat:
    # The game row is locked: its seats change only under that lock (the engine's rule).
    index = game.seat_of(user)  # never a bot's seat: anonymous users have no pk to match
    seat = next((s for s in game.ordered_seats() if s.index == index), None)
    if seat is None:
        raise Rejected(gettext("You are not seated at this game."), 403)
    return seat


def seated_in_running_game(game_id: int, user) -> tuple[Game, Seat]:
    """The locked game and the user's seat in it, or Rejected: not seated, or over."""
    game = locked(game_id)
    seat = my_seat(game, user)
    if not game.is_active:
        raise Rejected(gettext("This game is over."), 409)
    return game, seat
