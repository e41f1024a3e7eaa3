"""The Content-Security-Policy holds in a real browser: every page, every game board, an
htmx request and the live socket work under it, with no violation in the console."""
from __future__ import annotations

import pytest

from games import rules as registry

from .fixtures import sign_up

pytestmark = [pytest.mark.browser]


def watch_csp(page) -> list[str]:
    violations: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    return violations


def start_against_bots(username: str) -> list[int]:
    from accounts.models import User
    from games import engine
    from games.engine import SeatPlan

    user = User.objects.get(username=username)
    ids = []
    for rules in registry.all():
        plans = [SeatPlan(user=user)] + [SeatPlan(is_bot=True)] * (max(rules.min_players, 2) - 1)
        ids.append(engine.start_game(rules.slug, plans, rules.default_options(), shuffle=False).pk)
    return ids


def test_pages_boards_htmx_and_sockets_raise_no_csp_violation(live_site, browser):
    page = browser.new_page()
    violations = watch_csp(page)
    sign_up(page, live_site, "csp_walker")
    for path in ["/", "/tables/new/", "/games/", "/accounts/leaderboard/", "/accounts/settings/",
                 "/accounts/u/csp_walker/", "/no-such-page/"]:
        page.goto(live_site + path)
        page.wait_for_load_state("networkidle")
    htmx_requests: list[str] = []
    page.on("request", lambda r: htmx_requests.append(r.url) if r.headers.get("hx-request") else None)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    for game_id in start_against_bots("csp_walker"):
        page.goto(f"{live_site}/play/{game_id}/")
        page.wait_for_load_state("networkidle")
        clickable = page.locator("#live button[hx-post]:visible, #live button[hx-get]:visible")
        if clickable.count():
            clickable.first.click()
            page.wait_for_load_state("networkidle")
    assert page.evaluate("() => !!window.htmx"), "htmx loaded under the policy"
    assert htmx_requests, "at least one board button made an htmx request"
    assert any("/ws/play/" in url for url in sockets), "the live socket opened under the policy"
    assert violations == []


def test_the_watcher_sees_a_violation(live_site, browser):
    """The check above can fail: an injected inline <style> is refused and reported."""
    page = browser.new_page()
    violations = watch_csp(page)
    page.goto(live_site + "/")
    page.evaluate("() => document.head.insertAdjacentHTML('beforeend', '<style>body { color: red }</style>')")
    page.wait_for_timeout(300)
    assert violations, "an inline <style> should have been refused by the policy"
