"""Two people play a round of Nanga Parbat in two browsers, clicking the SVG board, and
each sees the other's moves live."""
from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import arrive, sign_up
from tests.browser.live import click_after_live_swap

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
    # the live update that hands us the turn may still be on its way
    mine = me.locator(".np-sec.legal[role=button], .np-sec.legal-region[role=button]")
    expect(mine.first).to_be_visible(timeout=10_000)
    if not me.locator(".np-sec.legal[role=button]").count():
        # The guide's region is empty: a click on another region relocates the guide first.
        me.locator(".np-sec.legal-region[role=button]").first.click()
        expect(me.locator(".np-sec.legal[role=button]").first).to_be_visible()
    section = me.locator(".np-sec.legal[role=button]").first
    sid = section.get_attribute("data-section")
    click_after_live_swap(me, section)   # the other's move came live
    expect(other.locator(f'.np-sec[data-section="{sid}"]')).to_have_attribute("data-piece", "hiker", timeout=10_000)
    expect(me.locator(f'.np-sec[data-section="{sid}"]')).to_have_attribute("data-piece", "hiker")
    end = me.get_by_role("button", name="End turn")
    if end.count():
        end.click()
    expect(me.locator(CONTROL)).to_have_count(0, timeout=10_000)
    targets = other.locator(".np-sec.legal[role=button], .np-sec.legal-region[role=button]")
    expect(targets.first).to_be_visible(timeout=10_000)


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
    arrive(bob, re.compile(r"/play/\d+/$"))
    arrive(alice, re.compile(r"/play/\d+/$"), timeout=10_000)

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


def test_keyboard_focus_moves_on_to_a_control_after_a_trap_and_after_confirm(live_site, browser, start_game):
    """Enter on a section traps it; that section then stops being a control, and focus must
    land on the next control (here End turn), not fall back to the top of the page, even
    after the live update that follows our own move. The same after Enter on Confirm."""
    from django.contrib.auth import get_user_model

    from games.models import Game
    from games.nanga_parbat.tests.helpers import animal, held, position

    page = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
    sign_up(page, live_site, "alice")
    sign_up(browser.new_context().new_page(), live_site, "bob")
    users = [get_user_model().objects.get(username=n) for n in ("alice", "bob")]
    game = start_game("nanga-parbat", users, seed=3)
    Game.objects.filter(pk=game.pk).update(state=position(
        phase="trap", current=0, guide=1, board={12: animal("yak")}, seats={0: {"animals": held("tahr")}}))
    page.goto(f"{live_site}/play/{game.pk}/")
    page.locator('.np-sec.legal[data-section="12"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('.np-sec[data-section="12"]')).to_have_attribute("data-piece", "hiker", timeout=10_000)
    expect(page.locator(".np-end-turn")).to_be_focused(timeout=5_000)
    # A yak by keyboard: the animal, then a region's section, then Confirm.
    page.locator('.np-aboard.own .np-token.legal[data-species="yak"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator(".np-mode-text")).to_contain_text("Yak")
    page.locator('.np-sec[data-section="41"][role=button]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('.np-sec[data-section="41"]')).to_be_focused(timeout=5_000)   # still a control
    page.locator(".np-confirm:not([disabled])").focus()
    page.keyboard.press("Enter")
    expect(page.locator('.np-guide-token[data-region="4"]')).to_have_count(1, timeout=10_000)
    expect(page.locator(".np-end-turn")).to_be_focused(timeout=5_000)
