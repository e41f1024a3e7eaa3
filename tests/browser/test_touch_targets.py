"""Touch targets and axe on a 390 px phone (issue 22, build 6; WCAG 2.2 AA 2.5.8).

A signed-in player visits the site's pages: the lobby, a table, a correspondence game of
each of the five games in the middle of play (with its chat), a replay, a profile, the
settings, the notification settings, the inbox (with lines in it), players, challenges,
tournaments, help and a how-to; a visitor the log-in and sign-up pages.

- **Every** visible interactive element (a, button, input, select, textarea, summary,
  [role=button], [tabindex]) is at least 24 × 24 CSS px, or meets 2.5.8's spacing
  exception: a 24 px circle on its centre meets no other target nor another small
  target's circle (as tests.browser.boards.small_targets counts on boards).
  2.5.8's "inline" exception, detected here: a link drawn as an inline box (display:
  inline) whose block container is a paragraph-like block (p, dd, blockquote, figcaption,
  caption, legend) that also holds words of its own outside any interactive element (a
  text node with two letters or more) sits in a sentence, and its height is the line's.
  A link alone or with a few words in a list item or table cell (the lobby's game links)
  is no sentence and is measured.
- The **main actions** are 44 px tall on a phone: the header's links, buttons and language
  menu, every button of the page's main part (submit buttons, the chat's Send, a board's
  move, confirm and undo buttons; not those drawn inside an SVG map) and `.button` links.
  Not counted as main actions, and held to 24 px only: buttons styled as links (`.link`:
  "report", "mute" in the chat) and the chat's quick-phrase chips.
- axe-core finds nothing critical or serious, in the light and the dark theme.
"""
from __future__ import annotations

import random

import pytest

from tests.browser.checks import PHONE, SCREENSHOTS, at_width, axe_violations, describe_violations, screenshot
from tests.fixtures import client_for

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]

SLUGS = ["alpine-trails", "nanga-parbat", "rift-valley-reserve", "rifugio", "roll-to-the-top"]
PLAYER, OPPONENT = "trail_runner", "ridge_walker"

# The measurement (run in the page): offenders as "what: W×H (why)" lines.
_MEASURE = """() => {
  const SELECTOR = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], '
                 + '[tabindex]:not([tabindex="-1"])';
  const MAIN = '.topbar a, .topbar button, .topbar select, main button:not(.link):not(.chip), '
             + 'main input[type=submit], main a.button';
  const LETTERS = /\\p{L}{2,}/u;
  const PROSE = 'p, dd, blockquote, figcaption, caption, legend';  // the blocks that hold sentences
  const visible = el => {
    if (!el.getClientRects().length) return false;
    const s = getComputedStyle(el), r = el.getBoundingClientRect();
    if (s.visibility === 'hidden' || Number(s.opacity) === 0) return false;
    return r.width > 1 && r.height > 1;   // a visually-hidden element (1 px, clipped) is no target
  };
  const isInteractive = el => el.matches(SELECTOR);
  const blockOf = el => {
    let p = el.parentElement;
    while (p && getComputedStyle(p).display.startsWith('inline')) p = p.parentElement;
    return p;
  };
  // 2.5.8's inline exception: a link in a sentence (running text around it in its block).
  const inline = el => {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    const block = blockOf(el);
    if (!block || !block.matches(PROSE)) return false;
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!LETTERS.test(node.data)) continue;
      const parent = node.parentElement;
      if (parent.closest(SELECTOR) || parent.closest('.visually-hidden')) continue;
      const textBlock = getComputedStyle(parent).display.startsWith('inline') ? blockOf(parent) : parent;
      if (textBlock === block) return true;
    }
    return false;
  };
  const name = el => {
    const cls = (el.className && (el.className.baseVal ?? el.className)).toString().trim();
    const label = (el.getAttribute('aria-label') || el.value || el.textContent || '').trim().replace(/\\s+/g, ' ');
    return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls ? '.' + cls.split(/\\s+/).join('.') : ''}`
           + (label ? ` "${label.slice(0, 30)}"` : '');
  };
  const els = [...document.querySelectorAll(SELECTOR)].filter(visible);
  // A control inside another counted control (an input inside a label-button, an SVG
  // group inside a button) is the same target: keep the outermost.
  const targets = els.filter(el => !els.some(o => o !== el && o.contains(el)));
  const boxes = targets.map(e => e.getBoundingClientRect());
  const small = boxes.map(r => r.width < 23.5 || r.height < 23.5);
  const centre = r => [r.left + r.width / 2, r.top + r.height / 2];
  const meets = (c, r) => {
    const dx = Math.max(r.left - c[0], 0, c[0] - r.right), dy = Math.max(r.top - c[1], 0, c[1] - r.bottom);
    return dx * dx + dy * dy < 144 - 0.5;
  };
  const out = {small: [], main: [], counted: targets.length, inline: 0, inlineNames: []};
  targets.forEach((el, i) => {
    const r = boxes[i], size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    if (small[i]) {
      if (inline(el)) { out.inline += 1; out.inlineNames.push(`${name(el)} ${size}`); return; }
      const c = centre(r);
      const crowded = targets.some((o, j) => j !== i && (small[j]
        ? Math.hypot(c[0] - centre(boxes[j])[0], c[1] - centre(boxes[j])[1]) < 24 - 0.5
        : meets(c, boxes[j])));
      if (crowded) out.small.push(`${name(el)} ${size}`);
    }
    if (el.matches(MAIN) && !el.closest('svg, .board svg') && r.height < 43.5) out.main.push(`${name(el)} ${size}`);
  });
  return out;
}"""


def measure(page) -> dict:
    """{'small': [...], 'main': [...], 'counted': n, 'inline': n, 'inlineNames': [...]} for the page as it is."""
    return page.evaluate(_MEASURE)


def _play(game, users: dict, moves: int):
    """Each seat the game waits for plays a bot-chosen move, `moves` times."""
    from games import engine, rules

    bot, rng = rules.bot_for(game.game_slug), random.Random(7)
    for _ in range(moves):
        game.refresh_from_db()
        if not game.is_active:
            break
        for seat in game.to_act():
            game.refresh_from_db()
            if game.is_active and seat in game.to_act():
                engine.submit(game.pk, users[seat], bot.choose(game.state, seat, rng))
    game.refresh_from_db()
    return game


@pytest.fixture
def phone_pages(transactional_db) -> dict:
    """The player, their pages (name, path) and the visitor's pages; built before the
    browser starts (Playwright's event loop would stop the engine's notifier)."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import User
    from games import engine
    from games import rules as registry
    from games.engine import SeatPlan
    from lobby.models import Table
    from notifications.models import Notification
    from social import services
    from tests.accounts.test_rated_games import finish
    from tournaments.models import Tournament

    player = User.objects.create_user(PLAYER, f"{PLAYER}@example.com", "summit-path-42")
    opponent = User.objects.create_user(OPPONENT, f"{OPPONENT}@example.com", "summit-path-42")
    users = {0: player, 1: opponent}
    pages = [("lobby", "/")]
    for slug in SLUGS:
        game = engine.start_game(slug, [SeatPlan(user=player), SeatPlan(user=opponent)],
                                 registry.get(slug).default_options(), seed=11, shuffle=False,
                                 pace="correspondence", days_per_move=3)
        _play(game, users, 6)
        assert game.is_active, slug
        pages.append((f"game-{slug}", f"/play/{game.pk}/"))
    done = engine.start_game("roll-to-the-top", [SeatPlan(user=player), SeatPlan(user=opponent)],
                             registry.get("roll-to-the-top").default_options(), seed=3, shuffle=False)
    finish(done, users)
    table = Table.objects.create(game_slug="rifugio", host=player, seats_count=3, options={}, is_private=True)
    table.seats.create(user=player, position=0)
    Notification.objects.create(user=player, kind="rematch", text=f"{OPPONENT} offered a rematch.",
                                url=f"/play/{done.pk}/", game=done)
    Notification.objects.create(user=player, kind="table", text="Your table expired.", url="/", read=True)
    services.follow(player, opponent)
    services.create_challenge(opponent, [player], {"game_slug": "roll-to-the-top", "options": {}, "seats": 2,
                                                   "pace": "live", "rated": True, "days_per_move": None,
                                                   "clock_minutes": 10, "clock_increment": 5})
    Tournament.objects.create(name="Autumn Swiss", organiser=player, game_slug="rifugio", pace="correspondence",
                              days_per_move=3, starts_at=timezone.now() + timedelta(days=1))
    pages += [
        ("table", f"/tables/{table.pk}/"), ("result", f"/play/{done.pk}/"),
        ("replay", f"/play/{done.pk}/replay/?step=3"), ("profile", f"/accounts/u/{PLAYER}/"),
        ("settings", "/accounts/settings/"), ("notification-settings", "/notifications/settings/"),
        ("inbox", "/notifications/"), ("players", "/players/?q=ri"), ("challenges", "/challenges/"),
        ("tournaments", "/tournaments/"), ("help", "/help/"), ("how-to-play", "/games/rifugio/how-to-play/"),
        ("games", "/games/"), ("create-table", "/tables/new/"), ("my-games", "/me/games/"),
        ("leaderboard", "/accounts/leaderboard/"),
    ]
    return {"player": player, "pages": pages,
            "visitor": [("login", "/accounts/login/"), ("signup", "/accounts/signup/")]}


def _context(browser, live_site, user, scheme: str):
    context = browser.new_context(viewport={"width": PHONE, "height": 844}, color_scheme=scheme)
    if user is not None:
        context.add_cookies([{"name": "sessionid", "value": client_for(user).cookies["sessionid"].value,
                              "url": live_site}])
    return context


def _visit(browser, live_site, phone_pages, scheme: str, check) -> list[str]:
    failures = []
    for user, pages in ((phone_pages["player"], phone_pages["pages"]), (None, phone_pages["visitor"])):
        context = _context(browser, live_site, user, scheme)
        page = context.new_page()
        for name, path in pages:
            page.goto(live_site + path)
            page.wait_for_load_state("networkidle")
            at_width(page, PHONE)
            found = check(page, f"{name}-{scheme}")
            if found:
                failures.append(f"{name} ({path}):\n  " + "\n  ".join(found))
        context.close()
    return failures


def test_every_target_on_a_phone_is_24_px_and_the_main_actions_44(phone_pages, live_site, browser):
    counted: list[tuple[int, int]] = []
    exempt: list[str] = []  # the small links found inside running text, listed for a reviewer

    def targets(page, name):
        screenshot(page, f"targets-{name}")
        found = measure(page)
        counted.append((found["counted"], found["inline"]))
        exempt.extend(f"{name}: {line}" for line in found["inlineNames"])
        return [f"under 24 px: {line}" for line in found["small"]] + \
               [f"main action under 44 px: {line}" for line in found["main"]]

    failures = _visit(browser, live_site, phone_pages, "light", targets)
    pages = len(phone_pages["pages"]) + len(phone_pages["visitor"])
    assert len(counted) == pages and sum(n for n, _ in counted) > 20 * pages  # the pages had their controls
    report = f"{len(failures)} of {pages} pages:\n" + "\n".join(failures)
    offenders = sum(f.count("\n  ") for f in failures)
    (SCREENSHOTS.parent / "touch-targets.txt").write_text(
        f"{sum(n for n, _ in counted)} targets on {pages} pages at {PHONE} px, {sum(i for _, i in counted)} inline "
        f"links exempt, {offenders} offenders\n" + (report if failures else "")
        + "\ninline links (exempt):\n  " + "\n  ".join(exempt) + "\n")
    assert not failures, report


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_axe_violation_on_a_phone_in_either_theme(phone_pages, live_site, browser, scheme):
    def axe(page, name):
        assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == scheme
        violations = axe_violations(page)
        return [describe_violations(violations)] if violations else []

    failures = _visit(browser, live_site, phone_pages, scheme, axe)
    assert not failures, "\n".join(failures)


def test_a_flash_message_is_a_status_around_its_list(phone_pages, live_site, browser):
    """A page with a flash message (after marking the inbox read) has no `list` violation."""
    context = _context(browser, live_site, phone_pages["player"], "light")
    page = context.new_page()
    page.goto(live_site + "/accounts/settings/")
    page.locator("main form button[type=submit], main form button:not([type])").first.click()
    page.wait_for_load_state("networkidle")
    assert page.locator("[role=status] > ul.flash > li").count() >= 1, page.content()[:2000]
    violations = axe_violations(page)
    context.close()
    assert not violations, describe_violations(violations)
