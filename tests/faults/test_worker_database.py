"""Issue 18, row 1: the task worker outlives its database. A real `manage.py run_worker`
process runs on the test database; its PostgreSQL connections are terminated (what a
restart does to them) and a task enqueued afterwards still runs, in the same process."""
from __future__ import annotations

import pytest
from django_tasks_db.models import DBTaskResult

from .tasks import note
from .workers import kill_worker_connections, lines, start_worker, stop, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
KILLS = 3


def succeeded(result) -> bool:
    return DBTaskResult.objects.get(pk=result.id).status == "SUCCESSFUL"


def test_the_worker_carries_on_after_its_database_connections_are_killed(tmp_path):
    notes = tmp_path / "notes"
    worker = start_worker("survivor", log_path=str(tmp_path / "worker.log"))
    try:
        first = note.enqueue(str(notes), "before")
        wait_until(lambda: succeeded(first), 60, "the worker to run a first task")
        recovered = []
        for n in range(KILLS):
            assert kill_worker_connections() >= 1, "the worker holds a connection to kill"
            later = note.enqueue(str(notes), f"after-{n}")
            recovered.append(wait_until(lambda later=later: succeeded(later), 60,
                                        f"a task enqueued after kill {n + 1}"))
            assert worker.poll() is None, "the worker process is still running"
    finally:
        stop(worker)
    print(f"\nworker vs killed connections: {KILLS} kills, tasks after each ran in "
          + ", ".join(f"{s:.2f} s" for s in recovered))
    assert [line for line in lines(notes) if line.startswith("done")] == [
        "done before", *(f"done after-{n}" for n in range(KILLS))]
    assert "database error" in (tmp_path / "worker.log").read_text()
