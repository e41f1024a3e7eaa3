"""The lobby's background jobs (Django's Tasks API; `manage.py db_worker` runs them).

Each app owns its jobs: games/tasks.py holds the clocks, e-mails and the digest; the
lobby's tables expire here. `schedule_periodic_tasks` starts every app's PERIODIC_TASKS.
"""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django_tasks import task

from games.tasks import enqueue_next_run

from .services import expire_idle_tables

OPEN_TABLES_EVERY = timedelta(hours=1)


@task()
def expire_open_tables() -> int:
    """Close the idle open tables, then enqueue the next run (each run starts the next)."""
    closed = expire_idle_tables()
    enqueue_next_run(expire_open_tables, timezone.now() + OPEN_TABLES_EVERY)
    return closed


PERIODIC_TASKS = [expire_open_tables]
