"""The social app's periodic jobs: challenges expire after 7 days (hourly), and the quick
pairing pools are paired and cleaned (every 10 seconds; a waiting page's own poll pairs
too, so this is the safety net and the correspondence seeks' matchmaker)."""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django_tasks import task

from . import services

CHALLENGES_EVERY = timedelta(hours=1)
POOLS_EVERY = timedelta(seconds=10)


@task()
def expire_challenges() -> int:
    expire_challenges.using(run_after=timezone.now() + CHALLENGES_EVERY).enqueue()  # first: a failure keeps the chain
    return services.expire_challenges(timezone.now())


@task()
def pair_pools() -> int:
    pair_pools.using(run_after=timezone.now() + POOLS_EVERY).enqueue()
    return services.pair_all_pools(timezone.now())


PERIODIC_TASKS = [expire_challenges, pair_pools]
