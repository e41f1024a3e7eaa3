"""The live-layer benchmark: one table, every figure beside a bare authenticated request
measured in the same run on the same server (bench.urls).

Starts `uvicorn --workers 2` on PostgreSQL + Redis (a scratch database `<db>_bench`),
then measures HTTP moves at N concurrent players, WebSocket fan-out at M sockets (one
5-seat game with spectators, and sockets spread over 200 games) on both Redis channel
layers, memory per idle socket, replay steps, SQL queries per page and the database
connections held under 200 concurrent requests.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_live REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/live.py [--quick]

`--idle-sockets N` (`make bench SOCKETS=N`) adds issue 21's item 7: N sockets opened as real
pages open them, held idle, then moves checked to reach every one, with the server's memory
per socket, descriptors, Redis clients and log; `--idle-only` runs that alone (docs/performance.md,
"10,000 sockets"). It raises this process's open-files limit to the hard limit; the server
inherits it.

Run it from the checkout to measure (it imports the project from the current directory).
"""
from __future__ import annotations

import argparse
import contextlib
import asyncio
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
PORT = int(os.environ.get("BENCH_PORT", "8110"))
BASE = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/h_live")
BENCH_DB = BASE.rsplit("/", 1)[1] + "_bench"
SERVER_ENV = {"DJANGO_SETTINGS_MODULE": "bench.settings", "DATABASE_URL": f"{BASE.rsplit('/', 1)[0]}/{BENCH_DB}",
              "DEBUG": "0", "SECRET_KEY": "bench-" + "x" * 50, "SECURE_SSL_REDIRECT": "0",
              "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/1"), "LOG_LEVEL": "ERROR"}
os.environ.update(SERVER_ENV)
os.environ["DB_POOL_MAX_SIZE"] = "0"  # this process's threads hold connections; the server's pool is the one measured
from bench.summary import summarize  # noqa: E402 (the project's root is on the path only now)

CSRF = "b" * 32
ROWS: list[tuple[str, str, str]] = []


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(name: str, figure: str, ratio: str = "") -> None:
    ROWS.append((name, figure, ratio))
    print(f"  {name:58} {figure:>34} {ratio:>10}", flush=True)


# ---- set-up: scratch database, users with sessions, games -------------------------------

def fresh_database() -> None:
    import psycopg

    with psycopg.connect(BASE.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{BENCH_DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{BENCH_DB}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def users_with_cookies(count: int) -> list[tuple[object, str]]:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User

    User.objects.bulk_create([User(username=f"b{i}", password="!") for i in range(count)])
    backend = getattr(settings, "AUTHENTICATION_BACKENDS", ["django.contrib.auth.backends.ModelBackend"])[-1]
    result = []
    for user in User.objects.filter(username__startswith="b").order_by("pk"):
        session = SessionStore()
        session.update({SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: backend,
                        HASH_SESSION_KEY: user.get_session_auth_hash()})
        session.create()
        result.append((user, f"{settings.SESSION_COOKIE_NAME}={session.session_key}; csrftoken={CSRF}"))
    return result


def new_game(slug: str, users: list, seed: int, bots: int = 0):
    from games import engine, rules
    from games.engine import SeatPlan

    plans = [SeatPlan(user=u) for u in users] + [SeatPlan(is_bot=True) for _ in range(bots)]
    return engine.start_game(slug, plans, rules.get(slug).default_options(), seed=seed, shuffle=False)


def planned_actions(game) -> list[dict]:
    """A solo game's whole move list, played out here so the server replays it exactly."""
    rules, state, rng, actions = game.rules, game.state, random.Random(game.seed), []
    while not rules.is_over(state) and len(actions) < 2000:
        action = rng.choice(rules.legal_actions(state, 0))
        actions.append(action)
        state = rules.apply(state, 0, action)
    return actions


# ---- a tiny keep-alive HTTP/1.1 client -------------------------------------------------

class Http:
    def __init__(self, cookie: str = ""):
        self.cookie, self.reader, self.writer = cookie, None, None
        self.last_headers: dict[str, str] = {}

    async def request(self, method: str, path: str, form: dict | None = None, htmx: bool = False,
                      headers: dict | None = None) -> tuple[int, bytes]:
        from urllib.parse import urlencode

        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", PORT)
        body = urlencode(form).encode() if form else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{PORT}", f"Content-Length: {len(body)}",
                f"X-CSRFToken: {CSRF}", f"Origin: http://127.0.0.1:{PORT}"]
        if self.cookie:
            head.append(f"Cookie: {self.cookie}")
        if form:
            head.append("Content-Type: application/x-www-form-urlencoded")
        if htmx:
            head.append("HX-Request: true")
        head += [f"{key}: {value}" for key, value in (headers or {}).items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        return await self._response()

    async def _response(self) -> tuple[int, bytes]:
        status = int((await self.reader.readline()).split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            key, _, value = line.decode().partition(":")
            headers[key.strip().lower()] = value.strip()
        if "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        else:  # chunked
            body = b""
            while size := int((await self.reader.readline()).strip(), 16):
                body += await self.reader.readexactly(size + 2)
            await self.reader.readline()
        if headers.get("connection") == "close":
            self.close()
        self.last_headers = headers
        return status, body

    def close(self) -> None:
        if self.writer:
            self.writer.close()
        self.reader = self.writer = None


# ---- the server ------------------------------------------------------------------------

class Server:
    def __init__(self, layer: str, workers: int = 2, log: Path | None = None, env: dict | None = None):
        self.layer, self.workers, self.proc = layer, workers, None
        self.log, self.extra_env, self.log_file = log, env or {}, None

    def __enter__(self):
        env = {**os.environ, **SERVER_ENV, "CHANNEL_LAYER": self.layer, **self.extra_env}
        env.pop("DB_POOL_MAX_SIZE")
        if self.log:  # the server's own output (uvicorn's and Django's log), to read afterwards
            self.log_file = open(self.log, "w")  # noqa: SIM115 (closed in __exit__)
        self.proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(PORT),
                                      "--workers", str(self.workers), "--no-access-log", "--log-level", "warning",
                                      "--ws-max-size", "16777216",
                                      # a 5,000-socket fan-out keeps a worker busy past the 5 s default,
                                      # and uvicorn then kills it without a log line (issue 21)
                                      "--timeout-worker-healthcheck", "60",
                                      # BENCH_WS=websockets-sansio|wsproto: another socket implementation
                                      *(["--ws", os.environ["BENCH_WS"]] if os.environ.get("BENCH_WS") else [])],
                                     cwd=ROOT, env=env,
                                     stdout=self.log_file, stderr=subprocess.STDOUT if self.log_file else None,
                                     start_new_session=True)  # its own process group: see __exit__
        for _ in range(200):
            time.sleep(0.2)
            try:
                status, _ = asyncio.run(Http().request("GET", "/accounts/login/"))
                if status == 200 and len(self.worker_pids()) == self.workers:
                    time.sleep(1.5)
                    return self
            except OSError:
                continue
        self.__exit__()
        raise RuntimeError("the server did not start")

    def __exit__(self, *exc):
        # The whole group: terminating uvicorn's master alone left its workers (and their
        # ~1,200 Redis connections) behind after every run (issue 21).
        group = os.getpgid(self.proc.pid)
        os.killpg(group, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(20)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)
        self.proc.wait(5)
        if self.log_file:
            self.log_file.close()

    def worker_pids(self) -> list[int]:
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        return [int(pid) for pid in children if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]

    def cpu_ms(self) -> float:
        """User + system CPU of the server's workers so far, in ms (all their threads)."""
        total = 0
        for pid in self.worker_pids():
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
        return 1000 * total / os.sysconf("SC_CLK_TCK")

    def rss_kb(self) -> int:
        return sum(rss for _pid, rss, _fds in self.workers_now())

    def workers_now(self) -> list[tuple[int, int, int]]:
        """(pid, RSS in kB, open file descriptors) of each worker."""
        out = []
        for pid in sorted(self.worker_pids()):
            rss = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                       if line.startswith("VmRSS:"))
            out.append((pid, rss, len(os.listdir(f"/proc/{pid}/fd"))))
        return out


# ---- measurements ----------------------------------------------------------------------

async def closed_loop(clients: list, step, seconds: float) -> tuple[float, list[float]]:
    """Each client repeats `step(client, i)` until the time is up: (requests/s, latencies)."""
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def loop(client, index):
        i = 0
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            if not await step(client, index, i):
                return
            latencies.append(time.perf_counter() - start)
            i += 1

    start = time.perf_counter()
    await asyncio.gather(*(loop(c, k) for k, c in enumerate(clients)))
    return len(latencies) / (time.perf_counter() - start), latencies


async def bare_step(client, index, i):
    status, _ = await client.request("GET", "/bench/bare/")
    assert status == 200, status
    return True


def bench_http(people, seconds: float) -> dict:
    """Bare requests, then moves in each player's own solo game, at N = 1, 10, 50."""
    from django.db import close_old_connections

    bare_p50 = {}
    for n in (1, 10, 50):
        games = [new_game("roll-to-the-top", [people[k][0]], seed=1000 * n + k) for k in range(n)]
        plans = [planned_actions(g) for g in games]
        close_old_connections()
        clients = [Http(people[k][1]) for k in range(n)]
        bare_rate, bare = asyncio.run(closed_loop(clients, bare_step, seconds))
        bare_p50[n] = statistics.median(bare)
        pids = set()

        async def move_step(client, k, i, games=games, plans=plans):
            if i >= len(plans[k]):
                return False
            form = {"action": json.dumps(plans[k][i]), "token": secrets.token_hex(8)}
            status, body = await client.request("POST", f"/play/{games[k].pk}/act/", form, htmx=True)
            assert status == 200, (status, body[:300])
            return True

        async def floor_step(client, k, i, games=games):
            status, body = await client.request("POST", f"/bench/move-floor/{games[k].pk}/", {"t": i})
            assert status == 200, (status, body[:300])
            return True

        floor_rate, _ = asyncio.run(closed_loop([Http(people[k][1]) for k in range(n)], floor_step, seconds))
        move_rate, moves = asyncio.run(closed_loop([Http(people[k][1]) for k in range(n)], move_step, seconds))
        status, body = asyncio.run(Http(people[0][1]).request("GET", "/bench/bare/"))
        pids.add(body.decode().split()[-1])
        ms = [1000 * x for x in moves]
        row(f"bare request, N={n}", f"{bare_rate:.0f}/s p50 {1000 * bare_p50[n]:.1f} ms", "1.00")
        row(f"HTTP move floor (lock, write, commit), N={n}: throughput", f"{floor_rate:.0f}/s",
            f"{floor_rate / bare_rate:.2f}")
        row(f"HTTP move, N={n}: throughput", f"{move_rate:.0f}/s",
            f"{move_rate / bare_rate:.2f} ({move_rate / floor_rate:.2f} floor)")
        summarize(f"http_move_over_floor_n{n}", move_rate / floor_rate)
        summarize(f"http_move_over_bare_n{n}", move_rate / bare_rate)
        row(f"HTTP move, N={n}: p50 / p95 / p99",
            f"{statistics.median(ms):.0f} / {pct(ms, .95):.0f} / {pct(ms, .99):.0f} ms",
            f"{statistics.median(moves) / bare_p50[n]:.1f}x")
    return bare_p50


async def open_sockets(paths_and_cookies: list[tuple[str, str]]) -> list:
    import websockets

    sockets = []
    for i in range(0, len(paths_and_cookies), 50):
        batch = paths_and_cookies[i:i + 50]
        sockets += await asyncio.gather(*(websockets.connect(
            f"ws://127.0.0.1:{PORT}{path}", origin=f"http://127.0.0.1:{PORT}",
            additional_headers={"Cookie": cookie} if cookie else {}, max_size=None, open_timeout=60,
            compression="deflate" if os.environ.get("BENCH_WS_DEFLATE") == "1" else None)
            for path, cookie in batch))
    return sockets


def next_move(game_id: int) -> tuple[int, dict]:
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    seat = game.to_act()[0]
    return seat, game.rules.legal_actions(game.state, seat)[0]


async def fanout_rounds(game_ids: list[int], sockets_of: dict, seat_cookies: dict, moves: int) -> list[float]:
    """Per move: POST it, then wait until every socket of that game has a message."""
    from asgiref.sync import sync_to_async

    timings = []
    for i in range(moves):
        game_id = game_ids[i % len(game_ids)]
        seat, action = await sync_to_async(next_move)(game_id)
        client = Http(seat_cookies[game_id][seat])
        start = time.perf_counter()
        status, _ = await client.request("POST", f"/play/{game_id}/act/",
                                         {"action": json.dumps(action), "token": secrets.token_hex(8)}, htmx=True)
        assert status == 200, status
        await asyncio.gather(*(asyncio.wait_for(ws.recv(), 60) for ws in sockets_of[game_id]))
        timings.append(time.perf_counter() - start)
        client.close()
    return timings


async def bench_fanout_async(server, people, m: int, spread: bool, moves: int, base: float) -> None:
    if spread:
        games = [await asyncio.to_thread(new_game, "rifugio", [people[0][0], people[1][0]], 50_000 + g)
                 for g in range(200)]
        seats = {g.pk: [people[0][1], people[1][1]] for g in games}
        wanted = [(f"/ws/play/{games[i % 200].pk}/", "") for i in range(m)]
    else:
        game = await asyncio.to_thread(new_game, "rifugio", [p[0] for p in people[:5]], 60_000 + m)
        games, seats = [game], {game.pk: [p[1] for p in people[:5]]}
        wanted = [(f"/ws/play/{game.pk}/", people[i][1] if i < 5 else "") for i in range(m)]
    rss_before = server.rss_kb()
    sockets = await open_sockets(wanted)
    await asyncio.sleep(1)
    rss_after = server.rss_kb()
    sockets_of: dict = {}
    for (path, _), ws in zip(wanted, sockets, strict=True):
        sockets_of.setdefault(int(path.split("/")[3]), []).append(ws)
    moved = [g.pk for g in games][:moves]
    timings = await fanout_rounds(moved, sockets_of, seats, moves)
    for ws in sockets:
        await ws.close()
    ms = [1000 * t for t in timings]
    what = f"{m} sockets over 200 games" if spread else f"{m} sockets on one 5-seat game"
    row(f"  {server.layer}: {what}, last socket p50 / p95",
        f"{statistics.median(ms):.0f} / {pct(ms, .95):.0f} ms", f"{pct(timings, .95) / base:.1f}x")
    if not spread and m >= 1000:
        row(f"  {server.layer}: memory per idle socket", f"{(rss_after - rss_before) / m:.1f} kB")


def _panel_sizes(game_id: int, cookies: list[str]) -> dict[str, int]:
    """Each audience's whole panel, in bytes (seats by their cookie, the spectators anonymous)."""
    async def sizes():
        out = {}
        for audience, cookie in [*((str(i), c) for i, c in enumerate(cookies)), ("s", "")]:
            client = Http(cookie)
            status, body = await client.request("GET", f"/play/{game_id}/panel/", htmx=True)
            client.close()
            assert status == 200, status
            out[audience] = len(body)
        return out
    return asyncio.run(sizes())


async def _round(sockets, post) -> tuple[float, int, float]:
    """(seconds from the POST until every socket has a message, bytes the sockets got,
    seconds until the POST was answered)."""
    start = time.perf_counter()
    waiting = [asyncio.ensure_future(asyncio.wait_for(ws.recv(), 60)) for ws in sockets]
    await post()
    answered = time.perf_counter() - start
    got = await asyncio.gather(*waiting)
    return time.perf_counter() - start, sum(len(m) for m in got), answered


def bench_push_floor(server, people, m: int, moves: int, spread: bool = False, base: float = 0.0) -> None:
    """Issue 21: a move's fan-out to M sockets against the floor measured in the same run,
    round after round: the floor POSTs /bench/floor/ (bench.urls: the same layer and
    consumers, ready strings as long as each audience's whole panel, no database, no render);
    the move POSTs the seat's action. Latency until the last socket of the moved game has its
    message, and the server workers' CPU per round. One 5-seat game (5 seat sockets, the rest
    spectators), or with `spread` 200 two-seat games with M / 200 spectators each, a round
    moving one of them."""
    from asgiref.sync import sync_to_async

    if spread:
        games = [new_game("rifugio", [people[0][0], people[1][0]], 80_000 + g) for g in range(200)]
        cookies = [people[0][1], people[1][1]]
        wanted = [(f"/ws/play/{games[i % 200].pk}/", "") for i in range(m)]
    else:
        games = [new_game("rifugio", [p[0] for p in people[:5]], 70_000 + m)]
        cookies = [p[1] for p in people[:5]]
        wanted = [(f"/ws/play/{games[0].pk}/", cookies[i] if i < 5 else "") for i in range(m)]

    async def run():
        sockets = await open_sockets(wanted)
        sockets_of: dict[int, list] = {}
        for (path, _), ws in zip(wanted, sockets, strict=True):
            sockets_of.setdefault(int(path.split("/")[3]), []).append(ws)
        await asyncio.sleep(1)
        floor_t, move_t, floor_cpu, move_cpu, floor_bytes, move_bytes, answer_t = [], [], [], [], [], [], []
        for i in range(moves):
            game = games[i % len(games)]
            watching = sockets_of[game.pk]
            sizes = await asyncio.to_thread(_panel_sizes, game.pk, cookies)
            client = Http(cookies[0])

            async def post_floor(client=client, sizes=sizes, game=game):
                status, _ = await client.request("POST", f"/bench/floor/{game.pk}/", {"sizes": json.dumps(sizes)})
                assert status == 200, status

            cpu = server.cpu_ms()
            t, n, _ = await _round(watching, post_floor)
            await asyncio.sleep(0.3)
            floor_t.append(t), floor_cpu.append(server.cpu_ms() - cpu), floor_bytes.append(n / len(watching))
            seat, action = await sync_to_async(next_move)(game.pk)
            mover = Http(cookies[seat])

            async def post_move(mover=mover, action=action, game=game):
                status, _ = await mover.request("POST", f"/play/{game.pk}/act/",
                                                {"action": json.dumps(action), "token": secrets.token_hex(8)},
                                                htmx=True)
                assert status == 200, status

            cpu = server.cpu_ms()
            t, n, answered = await _round(watching, post_move)
            await asyncio.sleep(0.3)
            move_t.append(t), move_cpu.append(server.cpu_ms() - cpu), move_bytes.append(n / len(watching))
            answer_t.append(answered)
            client.close(), mover.close()
        for ws in sockets:
            await ws.close()
        return floor_t, move_t, floor_cpu, move_cpu, floor_bytes, move_bytes, answer_t

    floor_t, move_t, floor_cpu, move_cpu, floor_bytes, move_bytes, answer_t = asyncio.run(run())
    f50, m50 = statistics.median(floor_t), statistics.median(move_t)
    what = f"{m} sockets over 200 games" if spread else f"{m} sockets on one 5-seat game"
    key = f"{m}{'_spread' if spread else ''}"
    bare_ratio = f"{f50 / base:.0f}x bare" if base else "1.00 floor"
    row(f"  floor: {what}, last socket p50 / p95", f"{1000 * f50:.0f} / {1000 * pct(floor_t, .95):.0f} ms", bare_ratio)
    row(f"  move: {what}, last socket p50 / p95",
        f"{1000 * m50:.0f} / {1000 * pct(move_t, .95):.0f} ms", f"{m50 / f50:.2f}x floor")
    row("  move: the mover's answer, p50 / p95", f"{1000 * statistics.median(answer_t):.0f} / "
        f"{1000 * pct(answer_t, .95):.0f} ms", f"{statistics.median(answer_t) / f50:.2f}x floor")
    row("  server CPU per round, floor / move (median)",
        f"{statistics.median(floor_cpu):.0f} / {statistics.median(move_cpu):.0f} ms",
        f"{statistics.median(move_cpu) / max(statistics.median(floor_cpu), 1):.2f}x floor")
    row("  bytes per socket per round, floor / move (median)",
        f"{statistics.median(floor_bytes) / 1024:.1f} / {statistics.median(move_bytes) / 1024:.1f} KB")
    summarize(f"fanout_{key}_over_floor", m50 / f50)
    summarize(f"fanout_{key}_floor_p50_ms", 1000 * f50)
    summarize(f"fanout_{key}_floor_cpu_ms", statistics.median(floor_cpu))
    summarize(f"fanout_{key}_move_cpu_ms", statistics.median(move_cpu))
    summarize(f"fanout_{key}_full_kb", statistics.median(floor_bytes) / 1024)
    summarize(f"fanout_{key}_sent_kb", statistics.median(move_bytes) / 1024)
    if base:
        summarize(f"fanout_{key}_floor_over_bare", f50 / base)


def bench_replay(people, base: float) -> None:
    from django.db import close_old_connections

    game = new_game("roll-to-the-top", [], seed=7, bots=5)
    close_old_connections()

    async def steps():
        client = Http(people[0][1])
        await client.request("GET", f"/play/{game.pk}/replay/")  # the first visit leaves checkpoints
        for step in (1, 100, 400):
            times = []
            for _ in range(15):
                start = time.perf_counter()
                status, _ = await client.request("GET", f"/play/{game.pk}/replay/?step={step}", htmx=True)
                times.append(time.perf_counter() - start)
                assert status == 200, status
            row(f"replay step {step} of {game.version} (htmx fragment), median",
                f"{1000 * statistics.median(times):.1f} ms", f"{statistics.median(times) / base:.1f}x")

    asyncio.run(steps())


def busy_player(people):
    """A player with 40 games in play and 300 finished (resigned by the other seat): the
    lobby's and the profile's worst case in issue 21's table."""
    from games import engine

    player, other = people[2][0], people[3][0]
    for g in range(340):
        game = new_game("roll-to-the-top", [player, other], 90_000 + g)
        if g >= 40:
            engine.resign(game.pk, other)
    return player


def bench_pages(people, base: float, seconds: float) -> None:
    """The lobby and a profile of a player with 40 active and 300 finished games, each
    page's median ÷ the bare request's (N=1, same run)."""
    from django.db import close_old_connections

    player = busy_player(people)
    close_old_connections()
    cookie = people[2][1]
    for name, path in (("lobby", "/"), ("profile", f"/accounts/u/{player.username}/")):
        async def fetch(client, index, i, path=path):
            status, _ = await client.request("GET", path)
            assert status == 200, status
            return True

        _rate, times = asyncio.run(closed_loop([Http(cookie)], fetch, seconds))
        median = statistics.median(times)
        row(f"{name}, 40 games in play and 300 finished, median", f"{1000 * median:.1f} ms", f"{median / base:.1f}x")
        summarize(f"page_{name}_over_bare", median / base)


def bench_wire(people) -> None:
    """A Rift Valley Reserve game page (5 seats, mid-game) as a browser asking for gzip
    gets it: bytes on the wire against the page's own size."""
    import gzip

    from django.db import close_old_connections

    from games import engine

    game = new_game("rift-valley-reserve", [p[0] for p in people[:5]], seed=5)
    for _ in range(20):
        seat, action = next_move(game.pk)
        engine.submit(game.pk, people[seat][0], action)
    close_old_connections()

    async def fetch():
        client = Http(people[0][1])
        status, body = await client.request("GET", f"/play/{game.pk}/", headers={"Accept-Encoding": "gzip"})
        assert status == 200, status
        return body, client.last_headers.get("content-encoding", "")

    body, encoding = asyncio.run(fetch())
    size = len(gzip.decompress(body)) if encoding == "gzip" else len(body)
    row("HTML on the wire: a Rift Valley Reserve game page (20 moves)",
        f"{size / 1024:.0f} KB, sent {len(body) / 1024:.1f} KB ({encoding or 'uncompressed'})")
    summarize("wire_page_kb", size / 1024)
    summarize("wire_sent_kb", len(body) / 1024)


def bench_connections(people) -> None:
    """200 concurrent requests: the most PostgreSQL connections the bench database saw."""
    import psycopg

    peak, failures = 0, []

    async def burst():
        nonlocal peak
        clients = [Http(people[i % len(people)][1]) for i in range(200)]
        done = asyncio.Event()

        async def watch():
            nonlocal peak
            with psycopg.connect(BASE.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
                while not done.is_set():
                    count = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                                         (BENCH_DB,)).fetchone()[0]
                    peak = max(peak, count)
                    await asyncio.sleep(0.02)

        async def tolerant_step(client, index, i):
            status, _ = await client.request("GET", "/bench/bare/")
            failures.append(status != 200)
            return True

        watcher = asyncio.create_task(watch())
        await closed_loop(clients, tolerant_step, 4)
        done.set()
        await watcher

    asyncio.run(burst())
    row("PostgreSQL connections, 200 concurrent requests (peak)",
        f"{peak}, {sum(failures)} of {len(failures)} failed")


def bench_queries(people) -> None:
    """SQL queries per page, counted in this process with Django's test client."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    user = people[0][0]
    client = Client()
    client.force_login(user)
    game = new_game("rifugio", [people[0][0], people[1][0]], seed=3)
    seat, action = next_move(game.pk)
    mover = Client()
    mover.force_login([people[0][0], people[1][0]][seat])
    pages = [("bare request", lambda: client.get("/bench/bare/")),
             ("lobby", lambda: client.get("/")), ("game list", lambda: client.get("/games/")),
             ("game page", lambda: client.get(f"/play/{game.pk}/")),
             ("panel fragment (htmx)", lambda: client.get(f"/play/{game.pk}/panel/", headers={"HX-Request": "true"})),
             ("a move (POST, with its live pushes)", lambda: mover.post(
                 f"/play/{game.pk}/act/", {"action": json.dumps(action), "token": "q1"},
                 headers={"HX-Request": "true"}))]
    for name, fetch in pages:
        with CaptureQueriesContext(connection) as queries:
            status = fetch().status_code
        row(f"queries: {name}", f"{len(queries.captured_queries)} (HTTP {status})")


def bench_rules(quick: bool) -> None:
    from games import rules as registry

    for ruleset in registry.all():
        for players in sorted({ruleset.min_players, ruleset.max_players} - {1} or {1}):
            apply_t, legal_t, view_t, whole = [], [], [], []
            for seed in range(2 if quick else 5):
                rng, start = random.Random(seed), time.perf_counter()
                state = ruleset.setup(players, ruleset.default_options(), seed)
                while not ruleset.is_over(state):
                    seat = ruleset.to_act(state)[0]
                    t0 = time.perf_counter()
                    legal = ruleset.legal_actions(state, seat)
                    t1 = time.perf_counter()
                    new = ruleset.apply(state, seat, rng.choice(legal))
                    t2 = time.perf_counter()
                    ruleset.view(new, seat)
                    t3 = time.perf_counter()
                    legal_t.append(t1 - t0)
                    apply_t.append(t2 - t1)
                    view_t.append(t3 - t2)
                    state = new
                whole.append(time.perf_counter() - start)
            us = lambda xs: f"{1e6 * statistics.median(xs):.0f}/{1e6 * pct(xs, .99):.0f}"  # noqa: E731
            row(f"rules {ruleset.slug} {players}p: apply / legal / view µs (p50/p99)",
                f"{us(apply_t)} {us(legal_t)} {us(view_t)}")
            row(f"rules {ruleset.slug} {players}p: whole game", f"{1000 * statistics.median(whole):.0f} ms")


# ---- idle sockets on one box (issue 21, item 7) ------------------------------------------

def raise_fd_limit() -> int:
    """This process's soft limit of open files raised to its hard limit; the server started
    from here inherits it (one descriptor per socket on each side)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


class RedisClients:
    """Redis's connected_clients (every database: the machine's Redis may be shared) and this
    run's own connections (those whose selected database is the run's), without this one."""

    def __init__(self) -> None:
        import redis

        self.client = redis.Redis.from_url(SERVER_ENV["REDIS_URL"])
        self.db = str(self.client.connection_pool.connection_kwargs.get("db", 0))
        self.own_id = self.client.client_id()

    def now(self) -> tuple[int, int, int]:
        """(connected_clients, this database's clients, channels they are subscribed to)."""
        total = self.client.info("clients")["connected_clients"] - 1
        ours = [c for c in self.client.client_list() if str(c.get("db")) == self.db and int(c["id"]) != self.own_id]
        return total, len(ours), sum(int(c.get("sub", 0)) for c in ours)

    def close(self) -> None:
        self.client.close()


def idle_plan(people, n: int, games_count: int):
    """The sockets real pages open: on each game its two players' pages (the game's socket,
    with the board's revision as a page sends it, and the user's /ws/me/) and anonymous
    spectators' pages (the game's socket), spread round-robin over the games."""
    from games.consumers import revision
    from games.models import Game

    games = [new_game("rifugio", [people[2 * g][0], people[2 * g + 1][0]], 80_000 + g) for g in range(games_count)]
    updated = dict(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", "updated"))
    page = {g.pk: f"/ws/play/{g.pk}/?r={revision(updated[g.pk])}" for g in games}
    plan: list[tuple[str, str, int | None]] = []  # (path, cookie, the game whose moves it hears)
    for g, game in enumerate(games):
        for k in (0, 1):
            plan += [(page[game.pk], people[2 * g + k][1], game.pk), ("/ws/me/", people[2 * g + k][1], None)]
    plan += [(page[games[i % games_count].pk], "", games[i % games_count].pk) for i in range(n - len(plan))]
    seats = {game.pk: [people[2 * g][1], people[2 * g + 1][1]] for g, game in enumerate(games)}
    return [g.pk for g in games], plan, seats


def game_version(game_id: int) -> int:
    from games.models import Game

    return Game.objects.values_list("version", flat=True).get(pk=game_id)


def own_rss_kb() -> int:
    return next(int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
                if line.startswith("VmRSS:"))


def idle_deflate_off() -> bool:
    """The idle run's sockets ask for permessage-deflate as browsers do (the server then keeps
    a compressor per socket); BENCH_WS_DEFLATE=0 leaves it out."""
    return os.environ.get("BENCH_WS_DEFLATE") == "0"


class IdleSockets:
    """Issue 21, item 7: N sockets held idle on one server, then moves, each checked to reach
    every socket of its game (a message counted per socket, and the panel version it names)."""

    def __init__(self, server, plan: list[tuple[str, str, int | None]], seats: dict) -> None:
        self.server, self.plan, self.seats = server, plan, seats
        self.counts, self.last, self.arrived = [0] * len(plan), [""] * len(plan), [0.0] * len(plan)
        self.sockets: list = [None] * len(plan)
        self.failures: dict[str, int] = {}
        self.readers: list = []
        self.of_game: dict[int, list[int]] = {}
        for i, (_path, _cookie, game_id) in enumerate(plan):
            if game_id is not None:
                self.of_game.setdefault(game_id, []).append(i)
        self.gate = asyncio.Semaphore(50)  # connections being opened (or closed) at once

    def failed(self, what: str) -> None:
        self.failures[what] = self.failures.get(what, 0) + 1

    async def _read(self, i, ws) -> None:
        import websockets

        with contextlib.suppress(websockets.ConnectionClosed):
            async for message in ws:
                self.counts[i] += 1
                self.last[i] = message
                self.arrived[i] = time.perf_counter()

    async def _open(self, i) -> None:
        import websockets

        path, cookie, _ = self.plan[i]
        async with self.gate:
            try:
                ws = await websockets.connect(
                    f"ws://127.0.0.1:{PORT}{path}", origin=f"http://127.0.0.1:{PORT}",
                    additional_headers={"Cookie": cookie} if cookie else {}, max_size=None, open_timeout=120,
                    ping_interval=None,  # browsers answer the server's pings and send none
                    compression=None if idle_deflate_off() else "deflate",  # browsers ask for it
                    close_timeout=10)
            except Exception as exc:  # counted and reported: this run measures failures too
                self.failed(f"{type(exc).__name__}: {str(exc)[:100]}")
                return
        self.sockets[i] = ws
        self.readers.append(asyncio.create_task(self._read(i, ws)))

    async def open(self, indexes) -> None:
        await asyncio.gather(*(self._open(i) for i in indexes))

    def open_now(self) -> int:
        from websockets.protocol import State

        return sum(1 for ws in self.sockets if ws is not None and ws.state is State.OPEN)

    async def close(self) -> None:
        async def close_one(ws):
            async with self.gate:
                await ws.close()

        await asyncio.gather(*(close_one(ws) for ws in self.sockets if ws is not None))
        await asyncio.gather(*self.readers)

    async def move(self, targets: list[int], timeout: float) -> tuple[int, int, int, float, list[float]]:
        """POST the next move of every game in `targets` at once, then wait until each of their
        sockets has a new message. (expected, delivered, naming the new version, seconds from the
        first POST until the last socket had its message, per game: until its last socket)."""
        from asgiref.sync import sync_to_async

        counts, arrived = self.counts, self.arrived
        idx = [i for g in targets for i in self.of_game[g]]
        before = {i: counts[i] for i in idx}
        nexts = [await sync_to_async(next_move)(g) for g in targets]
        start = time.perf_counter()

        async def post(game_id, seat, action):
            client = Http(self.seats[game_id][seat])
            status, _ = await client.request("POST", f"/play/{game_id}/act/",
                                             {"action": json.dumps(action), "token": secrets.token_hex(8)}, htmx=True)
            client.close()
            if status != 200:
                self.failed(f"move: HTTP {status}")

        await asyncio.gather(*(post(g, seat, action) for g, (seat, action) in zip(targets, nexts, strict=True)))
        while time.perf_counter() < start + timeout and any(counts[i] == before[i] for i in idx):
            await asyncio.sleep(0.005)
        delivered = [i for i in idx if counts[i] > before[i]]
        versions = {g: await sync_to_async(game_version)(g) for g in targets}
        right = sum(1 for i in delivered if f'data-version="{versions[self.plan[i][2]]}"' in self.last[i])
        per_game = [max(arrived[i] for i in self.of_game[g]) - start for g in targets
                    if all(counts[i] > before[i] for i in self.of_game[g])]
        last = max((arrived[i] for i in delivered), default=start) - start
        return len(idx), len(delivered), right, last, per_game


def workers_text(stats) -> str:
    return " + ".join(f"{rss / 1024:.0f} MB/{fds} fd" for _pid, rss, fds in stats)


def per_socket(before, after, sockets: int) -> str:
    """kB per socket, both workers together, then each (its RSS growth over its new descriptors)."""
    each = " / ".join(f"{(w2[1] - w0[1]) / max(w2[2] - w0[2], 1):.1f}" for w0, w2 in zip(before, after, strict=True))
    total = sum(w[1] for w in after) - sum(w[1] for w in before)
    return f"{total / max(sockets, 1):.1f} kB ({each})"


async def idle_open_and_hold(run: IdleSockets, redis_clients: RedisClients, game_count: int, idle_seconds: float):
    server, plan = run.server, run.plan
    workers_0, redis_0 = server.workers_now(), redis_clients.now()
    start = time.perf_counter()
    # a tenth first: the sockets after it show what one more socket costs, without the first
    # ones' one-off allocations (imports, caches, the layer's connection)
    tenth = len(plan) // 10
    await run.open(range(tenth))
    await asyncio.sleep(1)
    workers_tenth, open_tenth = server.workers_now(), run.open_now()
    await run.open(range(tenth, len(plan)))
    opened = time.perf_counter() - start
    await asyncio.sleep(2)
    redis_1 = redis_clients.now()
    game_sockets = sum(1 for _p, _c, g in plan if g is not None)
    row(f"idle: {len(plan)} sockets ({game_sockets} on {game_count} games, {len(plan) - game_sockets} /ws/me/)",
        f"{run.open_now()} open in {opened:.0f} s, {sum(run.failures.values())} failed")
    for what, times in sorted(run.failures.items()):
        print(f"    failed: {times} x {what}", flush=True)

    # idle: nothing sent either way but the server's pings (uvicorn: every 20 s)
    cpu, least, most_redis = server.cpu_ms(), run.open_now(), redis_1
    start = time.perf_counter()
    while time.perf_counter() - start < idle_seconds:
        await asyncio.sleep(min(5.0, idle_seconds))
        least, sample = min(least, run.open_now()), redis_clients.now()
        most_redis = max(most_redis, sample)
        print(f"    idle {time.perf_counter() - start:3.0f} s: {run.open_now()} open, Redis clients "
              f"{sample[0]} (this db {sample[1]}), workers {workers_text(server.workers_now())}", flush=True)
    idle_cpu = server.cpu_ms() - cpu
    workers_2, held = server.workers_now(), run.open_now()
    row(f"idle: held through {idle_seconds:.0f} s idle (fewest open at any sample)", f"{least} of {len(plan)}")
    summarize("idle_held", f"{least} of {len(plan)}")
    summarize("idle_rss_kb_per_socket", per_socket(workers_0, workers_2, held))
    row("idle: server CPU while idle, both workers", f"{idle_cpu:.0f} ms in {idle_seconds:.0f} s")
    row("idle: server RSS per socket, all (workers)", per_socket(workers_0, workers_2, held))
    row("idle: server RSS per socket after the first tenth (workers)",
        per_socket(workers_tenth, workers_2, held - open_tenth))
    row("idle: workers RSS/fds, before -> held", f"{workers_text(workers_0)} -> {workers_text(workers_2)}")
    row("idle: Redis clients, all dbs / this run's, before -> held (most)",
        f"{redis_0[0]}/{redis_0[1]} -> {most_redis[0]}/{most_redis[1]}")
    row("idle: Redis channels subscribed by this run's clients", f"{redis_0[2]} -> {redis_1[2]}")


async def bench_idle_async(server, people, n: int, game_count: int, idle_seconds: float, moves: int) -> None:
    game_ids, plan, seats = await asyncio.to_thread(idle_plan, people, n, game_count)
    redis_clients = await asyncio.to_thread(RedisClients)
    run = IdleSockets(server, plan, seats)
    await asyncio.to_thread(_panel_sizes, game_ids[0], seats[game_ids[0]])  # the server warm, no socket open
    client_0 = own_rss_kb()
    await idle_open_and_hold(run, redis_clients, len(game_ids), idle_seconds)

    # moves: one game at a time, then every game at once
    targets = game_ids[:moves]
    expected = delivered = right = 0
    per_game: list[float] = []
    for game_id in targets:
        e, d, r, _t, times = await run.move([game_id], 30)
        expected, delivered, right, per_game = expected + e, delivered + d, right + r, per_game + times
    ms = sorted(1000 * t for t in per_game) or [float("nan")]
    row(f"idle: a move on each of {len(targets)} games in turn, sockets reached",
        f"{delivered} of {expected} ({right} with its version)")
    row("idle: ... last socket of the game p50 / p95 / max",
        f"{statistics.median(ms):.0f} / {pct(ms, .95):.0f} / {ms[-1]:.0f} ms")
    e, d, r, last, _times = await run.move(game_ids, 120)
    row(f"idle: a move on all {len(game_ids)} games at once, sockets reached", f"{d} of {e} ({r} with its version)")
    summarize("idle_sockets", n)
    summarize("idle_reached", f"{delivered + d} of {expected + e}")
    row("idle: ... from the first POST to the last socket", f"{1000 * last:.0f} ms")
    me = [i for i, (_p, _c, g) in enumerate(plan) if g is None]
    row("idle: /ws/me/ sockets that got a badge update", f"{sum(1 for i in me if run.counts[i])} of {len(me)}")
    for what, times in sorted(run.failures.items()):
        if what.startswith("move"):
            print(f"    failed: {times} x {what}", flush=True)
    workers_3, redis_3 = server.workers_now(), redis_clients.now()
    row("idle: after the moves: workers RSS/fds; Redis clients all / this run's",
        f"{workers_text(workers_3)}; {redis_3[0]}/{redis_3[1]}")
    row("idle: the harness's own RSS (client side)", f"+{(own_rss_kb() - client_0) / 1024:.0f} MB")

    start = time.perf_counter()
    await run.close()
    closed = time.perf_counter() - start
    await asyncio.sleep(3)
    workers_4, redis_4 = server.workers_now(), redis_clients.now()
    row("idle: all closed: workers RSS/fds; Redis clients all / this run's",
        f"{workers_text(workers_4)}; {redis_4[0]}/{redis_4[1]} ({closed:.0f} s to close)")
    redis_clients.close()


def bench_idle(people, n: int, games_count: int, idle_seconds: float, moves: int) -> None:
    limit = raise_fd_limit()
    log = Path(os.environ.get("BENCH_SERVER_LOG", f"/tmp/switchback-bench-{PORT}.log"))
    print(f"  idle sockets (issue 21 item 7): pub/sub layer, permessage-deflate "
          f"{'off' if idle_deflate_off() else 'on (as browsers ask)'}, open files limit {limit}, server log {log}",
          flush=True)
    # WARNING: the server's warnings too (Redis away, a pool timeout), not only its errors
    with Server("pubsub", log=log, env={"LOG_LEVEL": "WARNING"}) as server:
        asyncio.run(bench_idle_async(server, people, n, games_count, idle_seconds, moves))
    lines = log.read_text(errors="replace").splitlines()
    bad = [line for line in lines if any(word in line for word in ("Traceback", "ERROR", "Error", "WARNING",
                                                                    "Exception", "timeout", "killed", "died"))]
    row("idle: server log lines with an error or a warning", f"{len(bad)} of {len(lines)}")
    for line in bad[:20]:
        print(f"    log: {line[:160]}", flush=True)


def fanouts(server, people, base: float, quick: bool) -> None:
    print(f"  fan-out on {server.layer} (the ratio compares with the bare request at N=1)", flush=True)
    for m, spread, moves in ((10, False, 10), (100, False, 10), (1000, False, 4 if quick else 10),
                             (1000, True, 10 if quick else 20)):
        asyncio.run(bench_fanout_async(server, people, m, spread, moves, base))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer moves and shorter loops (about 4 minutes)")
    parser.add_argument("--layers", default="pubsub,core", help="Redis channel layers to compare (first: all figures)")
    parser.add_argument("--skip-rules", action="store_true")
    parser.add_argument("--fanout-only", action="store_true")
    parser.add_argument("--pages-only", action="store_true", help="only the lobby, profile and the page on the wire")
    parser.add_argument("--push-floor", type=int, default=0, metavar="MOVES",
                        help="only the move against the floor, 100 sockets on one game, MOVES rounds")
    parser.add_argument("--push-floor-sockets", type=int, default=100, metavar="M",
                        help="with --push-floor: M sockets instead of 100")
    parser.add_argument("--idle-sockets", type=int, default=0, metavar="N",
                        help="also hold N sockets idle on one server, then check that moves reach every one "
                             "(make bench SOCKETS=N; issue 21 item 7)")
    parser.add_argument("--idle-only", action="store_true", help="only the idle-socket run")
    parser.add_argument("--idle-games", type=int, default=0, help="games the idle sockets are spread over "
                        "(default: N / 50, at most 200)")
    parser.add_argument("--idle-seconds", type=float, default=60, help="how long the sockets are held idle")
    parser.add_argument("--idle-moves", type=int, default=50, help="games moved one at a time after the idle")
    args = parser.parse_args()
    seconds = 4 if args.quick else 10
    idle_games = args.idle_games or max(1, min(200, args.idle_sockets // 50))
    print(f"Switchback live benchmark on {os.cpu_count()} cores, PostgreSQL + Redis, uvicorn --workers 2"
          f"{' (quick)' if args.quick else ''}\n  {'measure':58} {'figure':>34} {'/ bare':>10}")
    fresh_database()
    people = users_with_cookies(max(60, 2 * idle_games if args.idle_sockets else 0))
    layers = args.layers.split(",")
    if args.idle_only:
        bench_idle(people, args.idle_sockets, idle_games, args.idle_seconds, args.idle_moves)
        return
    if args.pages_only:
        with Server(layers[0]):
            base = statistics.median(asyncio.run(closed_loop([Http(people[0][1])], bare_step, seconds))[1])
            row("bare request, N=1", f"p50 {1000 * base:.1f} ms", "1.00")
            bench_pages(people, base, seconds)
            bench_wire(people)
        return
    if args.push_floor:
        with Server(layers[0]) as server:
            base = statistics.median(asyncio.run(closed_loop([Http(people[0][1])], bare_step, seconds))[1])
            bench_push_floor(server, people, args.push_floor_sockets, args.push_floor, base=base)
        return
    with Server(layers[0]) as server:
        if args.fanout_only:
            base = statistics.median(asyncio.run(closed_loop([Http(people[0][1])], bare_step, seconds))[1])
            row("bare request, N=1", f"p50 {1000 * base:.1f} ms", "1.00")
        else:
            base = bench_http(people, seconds)[1]
            bench_replay(people, base)
            bench_connections(people)
            bench_pages(people, base, seconds)
            bench_wire(people)
        fanouts(server, people, base, args.quick)
        print("  a move against the floor (issue 21: ratios to the floor of this run)", flush=True)
        bench_push_floor(server, people, 100, 10 if args.quick else 20, base=base)
        bench_push_floor(server, people, 1000, 4 if args.quick else 10, base=base)
        bench_push_floor(server, people, 1000, 10 if args.quick else 20, spread=True, base=base)
    for layer in layers[1:]:
        with Server(layer) as server:
            fanouts(server, people, base, args.quick)
    if args.idle_sockets:
        bench_idle(people, args.idle_sockets, idle_games, args.idle_seconds, args.idle_moves)
    bench_queries(people)
    if not args.skip_rules:
        bench_rules(args.quick)


if __name__ == "__main__":
    main()
