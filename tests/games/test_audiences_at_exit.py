"""At a server's exit (games.audiences): concurrent.futures shuts every thread pool down, the
registry's writer included, while the heartbeat thread sleeps and the last sockets close.
Neither may die on "cannot schedule new futures after shutdown" (it did, in the server's
log, at every exit); both end quietly, and this process's entries expire in Redis by TTL."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from games import audiences


@pytest.fixture
def writer_shut_down(monkeypatch):
    writer = ThreadPoolExecutor(max_workers=1)
    writer.shutdown()
    monkeypatch.setattr(audiences, "_writer", writer)
    return writer


def test_the_heartbeat_ends_quietly_once_the_writer_is_shut_down(writer_shut_down, monkeypatch):
    monkeypatch.setattr(audiences, "HEARTBEAT_SECONDS", 0)
    monkeypatch.setattr(audiences, "_redis_on", lambda: True)
    audiences._heartbeat_loop()   # returns: before the fix it raised RuntimeError


def test_a_socket_leaving_at_exit_does_not_raise(writer_shut_down):
    asyncio.run(audiences._run_write(lambda: None))


def test_a_refusal_while_the_writer_is_up_is_not_hidden(monkeypatch):
    class Refusing(ThreadPoolExecutor):
        def submit(self, *args, **kwargs):
            raise RuntimeError("something else")

    monkeypatch.setattr(audiences, "_writer", Refusing(max_workers=1))
    monkeypatch.setattr(audiences, "HEARTBEAT_SECONDS", 0)
    monkeypatch.setattr(audiences, "_redis_on", lambda: True)
    with pytest.raises(RuntimeError, match="something else"):
        audiences._heartbeat_loop()
