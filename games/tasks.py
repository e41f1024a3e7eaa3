"""Background work as tasks (Django's Tasks API via django-tasks; `manage.py db_worker`
runs them). A deadline is a task enqueued with `run_after`; every task re-reads the game
under a lock and does nothing when the game moved on, so a late, early or duplicated task
is harmless. Clock and rematch deadlines are games.publisher's (expire_clock,
expire_rematch, schedule_seat): running one publishes a change, and publishing schedules
the next; the mails a started clock needs are scheduled here, as a receiver of
games.signals.seat_clock_started.
"""
from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django_tasks import task

from .models import Game, Pace, Seat

log = logging.getLogger(__name__)


def schedule_turn_mails(sender, game: Game, seat: Seat, now: datetime, mail: bool = True, **kwargs) -> None:
    """games.signals.seat_clock_started's receiver (GamesConfig.ready): a correspondence
    seat whose clock (re)started gets its "your turn" mail (after a quiet spell, unless
    `mail` is False) and its reminder before the deadline."""
    deadline, since, allowance = seat.deadline, seat.running_since, seat.time_left
    if game.pace != Pace.CORRESPONDENCE or seat.user_id is None:
        return
    if deadline is None or since is None or allowance is None:
        return
    if mail:
        quiet = now + timedelta(seconds=settings.TURN_MAIL_QUIET_SECONDS)
        send_turn_mail.using(run_after=quiet).enqueue(game.pk, seat.index, game.version)
    reminder_at = since + allowance * settings.REMINDER_FRACTION
    send_reminder.using(run_after=reminder_at).enqueue(game.pk, seat.index, deadline.isoformat())


@task()
def send_turn_mail(game_id: int, seat_index: int, version: int) -> str:
    from . import mail

    return mail.turn_mail(game_id, seat_index, version)


@task()
def send_reminder(game_id: int, seat_index: int, deadline: str) -> str:
    from . import mail

    return mail.reminder_mail(game_id, seat_index, deadline)


# --- Periodic work: each run enqueues the next one (`schedule_periodic_tasks` starts them) ---

OPEN_TABLES_EVERY = timedelta(hours=1)


def next_digest_at(now: datetime, hour: int | None = None) -> datetime:
    """The next daily digest: the first `hour`:00 UTC (settings.DIGEST_HOUR_UTC) strictly
    after `now`. A run that starts late (a worker was down) still schedules the next one at
    the fixed hour, so the digest never drifts."""
    hour = settings.DIGEST_HOUR_UTC if hour is None else hour
    today = now.astimezone(UTC).replace(hour=hour, minute=0, second=0, microsecond=0)
    return today if today > now else today + timedelta(days=1)


@task()
def expire_open_tables() -> int:
    from lobby.services import expire_idle_tables

    closed = expire_idle_tables()
    expire_open_tables.using(run_after=timezone.now() + OPEN_TABLES_EVERY).enqueue()
    return closed


@task()
def daily_digest() -> int:
    from . import mail

    sent = mail.daily_digests()
    daily_digest.using(run_after=next_digest_at(timezone.now())).enqueue()
    return sent


def first_run_at(periodic, now: datetime) -> datetime:
    """When a periodic task's chain starts: the digest at its hour, the rest at once."""
    return next_digest_at(now) if periodic is daily_digest else now


PERIODIC_TASKS = [expire_open_tables, daily_digest]
