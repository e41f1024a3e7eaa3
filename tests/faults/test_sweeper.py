"""The sweep of run_worker (games/management/commands/run_worker.py) on any database: a
RUNNING task whose lease ran out goes back to the queue in its place; a fresh claim or a
live lease is left alone; a task that took down MAX_ATTEMPTS workers is failed, not retried."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.management.commands.run_worker import MAX_ATTEMPTS, sweep_abandoned

from .tasks import note

pytestmark = pytest.mark.django_db
LEASE = timedelta(seconds=60)


def running(*, started_ago: float, lease_left: float, workers: int = 1) -> DBTaskResult:
    now = timezone.now()
    result = note.enqueue("/dev/null", "x")
    DBTaskResult.objects.filter(pk=result.id).update(
        status="RUNNING", started_at=now - timedelta(seconds=started_ago),
        run_after=now + timedelta(seconds=lease_left), worker_ids=[f"w{n}" for n in range(workers)])
    return DBTaskResult.objects.get(pk=result.id)


def test_a_task_whose_lease_ran_out_is_queued_again_in_its_place():
    dead = running(started_ago=300, lease_left=-200)
    assert sweep_abandoned(LEASE) == [dead.pk]
    dead.refresh_from_db()
    assert dead.status == "READY"
    assert dead.run_after == dead.started_at  # due since it was claimed: its place in the queue
    assert DBTaskResult.objects.ready().filter(pk=dead.pk).exists()


def test_live_leases_and_fresh_claims_are_left_alone():
    heartbeat = running(started_ago=300, lease_left=30)  # a long task whose worker still beats
    fresh = running(started_ago=1, lease_left=-5)  # claimed a moment ago, lease not yet written
    assert sweep_abandoned(LEASE) == []
    assert set(DBTaskResult.objects.filter(pk__in=[heartbeat.pk, fresh.pk]).values_list("status", flat=True)) == {
        "RUNNING"}


def test_a_task_that_took_down_every_worker_that_ran_it_is_failed_not_retried(caplog):
    poison = running(started_ago=300, lease_left=-200, workers=MAX_ATTEMPTS)
    assert sweep_abandoned(LEASE) == []
    poison.refresh_from_db()
    assert poison.status == "FAILED" and "abandoned by 5 workers" in poison.traceback
    assert "marked failed" in caplog.text
