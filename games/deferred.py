"""Work done after the answer (issue 21, item 2): the other audiences' panels of a move.

The mover's answer needs its own panel only; rendering and pushing every other audience's
used to happen inside the mover's request, before it answered. The publisher now hands
that work to this module, which runs it on one thread per server process, in the order it
was handed over: a game's pushes leave in the order of its changes (and all games share
the one line, so no game's pushes overtake another's either). One thread is the right
size: a render is pure Python under the GIL, more threads would only take turns.

Where the pushes are sent from: under an ASGI server (uvicorn, `make run`; daphne in the
browser tests) the request thread knows the server's event loop (asgiref's), and the
deferred job sends its messages on that loop, as the request itself did before: the
channel layer keeps its connections there, and the in-memory layer's queues are only safe
on it. With no server loop (the task worker, a management command) a job sends as those
always did (asgiref starts a loop for the call).

`settings.LIVE_PUSHES`:
- "deferred" (the default): on the line when called from a request of an ASGI server (a
  mover is waiting for its answer); anywhere else (the task worker, a management command:
  nobody waits, and a process about to exit could not send any more) at once;
- "inline": always at once, in the caller's thread (the test suite's setting, so a test
  that moves and then reads its sockets needs nothing more);
- "line": always on the line (tests of the line, which call `drain()`).

A job that fails is logged and the line goes on: the pages of that audience heal (a delta
names the revision it applies on top of, a page on another revision fetches its full
panel; a socket that reconnects gets its board when it is behind: games.consumers).
Pending jobs are run before the process exits (atexit).
"""
from __future__ import annotations

import asyncio
import atexit
import logging
import os
import queue
import threading
from typing import Any, Callable, Coroutine

from asgiref.sync import SyncToAsync, async_to_sync
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

SEND_TIMEOUT = 10.0


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The ASGI server's event loop when called from one of its request threads, else None."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(local, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def run_coroutine(make: Callable[[], Coroutine[Any, Any, Any]], loop: asyncio.AbstractEventLoop | None) -> None:
    """Run a coroutine to its end from a plain thread: on `loop` (the server's) when it still
    runs, else on a loop of its own."""
    if loop is not None and loop.is_running() and not loop.is_closed():
        asyncio.run_coroutine_threadsafe(make(), loop).result(SEND_TIMEOUT)
    elif running_loop() is None:
        # A loop of our own, in this thread. Not asgiref's async_to_sync: it runs the loop
        # on an executor, and at the process's exit (the line drained by atexit, after the
        # server's loop has stopped) executors take nothing more, so the last pushes of a
        # restarting server were lost.
        asyncio.run(make())
    else:
        async_to_sync(make)()


def running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class Line:
    """A FIFO of jobs run one at a time on one daemon thread; `drain` waits until it is empty."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[Callable[[], None]] = queue.Queue()
        self.pending = 0
        self.idle = threading.Condition()
        self.thread: threading.Thread | None = None
        self.start_lock = threading.Lock()

    def submit(self, job: Callable[[], None]) -> None:
        with self.idle:
            self.pending += 1
        self._ensure_thread()
        self.jobs.put(job)

    def _ensure_thread(self) -> None:
        with self.start_lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="live-pushes", daemon=True)
                self.thread.start()

    def _run(self) -> None:
        while True:
            job = self.jobs.get()
            try:
                job()
            except Exception:
                log.exception("a deferred live push failed")
            finally:
                if self.jobs.empty():
                    # Idle: give the thread's database connection back (to the pool, if any).
                    connections.close_all()
                with self.idle:
                    self.pending -= 1
                    if self.pending == 0:
                        self.idle.notify_all()

    def drain(self, timeout: float = 30.0) -> bool:
        """Wait until every job handed over so far has run; False on timeout."""
        with self.idle:
            return self.idle.wait_for(lambda: self.pending == 0, timeout)


LINE = Line()


def mode() -> str:
    return getattr(settings, "LIVE_PUSHES", "deferred")


def deferring(loop: asyncio.AbstractEventLoop | None) -> bool:
    """Whether a job handed over now goes on the line (`loop`: the server's, or None)."""
    return mode() == "line" or (mode() == "deferred" and loop is not None)


def defer(job: Callable[[], None], loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Run `job` after the caller is done, on the line, or now (see LIVE_PUSHES). A job's
    failure is logged, never raised: a committed change is never undone by a push."""
    if not deferring(loop):
        try:
            job()
        except Exception:
            log.exception("a live push failed")
        return
    LINE.submit(job)


def drain(timeout: float = 30.0) -> bool:
    """Run out the line (tests; the process's exit). Call it from a thread that is not the
    server's event loop: a job may be sending on that loop."""
    return LINE.drain(timeout)


atexit.register(lambda: LINE.drain(SEND_TIMEOUT))
