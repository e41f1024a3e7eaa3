"""Nanga Parbat on a phone and a desktop, in a real browser (issue 13): nothing wider than
the screen, no critical or serious axe-core finding, tap targets of 44 px, every control
named for what it does, and the keyboard on the phone's window of the mountain."""
from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from games import engine
from games.rules import bot_for
from games.rules import get as get_rules

from tests.browser.checks import DESKTOP, PHONE, SMALL_PHONE, at_width, check_page, describe_violations
from tests.browser.fixtures import sign_up

pytestmark = [pytest.mark.browser]
SLUG = "nanga-parbat"
# Every control's name, read from the page: what it is and what pressing it does.
NAMES = """() => [...document.querySelectorAll('.np [role=button], .np button')].map((el) => {
  const r = el.getBoundingClientRect();
  const shown = el.checkVisibility({ visibilityProperty: true });
  return { name: el.getAttribute('aria-label') || el.textContent.trim(), w: r.width, h: r.height, shown };
})"""


def play_moves(game, users, count: int | None = None) -> None:
    """Let the bot choose for both seats, through the engine like a player would."""
    rules, bot = get_rules(SLUG), bot_for(SLUG)
    rng = random.Random(5)
    played = 0
    while game.is_active and (count is None or played < count):
        seat = rules.to_act(game.state)[0]
        engine.submit(game.pk, users[seat], bot.choose(game.state, seat, rng))
        game.refresh_from_db()
        played += 1


# Rules the issue names, whatever their impact (label-content-name-mismatch is experimental in
# axe-core, so it runs only when asked for).
NAMED_RULES = ["aria-prohibited-attr", "label-content-name-mismatch", "nested-interactive",
               "scrollable-region-focusable", "aria-command-name", "svg-img-alt", "target-size"]


def check_named_rules(page, name: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context=".np", options={"runOnly": {"type": "rule", "values": NAMED_RULES},
                                       "resultTypes": ["violations"]})
    violations = results.response["violations"]
    assert not violations, f"{name}: " + describe_violations(violations)


def check_both_phones(page, name: str) -> None:
    for width in (SMALL_PHONE, PHONE):
        at_width(page, width)
        page.wait_for_timeout(50)
        check_page(page, name)
        shown = [c for c in page.evaluate(NAMES) if c["shown"]]
        small = [c for c in shown if c["w"] < 44 or c["h"] < 44]
        assert not small, f"{name} at {width}: tap targets under 44 px: {small[:5]}"
        check_named_rules(page, name)


@pytest.fixture
def players(live_site, browser, django_user_model):
    # bob's long name must wrap, never widen the page
    usernames = {"alice": "alice", "bob": "bartholomew_the_long_named_hiker", "charlie": "charlie"}
    pages = {}
    for key, name in usernames.items():
        pages[key] = browser.new_context(viewport={"width": PHONE, "height": 844}).new_page()
        sign_up(pages[key], live_site, name)
    users = [django_user_model.objects.get(username=usernames[k]) for k in ("alice", "bob")]
    return pages, users


def test_a_seat_a_spectator_and_the_replay_fit_a_phone_at_start_mid_game_and_end(live_site, players, start_game):
    pages, users = players
    game = start_game(SLUG, users, seed=11)
    placer = pages[["alice", "bob"][get_rules(SLUG).to_act(game.state)[0]]]
    url = f"{live_site}/play/{game.pk}/"
    placer.goto(url)
    # Placing the guide: every region's squares are controls, named for it.
    expect(placer.locator(".np-sec.legal-region").first).to_be_visible()
    names = [c["name"] for c in placer.evaluate(NAMES)]
    assert any(n.startswith("Place the guide in region 1 (section 11: ") for n in names), names[:3]
    check_both_phones(placer, "np-start-seat")
    at_width(placer, DESKTOP)
    check_page(placer, "np-start-seat")

    play_moves(game, users, 40)
    for who, label in (("alice", "np-mid-seat"), ("charlie", "np-mid-spectator")):
        pages[who].goto(url)
        check_both_phones(pages[who], label)
    actor = pages[["alice", "bob"][get_rules(SLUG).to_act(game.state)[0]]]
    actor.goto(url)
    check_both_phones(actor, "np-mid-actor")
    at_width(actor, DESKTOP)
    check_page(actor, "np-mid-actor")

    play_moves(game, users)
    for who, label in (("alice", "np-end-seat"), ("charlie", "np-end-spectator")):
        pages[who].goto(url)
        expect(pages[who].locator(".np-end")).to_be_visible()
        check_both_phones(pages[who], label)
    at_width(pages["alice"], DESKTOP)
    check_page(pages["alice"], "np-end-seat")
    replay = pages["charlie"]
    for step in (3, 40):
        replay.goto(f"{url}replay/?step={step}")
        check_both_phones(replay, f"np-replay-{step}")
    at_width(replay, DESKTOP)
    check_page(replay, "np-replay-40")


def test_a_phone_opens_the_mountain_on_the_guides_window_and_the_other_windows_switch(live_site, players, start_game):
    from games.models import Game
    from games.nanga_parbat.tests.helpers import animal, held, position

    pages, users = players
    game = start_game(SLUG, users, seed=3)
    Game.objects.filter(pk=game.pk).update(state=position(
        phase="trap", current=0, guide=6, board={62: animal("yak")}, seats={0: {"animals": held("tahr")}}))
    page = pages["alice"]
    at_width(page, SMALL_PHONE)
    page.goto(f"{live_site}/play/{game.pk}/")
    expect(page.locator('input[name=np-view][value=right]')).to_be_checked()
    trap = page.get_by_role("button", name="Trap the yak in section 62")
    expect(trap).to_be_visible()
    # Region 1 is outside this window: its squares are hidden, so no focus goes there.
    expect(page.locator('.np-sec[data-section="11"]')).to_be_hidden()
    page.get_by_label("Regions 1, 2, 3 (top)").check()
    expect(page.locator('.np-sec[data-section="11"]')).to_be_visible()
    expect(trap).to_be_hidden()
    page.get_by_label("Whole mountain").check()
    expect(trap).to_be_visible()
    # The keyboard: focus the trap, Enter, and focus lands on End turn, after both swaps.
    page.get_by_label("Regions 3, 5, 6 (lower right)").check()
    trap.focus()
    page.keyboard.press("Enter")
    expect(page.locator('.np-sec[data-section="62"]')).to_have_attribute("data-piece", "hiker", timeout=10_000)
    expect(page.locator(".np-end-turn")).to_be_focused(timeout=5_000)
    # The sidebar's seat colours are the board's.
    colours = page.evaluate("""() => [0, 1].map(
        (i) => getComputedStyle(document.body).getPropertyValue('--seat' + i).trim())""")
    assert colours == ["#e8891c", "#3c9a48"]


def test_the_how_to_play_page_fits_a_phone_and_a_desktop(live_site, browser):
    page = browser.new_context().new_page()
    page.goto(f"{live_site}/games/nanga-parbat/how-to-play/")
    expect(page.locator("#turn svg.np-howto-svg")).to_be_visible()
    for width in (SMALL_PHONE, PHONE, DESKTOP):
        at_width(page, width)
        page.wait_for_timeout(50)
        check_page(page, "np-how-to-play")


def test_a_power_and_a_claim_picked_step_by_step_on_a_phone_keep_names_and_sizes(live_site, players, start_game):
    from games.models import Game
    from games.nanga_parbat.tests.helpers import animal, held, hiker, position

    pages, users = players
    game = start_game(SLUG, users, seed=3)
    Game.objects.filter(pk=game.pk).update(state=position(
        phase="act", current=0, guide=2,
        board={21: hiker(0), 22: hiker(0), 14: hiker(0), 23: animal("yak"), 15: animal("tahr")},
        seats={0: {"animals": held("tahr", "yak", "red_panda", "red_panda", "bharal"), "hikers": 12}}))
    page = pages["alice"]
    at_width(page, PHONE)
    page.goto(f"{live_site}/play/{game.pk}/")
    page.get_by_role("button", name="Use your tahr: exchange a hiker with a neighbouring animal").click()
    expect(page.locator(".np-mode-text")).to_contain_text("Tahr")
    check_both_phones(page, "np-tahr-mode")
    page.get_by_role("button", name="Pick the hiker of alice in section 21").click()
    expect(page.get_by_role("button", name="Pick the yak in section 23")).to_be_visible()
    check_both_phones(page, "np-tahr-picked")
    page.keyboard.press("Escape")
    expect(page.locator(".np-mode-text")).to_have_count(0)
    page.get_by_role("button", name="Claim the 4-point same-animals spot (3 needed)").click()
    page.get_by_role("button", name="Add your red panda to the trade").first.click()
    expect(page.locator(".np-counter")).to_contain_text("1 / 3")
    check_both_phones(page, "np-claim-mode")
    at_width(page, DESKTOP)
    check_page(page, "np-claim-mode")
    check_named_rules(page, "np-claim-mode")
