"""Roll to the Top on phones and desktops, for a seat, a spectator and the replay: no
sideways panning, no serious axe-core finding, finger-sized boxes with names that say
what they do, and a board that works from the keyboard."""
from __future__ import annotations


import pytest
from playwright.sync_api import expect

from games import rules
from tests.browser.checks import DESKTOP, PHONE, SMALL_PHONE, at_width, check_page, check_widths
from tests.browser.boards import ALL_WIDTHS, advance, check_board, signed_in

pytestmark = [pytest.mark.browser]

SLUG = "roll-to-the-top"
@pytest.fixture
def twin_peaks(live_site, start_game, alice):
    """Games on the widest board (8 boxes a row) at the start, mid-game and the end, made
    before the browser starts (the engine's live updates may not run inside Playwright's
    event loop)."""
    options = rules.get(SLUG).validate_options(2, {"board": "twin_peaks"})
    start = start_game(SLUG, [alice, None], options=options, seed=3)
    mid = advance(start_game(SLUG, [alice, None], options=options, seed=3), alice, 10)
    end = advance(start_game(SLUG, [alice, None], options=options, seed=3), alice, 2000)
    solo = advance(start_game(SLUG, [alice], options=rules.get(SLUG).validate_options(
        1, {"board": "twin_peaks", "mode": "reverse"}), seed=4), alice, 12)
    assert mid.is_active and not end.is_active and solo.is_active
    return {"start": start, "mid": mid, "end": end, "solo-reverse-mid": solo}


def test_the_seat_sees_the_board_fit_at_start_mid_game_and_end(live_site, twin_peaks, alice, browser):
    page = signed_in(browser, live_site, alice)
    for moment, game in twin_peaks.items():
        page.goto(f"{live_site}/play/{game.pk}/")
        check_board(page, f"rtt-seat-{moment}", ALL_WIDTHS)


def test_a_spectator_and_the_replay_see_the_board_fit(live_site, twin_peaks, bob, browser):
    page = signed_in(browser, live_site, bob)
    page.goto(f"{live_site}/play/{twin_peaks['mid'].pk}/")
    check_board(page, "rtt-spectator-mid", ALL_WIDTHS)
    page.goto(f"{live_site}/play/{twin_peaks['end'].pk}/replay/")
    check_board(page, "rtt-replay-end", ALL_WIDTHS)


def test_boxes_taking_the_picked_dice_are_finger_sized_and_say_what_they_do(live_site, twin_peaks, alice, browser):
    page = signed_in(browser, live_site, alice, width=SMALL_PHONE)
    page.goto(f"{live_site}/play/{twin_peaks['mid'].pk}/")
    die = page.locator(".rtt .die.sel-target").first
    value = die.get_attribute("data-value")
    die.click()
    boxes = page.locator(".rtt .main-sheet .box.legal")
    expect(boxes.first).to_be_visible()
    check_board(page, "rtt-seat-dice-picked", (SMALL_PHONE,))
    buttons = page.evaluate("""[...document.querySelectorAll('.rtt button:not([disabled])')].map(e => {
        const r = e.getBoundingClientRect(); return [e.textContent.trim(), r.width, r.height]; })""")
    assert buttons and not [b for b in buttons if b[1] < 44 or b[2] < 44], buttons
    for i in range(boxes.count()):
        box = boxes.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
        label = boxes.nth(i).get_attribute("aria-label")
        assert label.startswith(f"Place {value} in row "), label
    row, place = (int(n) for n in boxes.first.get_attribute("aria-label").split("row ")[1].split(", box "))
    assert row >= 1 and place >= 1


def test_a_number_is_written_with_the_keyboard_alone(live_site, twin_peaks, alice, browser):
    page = signed_in(browser, live_site, alice, width=DESKTOP)
    page.goto(f"{live_site}/play/{twin_peaks['start'].pk}/")
    page.wait_for_load_state("networkidle")     # the chat box and the live socket are in
    die = page.locator(".rtt .die.sel-target").first
    die_id = die.get_attribute("data-die")
    die.focus()
    page.keyboard.press("Enter")
    # the page is redrawn with the die pressed, and the keyboard is still on it
    expect(page.locator(f".rtt .die[data-die='{die_id}']")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(f".rtt .die[data-die='{die_id}']")).to_be_focused()
    page.keyboard.press("ArrowDown")
    focused = page.locator(".rtt .box.legal:focus")
    expect(focused).to_have_count(1)
    # the focus ring is drawn: the box's outline is thicker than an unfocused legal box's
    assert page.evaluate("getComputedStyle(document.activeElement.querySelector('rect')).strokeWidth") == "5px"
    page.keyboard.press("Enter")
    expect(page.locator(".rtt .main-sheet .box.pending")).to_have_count(1)
    at_width(page, PHONE)
    check_page(page, "rtt-seat-written")


def test_the_how_to_play_page_fits_and_passes_axe(live_site, browser):
    page = browser.new_context(viewport={"width": PHONE, "height": 800}).new_page()
    page.goto(f"{live_site}/games/{SLUG}/how-to-play/")
    expect(page.locator(".rtt-boards svg.sheet")).to_have_count(6)
    check_widths(page, "rtt-how-to-play", ALL_WIDTHS)
