"""Real worker processes (`manage.py run_worker`) on the test database, for the fault tests."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable

from django.conf import settings
from django.db import connection

from tests.browser.fixtures import ROOT, _database_url

APP_NAME = "switchback-fault-worker"  # the workers' connections carry it: pg_terminate_backend targets them only


def start_worker(worker_id: str, *, lease: float = 60.0, log_path: str | None = None) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=_database_url(settings.DATABASES["default"]), DEBUG="1",
               PGAPPNAME=APP_NAME, LOG_LEVEL="WARNING")
    out = open(log_path, "ab") if log_path else subprocess.DEVNULL  # noqa: SIM115 (the process owns it)
    return subprocess.Popen(
        [sys.executable, "manage.py", "run_worker", "--no-reload", "--no-startup-delay", "--interval", "0.1",
         "--lease", str(lease), "--worker-id", worker_id],
        cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def stop(worker: subprocess.Popen) -> None:
    if worker.poll() is None:
        worker.kill()
    worker.wait(timeout=10)


def wait_until(check: Callable[[], object], timeout: float, what: str) -> float:
    """Poll `check` until truthy; returns the seconds it took (fails the test after `timeout`)."""
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        if check():
            return time.monotonic() - began
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def kill_worker_connections() -> int:
    """Terminate the worker processes' PostgreSQL connections (as a restart does), never
    anybody else's: only this test database and the workers' application_name."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                       "WHERE datname = %s AND application_name = %s AND pid <> pg_backend_pid()",
                       [connection.settings_dict["NAME"], APP_NAME])
        return cursor.fetchone()[0]


def lines(path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []
