"""Rifugio on a phone, by keyboard and for screen readers (issue 13): the board at 360, 390
and 1366 px at the start, mid-game and the end, for a seat, a spectator and the replay, with
and without Rivers & Rafts (no page wider than the screen, no critical or serious axe-core
violation, a screenshot of each); tap-sized targets with names that say what they do; and a
base game played to its end by clicking, on a phone."""
from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from games import engine
from games.rules import bot_for
from tests.browser.checks import DESKTOP, PHONE, SMALL_PHONE, at_width, check_page
from tests.browser.fixtures import sign_up
from tests.browser.live import click_after_live_swap
from tests.fixtures import client_for

pytestmark = [pytest.mark.browser]

SLUG = "rifugio"
WIDTHS = (SMALL_PHONE, PHONE, DESKTOP)
TAP = 44                       # px: the smallest tap target on a phone
MID_GAME_TURNS = 8             # turns each player has taken when the game is "mid-game"


def play_for(game, user, until) -> None:
    """The bot's choices, submitted for `user` through the engine, until `until(state)`."""
    bot, rng = bot_for(SLUG), random.Random(7)
    while game.is_active and not until(game.state):
        seat = game.seat_of(user)
        game = engine.submit(game.pk, user, bot.choose(game.state, seat, rng)).game


def mid_game(state: dict) -> bool:
    """Alice (seat 0) about to walk, after some turns: rafts, hikers and huts are out."""
    return min(state["turns_taken"]) >= MID_GAME_TURNS and state["active"] == 0 and state["phase"] == "walk"


@pytest.fixture
def stages() -> tuple[str, ...]:
    """The games a test needs (a test that looks at fewer parametrizes this): playing one to
    its end costs seconds, so a test that never opens it does not pay for it."""
    return ("start", "mid", "end")


@pytest.fixture
def games(live_site, start_game, alice, expansion, stages):
    """Alice against a bot at the start, mid-game and at the end, made before the browser
    starts (the engine's live updates do not run inside Playwright's event loop)."""
    options = {"rivers_and_rafts": expansion}
    made = {stage: start_game(SLUG, [alice, None], options=options, seed=4) for stage in stages}
    if "mid" in made:
        play_for(made["mid"], alice, mid_game)
    if "end" in made:
        play_for(made["end"], alice, lambda state: False)
    return made


# Two animation frames: the resize's layout pass and board.js arranging the map box (it runs on
# "resize", dispatched before the next frame), waited for instead of a fixed sleep.
NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def signed_in(browser, live_site, user):
    context = browser.new_context(viewport={"width": DESKTOP, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": client_for(user).cookies["sessionid"].value,
                          "url": live_site}])
    return context.new_page()


# The board's controls (map targets, buttons, the score total's toggle) smaller than a tap.
SMALL_CONTROLS = """(tap) => [...document.querySelectorAll(
    '.rf-map .target .hl, .rf .button, .rf .rf-total summary')]
  .filter(el => el.getClientRects().length)
  .map(el => [el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30), el.getBoundingClientRect()])
  .filter(([, r]) => r.width < tap - 0.5 || r.height < tap - 0.5)
  .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


def check_all_widths(page, name: str) -> None:
    for width in WIDTHS:
        at_width(page, width)
        page.evaluate(NEXT_FRAMES)     # a layout pass, and board.js arranging the map box
        check_page(page, name)
        if width < DESKTOP:
            small = page.evaluate(SMALL_CONTROLS, TAP)
            assert not small, f"{name} at {width} px: controls smaller than {TAP} px: {small}"


@pytest.mark.parametrize("expansion", [True, False], ids=["rivers-and-rafts", "base"])
def test_the_board_fits_phones_and_passes_axe_for_a_seat_a_spectator_and_the_replay(
        live_site, games, alice, browser, expansion):
    flavour = "rr" if expansion else "base"
    seat = signed_in(browser, live_site, alice)
    watcher = browser.new_context(viewport={"width": DESKTOP, "height": 900}).new_page()
    for stage, game in games.items():
        seat.goto(f"{live_site}/play/{game.pk}/")
        expect(seat.locator(".rf-map")).to_be_visible()
        if stage != "end":
            expect(seat.locator(".rf-map .target").first).to_be_attached()
        check_all_widths(seat, f"rifugio-{flavour}-{stage}-seat")
        if stage != "start":
            watcher.goto(f"{live_site}/play/{game.pk}/")
            expect(watcher.locator(".rf-map")).to_be_visible()
            expect(watcher.locator(".rf-map .target")).to_have_count(0)
            check_all_widths(watcher, f"rifugio-{flavour}-{stage}-spectator")
    end = games["end"]
    expect(seat.locator(".rf-final-table")).to_be_visible()
    for step in (end.moves.count() // 2, ""):
        watcher.goto(f"{live_site}/play/{end.pk}/replay/?step={step}")
        expect(watcher.locator(".rf-map")).to_be_visible()
        check_all_widths(watcher, f"rifugio-{flavour}-replay-{'mid' if step else 'end'}")


def map_box_scrolls(page) -> bool:
    return page.evaluate("() => { const b = document.querySelector('.rf-map-scroll'); "
                         "return b.scrollWidth > b.clientWidth + 1 }")


@pytest.mark.parametrize("stages", [("mid",)], ids=["mid"])
@pytest.mark.parametrize("expansion", [True], ids=["rivers-and-rafts"])
def test_on_a_phone_the_map_scrolls_in_its_box_and_whole_map_fits_it(live_site, games, alice, browser, expansion):
    page = signed_in(browser, live_site, alice)
    at_width(page, PHONE)
    page.goto(f"{live_site}/play/{games['mid'].pk}/")
    box = page.locator(".rf-map-scroll")
    expect(box).to_be_visible()
    assert map_box_scrolls(page)
    zoom = page.get_by_role("button", name="Whole map")
    expect(zoom).to_have_attribute("aria-pressed", "false")
    zoom.click()
    expect(zoom).to_have_attribute("aria-pressed", "true")
    assert not map_box_scrolls(page)
    # the choice outlives a redraw of the board (every move redraws it)
    page.reload()
    expect(page.get_by_role("button", name="Whole map")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Whole map").click()
    expect(page.get_by_role("button", name="Whole map")).to_have_attribute("aria-pressed", "false")


@pytest.mark.parametrize("stages", [("start", "mid")], ids=["start-mid"])
@pytest.mark.parametrize("expansion", [True], ids=["rivers-and-rafts"])
def test_map_controls_say_what_they_do_and_show_a_focus_ring(live_site, games, alice, browser, expansion):
    page = signed_in(browser, live_site, alice)
    page.goto(f"{live_site}/play/{games['start'].pk}/")
    place = page.locator(".rf-map .target.place").first
    expect(place).to_have_attribute("aria-label", re.compile(r"^Place the .+ at \(-?\d+,-?\d+\)"))
    before = place.locator(".hl").evaluate("e => getComputedStyle(e).strokeWidth")
    place.focus()
    page.keyboard.press("ArrowRight")      # keyboard focus (focus-visible), the next target
    focused = page.locator(".rf-map .target:focus .hl")
    expect(focused).to_have_count(1)
    assert focused.evaluate("e => getComputedStyle(e).strokeWidth") != before
    # Tab alone reaches the map: its box, then its first target
    page.locator(".rf-map-scroll").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.matches('.rf-map .target.sel-target')")
    page.goto(f"{live_site}/play/{games['mid'].pk}/")
    names = page.locator(".rf-map .target").evaluate_all("ts => ts.map(t => t.getAttribute('aria-label'))")
    assert names and all(re.match(r"(Walk|Board|Jump onto|Sail|Build|Swim)\b", n) for n in names), names


def test_a_two_player_base_game_is_played_to_its_end_on_a_phone(live_site, browser):
    """The base game (Rivers & Rafts off) by clicking only, at 390 px, against a bot added
    at the table: every turn places its two tiles and walks a step when it can, until the
    final scoring shows, ranked, with the site's result."""
    page = browser.new_context(viewport={"width": PHONE, "height": 844}).new_page()
    sign_up(page, live_site, "alice")
    page.goto(f"{live_site}/tables/new/?game={SLUG}")
    page.uncheck("#id_opt_rivers_and_rafts")
    page.click("text=Create table")
    page.click("text=Add a bot")
    page.wait_for_url(re.compile(r"/play/\d+/$"), timeout=10_000)
    expect(page.locator(".rf-bag")).to_contain_text("base game")
    page.on("dialog", lambda dialog: dialog.accept())
    turns = 0
    while not page.locator(".rf-final").count():
        expect(page.locator(".rf.acting, .rf-final")).to_have_count(1, timeout=10_000)
        if page.locator(".rf-final").count():
            break
        play_my_turn(page)
        turns += 1
        assert turns <= 16, "a 2-player base game gives each player 15 turns"
    assert turns == 15
    final = page.locator(".rf-final-table")
    expect(final).to_be_visible()
    ranks = final.locator("thead th").all_inner_texts()[1:]
    assert [int(r.split()[0]) for r in ranks] == sorted(int(r.split()[0]) for r in ranks)
    assert "alice" in " ".join(ranks)
    expect(page.locator(".rf-map .target")).to_have_count(0)
    check_page(page, "rifugio-base-played-to-the-end")


def play_my_turn(page) -> None:
    """Two tiles placed by tapping the highlighted cells, a step if one is offered, End turn."""
    for _ in range(2):
        expect(page.locator(".rf-head")).to_contain_text("Place a tile", timeout=10_000)
        tiles = page.locator(".rf-map .tile")
        before = tiles.count()
        page.locator(".rf-map .target.place").first.click()
        expect(tiles).to_have_count(before + 1, timeout=10_000)
    expect(page.locator(".rf-head")).to_contain_text("Walk", timeout=10_000)
    step = page.locator(".rf-map .target.step").first
    if step.count():
        step.click()
        expect(page.locator(".rf-steps-count")).to_have_text("1", timeout=10_000)
    # The board was redrawn live (the echo of our tiles, the bot's turn): the post is answered.
    click_after_live_swap(page, page.get_by_role("button", name="End turn"))
    expect(page.locator(".rf-head")).not_to_contain_text("Walk", timeout=10_000)


def test_how_to_play_fits_phones_and_draws_its_diagrams(live_site, browser):
    page = browser.new_context(viewport={"width": DESKTOP, "height": 900}).new_page()
    page.goto(f"{live_site}/games/{SLUG}/how-to-play/")
    expect(page.get_by_role("heading", name="How to play Rifugio")).to_be_visible()
    expect(page.locator("figure svg.rf-diagram")).to_have_count(4)
    expect(page.locator("figure .rf-diagram .target")).not_to_have_count(0)
    for width in WIDTHS:
        at_width(page, width)
        page.evaluate(NEXT_FRAMES)
        check_page(page, "rifugio-how-to-play")
