"""Issue 19, row 3: on a finished game's page and its replay, at 390 and 1366 px, every
score table shows every column and header without a sideways scroll, and the totals add
up on screen."""
from __future__ import annotations

import pytest

from games import rules
from tests.browser.boards import advance, score_table_overflow, settled, signed_in
from tests.browser.checks import DESKTOP, PHONE, at_width

pytestmark = [pytest.mark.browser]


@pytest.fixture
def finished(live_site, start_game, alice):
    """A finished two-player game (alice against a bot) of every title, made before the
    browser starts."""
    games = {slug: advance(start_game(slug, [alice, None], seed=3), alice, 600) for slug in rules.slugs()}
    assert not any(game.is_active for game in games.values())
    return games


def card_sums(page) -> list[str]:
    """Player columns of the side score card whose parts above the Total row do not add up to it."""
    return page.evaluate("""() => {
      const table = document.querySelector('.side-col .score-card'); if (!table) return ['no score card'];
      const rows = [...table.querySelectorAll('tbody tr')];
      const total = rows.findIndex(r => r.classList.contains('total'));
      const out = [];
      for (let col = 1; col <= rows[total].cells.length - 1; col++) {
        const sum = rows.slice(0, total).reduce((s, r) => s + Number(r.cells[col].textContent), 0);
        if (sum !== Number(rows[total].cells[col].textContent)) out.push(`column ${col}: ${sum} != total`);
      }
      return out;
    }""")


def test_every_score_table_fits_at_390_and_1366(live_site, finished, alice, browser):
    page = signed_in(browser, live_site, alice)
    problems = []
    for slug, game in finished.items():
        for url in (f"/play/{game.pk}/", f"/play/{game.pk}/replay/"):
            for width in (PHONE, DESKTOP):
                at_width(page, width)
                page.goto(live_site + url)
                settled(page)
                problems += [f"{slug} {url} at {width}: {p}" for p in score_table_overflow(page) + card_sums(page)]
    assert not problems, "\n".join(problems)
