"""Every site page type (not the boards: each game's package tests its own) at phone and
desktop widths: nothing wider than the viewport, no critical or serious axe violation,
a screenshot of each in test-artifacts/screenshots/ (issue 13).

The pages are seen by a user with a 150-character name, the longest the site accepts,
who hosts a private table (the invite link) and has a finished, rated game (results,
replay, profile with a rating): a long name must never widen a page.
"""
from __future__ import annotations

import pytest

from .checks import DESKTOP, PHONE, SMALL_PHONE, at_width, check_page

pytestmark = [pytest.mark.browser]

LONG_NAME = "trailblazer_" + "x" * 138
PASSWORD = "summit-path-42"
SLUG = "roll-to-the-top"


@pytest.fixture
def long_named_player(transactional_db) -> dict:
    """The user, a rated game they finished, and a private table they host (made before
    the browser starts: Playwright's event loop would stop the engine's notifier)."""
    from accounts.models import User
    from games import engine
    from games import rules as registry
    from games.engine import SeatPlan
    from lobby.models import Table
    from tests.accounts.test_rated_games import finish

    assert len(LONG_NAME) == 150
    long = User.objects.create_user(LONG_NAME, "long@example.com", PASSWORD)
    alice = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    game = engine.start_game(SLUG, [SeatPlan(user=long), SeatPlan(user=alice)],
                              registry.get(SLUG).default_options(), seed=3, shuffle=False)
    finish(game, {0: long, 1: alice})
    table = Table.objects.create(game_slug=SLUG, host=long, seats_count=3, options={}, is_private=True)
    table.seats.create(user=long, position=0)
    return {"game": game.pk, "table": table.pk}


def _log_in(page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", LONG_NAME)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def signed_in_pages(ids: dict) -> list[tuple[str, str]]:
    game, table = ids["game"], ids["table"]
    return [
        ("lobby", "/"), ("games-list", "/games/"), ("create-table", "/tables/new/"),
        ("table", f"/tables/{table}/"), ("profile", f"/accounts/u/{LONG_NAME}/"),
        ("leaderboard", "/accounts/leaderboard/"), ("leaderboard-game", f"/accounts/leaderboard/{SLUG}/"),
        ("settings", "/accounts/settings/"), ("my-games", "/me/games/"), ("help", "/help/"),
        ("result", f"/play/{game}/"), ("replay", f"/play/{game}/replay/?step=3"),
        ("how-to-play", f"/games/{SLUG}/how-to-play/"),
        # The site's own 404 page (an unknown address shows Django's debug page: DEBUG=1 here).
        ("not-found", "/games/no-such-game/how-to-play/"),
        ("method-not-allowed", f"/play/{game}/resign/"),
    ]


SIGNED_OUT_PAGES = [
    ("signup", "/accounts/signup/"), ("login", "/accounts/login/"),
    ("password-reset", "/accounts/password_reset/"), ("password-reset-used-link", "/accounts/reset/MQ/set-password/"),
]


def _visit_all(page, base: str, pages: list[tuple[str, str]], widths) -> list[str]:
    failures = []
    for name, path in pages:
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        for width in widths:
            at_width(page, width)
            page.wait_for_timeout(50)
            try:
                check_page(page, name)
            except AssertionError as exc:
                failures.append(str(exc))
    return failures


@pytest.mark.parametrize("widths", [(PHONE, DESKTOP), (SMALL_PHONE,)], ids=["390-1366", "360"])
def test_every_site_page_fits_and_passes_axe(long_named_player, live_site, browser, widths):
    ids = long_named_player
    signed_out = browser.new_page()
    failures = _visit_all(signed_out, live_site, SIGNED_OUT_PAGES, widths)
    page = browser.new_page()
    _log_in(page, live_site)
    failures += _visit_all(page, live_site, signed_in_pages(ids), widths)
    assert not failures, "\n\n".join(failures)
