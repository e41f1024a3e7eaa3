"""Helpers the games' phone tests share: a board checked at every width with the
accessibility rules issue 13 names, a game moved on by its bot, a signed-in page."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games import engine, rules
from games.models import Game
from tests.browser.checks import (DESKTOP, PHONE, SMALL_PHONE, at_width, check_widths, overflow_report,
                                  screenshot)
from tests.browser.live import watch_live_swaps
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
    return watch_live_swaps(context.new_page())


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


# Board targets under WCAG 2.2's 24 × 24 CSS px (2.5.8 Target Size, Minimum), unless
# spaced: a 24 px circle on the small target's centre meets no other target nor the
# circle of another small target. The hit area of an SVG group is its painted shapes, so a
# group's box is what a finger can reach.
TARGETS = ".board button:not([disabled]), .board a[href], .board [role=button], .board .sel-target, " \
          ".board [hx-post]:not(form), .board .clickable"
_SMALL_TARGETS = """(selector) => {
  const els = [...document.querySelectorAll(selector)].filter(e => e.getClientRects().length);
  const boxes = els.map(e => e.getBoundingClientRect());
  const small = boxes.map(r => r.width < 23.5 || r.height < 23.5);
  const centre = r => [r.left + r.width / 2, r.top + r.height / 2];
  const meets = (c, r) => {
    const dx = Math.max(r.left - c[0], 0, c[0] - r.right), dy = Math.max(r.top - c[1], 0, c[1] - r.bottom);
    return dx * dx + dy * dy < 144 - 0.5;
  };
  const out = [];
  els.forEach((el, i) => {
    if (!small[i]) return;
    const c = centre(boxes[i]);
    const crowded = els.some((other, j) => j !== i && !el.contains(other) && !other.contains(el) && (small[j]
      ? Math.hypot(c[0] - centre(boxes[j])[0], c[1] - centre(boxes[j])[1]) < 24 - 0.5
      : meets(c, boxes[j])));
    if (crowded) {
      const label = el.getAttribute('aria-label') || el.textContent.trim().slice(0, 40);
      out.push(`${el.tagName.toLowerCase()}.${(el.className.baseVal ?? el.className).trim().split(/\\s+/).join('.')}`
               + ` "${label}" ${Math.round(boxes[i].width)}x${Math.round(boxes[i].height)}`);
    }
  });
  return out;
}"""


def small_targets(page, selector: str = TARGETS) -> list[str]:
    """The page's board targets under 24 × 24 px without WCAG 2.2's spacing ([] when none)."""
    return page.evaluate(_SMALL_TARGETS, selector)


# What does not fit its frame on the board at this width (issue 19, build 4): a box on the
# board that scrolls or clips sideways, or anything reaching past the board's card. Words
# for screen readers only (1 px boxes), empty SVG defs and a window the player points at a
# part of the board (data-view-window: Nanga Parbat's mountain corners) are not overflow.
_BOARD_OVERFLOW = """() => {
  const out = [];
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ((el.className.baseVal ?? el.className)
    ? '.' + (el.className.baseVal ?? el.className).trim().split(/\\s+/).join('.') : '');
  for (const board of document.querySelectorAll('.board')) {
    const frame = board.getBoundingClientRect();
    for (const el of [board, ...board.querySelectorAll('*')]) {
      if (!el.getClientRects().length || el.closest('details:not([open])') && el.tagName !== 'SUMMARY') continue;
      const box = el.getBoundingClientRect();
      if (box.width <= 1 && box.height <= 1 || box.height < 1) continue;
      if (el.closest('[data-view-window]') || getComputedStyle(el).textOverflow === 'ellipsis') continue;
      const s = getComputedStyle(el);
      if (s.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'svg')
        out.push(`${name(el)} holds ${el.scrollWidth} px in ${el.clientWidth} px`);
      const r = el.getBoundingClientRect();
      if (r.width && (r.right > frame.right + 1 || r.left < frame.left - 1)) {
        let clipped = false;
        for (let p = el.parentElement; p && p !== board; p = p.parentElement)
          if (getComputedStyle(p).overflowX !== 'visible') { clipped = true; break; }
        const span = (a, b) => `${Math.round(a)}-${Math.round(b)} px`;
        if (!clipped) out.push(`${name(el)} spans ${span(r.left, r.right)}, the board ${span(frame.left, frame.right)}`)
      }
    }
  }
  return out.slice(0, 8);
}"""


def board_overflow(page) -> list[str]:
    """What sticks out of or scrolls inside the board's frame ([] when it all fits)."""
    return page.evaluate(_BOARD_OVERFLOW)


# --- Play-through (issue 19, build 6) -------------------------------------------------------
# A game played to its end by clicking highlighted targets, as a new player would: the
# game's test names what to click, most wanted first; the opponent is a bot, which answers
# inside each move's request. On the way and at the end the checks below must hold.

# Words a finished board must not say: what only a running game can ("Your move.", "Worth
# now: 1", "you are done automatically").
STALE = re.compile(r"your move|your turn|worth now|done automatically|\bmust (?:place|draw|choose)\b", re.I)
# A replay caption as describe_action wrote it: "Place: box [0, 0], dice ['d12']".
RAW_CAPTION = re.compile(r"[\[\]{}]|'\w+'|^\s*[A-Z][a-z ]+: [a-z_ ]+ [\w\-\[]")


BACKWARDS = re.compile(r"(Unpick|Cancel|Undo|Clear|Start over|Take back|Whole map)", re.I)


@dataclass
class PlayThrough:
    """What one play-through saw: clicks per width and the problems found on the way."""

    clicks: dict[int, int] = field(default_factory=lambda: {PHONE: 0, DESKTOP: 0})
    problems: list[str] = field(default_factory=list)


_missed: list[str] = []      # the last clicks that did not land, for a stuck play-through's message


def _click_first(page, prefer: tuple[str, ...]) -> str:
    """Click the first visible, enabled target of the most wanted kind; its name, or ''."""
    for selector in prefer:
        found = page.locator(selector).locator("visible=true")
        for i in range(min(found.count(), 12)):
            target = found.nth(i)
            if not target.is_enabled():
                continue
            name = target.get_attribute("aria-label") or target.inner_text()[:40]
            if BACKWARDS.match(name.strip()):
                continue            # a player moving the game on never takes a pick back
            try:
                target.click(timeout=3_000)
            except PlaywrightError as exc:
                _missed.append(f"{selector} {name!r}: {str(exc).splitlines()[-1][:160]}")
                continue            # covered by another piece: try the next one
            settled(page)
            return f"{selector} {name!r}"
    return ""


def _what_is_there(page) -> str:
    """The status line and the board's clickable things, for a play-through that is stuck."""
    found = page.evaluate("""() => [...document.querySelectorAll(
        '.board [hx-post], .board [hx-get], .board button, .board [role=button]')]
      .filter(e => e.getClientRects().length)
      .map(e => `${e.tagName.toLowerCase()}.${(e.className.baseVal ?? e.className).trim().replace(/\\s+/g, '.')}`
                + ` "${(e.getAttribute('aria-label') || e.textContent).trim().slice(0, 40)}"`)""")
    return (page.locator(".status-line").inner_text() + "\n  " + "\n  ".join(found[:12])
            + "\nclicks that missed:\n  " + "\n  ".join(_missed[-4:]))


def _checks_here(page, where: str) -> list[str]:
    problems = [overflow_report(page)] + score_table_overflow(page) + small_targets(page)
    return [f"{where}: {p}" for p in problems if p]


def play_by_clicking(page, game: Game, prefer: tuple[str, ...], *, switch_every: int = 8,
                     max_clicks: int = 400) -> PlayThrough:
    """Click targets until the game is over: `switch_every` clicks at 390 px, as many at
    1366, and so on (390 first, so it gets at least half). Checks the page every few clicks."""
    seen = PlayThrough()
    page.on("dialog", lambda dialog: dialog.accept())     # "A number still fits…": done anyway
    version, idle, last = game.version, 0, []
    for n in range(max_clicks):
        width = PHONE if (n // switch_every) % 2 == 0 else DESKTOP
        if page.viewport_size["width"] != width:
            at_width(page, width)
        clicked = _click_first(page, prefer)
        assert clicked, f"nothing to click after {n} clicks at {width} px: {_what_is_there(page)}"
        seen.clicks[width] += 1
        last = (last + [clicked])[-6:]
        now = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        version, idle = now, 0 if now != version else idle + 1
        assert idle < 15, f"15 clicks without a move; the last: {last}\n{_what_is_there(page)}"
        if n % 5 == 0:
            seen.problems += _checks_here(page, f"click {n} at {width} px ({clicked})")
        if not Game.objects.filter(pk=game.pk, status=Game.Status.ACTIVE).exists():
            return seen
    raise AssertionError(f"the game is not over after {max_clicks} clicks")


def check_finished(page, live_site: str, game: Game, name: str) -> list[str]:
    """The finished page and its replay at 390 px (screenshots for the issue's resolve
    note), then the checks: no overflow, no stale text, captions in sentences, the result
    on screen equal to the record's."""
    game.refresh_from_db()
    at_width(page, PHONE)
    page.goto(f"{live_site}/play/{game.pk}/")
    settled(page)
    screenshot(page, f"play-through-{name}-finished")
    problems = _checks_here(page, "finished page") + [f"finished page: {p}" for p in board_overflow(page)]
    for text in page.locator(".board, .status-line").all_inner_texts():
        problems += [f"finished page says {m.group(0)!r}" for m in STALE.finditer(text)]
    record = page.request.get(f"{live_site}/play/{game.pk}/record.json").json()
    totals = [row["total"] for row in record["result"]["scores"]]
    shown = [int(v) for v in page.locator(".side-col .score-card tr.total td").all_inner_texts()]
    by_rank = sorted(range(len(totals)), key=lambda s: (record["result"]["ranking"][s], s))
    if shown != [totals[s] for s in by_rank]:
        problems.append(f"score card totals {shown} differ from the record's {totals} (ranks {by_rank})")
    if record["result"]["ranking"] != game.rules.ranking(game.state):
        problems.append("the record's ranking differs from the game's")
    page.goto(f"{live_site}/play/{game.pk}/replay/")
    settled(page)
    screenshot(page, f"play-through-{name}-replay")
    problems += _checks_here(page, "replay") + [f"replay: {p}" for p in board_overflow(page)]
    for _ in range(4):
        caption = page.locator(".replay-move").inner_text()
        if RAW_CAPTION.search(caption):
            problems.append(f"raw replay caption: {caption!r}")
        page.locator("[data-replay-prev]").click()
        settled(page)
    return problems
