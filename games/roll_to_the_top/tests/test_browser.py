"""Two people play Roll to the Top in two browsers and see each other live."""
from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from games.models import Move, Seat

from tests.browser.fixtures import meet_at_a_table, sign_up
from tests.browser.live import click_after_live_swap

pytestmark = [pytest.mark.browser]


def write_one_number(page, after_live_swap: bool = False) -> dict:
    """Pick the first free die, then the first highlighted box; then press Done (checked
    not refused when the page was just redrawn live). Returns the `place` action those
    clicks should have sent."""
    die = page.locator(".rtt .die[data-die]:not([disabled])").first
    die_id = die.get_attribute("data-die")
    die.click()
    box = page.locator(".rtt .box.legal").first
    r, x = (int(v) for v in box.get_attribute("data-key").split(","))
    box.click()
    expect(page.locator(".rtt .box.pending")).to_have_count(1)
    page.once("dialog", lambda dialog: dialog.accept())
    done = page.get_by_role("button", name="Done")
    click_after_live_swap(page, done) if after_live_swap else done.click()
    return {"type": "place", "box": [r, x], "dice": [die_id]}


def test_two_players_write_numbers_and_see_each_other(live_site, browser):
    alice = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    sign_up(alice, live_site, "alice")
    sign_up(bob, live_site, "bob")

    # The guest watches the lobby: the new table appears without a reload.
    meet_at_a_table(alice, bob, live_site, "roll-to-the-top", "Roll to the Top", seats=2)

    sent = write_one_number(alice)
    expect(alice.locator(".status-line")).to_contain_text("Waiting for bob")
    assert Move.objects.filter(seat=Seat.objects.get(user__username="alice").index).first().action == sent
    # Bob sees Alice's progress (done) without reloading, but not her number.
    expect(bob.locator(".other-sheets")).to_contain_text("done", timeout=10_000)
    expect(bob.locator(".other-sheets .box.filled")).to_have_count(0)

    write_one_number(bob, after_live_swap=True)
    # The turn resolves: each sees the other's written number on the small sheet.
    expect(alice.locator(".other-sheets .box.filled")).to_have_count(1, timeout=10_000)
    expect(bob.locator(".other-sheets .box.filled")).to_have_count(1, timeout=10_000)
    if os.environ.get("SCREENSHOTS"):
        alice.screenshot(path="test-artifacts/rtt-alice.png", full_page=True)
        bob.goto(f"{live_site}/")
        bob.screenshot(path="test-artifacts/lobby-bob.png", full_page=True)
