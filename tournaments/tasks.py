"""The tournaments' background job: one periodic tick (schedule_periodic_tasks starts it).

Each run starts the tournaments whose time came, records finished games and pairs the next
round (Swiss, round robin) or the waiting players (arena), then enqueues the next run: every
10 seconds while an arena runs (its players wait for a new game), every minute otherwise.
The arena page's own poll pairs its players too, so a tick is only a safety net there.
"""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django_tasks import task

from . import services

EVERY = timedelta(minutes=1)
EVERY_WITH_ARENA = timedelta(seconds=10)


@task()
def tick_tournaments() -> int:
    pause = EVERY_WITH_ARENA if services.any_arena_running() else EVERY
    tick_tournaments.using(run_after=timezone.now() + pause).enqueue()  # first: a failing run keeps the chain
    return services.tick(timezone.now())


PERIODIC_TASKS = [tick_tournaments]
