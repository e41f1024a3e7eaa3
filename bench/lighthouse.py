"""Lighthouse on the site's main pages, served as in production (issue 22, build 7).

Run by hand (not part of the test suite):

    npm install -E --prefix /work/tools/lighthouse lighthouse@12.2.3   # once
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_lh REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/lighthouse.py [--pages lobby,login]

(Lighthouse 12.2.3: the 13 series wants Node 22; Debian's Node is 20.) It makes a scratch
database `<db>_lighthouse`, a player with a correspondence game of every game in the
middle of play and a finished game, then starts `uvicorn` on config.settings with
DEBUG=0 (whitenoise serving the collected, compressed static files) on 127.0.0.1, and
runs Lighthouse's mobile form factor (its default: a Moto G power-sized screen,
simulated slow 4G and 4× CPU slowdown) with Debian's /usr/bin/chromium, headless, over
each page, signed in as the player (a session cookie in the profile of a fresh chromium,
one per page, that Lighthouse drives through --port, with --disable-storage-reset) except
the log-in page, which a fresh chromium of Lighthouse's own opens. The server's channel
layer has a prefix of its own (CHANNEL_PREFIX): Redis pub/sub ignores database numbers.
It prints the four category scores per page, its Total Blocking Time and its main
thread's CPU and wall time (from the saved trace: on a busy machine wall ≫ CPU, and the
score drops with the load), and every audit of the accessibility, best-practices and SEO
categories that did not pass, and writes the JSON reports and traces to
test-artifacts/lighthouse/. docs/accessibility.md has the figures.

Performance is measured on a machine shared with other work: take its score as a rough
figure (Lighthouse's simulated throttling makes it steadier than the wall clock, not exact).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
PORT = int(os.environ.get("LIGHTHOUSE_PORT", "8120"))
LIGHTHOUSE = Path(os.environ.get("LIGHTHOUSE", "/work/tools/lighthouse/node_modules/.bin/lighthouse"))
CHROMIUM = "/usr/bin/chromium"
CDP_PORT = PORT + 1
BASE = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/h_lh")
DB = BASE.rsplit("/", 1)[1] + "_lighthouse"
SERVER_ENV = {"DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": f"{BASE.rsplit('/', 1)[0]}/{DB}",
              "DEBUG": "0", "SECRET_KEY": "lighthouse-" + "x" * 50, "SECURE_SSL_REDIRECT": "0",
              "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/1"), "LOG_LEVEL": "ERROR",
              "RATELIMIT_ENABLE": "0",
              # Redis pub/sub ignores the database number: under the default prefix the page's
              # sockets heard every other server on this Redis (another bench's moves pushed
              # "your turn" badges for its user 1, our player, several times a second).
              "CHANNEL_PREFIX": f"lighthouse{os.getpid()}"}
os.environ.update(SERVER_ENV)
OUT = ROOT / "test-artifacts" / "lighthouse"
SLUGS = ["alpine-trails", "nanga-parbat", "rift-valley-reserve", "rifugio", "roll-to-the-top"]
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]


def fresh_database() -> None:
    import psycopg

    with psycopg.connect(BASE.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def pages_and_cookie() -> tuple[list[tuple[str, str, bool]], str]:
    """(name, path, signed in) of each page, and the player's session cookie."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from games import engine, rules
    from games.engine import SeatPlan

    player = User.objects.create_user("trail_runner", "trail_runner@example.com", "summit-path-42")
    other = User.objects.create_user("ridge_walker", "ridge_walker@example.com", "summit-path-42")
    users = {0: player, 1: other}
    pages: list[tuple[str, str, bool]] = [("lobby", "/", True)]
    for slug in SLUGS:
        game = engine.start_game(slug, [SeatPlan(user=player), SeatPlan(user=other)], rules.get(slug).default_options(),
                                 seed=11, shuffle=False, pace="correspondence", days_per_move=3)
        bot, rng = rules.bot_for(slug), random.Random(7)
        for _ in range(6):
            game.refresh_from_db()
            for seat in game.to_act():
                game.refresh_from_db()
                if game.is_active and seat in game.to_act():
                    engine.submit(game.pk, users[seat], bot.choose(game.state, seat, rng))
        pages.append((f"game {slug}", f"/play/{game.pk}/", True))
    done = engine.start_game("roll-to-the-top", [SeatPlan(user=player), SeatPlan(user=other)],
                             rules.get("roll-to-the-top").default_options(), seed=3, shuffle=False)
    engine.resign(done.pk, other)
    pages += [("replay", f"/play/{done.pk}/replay/?step=3", True), ("how-to-play", "/games/rifugio/how-to-play/", True),
              ("profile", "/accounts/u/trail_runner/", True), ("login", "/accounts/login/", False)]
    session = SessionStore()
    backend = getattr(settings, "AUTHENTICATION_BACKENDS", ["django.contrib.auth.backends.ModelBackend"])[-1]
    session.update({SESSION_KEY: str(player.pk), BACKEND_SESSION_KEY: backend,
                    HASH_SESSION_KEY: player.get_session_auth_hash()})
    session.create()
    return pages, f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


@contextlib.contextmanager
def server():
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                             "--port", str(PORT), "--workers", "1", "--no-access-log", "--log-level", "warning"],
                            cwd=ROOT, env={**os.environ, **SERVER_ENV}, start_new_session=True)
    try:
        for _ in range(150):
            time.sleep(0.2)
            with contextlib.suppress(OSError):
                if urllib.request.urlopen(f"http://127.0.0.1:{PORT}/accounts/login/", timeout=2).status == 200:
                    break
        else:
            raise RuntimeError("the server did not start")
        yield f"http://localhost:{PORT}"
    finally:
        group = os.getpgid(proc.pid)
        os.killpg(group, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(20)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)
        proc.wait(5)


@contextlib.contextmanager
def chromium(cookie: str):
    """Debian's chromium, headless, with the player's session cookie in its profile (set over
    CDP by Playwright): Lighthouse drives it through --port and keeps its storage, so the
    page and its WebSocket are signed in as a player's would be (an extra Cookie header
    would not reach the WebSocket handshake, which the site then refuses)."""
    import tempfile

    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="lighthouse-profile-")
    proc = subprocess.Popen([CHROMIUM, "--headless", "--no-sandbox", f"--remote-debugging-port={CDP_PORT}",
                             f"--user-data-dir={profile}", "--no-first-run", "--disable-background-networking",
                             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            time.sleep(0.1)
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"http://127.0.0.1:{CDP_PORT}/json/version", timeout=1)
                break
        name, value = cookie.split("=", 1)
        with sync_playwright() as p:
            browser = p.chromium.connect_over_cdp(f"http://127.0.0.1:{CDP_PORT}")
            browser.contexts[0].add_cookies([{"name": name, "value": value, "url": f"http://localhost:{PORT}"}])
            browser.close()  # disconnects; the browser and its default profile stay
        yield
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
        proc.kill()
        proc.wait(5)


def lighthouse(url: str, signed_in: bool, name: str) -> dict:
    """One Lighthouse run, in the signed-in chromium (`--port`) or a fresh one of its own."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name.replace(' ', '-')}.json"
    command = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={path}", "--save-assets",
               "--form-factor=mobile", f"--only-categories={','.join(CATEGORIES)}"]
    if signed_in:
        command += [f"--port={CDP_PORT}", "--disable-storage-reset"]
    else:
        command += [f"--chrome-path={CHROMIUM}", "--chrome-flags=--headless --no-sandbox"]
    for _attempt in range(3):  # a chromium just started under load sometimes loses the trace (NO_NAVSTART)
        if subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM}).returncode == 0:
            break
    else:
        raise RuntimeError(f"Lighthouse failed three times on {url}")
    return json.loads(path.read_text())


def main_thread_ms(name: str) -> tuple[float, float]:
    """(CPU, wall) ms of the page's main-thread tasks in the 10 s after its navigation, from
    the trace Lighthouse saved. Lighthouse simulates from wall durations (x4), so on a busy
    machine a task waiting for a core counts as work: CPU ÷ wall says how far to trust TBT."""
    trace = json.loads((OUT / f"{name.replace(' ', '-')}-0.trace.json").read_text())
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    start = next(e for e in events if e.get("name") == "navigationStart"
                 and e["args"].get("data", {}).get("documentLoaderURL", "").startswith("http"))
    tasks = [e for e in events if e.get("name") == "RunTask" and e.get("pid") == start["pid"]
             and e.get("tid") == start["tid"] and "dur" in e and 0 <= e["ts"] - start["ts"] <= 10_000_000]
    return sum(e.get("tdur", 0) for e in tasks) / 1000, sum(e["dur"] for e in tasks) / 1000


def failing(report: dict) -> list[str]:
    """The audits below full marks in the categories that must score 100."""
    out = []
    for category in CATEGORIES[1:]:
        for ref in report["categories"][category]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
                items = (audit.get("details") or {}).get("items") or []
                where = "; ".join(str((item.get("node") or {}).get("snippet", ""))[:90] for item in items[:3])
                out.append(f"{category}: {ref['id']} ({audit['title']}) {where}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", help="comma-separated page names (default: all)")
    args = parser.parse_args()
    fresh_database()
    pages, cookie = pages_and_cookie()
    if args.pages:
        wanted = set(args.pages.split(","))
        pages = [p for p in pages if p[0] in wanted]
    rows, problems = [], []
    with server() as base:
        for name, path, signed_in in pages:
            # A chromium of its own for each signed-in page, as the log-in page has: in one
            # chromium kept for every page, the pages shared one renderer process, and
            # Lighthouse's start of JS coverage walked that process's heap (every earlier
            # page's), a task of 0.1-0.6 s before the page even committed that grew with the
            # page's place in the run and counted, 4x slowed, in the page's Total Blocking Time.
            with chromium(cookie) if signed_in else contextlib.nullcontext():
                report = lighthouse(base + path, signed_in, name)
            scores = [round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES]
            tbt = report["audits"]["total-blocking-time"]["numericValue"]
            cpu, wall = main_thread_ms(name)
            rows.append((name, *scores, f"{tbt:.0f}", f"{cpu:.0f} / {wall:.0f}"))
            problems += [f"{name}: {line}" for line in failing(report)]
            print(f"{name:28} " + " ".join(f"{s:>5}" for s in scores)
                  + f"   TBT {tbt:5.0f} ms, main thread CPU / wall {cpu:4.0f} / {wall:4.0f} ms", flush=True)
    version = subprocess.run([str(LIGHTHOUSE), "--version"], capture_output=True, text=True).stdout.strip()
    print(f"\nLighthouse {version}, mobile, chromium headless; DEBUG=0 uvicorn\n")
    print("| page | performance | accessibility | best practices | SEO | TBT ms | main thread CPU / wall ms |\n"
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, *cells in rows:
        print(f"| {name} | " + " | ".join(str(c) for c in cells) + " |")
    print("\n" + ("\n".join(problems) if problems else "Every accessibility, best-practices and SEO audit passed."))


if __name__ == "__main__":
    main()
