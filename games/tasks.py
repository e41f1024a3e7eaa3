"""Background work as tasks (Django's Tasks API via django-tasks; `manage.py run_worker`
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
from django.db import connection, transaction
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


# --- Mail: a temporary refusal (mail.MailDeferred) is tried again later, up to 5 times ---

MAIL_RETRY_DELAYS = [timedelta(minutes=m) for m in (1, 5, 15, 60, 240)]


def _mail_or_retry(task, attempt: int, send, *args) -> str:
    """Run `send(*args)`; when the server defers, enqueue `task(*args, attempt + 1)` after
    the next delay, or give up with a log line once the delays are used up."""
    from .mail import MailDeferred

    try:
        return send(*args)
    except MailDeferred as deferred:
        if attempt >= len(MAIL_RETRY_DELAYS):
            log.error("%s; given up after %d attempts", deferred, attempt + 1)
            return "given up"
        delay = MAIL_RETRY_DELAYS[attempt]
        log.warning("%s; trying again in %s", deferred, delay)
        task.using(run_after=timezone.now() + delay).enqueue(*args, attempt=attempt + 1)
        return "deferred"


@task()
def send_turn_mail(game_id: int, seat_index: int, version: int, attempt: int = 0) -> str:
    from . import mail

    return _mail_or_retry(send_turn_mail, attempt, mail.turn_mail, game_id, seat_index, version)


@task()
def send_reminder(game_id: int, seat_index: int, deadline: str, attempt: int = 0) -> str:
    from . import mail

    return _mail_or_retry(send_reminder, attempt, mail.reminder_mail, game_id, seat_index, deadline)


@task()
def send_digest(user_id: int, attempt: int = 0) -> str:
    """One user's digest, tried again after the server deferred it in daily_digest."""
    from . import mail

    return _mail_or_retry(send_digest, attempt, mail.digest_mail, user_id)


# --- Periodic work: each run enqueues the next one (`schedule_periodic_tasks` starts them) ---

def next_digest_at(now: datetime) -> datetime:
    """The digest's next run: the first full hour strictly after `now`. It runs every hour
    and mails the players whose local time is then settings.DIGEST_HOUR (games.mail.
    daily_digests), so each gets it at their own morning. A run that starts late (a worker
    was down) still schedules the next one on the hour, so the chain never drifts."""
    hour = now.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    return hour + timedelta(hours=1)


PERIODIC_LOCK = 0x5B_7A5C  # the advisory lock key under which a chain's next run is enqueued


def enqueue_next_run(periodic, run_after: datetime) -> bool:
    """Enqueue a periodic task's next run unless one is already waiting, so there is one
    chain however many workers start, or finish a run (a re-run of a dead worker's task
    too), at once. The check and the insert hold a lock: an advisory one on PostgreSQL,
    SQLite's write lock (its transactions begin IMMEDIATE) otherwise."""
    from django_tasks_db.models import DBTaskResult

    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [PERIODIC_LOCK])
        if DBTaskResult.objects.filter(task_path=periodic.module_path, status="READY").exists():
            return False
        periodic.using(run_after=run_after).enqueue()
        return True


@task()
def daily_digest() -> int:
    from . import mail

    now = timezone.now()
    sent = mail.daily_digests(on_deferred=_retry_digest, at=now)
    enqueue_next_run(daily_digest, next_digest_at(now))
    return sent


def _retry_digest(user_id: int) -> None:
    send_digest.using(run_after=timezone.now() + MAIL_RETRY_DELAYS[0]).enqueue(user_id, attempt=1)


def first_run_at(periodic, now: datetime) -> datetime:
    """When a periodic task's chain starts: the digest on the next full hour, the rest at once."""
    return next_digest_at(now) if periodic is daily_digest else now


PERIODIC_TASKS = [daily_digest]  # the lobby's own are in lobby/tasks.py

