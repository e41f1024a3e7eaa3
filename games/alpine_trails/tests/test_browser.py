"""Two people play a round of Alpine Trails in two browsers and see each other live."""
from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import meet_at_a_table, sign_up
from tests.browser.live import click_after_live_swap

pytestmark = [pytest.mark.browser]


def settled(page) -> None:
    """htmx has finished swapping and settling (new content is wired up)."""
    expect(page.locator(".htmx-request, .htmx-settling, .htmx-added, .htmx-swapping")).to_have_count(0)


def play_round(page, keyboard: bool = False) -> None:
    """Click highlighted squares (tiles, and waterfalls when a loop closes) until the
    round can be finished, then finish it. With `keyboard`, the first square is chosen
    with Tab focus and Enter, and the round finished with D."""
    finish = page.locator(".at-board button.done-button")
    settled(page)
    if keyboard:
        before = page.locator(".at-main .cell").count()
        page.locator(".at-board .at-main .hl:not(.faint)").first.focus()
        page.keyboard.press("Enter")
        expect(page.locator(".at-main .cell")).not_to_have_count(before, timeout=10_000)
    for _ in range(8):
        settled(page)
        if finish.count():
            break
        cell = page.locator(".at-board .at-main .hl:not(.faint)").first
        if cell.count():
            before = page.locator(".at-main .cell").count()
            cell.click()
            expect(page.locator(".at-main .cell")).not_to_have_count(before, timeout=10_000)
        else:
            page.get_by_role("button", name="Discard it").click()
            page.wait_for_timeout(300)
    settled(page)
    if keyboard:
        expect(finish).to_be_visible()
        page.keyboard.press("d")
    else:
        finish.click()


def test_two_players_place_tiles_and_see_each_other(live_site, browser):
    alice = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    bob = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    sign_up(alice, live_site, "alice")
    sign_up(bob, live_site, "bob")

    # The guest watches the lobby: the new table appears without a reload.
    meet_at_a_table(alice, bob, live_site, "alpine-trails", "Alpine Trails", seats=2)

    expect(alice.locator(".at-head h2")).to_have_text("Round 1 of 16")
    # Choosing a side and rotation is a server-side selection: flip, then rotate back.
    settled(alice)
    alice.keyboard.press("f")
    expect(alice.locator(".at-tile.selected")).to_contain_text("terrain side")
    settled(alice)
    alice.get_by_role("button", name="Flip").click()
    expect(alice.locator(".at-tile.selected")).to_contain_text("trail side")
    if os.environ.get("SCREENSHOTS"):
        os.makedirs("test-artifacts", exist_ok=True)
        alice.screenshot(path="test-artifacts/alpine-alice-start.png", full_page=True)

    # Alice picks her second tile with the keyboard and turns it; then Bob plays first.
    settled(alice)
    alice.keyboard.press("2")
    expect(alice.locator(".at-tile").nth(1)).to_have_attribute("aria-pressed", "true")
    play_round(bob)
    expect(bob.locator(".status-line")).to_contain_text("Waiting for alice")
    expect(bob.locator(".at-banner")).to_contain_text("You have finished round 1")
    # Alice sees that Bob is done, live, but not his tiles (only his base camp); the
    # live redraw keeps her chosen tile.
    expect(alice.locator(".at-other .chip.status-done")).to_be_visible(timeout=10_000)
    expect(alice.locator(".at-other .cell")).to_have_count(2)
    expect(alice.locator(".at-tile").nth(1)).to_have_attribute("aria-pressed", "true", timeout=10_000)

    play_round(alice, keyboard=True)
    # The round resolves: each sees the other's two new tiles on the small map.
    expect(alice.locator(".at-head h2")).to_have_text("Round 2 of 16", timeout=10_000)
    expect(bob.locator(".at-head h2")).to_have_text("Round 2 of 16", timeout=10_000)
    assert alice.locator(".at-other .cell").count() >= 4
    assert bob.locator(".at-other .cell").count() >= 4
    expect(alice.locator(".at-other")).to_contain_text("as of round 1")
    # Bob's round 2 came live: his next square answers, it is not refused.
    settled(bob)
    before = bob.locator(".at-main .cell").count()
    click_after_live_swap(bob, bob.locator(".at-board .at-main .hl:not(.faint)").first)
    expect(bob.locator(".at-main .cell")).not_to_have_count(before, timeout=10_000)
    if os.environ.get("SCREENSHOTS"):
        alice.screenshot(path="test-artifacts/alpine-alice-round2.png", full_page=True)
        bob.screenshot(path="test-artifacts/alpine-bob-round2.png", full_page=True)


@pytest.fixture
def finished_solo_game(live_site, start_game):
    """A bot's finished solo game, made before the browser starts (the engine's live
    updates may not run inside Playwright's event loop)."""
    return start_game("alpine-trails", [None], seed=2)


def test_the_replay_of_a_solo_game_keeps_its_map_inside_the_board(live_site, finished_solo_game, browser):
    """With no map of one's own the other maps stack below the score pad. As a column
    flexbox that stack was sized before the SVG's real height was known, so a solo
    game's tall final map spilled out of the board card."""
    game = finished_solo_game
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(f"{live_site}/play/{game.pk}/replay/")
    expect(page.locator(".at-other svg.at-map")).to_be_visible()
    board = page.locator(".at-board").bounding_box()
    figure = page.locator(".at-other").bounding_box()
    assert figure["y"] + figure["height"] <= board["y"] + board["height"], (figure, board)


def test_arrow_keys_move_between_highlighted_squares_and_escape_clears_the_choice(live_site, browser):
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    sign_up(page, live_site, "solo")
    page.goto(f"{live_site}/tables/new/?game=alpine-trails")
    page.fill("#id_seats", "1")
    page.click("text=Create table")
    page.wait_for_url(re.compile(r"/play/\d+/$"), timeout=10_000)
    settled(page)
    # the terrain side fits on every free square next to the base camp: plenty of targets
    page.keyboard.press("f")
    expect(page.locator(".at-tile.selected")).to_contain_text("terrain side")
    settled(page)
    cells = page.locator(".at-board .at-main .hl:not(.faint)")
    assert cells.count() >= 4
    cells.first.focus()
    start = page.evaluate("document.activeElement.dataset.xy")
    page.keyboard.press("ArrowDown")
    below = page.evaluate("document.activeElement.dataset.xy")
    assert page.evaluate("document.activeElement.classList.contains('hl')")
    assert int(below.split(",")[1]) > int(start.split(",")[1]), (start, below)
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.xy") == start
    # Esc drops the explicit choice: back to the first tile on its default side
    page.keyboard.press("Escape")
    expect(page.locator(".at-board")).to_have_attribute("data-explicit", "0", timeout=10_000)
    expect(page.locator(".at-tile").first).to_have_attribute("aria-pressed", "true")
