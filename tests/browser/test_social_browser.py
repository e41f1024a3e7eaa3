"""In a browser: a challenge from a profile accepted into a game, quick pairing of two
players in two browser contexts, and a blocked player refused (challenge and table)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import sign_up

SLUG = "roll-to-the-top"
GAME_URL = re.compile(r"/play/\d+/$")


def _players(browser, base, *names):
    pages = []
    for name in names:
        page = browser.new_context().new_page()
        sign_up(page, base, name)
        pages.append(page)
    return pages


@pytest.mark.browser
@pytest.mark.postgres
@pytest.mark.redis
def test_challenge_accept_game_and_quick_pairing(live_site, browser):
    ann, ben = _players(browser, live_site, "ann", "ben")
    ann.goto(f"{live_site}/players/?q=BE")
    ann.get_by_role("link", name="ben").click()
    ann.get_by_role("link", name="Challenge").click()
    ann.select_option("#id_game_slug", SLUG)
    ann.check("input[name=pace][value=live]")
    ann.get_by_role("button", name="Send the challenge").click()
    expect(ann.locator("body")).to_contain_text("Waiting for answers")

    ben.goto(f"{live_site}/")
    ben.get_by_role("link", name=re.compile("challenge waiting")).click()
    ben.get_by_role("button", name="Accept").click()
    ben.wait_for_url(GAME_URL)
    ann.reload()
    ann.get_by_role("link", name="go to the game").click()
    assert ann.url == ben.url

    for page in (ann, ben):
        page.goto(f"{live_site}/play-now/")
        page.select_option("#id_game_slug", SLUG)
        page.check("input[name=pace][value=live]")
    ann.get_by_role("button", name="Play now").click()
    expect(ann.get_by_role("status")).to_contain_text("Looking for players")
    ben.get_by_role("button", name="Play now").click()
    ben.wait_for_url(GAME_URL)
    ann.wait_for_url(GAME_URL, timeout=10_000)  # the waiting page's poll follows the pairing
    assert ann.url == ben.url != ""


@pytest.mark.browser
@pytest.mark.postgres
@pytest.mark.redis
def test_a_blocked_player_is_refused(live_site, browser):
    ann, cara = _players(browser, live_site, "ann", "cara")
    ann.goto(f"{live_site}/accounts/u/cara/")
    ann.get_by_role("button", name="Block").click()
    expect(ann.locator("body")).to_contain_text("You blocked cara")

    cara.goto(f"{live_site}/accounts/u/ann/")
    expect(cara.get_by_role("link", name="Challenge")).to_have_count(0)
    cara.goto(f"{live_site}/challenges/new/?to=ann")
    cara.get_by_role("button", name="Send the challenge").click()
    expect(cara.locator("body")).to_contain_text("blocked")

    ann.goto(f"{live_site}/tables/new/?game={SLUG}")
    ann.fill("#id_seats", "3")
    ann.click("text=Create table")
    table_url = ann.url
    cara.goto(table_url)
    cara.click("text=Join this table")
    expect(cara.locator("body")).to_contain_text("blocked you, or you them")
