"""Issue 19, build 4 (rows 5, 6 and 12): at 390 px a board fits its frame. Roll to the
Top's sheet ran over its card to the screen's edges, Alpine Trails' final map was 576 px
wide in a frame scrolled to its empty left, Rifugio's map box clipped a hex at the start
and scrolled its final map. The play-through tests (games/*/tests/test_play_through.py)
check every board at start, middle and end; these are the pages the rows name."""
from __future__ import annotations

import pytest

from tests.browser.boards import advance, board_overflow, settled, signed_in
from tests.browser.checks import PHONE, at_width

pytestmark = [pytest.mark.browser]


@pytest.fixture
def pages(live_site, start_game, alice):
    at_end = advance(start_game("alpine-trails", [alice, None], seed=3), alice, 600)
    rifugio_end = advance(start_game("rifugio", [alice, None], seed=3), alice, 600)
    assert not at_end.is_active and not rifugio_end.is_active
    return {
        "roll-to-the-top start": f"/play/{start_game('roll-to-the-top', [alice, None], seed=3).pk}/",
        "rifugio start": f"/play/{start_game('rifugio', [alice, None], seed=3).pk}/",
        "alpine-trails end": f"/play/{at_end.pk}/",
        "alpine-trails replay": f"/play/{at_end.pk}/replay/",
        "rifugio end": f"/play/{rifugio_end.pk}/",
        "rifugio replay": f"/play/{rifugio_end.pk}/replay/",
    }


def test_each_board_fits_its_frame_at_390(live_site, pages, alice, browser):
    page = signed_in(browser, live_site, alice)
    at_width(page, PHONE)
    problems = []
    for name, url in pages.items():
        page.goto(live_site + url)
        settled(page)
        problems += [f"{name}: {p}" for p in board_overflow(page)]
    assert not problems, "\n".join(problems)


@pytest.fixture
def long_named(make_user):
    """A player whose name is as long as the site allows (150 characters, no spaces)."""
    return make_user("L" * 75 + "o" * 75)


def test_a_150_character_name_breaks_no_game_page_at_390(live_site, start_game, long_named, browser):
    """Issue 19, row 11: Rifugio's heading was 1,933 px wide at 390, Rift Valley's seat strip
    1,500 px, Alpine Trails' status line 1,310 px."""
    from games import rules
    from tests.browser.checks import overflow_report

    urls = {slug: f"/play/{start_game(slug, [long_named, None], seed=3).pk}/" for slug in rules.slugs()}
    page = signed_in(browser, live_site, long_named)
    at_width(page, PHONE)
    problems = []
    for slug, url in urls.items():
        page.goto(live_site + url)
        settled(page)
        problems += [f"{slug}: {p}" for p in [overflow_report(page)] + board_overflow(page) if p]
    assert not problems, "\n".join(problems)
