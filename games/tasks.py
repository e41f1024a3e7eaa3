"""Background work as tasks (Django's Tasks API via django-tasks; `manage.py db_worker`
runs them). A deadline is a task enqueued with `run_after`; every task re-reads the game
under a lock and does nothing when the game moved on, so a late, early or duplicated task
is harmless.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django_tasks import task

from .models import Game, Pace, Seat

log = logging.getLogger(__name__)


def schedule_seat(game: Game, seat: Seat, now: datetime, *, mail: bool = True) -> None:
    """A seat's clock (re)started: its deadline, and for correspondence its mails."""
    deadline = seat.deadline
    if deadline is None:
        return
    expire_clock.using(run_after=deadline).enqueue(game.pk, seat.index)
    if game.pace != Pace.CORRESPONDENCE or seat.user_id is None:
        return
    if mail:
        quiet = now + timedelta(seconds=settings.TURN_MAIL_QUIET_SECONDS)
        send_turn_mail.using(run_after=quiet).enqueue(game.pk, seat.index, game.version)
    reminder_at = seat.running_since + seat.time_left * settings.REMINDER_FRACTION
    send_reminder.using(run_after=reminder_at).enqueue(game.pk, seat.index, deadline.isoformat())


@task()
def expire_clock(game_id: int, seat_index: int) -> bool:
    from . import engine

    return engine.expire(game_id, seat_index)


@task()
def send_turn_mail(game_id: int, seat_index: int, version: int) -> str:
    from . import mail

    return mail.turn_mail(game_id, seat_index, version)


@task()
def send_reminder(game_id: int, seat_index: int, deadline: str) -> str:
    from . import mail

    return mail.reminder_mail(game_id, seat_index, deadline)


@task()
def expire_rematch(game_id: int) -> bool:
    """The rematch offer's deadline (engine.expire_rematch: a no-op if it was settled)."""
    from . import engine

    return engine.expire_rematch(game_id)


# --- Periodic work: each run enqueues the next one (`schedule_periodic_tasks` starts them) ---

PERIODIC_HOURS = {"expire_open_tables": 1, "daily_digest": 24}


def _again(task_obj, hours: int) -> None:
    task_obj.using(run_after=timezone.now() + timedelta(hours=hours)).enqueue()


@task()
def expire_open_tables() -> int:
    from lobby.services import expire_idle_tables

    closed = expire_idle_tables()
    _again(expire_open_tables, PERIODIC_HOURS["expire_open_tables"])
    return closed


@task()
def daily_digest() -> int:
    from . import mail

    sent = mail.daily_digests()
    _again(daily_digest, PERIODIC_HOURS["daily_digest"])
    return sent


PERIODIC_TASKS = [expire_open_tables, daily_digest]
