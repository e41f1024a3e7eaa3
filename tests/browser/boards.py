"""Helpers the games' phone tests share: a board checked at every width with the
accessibility rules issue 13 names, a game moved on by its bot, a signed-in page."""
from __future__ import annotations

import random

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from games import engine, rules
from games.models import Game
from tests.browser.checks import DESKTOP, PHONE, SMALL_PHONE, check_widths
from tests.fixtures import client_for

ALL_WIDTHS = (SMALL_PHONE, PHONE, DESKTOP)
# Rules issue 13 names, some of them experimental in axe-core (not run by default).
BOARD_RULES = ["aria-prohibited-attr", "label-content-name-mismatch", "nested-interactive",
               "scrollable-region-focusable"]


def check_board(page, name: str, widths=ALL_WIDTHS) -> None:
    """check_widths (no overflow, no serious axe finding, screenshots), then the named
    rules on the board itself, whatever their impact."""
    check_widths(page, name, widths)
    found = Axe().run(page, context=".board", options={"runOnly": BOARD_RULES}).response["violations"]
    assert not found, [(v["id"], [n["html"][:120] for n in v["nodes"][:3]]) for v in found]


def advance(game: Game, user, moves: int) -> Game:
    """Seat 0 (user) plays `moves` bot-chosen moves; the bots answer as usual."""
    bot, rng = rules.bot_for(game.game_slug), random.Random(5)
    for _ in range(moves):
        game.refresh_from_db()
        if not game.is_active:
            break
        engine.submit(game.pk, user, bot.choose(game.state, 0, rng))
    game.refresh_from_db()
    return game


def signed_in(browser, live_site, user, width=PHONE):
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.add_cookies([{"name": "sessionid", "value": client_for(user).cookies["sessionid"].value,
                          "url": live_site}])
    return context.new_page()


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-settling, .htmx-added, .htmx-swapping")).to_have_count(0)


# Score tables that do not fit their box (issue 19): a table wider than its card, a box
# scrolling a table sideways, or a header cell whose words are cut.
_TABLE_OVERFLOW = """() => {
  const out = [];
  const name = el => el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className
    ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  for (const table of document.querySelectorAll('main table')) {
    if (!table.getClientRects().length) continue;            // inside a closed <details>
    const card = table.closest('.card, section, details') || table.parentElement;
    const t = table.getBoundingClientRect(), c = card.getBoundingClientRect();
    if (t.right > c.right + 1 || t.left < c.left - 1)
      out.push(`${name(table)} is ${Math.round(t.width)} px in a ${Math.round(c.width)} px ${name(card)}`);
    for (let p = table.parentElement; p && p !== card.parentElement; p = p.parentElement)
      if (p.scrollWidth > p.clientWidth + 1 && getComputedStyle(p).overflowX !== 'visible')
        out.push(`${name(p)} scrolls ${name(table)} sideways (${p.scrollWidth} > ${p.clientWidth} px)`);
    for (const th of table.querySelectorAll('tbody th, thead th')) {
      if (th.closest('thead') && th.querySelector('.name')) continue;   // a player's name may end in "…"
      if (th.scrollWidth > th.clientWidth + 1)
        out.push(`${name(table)} header "${th.textContent.trim()}" is cut (${th.scrollWidth} > ${th.clientWidth} px)`);
    }
  }
  return out;
}"""


def score_table_overflow(page) -> list[str]:
    """What sticks out of or is cut in the page's tables ([] when every column fits)."""
    return page.evaluate(_TABLE_OVERFLOW)
