"""Tasks the fault tests enqueue for a real worker process to run. Each run writes its
start and its end to a file, so a test counts how often a task began and finished."""
from __future__ import annotations

import time

from django_tasks import task


@task()
def note(path: str, word: str, seconds: float = 0.0) -> str:
    with open(path, "a") as log:
        log.write(f"start {word}\n")
    time.sleep(seconds)
    with open(path, "a") as log:
        log.write(f"done {word}\n")
    return word
