"""A server killed mid-stream (SIGKILL, no chance to clean up) loses no acknowledged move:
a player keeps submitting through HTTP, the server dies and restarts, and every move the
player got a 200 for is in the database, which still replays to its snapshot."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.conf import settings
from django.test import Client

from games.models import Game, Move
from games.verify import verify
from tests.browser.fixtures import ROOT, _database_url, _free_port

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def start_server(port: int) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=_database_url(settings.DATABASES["default"]), DEBUG="1",
               RATELIMIT_ENABLE="0", CHANNEL_PREFIX=f"sb-crash-{port}")
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "config.asgi:application"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("daphne did not start")


class Player:
    """A browser-less player: the session cookie of a logged-in user and a CSRF token."""

    def __init__(self, user, base: str):
        client = Client()
        client.force_login(user)
        self.base = base
        self.session = client.cookies[settings.SESSION_COOKIE_NAME].value
        self.csrf = "a" * 32

    def post(self, path: str, data: dict) -> int:
        body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.base + path, data=body, headers={
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={self.session}; {settings.CSRF_COOKIE_NAME}={self.csrf}",
            "X-CSRFToken": self.csrf, "Referer": self.base + "/", "HX-Request": "true"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as exc:
            return exc.code
        except OSError:
            return 0  # no answer: the server died under this request


def test_every_acknowledged_move_survives_a_sigkill(start_game, alice):
    game = start_game("rifugio", [alice, None], seed=5)
    port = _free_port()
    server = start_server(port)
    player = Player(alice, f"http://127.0.0.1:{port}")
    acknowledged: list[str] = []
    stop = threading.Event()

    def play():
        n = 0
        while not stop.is_set():
            fresh = Game.objects.get(pk=game.pk)
            seat = fresh.seat_of(alice)
            if not fresh.is_active or seat not in fresh.to_act():
                break
            n += 1
            token = f"crash-{n}"
            action = fresh.rules.legal_actions(fresh.state, seat)[0]
            status = player.post(f"/play/{game.pk}/act/", {"action": json.dumps(action), "token": token})
            if status == 200:
                acknowledged.append(token)
            elif status == 0:
                time.sleep(0.2)
        from django.db import connection
        connection.close()

    worker = threading.Thread(target=play)
    worker.start()
    try:
        while len(acknowledged) < 6:
            time.sleep(0.05)
        server.send_signal(signal.SIGKILL)  # mid-stream: the player is still submitting
        server.wait(timeout=10)
        server = start_server(port)
        before = len(acknowledged)
        deadline = time.time() + 30
        while len(acknowledged) < before + 4 and time.time() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        worker.join(timeout=30)
        server.kill()
        server.wait(timeout=10)

    assert len(acknowledged) >= 10, "moves were acknowledged before and after the crash"
    stored = set(Move.objects.filter(game=game).values_list("token", flat=True))
    assert set(acknowledged) <= stored, "an acknowledged move was lost"
    game.refresh_from_db()
    assert verify(game) is None
