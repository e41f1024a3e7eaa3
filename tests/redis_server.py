"""A Redis server owned by one test: started on a free port in a temporary folder, the
site pointed at it (cache, channel layer, audience registry), and stopped, killed or
restarted by the test. Fault tests flush or kill this one, never the shared Redis."""
from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class OwnRedis:
    def __init__(self, folder, port: int) -> None:
        self.folder, self.port = folder, port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder), "--protected-mode", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                if self.client().ping():
                    return
            except Exception:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start in 10 s")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def client(self):
        import redis

        return redis.Redis.from_url(self.url, socket_connect_timeout=1)

    def clients(self, name_prefix: str = "") -> list[dict]:
        """CLIENT LIST of this server, without the asking connection itself."""
        with self.client() as c:
            return [entry for entry in c.client_list() if entry["cmd"] != "client|list"]


def point_site_at(settings, url: str) -> None:
    """Cache, presence cache, channel layer and audience registry on `url` (the
    setting_changed signals reset Django's caches and channels' layers)."""
    from config.settings import redis_services

    settings.REDIS_URL = url
    settings.CACHES, settings.CHANNEL_LAYERS = redis_services(url)


def settle_registry() -> None:
    """The audience registry (games.audiences) was born long ago and every process has
    re-published since: its answers count. (Just born or flushed, it answers "everyone
    watches" for one heartbeat.) Nothing to do without Redis: the registry is local."""
    from django.conf import settings

    from config.redis_pool import client
    from games import audiences

    if settings.REDIS_URL:
        client().set(audiences._since_key(), time.time() - 3600)


@pytest.fixture
def own_redis(tmp_path, settings):
    server = OwnRedis(tmp_path, free_port())
    server.start()
    point_site_at(settings, server.url)
    yield server
    server.kill()
