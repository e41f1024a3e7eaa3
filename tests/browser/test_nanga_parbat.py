"""Two people play a round of Nanga Parbat in two browsers, clicking the SVG board, and
each sees the other's moves live."""
from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from .conftest import sign_up

pytestmark = [pytest.mark.browser]

CONTROL = ".np-svg [role=button]"


def actor_and_waiter(pages):
    """The page that has controls on the board, and the other one."""
    for _ in range(50):
        counts = [p.locator(CONTROL).count() for p in pages]
        if counts[0] and not counts[1]:
            return pages[0], pages[1]
        if counts[1] and not counts[0]:
            return pages[1], pages[0]
        pages[0].wait_for_timeout(200)
    raise AssertionError(f"no single page has controls: {counts}")


def take_a_turn(me, other) -> None:
    """Trap the first glowing animal, check the opponent sees it, and end the turn if asked."""
    if not me.locator(".np-sec.legal[role=button]").count():
        # The guide's region is empty: a click on another region relocates the guide first.
        me.locator(".np-sec.legal-region[role=button]").first.click()
        expect(me.locator(".np-sec.legal[role=button]").first).to_be_visible()
    section = me.locator(".np-sec.legal[role=button]").first
    sid = section.get_attribute("data-section")
    section.click()
    expect(other.locator(f'.np-sec[data-section="{sid}"]')).to_have_attribute("data-piece", "hiker", timeout=10_000)
    expect(me.locator(f'.np-sec[data-section="{sid}"]')).to_have_attribute("data-piece", "hiker")
    end = me.get_by_role("button", name="End turn")
    if end.count():
        end.click()
    expect(me.locator(CONTROL)).to_have_count(0, timeout=10_000)
    expect(other.locator(".np-sec.legal[role=button], .np-sec.legal-region[role=button]").first).to_be_visible(timeout=10_000)


def test_two_players_play_a_round_by_clicking_the_mountain(live_site, browser):
    alice = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
    bob = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
    sign_up(alice, live_site, "alice")
    sign_up(bob, live_site, "bob")

    bob.goto(f"{live_site}/")
    alice.goto(f"{live_site}/tables/new/?game=nanga-parbat")
    expect(alice.locator("#table-form")).to_contain_text("Area scoring variant")
    alice.click("text=Create table")
    expect(bob.locator("#table-list")).to_contain_text("Nanga Parbat", timeout=10_000)
    bob.locator("#table-list a", has_text="Nanga Parbat").first.click()
    bob.click("text=Join this table")
    bob.wait_for_url(re.compile(r"/play/\d+/$"))
    alice.wait_for_url(re.compile(r"/play/\d+/$"), timeout=10_000)

    # The second player places the guide: the flags glow; a click on region 5 puts it there.
    placer, first = actor_and_waiter([alice, bob])
    expect(placer.locator(".np-flag.legal")).to_have_count(6)
    expect(placer.locator(".np-status")).to_contain_text("Place the guide")
    placer.locator('.np-sec[data-section="55"]').click()
    expect(first.locator('.np-guide-token[data-region="5"]')).to_have_count(1, timeout=10_000)
    expect(first.locator(".np-status")).to_contain_text("Trap an animal in region 5")
    expect(first.locator(".np-sec.legal[role=button]")).to_have_count(6)

    # Keyboard: the first trap is chosen with Tab focus + Enter.
    target = first.locator('.np-sec.legal[role=button]').first
    sid = target.get_attribute("data-section")
    target.focus()
    first.keyboard.press("Enter")
    expect(placer.locator(f'.np-sec[data-section="{sid}"]')).to_have_attribute("data-piece", "hiker", timeout=10_000)
    if first.get_by_role("button", name="End turn").count():
        # Try a power first when one is offered: select, then Cancel sends nothing.
        power = first.locator(".np-aboard.own .np-token.legal[role=button]")
        if power.count():
            power.first.click()
            expect(first.locator(".np-mode-text")).to_be_visible()
            first.keyboard.press("Escape")
            expect(first.locator(".np-mode-text")).to_have_count(0)
        first.get_by_role("button", name="End turn").click()
    expect(first.locator(CONTROL)).to_have_count(0, timeout=10_000)

    # The placer's turn, then the first player's again: a full round each way.
    take_a_turn(placer, first)
    take_a_turn(first, placer)
    expect(alice.locator(".history")).to_contain_text("trapped", timeout=10_000)
    expect(bob.locator(".history")).to_contain_text("bob")
    if os.environ.get("SCREENSHOTS"):
        os.makedirs("test-artifacts", exist_ok=True)
        alice.screenshot(path="test-artifacts/np-alice.png", full_page=True)
        bob.screenshot(path="test-artifacts/np-bob.png", full_page=True)
