"""Issue 19, build 6: Roll to the Top played to its end by clicking, as a new player would
(half the clicks at 390 px, the rest at 1366), against a bot, on the shortest game (the
20-turn cap); then the finished page and its replay (screenshots under test-artifacts/)."""
from __future__ import annotations

import pytest

from games import rules

from tests.browser.boards import check_finished, play_by_clicking, signed_in
from tests.browser.checks import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]

SLUG = "roll-to-the-top"
# A box the picked dice fit, else a die to pick, else the end of the turn; the action die's
# buttons when the player resolves it. Never "Undo last number" or "Start over".
PREFER = (".main-sheet .box.legal", ".rtt .die.sel-target:not(.selected)", ".rtt .done-button",
          ".rtt button.button.small[hx-post]")


def test_a_game_clicked_to_its_end(live_site, start_game, alice, browser):
    options = {**rules.get(SLUG).default_options(), "board": "twin_peaks", "max_turns": 20}
    game = start_game(SLUG, [alice, None], options=options, seed=3)
    page = signed_in(browser, live_site, alice)
    page.goto(f"{live_site}/play/{game.pk}/")
    seen = play_by_clicking(page, game, PREFER)
    assert seen.clicks[PHONE] >= seen.clicks[DESKTOP] and not seen.problems, seen.problems
    assert not (problems := check_finished(page, live_site, game, SLUG)), problems
