"""Issue 18, row 3: a task is never lost with its worker. A real worker is SIGKILLed in
the middle of a task; another worker finds the task's lease run out and runs it, and the
task finishes exactly once. A slow task on a live worker keeps its lease (heartbeat) and
is not taken over."""
from __future__ import annotations

import time

import pytest
from django_tasks_db.models import DBTaskResult

from .tasks import note
from .workers import lines, start_worker, stop, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
LEASE = 1.0


def row(result) -> DBTaskResult:
    return DBTaskResult.objects.get(pk=result.id)


def test_the_task_of_a_sigkilled_worker_is_finished_once_by_another(tmp_path):
    notes = tmp_path / "notes"
    doomed = start_worker("doomed", lease=LEASE)
    rescuer = None
    try:
        result = note.enqueue(str(notes), "deadline", seconds=1.5)
        wait_until(lambda: "start deadline" in lines(notes), 60, "the first worker to start the task")
        doomed.kill()  # SIGKILL: no handler runs, the task row stays RUNNING
        doomed.wait(timeout=10)
        killed = time.monotonic()
        assert row(result).status == "RUNNING"
        rescuer = start_worker("rescuer", lease=LEASE)
        wait_until(lambda: row(result).status == "SUCCESSFUL", 60, "another worker to finish the task")
        recovered = time.monotonic() - killed
    finally:
        stop(doomed)
        if rescuer:
            stop(rescuer)
    print(f"\nkilled worker: task finished by another {recovered:.1f} s after the SIGKILL (lease {LEASE} s, "
          "worker start-up included)")
    assert lines(notes) == ["start deadline", "start deadline", "done deadline"]
    assert row(result).worker_ids == ["doomed", "rescuer"]


def test_a_slow_task_keeps_its_lease_while_its_worker_lives(tmp_path):
    notes = tmp_path / "notes"
    workers = [start_worker(name, lease=LEASE) for name in ("busy", "idle")]
    try:
        time.sleep(1)  # both polling
        result = note.enqueue(str(notes), "slow", seconds=4 * LEASE)
        wait_until(lambda: row(result).status == "SUCCESSFUL", 60, "the slow task to finish")
    finally:
        for worker in workers:
            stop(worker)
    assert lines(notes) == ["start slow", "done slow"]
    assert len(row(result).worker_ids) == 1
