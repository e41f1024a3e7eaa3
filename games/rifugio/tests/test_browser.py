"""Two people play a round of Rifugio in two browsers, clicking the SVG map, and see each
other's moves live."""
from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import meet_at_a_table, sign_up
from tests.browser.live import click_after_live_swap

pytestmark = [pytest.mark.browser]


def tiles_left(page) -> int:
    return int(page.locator(".rf-tiles-left").inner_text())


def play_turn(me, other, shots: str = "", after_live_swap: bool = False) -> None:
    """Place both tiles by clicking highlighted cells, walk one step, end the turn. The
    first click is checked not refused when the other's turn just reached `me` live."""
    for n in (1, 2):
        before = tiles_left(other)
        target = me.locator(".rf-map .target.place").first
        target.hover()
        if shots and n == 1:
            me.screenshot(path=f"test-artifacts/rifugio-{shots}-place.png", full_page=True)
        click_after_live_swap(me, target) if after_live_swap and n == 1 else target.click()
        # the other player sees the tile land without reloading
        expect(other.locator(".rf-map .placed-now polygon")).to_have_count(n, timeout=10_000)
        if n == 1:  # the second tile is drawn from the bag: the count drops for everyone
            expect(other.locator(".rf-tiles-left")).to_have_text(str(before - 1), timeout=10_000)
    expect(me.locator(".rf-head")).to_contain_text("Walk", timeout=10_000)
    step = me.locator(".rf-map .target.step").first
    if step.count():
        key = step.get_attribute("data-key")
        # keyboard: focus the cell and press Enter. A live update of the panel may replace
        # the focused cell just after focusing it, so focus the fresh one and try again.
        for attempt in range(3):
            me.locator(f'.rf-map .target.step[data-key="{key}"]').focus()
            me.keyboard.press("Enter")
            try:
                expect(me.locator(".rf-steps-count")).to_have_text("1", timeout=4_000)
                break
            except AssertionError:
                if attempt == 2:
                    raise
        expect(other.locator(".rf-steps-count")).to_have_text("1", timeout=10_000)
        # take it back (within the turn), then walk there again with a click
        me.get_by_role("button", name="Take back my last move").click()
        expect(me.locator(".rf-steps-count")).to_have_text("2", timeout=10_000)
        expect(other.locator(".rf-steps-count")).to_have_text("2", timeout=10_000)
        me.locator(f'.rf-map .target.step[data-key="{key}"]').click()
        expect(me.locator(".rf-steps-count")).to_have_text("1", timeout=10_000)
    if shots:
        me.screenshot(path=f"test-artifacts/rifugio-{shots}-walk.png", full_page=True)
    me.once("dialog", lambda dialog: dialog.accept())
    me.get_by_role("button", name="End turn").click()
    expect(other.locator(".status-line")).to_contain_text("Your move", timeout=10_000)


def test_two_players_play_a_round_on_the_map(live_site, browser):
    alice = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    bob = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    sign_up(alice, live_site, "alice")
    sign_up(bob, live_site, "bob")

    # The guest watches the lobby: the new table appears without a reload.
    meet_at_a_table(alice, bob, live_site, "rifugio", "Rifugio", seats=2)
    expect(alice.locator(".rf-map")).to_be_visible()

    # the side score table fits its card: the Total column is on screen, not clipped
    total = alice.locator(".side-col .score-table th:text-is('Total')")
    expect(total).to_have_count(1)
    card = alice.locator(".side-col .scores").bounding_box()
    box = total.bounding_box()
    assert box["x"] + box["width"] <= card["x"] + card["width"] + 1

    # "none" in the steps box reads as a word, not as spaced-out letters
    expect(alice.locator(".rf-steps .pips")).to_have_css("letter-spacing", "normal")

    first, second = (alice, bob) if alice.locator(".rf.acting").count() else (bob, alice)
    expect(first.locator(".status-line")).to_contain_text("Your move")
    expect(second.locator(".rf-map .target")).to_have_count(0)
    shots = "first" if os.environ.get("SCREENSHOTS") else ""
    play_turn(first, second, shots)
    play_turn(second, first, "second" if shots else "", after_live_swap=True)
    # a full round: the first player is on the move again, both maps show 1 + 4 tiles
    expect(first.locator(".rf.acting")).to_have_count(1)
    expect(first.locator(".rf-map .tile")).to_have_count(5)
    expect(second.locator(".rf-map .tile")).to_have_count(5)
    if shots:
        second.screenshot(path="test-artifacts/rifugio-watching.png", full_page=True)
