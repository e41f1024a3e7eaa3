"""Rift Valley Reserve on a phone and a desktop (issue 13): at 360, 390 and 1366 px the
board fits the viewport at the start, mid-game and at the end, for a seat, a spectator and
the replay, with no serious axe-core violation; its controls are big enough to tap, named
for what they do and reachable by keyboard; a submitted draw can be taken back."""
from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections
from playwright.sync_api import expect

from tests.browser.checks import DESKTOP, PHONE, SMALL_PHONE, at_width, check_page
from tests.browser.fixtures import sign_up
from tests.browser.live import click_after_live_swap

pytestmark = [pytest.mark.browser]
BIG = ".rvr-map.big"
HALF = ".rvr-map.zoom"       # the half map a phone shows the seat that can draw
WIDTHS = (SMALL_PHONE, PHONE, DESKTOP)
MIN_TAP = 44


def in_a_thread(fn, *args):
    """Run engine calls off Playwright's event-loop thread (the engine's notifier uses
    async_to_sync, which refuses to run inside a running loop)."""
    def run():
        try:
            return fn(*args)
        finally:
            connections.close_all()      # give the thread's connection back to the pool
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def start(users) -> int:
    """A two-seat game between these users (seat order as given); its id."""
    from games import engine
    from games.engine import SeatPlan

    game = engine.start_game("rift-valley-reserve", [SeatPlan(user=u) for u in users], {"boards": "identical"},
                             seed=7, shuffle=False)
    return game.pk


def play_turns(game_id: int, users, turns: int | None = None) -> None:
    """Both seats draw what the bot would, for `turns` turns (None: to the end)."""
    from games import engine
    from games.models import Game
    from games.rules import bot_for

    bot = bot_for("rift-valley-reserve")
    rng = random.Random(3)
    game = Game.objects.get(pk=game_id)
    stop_at = None if turns is None else game.state["turn"] + turns
    while not game.rules.is_over(game.state) and (stop_at is None or game.state["turn"] < stop_at):
        for seat in game.rules.to_act(game.state):
            engine.submit(game_id, users[seat], bot.choose(game.state, seat, rng))
        game = Game.objects.get(pk=game_id)


def check_all_widths(page, name: str) -> None:
    for width in WIDTHS:
        at_width(page, width)
        page.wait_for_timeout(50)
        check_page(page, name)


def small_tap_targets(page) -> list[str]:
    """The board's controls smaller than 44 x 44 CSS px (what a finger needs)."""
    return page.evaluate("""(min) => {
      const out = [];
      for (const el of document.querySelectorAll('.rvr [role=button], .rvr button, .rvr a[href]')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (r.width + 0.5 < min || r.height + 0.5 < min)
          out.push(`${el.getAttribute('aria-label') || el.textContent.trim()} `
                   + `${Math.round(r.width)}x${Math.round(r.height)}`);
      }
      return out;
    }""", MIN_TAP)


@pytest.fixture
def players(live_site, browser):
    from django.contrib.auth import get_user_model

    pages = []
    for name in ("alice", "bob"):
        page = browser.new_context(viewport={"width": PHONE, "height": 844}).new_page()
        sign_up(page, live_site, name)
        pages.append(page)
    users = [get_user_model().objects.get(username=n) for n in ("alice", "bob")]
    watcher = browser.new_context(viewport={"width": PHONE, "height": 844}).new_page()
    return pages, users, watcher


def test_the_board_fits_phones_and_desktops_from_start_to_end(live_site, players):
    (alice, bob), users, watcher = players
    game_id = in_a_thread(start, users)
    url = f"{live_site}/play/{game_id}/"
    for page in (alice, watcher):
        page.goto(url)
    check_all_widths(alice, "rvr-start-seat")
    check_all_widths(watcher, "rvr-start-spectator")

    # A ghost waiting for confirmation (the Confirm button widens the toolbar).
    at_width(alice, SMALL_PHONE)
    alice.locator(f"{HALF} .cell.legal").first.click()
    expect(alice.locator(f"{HALF} .cell.ghosted")).to_have_count(1)
    check_page(alice, "rvr-ghost-seat")
    assert small_tap_targets(alice) == []

    in_a_thread(play_turns, game_id, users, 12)
    alice.goto(url)
    watcher.goto(url)
    check_all_widths(alice, "rvr-mid-seat")
    check_all_widths(watcher, "rvr-mid-spectator")

    in_a_thread(play_turns, game_id, users)
    for page in (alice, watcher):
        page.goto(url)
    check_all_widths(alice, "rvr-end-seat")
    check_all_widths(watcher, "rvr-end-spectator")
    watcher.goto(f"{url}replay/")
    check_all_widths(watcher, "rvr-replay")


def test_phone_controls_are_big_named_and_reachable_by_keyboard(live_site, players):
    (alice, bob), users, _ = players
    game_id = in_a_thread(start, users)
    in_a_thread(play_turns, game_id, users, 4)
    alice.goto(f"{live_site}/play/{game_id}/")
    at_width(alice, SMALL_PHONE)
    expect(alice.locator(BIG)).to_be_hidden()
    assert small_tap_targets(alice) == []
    # Each square says what a click does, on which map.
    cell = alice.locator(f"{HALF} .cell.legal").first
    r, c = int(cell.get_attribute("data-r")), int(cell.get_attribute("data-c"))
    name = re.compile(rf"^Place a Stop on {'ABCDEFGHIJ'[c]}{r + 1} of the .+ map$")
    expect(cell).to_have_attribute("aria-label", name)
    # The keyboard: Tab reaches the squares, which show a dark focus frame; arrows move on.
    alice.locator(".rvr-controls button.mode", has_text="Stop").focus()
    alice.keyboard.press("ArrowDown")
    focused = alice.locator(f"{HALF} .cell.legal:focus")
    expect(focused).to_have_count(1)
    assert focused.locator(".bg").evaluate("el => getComputedStyle(el).stroke") == "rgb(27, 27, 27)"
    alice.keyboard.press("Enter")
    expect(alice.locator(f"{HALF} .cell.ghosted:focus")).to_have_count(1)     # focus kept across the swap
    alice.keyboard.press("Escape")
    expect(alice.locator(f"{HALF} .cell.ghosted")).to_have_count(0)
    # The east half, then a Stop drawn there by tapping twice.
    alice.get_by_role("button", name="Show the east half").click()
    expect(alice.locator(".rvr-zoom")).to_have_attribute("data-half", "e")
    east = alice.locator(f"{HALF} .cell.legal").last
    r, c = east.get_attribute("data-r"), east.get_attribute("data-c")
    east.click()
    alice.locator(f'{HALF} .cell.ghosted[data-r="{r}"][data-c="{c}"]').click()
    expect(alice.locator(".rvr-pending")).to_contain_text("waiting for the others")
    check_page(alice, "rvr-pending-seat")


def test_a_draw_taken_back_in_the_browser_leaves_no_trace_for_the_other_seat(live_site, players):
    (alice, bob), users, _ = players
    game_id = in_a_thread(start, users)
    for page in (alice, bob):
        page.goto(f"{live_site}/play/{game_id}/")
        at_width(page, DESKTOP)
    frames: list = []
    bob.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    bob.reload()
    alice.locator(f'{BIG} .cell.legal[data-r="0"][data-c="3"]').click()
    alice.locator(f'{BIG} .cell.ghosted[data-r="0"][data-c="3"]').click()
    expect(bob.locator('.seat-chip[data-seat="0"]')).to_contain_text("drawn", timeout=10_000)
    alice.get_by_role("button", name="Take back my draw").click()
    expect(alice.locator(".rvr-pending")).to_have_count(0)
    expect(alice.locator(f"{BIG} .cell.legal").first).to_be_visible()
    expect(bob.locator('.seat-chip[data-seat="0"]')).to_contain_text("drawing", timeout=10_000)
    assert frames and not any('data-kind="stop"' in f or 'data-kind="pending' in f or "You drew" in f
                              for f in frames)
    check_page(alice, "rvr-taken-back-seat")
    # She draws elsewhere; Bob's draw ends the turn and only the second Stop is on her map.
    alice.locator(f'{BIG} .cell.legal[data-r="0"][data-c="5"]').click()
    alice.locator(f'{BIG} .cell.ghosted[data-r="0"][data-c="5"]').click()
    bob.locator(f'{BIG} .cell.legal[data-r="8"][data-c="4"]').click()
    # Bob's board was redrawn live (Alice's draws): his draw is answered, not refused.
    click_after_live_swap(bob, bob.locator(f'{BIG} .cell.ghosted[data-r="8"][data-c="4"]'))
    expect(bob.locator(".rvr")).to_have_attribute("data-turn", "2", timeout=10_000)
    expect(bob.locator(f'{BIG} [data-kind="stop"][data-seat="0"]')).to_have_count(1)
    expect(bob.locator(f'{BIG} [data-kind="stop"][data-seat="0"][data-c="5"]')).to_have_count(1)


def test_the_how_to_play_page_fits_and_passes_axe(live_site, browser):
    page = browser.new_context(viewport={"width": PHONE, "height": 844}).new_page()
    page.goto(f"{live_site}/games/rift-valley-reserve/how-to-play/")
    expect(page.locator(".rvr-how .rvr-map")).to_have_count(7)
    for width in WIDTHS:
        at_width(page, width)
        page.wait_for_timeout(50)
        check_page(page, "rvr-how-to-play")


def play_script(game_id: int, users, turns) -> None:
    """Each turn's (seat 0's draw, seat 1's draw); None: the seat's first legal Tent."""
    from games import engine
    from games.models import Game

    for moves in turns:
        for seat, move in enumerate(moves):
            game = Game.objects.get(pk=game_id)
            if move is None:
                move = next(a for a in game.rules.legal_actions(game.state, seat) if a["type"] == "tent")
            engine.submit(game_id, users[seat], move)


def test_a_trail_is_drawn_on_a_phone_across_the_halves(live_site, players):
    (alice, bob), users, _ = players
    game_id = in_a_thread(start, users)
    stop = lambda r, c: {"type": "stop", "cell": [r, c]}      # noqa: E731
    in_a_thread(play_script, game_id, users, [(stop(0, 3), stop(8, 4)), (None, None), (stop(2, 5), None),
                                              (None, None)])
    alice.goto(f"{live_site}/play/{game_id}/")
    at_width(alice, PHONE)
    alice.get_by_role("button", name="Start a Trail at your Stop on D1").click()
    alice.get_by_role("button", name="End the Trail at your Stop on F3").click()
    routes = alice.locator(f"{HALF} .route")
    expect(routes).to_have_count(2)
    assert small_tap_targets(alice) == []
    check_page(alice, "rvr-routes-seat")
    # axe's rules on names and nesting, the experimental one too, on the routes and Stops.
    from axe_playwright_python.sync_playwright import Axe
    rules = ["label-content-name-mismatch", "aria-prohibited-attr", "nested-interactive", "button-name"]
    found = Axe().run(alice, context=".rvr", options={"runOnly": rules}).response["violations"]
    assert found == [], [(v["id"], [n["html"][:200] for n in v["nodes"]]) for v in found]
    # The east half keeps the half-made Trail; the route bridging the Rift is drawn from there.
    alice.get_by_role("button", name="Show the east half").click()
    expect(alice.locator(".rvr-zoom")).to_have_attribute("data-half", "e")
    bridge = alice.get_by_role("button", name=re.compile(r"^Draw the L-shaped Trail turning on D3"))
    bridge.focus()
    alice.keyboard.press("Enter")
    expect(alice.locator(".rvr-pending")).to_contain_text("a Trail from D1 to F3")
    # Looking at Bob's map meanwhile: every link still a finger wide, and back again.
    alice.get_by_role("link", name="Show bob's map").click()
    expect(alice.locator(".rvr-maphead .viewing")).to_contain_text("Viewing only")
    assert small_tap_targets(alice) == []
    check_page(alice, "rvr-viewing-other-map")
    alice.get_by_role("link", name="Back to the map you hold").click()
    expect(alice.locator(".rvr-maphead .viewing")).to_have_count(0)
