"""Two people play Rift Valley Reserve in two browsers: Stops, a Tent and a Trail that
bridges the Rift, each seeing the other's draws live once a turn resolves (never before)."""
from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import meet_at_a_table, sign_up
from tests.browser.live import click_after_live_swap

pytestmark = [pytest.mark.browser]
BIG = ".rvr-map.big"


def on_turn(page, turn: int) -> None:
    expect(page.locator(".rvr")).to_have_attribute("data-turn", str(turn), timeout=10_000)


def draw_at(page, r: int, c: int, mode: str = "Stop", after_live_swap: bool = False) -> None:
    """Choose the mode, click a highlighted square (a ghost appears), click it again (that
    post checked not refused when the page was just redrawn live)."""
    if mode == "Tent":
        page.locator(".rvr-controls button.mode", has_text="Tent").click()
        expect(page.locator(".rvr-controls button.mode.on")).to_contain_text("Tent")
    cell = page.locator(f'{BIG} .cell.legal[data-r="{r}"][data-c="{c}"]')
    cell.click()
    expect(page.locator(f'{BIG} .cell.ghosted[data-r="{r}"][data-c="{c}"]')).to_have_count(1)
    ghost = page.locator(f'{BIG} .cell.ghosted[data-r="{r}"][data-c="{c}"]')
    click_after_live_swap(page, ghost) if after_live_swap else ghost.click()
    expect(page.locator(f"{BIG} .cell.ghosted")).to_have_count(0)


def first_legal_tent(page) -> None:
    page.locator(".rvr-controls button.mode", has_text="Tent").click()
    expect(page.locator(".rvr-controls button.mode.on")).to_contain_text("Tent")
    page.locator(f"{BIG} .cell.legal").first.click()
    page.get_by_role("button", name=re.compile("^Confirm Tent")).click()
    expect(page.locator(f"{BIG} .cell.ghosted")).to_have_count(0)


def test_two_players_draw_stops_tents_and_a_bridging_trail(live_site, browser):
    alice = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
    bob = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
    # Everything each page receives over WebSockets, to check that a pending draw never
    # travels to the other seat.
    frames: dict = {alice: [], bob: []}
    for page in (alice, bob):
        page.on("websocket", lambda ws, page=page: ws.on("framereceived", lambda f: frames[page].append(str(f))))
    sign_up(alice, live_site, "alice")
    sign_up(bob, live_site, "bob")

    # The guest watches the lobby: the new table appears without a reload.
    meet_at_a_table(alice, bob, live_site, "rift-valley-reserve", "Rift Valley Reserve", seats=2)

    # Seats are dealt at random: "red" is seat 0 (owner of map 0), "blue" seat 1.
    on_turn(alice, 1)
    you = alice.locator(".seat-chip", has_text="(you)")
    red, blue = (alice, bob) if you.get_attribute("data-seat") == "0" else (bob, alice)

    # Turn 1: Stops only; Tent is disabled and squares next to animals are not offered.
    expect(red.locator(".rvr-controls button.mode", has_text="Tent")).to_be_disabled()
    expect(red.locator(f'{BIG} .cell.legal[data-r="0"][data-c="1"]')).to_have_count(0)
    # The keyboard (site.js): from a focused control on the board an arrow key reaches a
    # highlighted square, Enter picks it (a ghost), Esc cancels, another arrow moves on.
    red.locator(".rvr-controls button.mode", has_text="Stop").focus()
    red.keyboard.press("ArrowDown")
    expect(red.locator(f"{BIG} .cell.legal:focus")).to_have_count(1)
    red.keyboard.press("Enter")
    expect(red.locator(f"{BIG} .cell.ghosted")).to_have_count(1)
    expect(red.locator(f"{BIG} .cell.ghosted:focus")).to_have_count(1)    # focus kept across the swap
    red.keyboard.press("Escape")
    expect(red.locator(f"{BIG} .cell.ghosted")).to_have_count(0)
    first = red.locator(f"{BIG} .cell.legal").first
    first.focus()
    red.keyboard.press("ArrowRight")
    expect(red.locator(f"{BIG} .cell.legal:focus")).not_to_have_attribute("data-c", first.get_attribute("data-c"))
    draw_at(red, 0, 3)
    expect(red.locator(".rvr-pending")).to_contain_text("drawn — waiting for the others")
    expect(red.locator(f'{BIG} [data-kind="pending-stop"]')).to_have_count(1)
    # Blue sees that Red has drawn, live, but not what or where.
    expect(blue.locator('.seat-chip[data-seat="0"]')).to_contain_text("drawn", timeout=10_000)
    expect(blue.locator('.rvr [data-kind="stop"][data-seat="0"]')).to_have_count(0)
    blue_frames = frames[blue]
    assert blue_frames and not any('data-kind="stop"' in f or 'data-kind="pending' in f
                                   or "You drew" in f for f in blue_frames)
    draw_at(blue, 8, 4, after_live_swap=True)

    # Turn 2: the maps have moved on; each sees the other's Stop on the other map.
    on_turn(red, 2)
    on_turn(blue, 2)
    expect(red.locator(f'{BIG} [data-kind="stop"][data-seat="1"]')).to_have_count(1)
    expect(blue.locator(f'{BIG} [data-kind="stop"][data-seat="0"][data-r="0"][data-c="3"]')).to_have_count(1)
    first_legal_tent(red)
    first_legal_tent(blue)

    # Turn 3: back on their own maps; Red adds a second Stop, Blue a Tent.
    on_turn(red, 3)
    expect(red.locator(f'{BIG} [data-kind="tent"][data-seat="1"]')).to_have_count(1)
    draw_at(red, 2, 5)
    first_legal_tent(blue)
    on_turn(red, 4)
    first_legal_tent(red)
    first_legal_tent(blue)

    # Turn 5: Red joins their two Stops. Both L routes are offered; one bridges her Rift.
    on_turn(red, 5)
    red.locator(f'{BIG} .stop.clickable[data-r="0"][data-c="3"]').click()
    expect(red.locator(f'{BIG} .stop.role-first[data-r="0"][data-c="3"]')).to_have_count(1)
    # Blue draws meanwhile: Red's page updates live and keeps the half-made Trail.
    first_legal_tent(blue)
    expect(red.locator('.seat-chip[data-seat="1"]')).to_contain_text("drawn", timeout=10_000)
    expect(red.locator(f'{BIG} .stop.role-first[data-r="0"][data-c="3"]')).to_have_count(1)
    red.locator(f'{BIG} .stop.role-partner[data-r="2"][data-c="5"]').click()
    routes = red.locator(f"{BIG} .route")
    expect(routes).to_have_count(2)
    expect(red.locator(f'{BIG} .route[data-corner="2,3"]')).to_have_count(1)
    if os.environ.get("SCREENSHOTS"):
        os.makedirs("test-artifacts", exist_ok=True)
        red.screenshot(path="test-artifacts/rvr-red-routes.png", full_page=True)
    red.locator(f'{BIG} .route[data-corner="2,3"] .corner').click()

    # The turn resolves: Blue sees Red's Trail (with its plank over the Rift) on the map.
    on_turn(blue, 6)
    expect(blue.locator(f'{BIG} [data-kind="trail"][data-seat="0"]')).to_have_count(1)
    expect(blue.locator(f'{BIG} [data-kind="trail"][data-seat="0"] .plank')).to_have_count(1)
    expect(blue.locator(f'{BIG} .stop.connected[data-seat="0"]')).to_have_count(2)
    expect(red.locator(".rvr-score-table:not(.rvr-per-map)")).to_be_visible()  # the per-map tables fold away
    if os.environ.get("SCREENSHOTS"):
        red.screenshot(path="test-artifacts/rvr-red.png", full_page=True)
        blue.screenshot(path="test-artifacts/rvr-blue.png", full_page=True)

    # Clicking a thumbnail enlarges that map for viewing only; a link goes back.
    held = red.locator(BIG).get_attribute("data-map")
    other = "0" if held == "1" else "1"
    red.locator(f'.thumb-card[data-map="{other}"] .thumb-link').click()
    expect(red.locator(f'{BIG}[data-map="{other}"]')).to_have_count(1)
    expect(red.locator(".rvr-maphead .viewing")).to_contain_text("Viewing only")
    expect(red.locator(f"{BIG} .cell.legal")).to_have_count(0)
    # Blue draws meanwhile: Red's page updates live and stays on the map she is viewing.
    first_legal_tent(blue)
    expect(red.locator('.seat-chip[data-seat="1"]')).to_contain_text("drawn", timeout=10_000)
    expect(red.locator(f'{BIG}[data-map="{other}"]')).to_have_count(1)
    expect(red.locator(".rvr-maphead .viewing")).to_contain_text("Viewing only")
    red.locator("[data-back]").click()
    expect(red.locator(f'{BIG}[data-map="{held}"]')).to_have_count(1)
    expect(red.locator(f"{BIG} .cell.legal").first).to_be_visible()
