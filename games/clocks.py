"""Seat clocks, kept on Seat (time left, running since) and maintained by the engine.

A seat's clock runs while the game waits for it (every waiting seat at once in a
simultaneous phase) and stops when it is not waiting. Live: one allowance for the game,
plus an increment when the seat's turn ends. Correspondence: the full allowance again for
every move (BGA-style: the time left is credited back after each move). A correspondence
player on vacation gets a clock that only starts running when the vacation ends (its
`running_since` lies in the future). Bots have no clock.
"""
from __future__ import annotations

from collections.abc import Set as AbstractSet
from datetime import datetime, timedelta

from .models import Game, Pace, Seat

# [DECISION] A player who takes back a timed-out live seat gets at least this long.
TAKE_BACK_MINIMUM = timedelta(minutes=1)


def is_waiting(game: Game, seat: Seat, to_act: set[int]) -> bool:
    return game.is_active and seat.index in to_act and not seat.played_by_bot


def start(game: Game, seat: Seat, now: datetime) -> None:
    allowance = game.allowance()
    if game.pace == Pace.CORRESPONDENCE:
        seat.time_left = allowance
        user = seat.user
        seat.running_since = user.vacation_until if user is not None and user.on_vacation(now) else now
    else:
        if seat.time_left is None:
            seat.time_left = allowance
        seat.running_since = now


def stop(game: Game, seat: Seat, now: datetime) -> None:
    if game.pace == Pace.CORRESPONDENCE:
        seat.time_left = game.allowance()
    elif seat.running_since is not None:
        seat.time_left = (seat.remaining(now) or timedelta(0)) + timedelta(seconds=game.clock_increment)
    seat.running_since = None


def sync(game: Game, seats: list[Seat], now: datetime, moved: AbstractSet[int] = frozenset()) -> list[Seat]:
    """Start and stop clocks to match who the game waits for now; returns the seats whose
    clock (re)started, so the engine can schedule their deadlines.

    `moved`: seats that acted in this change; in correspondence a seat that acted and still
    waits (a turn of several actions) gets its full allowance back.
    """
    if not game.has_clock:
        return []
    to_act = set(game.to_act())
    started = []
    for seat in seats:
        if seat.time_left is None and not seat.is_bot:
            seat.time_left = game.allowance()  # every clock shows its full time from the start
        waiting = is_waiting(game, seat, to_act)
        running = seat.running_since is not None
        restart = waiting and running and seat.index in moved and game.pace == Pace.CORRESPONDENCE
        if running and (not waiting or restart):
            stop(game, seat, now)
            running = False
        if waiting and not running:
            start(game, seat, now)
            started.append(seat)
    deadlines = [s.deadline for s in seats if s.deadline is not None]
    game.turn_deadline = min(deadlines) if deadlines else None
    return started


def pause_for_vacation(seat: Seat, until: datetime, now: datetime) -> bool:
    """A running correspondence clock keeps the time left and resumes when the vacation ends.
    A clock whose deadline has passed is not paused: the flag has fallen, whether or not the
    worker has handled it yet (the engine times the seat out instead)."""
    if seat.running_since is None or (seat.deadline is not None and seat.deadline <= now):
        return False
    seat.time_left = seat.remaining(now)
    seat.running_since = max(until, now)
    return True


def taken_back(game: Game, seat: Seat) -> None:
    """A player back at a seat the bot held sees the time they really have: live, what was
    left (at least TAKE_BACK_MINIMUM); correspondence, the full allowance of their next
    move (the timeout left 0:00 on the seat, which is no one's time any more)."""
    if game.pace == Pace.CORRESPONDENCE:
        seat.time_left = game.allowance()
    elif seat.time_left is not None:
        seat.time_left = max(seat.time_left, TAKE_BACK_MINIMUM)
