"""`manage.py run_worker`: django-tasks-db's `db_worker` made to outlive its database and
its own death.

* **Database errors do not end it.** django-tasks-db's loop re-raises any OperationalError
  that is not SQLite's "database is locked", so a PostgreSQL restart (or a killed
  connection) ended the worker. Here the loop is restarted after such an error: every
  connection is closed (a pooled one that broke is dropped by the pool), the worker
  waits (0.5 s, doubling up to 30 s) and carries on. The task it was running when the
  database went away goes back to the queue at once.
* **A task is never left RUNNING for ever.** While a task runs, its row's `run_after`
  (unused once a task is claimed) holds a lease: now + `--lease` seconds, extended by a
  heartbeat thread. Every worker sweeps: a RUNNING task whose lease ran out and which
  started more than one lease ago belongs to a dead worker (SIGKILL, power loss, a lost
  machine) and goes back to READY for any worker to run again. The tasks are idempotent
  (games.tasks), so a task run twice does its work once. A task that killed its worker
  `MAX_ATTEMPTS` times is marked failed rather than retried for ever.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from argparse import ArgumentTypeError
from datetime import timedelta
from uuid import UUID

from django.core.management.base import CommandError
from django.db import InterfaceError, OperationalError, connection, connections
from django.db.models import F
from django.utils import timezone
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

log = logging.getLogger("games.worker")
DB_ERRORS = (OperationalError, InterfaceError)
FIRST_PAUSE, LONGEST_PAUSE = 0.5, 30.0
MAX_ATTEMPTS = 5
RUNNING, READY, FAILED = "RUNNING", "READY", "FAILED"
# A task put back in the queue is due again from when it was claimed (it was due then), so it
# keeps its place in the queue (ordered by run_after) instead of going behind the backlog.
BACK_IN_LINE = F("started_at")


def pause_after(failures: int) -> float:
    """Seconds to wait after the n-th database error in a row: 0.5, 1, 2, ... 30."""
    return min(LONGEST_PAUSE, FIRST_PAUSE * 2 ** (failures - 1))


def first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [""])[0]


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def drop_connections() -> None:
    """Close this thread's connections, and have a connection pool (settings.DB_POOL_MAX_SIZE)
    test its idle ones: after a restart they are all dead, and each would fail once."""
    connections.close_all()
    for conn in connections.all():
        pool = getattr(conn, "pool", None) if conn.vendor == "postgresql" else None
        if pool is not None:
            pool.check()


def sweep_abandoned(lease: timedelta) -> list[UUID]:
    """Put back in the queue the RUNNING tasks of dead workers (their lease ran out);
    fail those that already killed MAX_ATTEMPTS workers. Returns the ids re-queued."""
    now = timezone.now()
    stale = DBTaskResult.objects.filter(status=RUNNING, run_after__lt=now, started_at__lt=now - lease)
    requeued = []
    for pk, worker_ids, path in stale.values_list("pk", "worker_ids", "task_path"):
        if len(worker_ids) >= MAX_ATTEMPTS:
            stale.filter(pk=pk).update(status=FAILED, finished_at=now, exception_class_path="",
                                       traceback=f"abandoned by {len(worker_ids)} workers: not retried")
            log.error("task %s (%s) abandoned by %d workers: marked failed", pk, path, len(worker_ids))
        elif stale.filter(pk=pk).update(status=READY, run_after=BACK_IN_LINE):
            log.warning("task %s (%s) abandoned by worker %s: queued again", pk, path, worker_ids[-1:])
            requeued.append(pk)
    return requeued


class ResilientWorker(db_worker.Worker):
    def __init__(self, *, lease: float, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lease = timedelta(seconds=lease)
        self.current: UUID | None = None  # the task being run, for the heartbeat and recovery
        self.beating = threading.Event()

    def run(self) -> None:
        self.start_heartbeat()
        failures = 0
        try:
            while self.running:
                try:
                    self.requeue_interrupted()
                    check_database()
                    failures = 0  # the database answers: the next error starts the back-off afresh
                    super().run()
                    return  # batch or --max-tasks: the library's loop finished
                except DB_ERRORS as error:
                    failures += 1
                    pause = pause_after(failures)
                    log.warning("worker %s: database error (%s: %s); reconnecting in %.1f s",
                                self.worker_id, type(error).__name__, first_line(error), pause)
                    drop_connections()
                    time.sleep(pause)
                    self.startup_delay = False
        finally:
            self.beating.set()

    def run_task(self, db_task_result: DBTaskResult) -> None:
        self.current = db_task_result.pk
        self.extend_lease()
        super().run_task(db_task_result)
        # Not reached when recording the result failed (the database went away): the task
        # stays `current` and requeue_interrupted() puts it back once the database answers.
        self.current = None

    def extend_lease(self) -> None:
        if self.current is not None:
            DBTaskResult.objects.filter(pk=self.current, status=RUNNING).update(
                run_after=timezone.now() + self.lease)

    def requeue_interrupted(self) -> None:
        """The task cut short by a database error will not finish here: queue it again."""
        if self.current is not None:
            DBTaskResult.objects.filter(pk=self.current, status=RUNNING).update(status=READY, run_after=BACK_IN_LINE)
            log.warning("task %s interrupted by a database error: queued again", self.current)
            self.current = None

    def start_heartbeat(self) -> None:
        threading.Thread(target=self.heartbeat, name=f"heartbeat-{self.worker_id}", daemon=True).start()

    def heartbeat(self) -> None:
        """Every third of a lease: extend the running task's lease, sweep dead workers' tasks.
        Runs on its own thread (its own connection), so a long task keeps its lease."""
        every = self.lease.total_seconds() / 3
        while not self.beating.wait(every):
            try:
                self.extend_lease()
                sweep_abandoned(self.lease)
            except DB_ERRORS as error:
                log.warning("heartbeat of worker %s: database error (%s)", self.worker_id, first_line(error))
            finally:
                connections.close_all()  # this thread's own connection: a fresh one each beat


def valid_lease(value: str) -> float:
    seconds = float(value)
    if not 0.3 <= seconds <= 86400:
        raise ArgumentTypeError("a lease is between 0.3 s and a day")
    return seconds


class Command(db_worker.Command):
    help = "Run the task worker: db_worker that survives database restarts and re-runs dead workers' tasks."

    def add_arguments(self, parser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--lease", type=valid_lease, default=60.0,
                            help="Seconds a running task is held without a heartbeat before another worker "
                                 "takes it over (default: %(default)s)")

    def handle(self, *, verbosity: int, queue_name: str, interval: float, batch: bool, backend_name: str,
               startup_delay: bool, reload: bool, max_tasks: int | None, worker_id: str, exclude_queues: str,
               **options) -> None:
        """db_worker's handle() with our worker (its options and their checks are the library's)."""
        self.configure_logging(verbosity)
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = ResilientWorker(lease=options["lease"], queue_names=queue_names, excluded_queue_names=excluded,
                                 interval=interval, batch=batch, backend_name=backend_name,
                                 startup_delay=startup_delay, max_tasks=max_tasks, worker_id=worker_id)
        if reload and not batch:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()  # only in the reloaded child
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
