"""Alpine Trails on phones and desktops, for a seat, a spectator, the replay and a solo
game: no sideways panning of the page, no serious axe-core finding, finger-sized squares
and buttons, and the advertised keys (1/2, arrows, Enter) working in a row."""
from __future__ import annotations


import pytest
from playwright.sync_api import expect

from tests.browser.checks import DESKTOP, PHONE, SMALL_PHONE, at_width, check_page, check_widths
from tests.browser.boards import ALL_WIDTHS, advance, check_board, settled, signed_in

pytestmark = [pytest.mark.browser]

SLUG = "alpine-trails"
@pytest.fixture
def games(live_site, start_game, alice):
    """Two-player games at the start, mid-game (round 7) and the end, and a finished solo
    game, made before the browser starts (the engine's live updates may not run inside
    Playwright's event loop)."""
    mid = advance(start_game(SLUG, [alice, None], seed=3), alice, 20)
    end = advance(start_game(SLUG, [alice, None], seed=3), alice, 500)
    solo = advance(start_game(SLUG, [alice], seed=4), alice, 500)
    solo_mid = advance(start_game(SLUG, [alice], seed=4), alice, 20)
    assert mid.is_active and not end.is_active and not solo.is_active and solo_mid.is_active
    return {"start": start_game(SLUG, [alice, None], seed=3), "mid": mid, "end": end, "solo": solo,
            "solo-mid": solo_mid}


def test_the_seat_sees_the_board_fit_at_start_mid_game_and_end(live_site, games, alice, browser):
    page = signed_in(browser, live_site, alice)
    for moment in ("start", "mid", "end", "solo-mid", "solo"):
        page.goto(f"{live_site}/play/{games[moment].pk}/")
        check_board(page, f"at-seat-{moment}", ALL_WIDTHS)


def test_a_spectator_and_the_replays_see_the_board_fit(live_site, games, bob, browser):
    page = signed_in(browser, live_site, bob)
    page.goto(f"{live_site}/play/{games['mid'].pk}/")
    check_board(page, "at-spectator-mid", ALL_WIDTHS)
    for moment in ("end", "solo"):
        page.goto(f"{live_site}/play/{games[moment].pk}/replay/")
        check_board(page, f"at-replay-{moment}", ALL_WIDTHS)


def test_on_a_phone_squares_and_buttons_are_finger_sized(live_site, games, alice, browser):
    page = signed_in(browser, live_site, alice, width=SMALL_PHONE)
    page.goto(f"{live_site}/play/{games['mid'].pk}/")
    settled(page)
    page.keyboard.press("f")          # the terrain side fits many squares
    squares = page.locator(".at-main .hl.sel-target")
    expect(squares.first).to_be_visible()
    check_board(page, "at-seat-mid-terrain", (SMALL_PHONE,))
    sizes = page.evaluate("""[...document.querySelectorAll(
        '.at-main .hl.sel-target, .at-board button:not([disabled])')].map(e => {
        const r = e.getBoundingClientRect(); return [e.className.baseVal ?? e.className, r.width, r.height]; })""")
    small = [s for s in sizes if s[1] < 44 or s[2] < 44]
    assert not small, small


def test_a_tile_is_placed_with_1_the_arrows_and_enter(live_site, games, alice, browser):
    page = signed_in(browser, live_site, alice, width=DESKTOP)
    page.goto(f"{live_site}/play/{games['start'].pk}/")
    settled(page)
    tiles_before = page.locator(".at-main .cell").count()
    page.keyboard.press("2")
    expect(page.locator(".at-tile").nth(1)).to_have_attribute("aria-pressed", "true")
    # the keyboard is now on the first square the tile fits, with a visible ring
    focused = page.locator(".at-main .hl.sel-target:focus")
    expect(focused).to_have_count(1)
    assert page.evaluate("getComputedStyle(document.activeElement.querySelector('.hl-bg')).strokeWidth") == "6px"
    page.keyboard.press("1")
    expect(page.locator(".at-tile").first).to_have_attribute("aria-pressed", "true")
    expect(focused).to_have_count(1)
    label = focused.get_attribute("aria-label")
    assert label.startswith("Place "), label
    start = focused.get_attribute("data-xy")
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        if page.evaluate("document.activeElement.dataset.xy") != start:
            break
    expect(page.locator(".at-main .hl.sel-target:focus")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.locator(".at-main .cell")).to_have_count(tiles_before + 1)
    at_width(page, PHONE)
    check_page(page, "at-seat-placed")


def test_the_how_to_play_page_fits_and_passes_axe(live_site, browser):
    page = browser.new_context(viewport={"width": PHONE, "height": 800}).new_page()
    page.goto(f"{live_site}/games/{SLUG}/how-to-play/")
    expect(page.locator("svg.at-map")).to_have_count(3)
    check_widths(page, "at-how-to-play", ALL_WIDTHS)


def test_on_a_phone_the_whole_map_can_be_fitted_to_the_screen_and_back(live_site, games, alice, browser):
    page = signed_in(browser, live_site, alice, width=SMALL_PHONE)
    page.goto(f"{live_site}/play/{games['mid'].pk}/")
    settled(page)
    frame = page.locator(".at-main .at-map-frame")
    assert page.evaluate("(f) => f.scrollWidth > f.clientWidth", frame.element_handle())   # zoomed: it scrolls
    page.get_by_role("button", name="Whole map").click()
    expect(page.get_by_role("button", name="Whole map")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("(f) => f.scrollWidth <= f.clientWidth", frame.element_handle())
    check_board(page, "at-seat-mid-whole-map", (SMALL_PHONE,))
    # a redraw (choosing another tile) keeps the whole map in view
    before = page.locator(".at-tile.selected").inner_text()
    page.keyboard.press("f")
    expect(page.locator(".at-tile.selected")).not_to_have_text(before)
    expect(page.get_by_role("button", name="Whole map")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("(f) => f.scrollWidth <= f.clientWidth", frame.element_handle())
    page.get_by_role("button", name="Whole map").click()
    assert page.evaluate("(f) => f.scrollWidth > f.clientWidth", frame.element_handle())
