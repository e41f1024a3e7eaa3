"""A real server (daphne, in a subprocess, on the test database) and Debian's chromium
driven by Playwright."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import warnings
import weakref
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(config, items):
    """A browser test gets one rerun: two real browsers, a server process and sockets on a
    loaded 2-core machine make timing races possible in the test's own steps. A real bug
    fails both runs; every rerun is reported in the summary, so flakiness stays visible."""
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.flaky(reruns=1, reruns_delay=1))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url(db: dict) -> str:
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class LiveSite(str):
    """The live site's base URL, which also knows the environment its server runs in (so a
    worker process can join it: tests.browser.live.as_the_worker)."""

    env: dict


@pytest.fixture
def live_site(transactional_db):
    """The site served by daphne on the test database; yields its base URL (a LiveSite)."""
    from django.conf import settings

    port = _free_port()
    env = dict(os.environ, DATABASE_URL=_database_url(settings.DATABASES["default"]), DEBUG="1",
               CHANNEL_PREFIX=f"sb-test-{port}", RATELIMIT_ENABLE="0")
    # The server's log goes to a file, not a pipe: nobody reads a pipe while the test runs,
    # and a full one (64 KB of warnings) would stop the server mid-test.
    log = tempfile.TemporaryFile()  # noqa: SIM115 (closed when the server stops)
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError as exc:
            if server.poll() is not None:
                log.seek(0)
                raise RuntimeError(log.read().decode()[-3000:]) from exc
            time.sleep(0.2)
    else:
        server.kill()
        raise RuntimeError("daphne did not start in 30 s")
    site = LiveSite(f"http://127.0.0.1:{port}")
    site.env = env
    yield site
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    log.seek(0)
    written = log.read().decode(errors="replace")
    log.close()
    if "Traceback" in written:  # a failure the page may not have shown: say it in the summary
        warnings.warn(f"the live server logged a traceback:\n{written[-3000:]}", stacklevel=1)


@pytest.fixture
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (`make browser-deps` does, as root)")
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls
    # are still plain synchronous code.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-background-networking", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


# Each watched page's requests still in flight, with when each was sent: a navigation
# that does not finish then says what it is waiting for.
_IN_FLIGHT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def watch_requests(page):
    in_flight: dict = {}
    _IN_FLIGHT[page] = in_flight
    page.on("request", lambda request: in_flight.__setitem__(request, time.monotonic()))
    page.on("requestfinished", lambda request: in_flight.pop(request, None))
    page.on("requestfailed", lambda request: in_flight.pop(request, None))
    return page


def requests_in_flight(page) -> str:
    now = time.monotonic()
    pending = sorted(_IN_FLIGHT.get(page, {}).items(), key=lambda item: item[1])
    return "; ".join(f"{r.method} {r.url} ({r.resource_type}, {now - sent:.1f} s)" for r, sent in pending) or "none"


def arrive(page, url, *, timeout: float = 30_000) -> None:
    """Wait until the page is at `url` with its document parsed (its scripts have run, so it
    can be used). Its "load" event, which also waits for every image and style sheet, gets
    5 s more: if it has not come by then, a warning in the test summary names the requests
    still in flight, rather than the test failing on what a player would not notice."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_url(url, timeout=timeout, wait_until="domcontentloaded")
    except PlaywrightTimeoutError as exc:
        in_flight = requests_in_flight(page)
        raise AssertionError(f"the page stayed at {page.url}, not {url}; in flight: {in_flight}") from exc
    try:
        page.wait_for_load_state("load", timeout=5_000)
    except PlaywrightTimeoutError:
        warnings.warn(f"{page.url}: no load event 5 s after the document; in flight: {requests_in_flight(page)}",
                      stacklevel=2)


def sign_up(page, base: str, username: str, password: str = "summit-path-42") -> None:
    """Sign up through the form; from then on the page counts its live swaps
    (tests.browser.live.click_after_live_swap) and its requests in flight (`arrive`)."""
    from tests.browser.live import watch_live_swaps

    watch_live_swaps(page)
    watch_requests(page)
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.click("button[type=submit]")
    arrive(page, f"{base}/")


def meet_at_a_table(host, guest, base: str, slug: str, title: str, seats: int = 2) -> None:
    """The host creates a table of `slug`; the guest, watching the lobby, sees it appear
    without a reload and joins; both pages follow the game start by themselves."""
    from playwright.sync_api import expect

    guest.goto(f"{base}/")
    host.goto(f"{base}/tables/new/?game={slug}")
    host.fill("#id_seats", str(seats))
    host.click("text=Create table")
    expect(guest.locator("#table-list")).to_contain_text(title, timeout=10_000)
    guest.locator("#table-list a", has_text=title).first.click()
    guest.click("text=Join this table")
    arrive(guest, re.compile(r"/play/\d+/$"))
    arrive(host, re.compile(r"/play/\d+/$"), timeout=10_000)
    assert host.url == guest.url
