"""Issue 19, build 6: Alpine Trails played to its end by clicking highlighted targets, as a new
player would (half the clicks at 390 px, the rest at 1366), against a bot (the rules' only
length); then the finished page and its replay (screenshots under test-artifacts/)."""
from __future__ import annotations

import pytest

from tests.browser.boards import check_finished, play_by_clicking, signed_in
from tests.browser.checks import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]

SLUG = "alpine-trails"
# What a player clicks, most wanted first (a square or piece that completes a move first).
PREFER = (".at-main .hl.sel-target", ".at-board .at-tile:not([aria-pressed=true])", ".at-board .at-animal",
          ".at-board button.button[hx-post]")


def test_a_game_clicked_to_its_end(live_site, start_game, alice, browser):
    game = start_game(SLUG, [alice, None], seed=3)
    page = signed_in(browser, live_site, alice)
    page.goto(f"{live_site}/play/{game.pk}/")
    seen = play_by_clicking(page, game, PREFER)
    assert seen.clicks[PHONE] >= seen.clicks[DESKTOP] and not seen.problems, seen.problems
    assert not (problems := check_finished(page, live_site, game, SLUG)), problems
