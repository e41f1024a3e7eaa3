"""One board in each of the four languages on a 390 px phone (issue 23): a player who chose
the language sees Rifugio mid-game (its rulebook's own words) in it, its whole map fitting
the phone; a
screenshot of each goes to test-artifacts/screenshots/board-<language>-390.png."""
from __future__ import annotations

import pytest

from tests.browser.boards import board_overflow, score_table_overflow
from tests.browser.checks import PHONE, at_width, overflow_report, screenshot
from tests.fixtures import client_for

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]
WORDS = {"en": "Raft", "nl": "Raft", "de": "Floß", "it": "Zattera"}  # the rulebook's word in each


@pytest.fixture
def players_and_game(transactional_db, make_user):
    from games import engine
    from games.engine import SeatPlan

    players = {language: make_user(f"reader_{language}", language=language) for language in WORDS}
    game = engine.start_game("rifugio", [SeatPlan(user=players["en"]), SeatPlan(is_bot=True)],
                             {"rivers_and_rafts": True}, seed=5, shuffle=False)
    for _ in range(8):  # a few turns in: tiles, hikers and the history on the board
        game.refresh_from_db()
        if 0 not in game.to_act():
            break
        engine.submit(game.pk, players["en"], game.rules.legal_actions(game.state, 0)[0])
    return players, game


def test_one_board_in_every_language_fits_a_phone(players_and_game, live_site, browser):
    players, game = players_and_game
    failures = []
    for language, user in players.items():
        context = browser.new_context(viewport={"width": PHONE, "height": 844})
        context.add_cookies([{"name": "sessionid", "value": client_for(user).cookies["sessionid"].value,
                              "url": live_site}])
        page = context.new_page()
        page.goto(f"{live_site}/play/{game.pk}/")
        page.wait_for_load_state("networkidle")
        at_width(page, PHONE)
        assert page.evaluate("() => document.documentElement.lang") == language
        assert WORDS[language].lower() in page.content().lower(), language
        # On a phone Rifugio's map scrolls in its box by design; its "whole map" button
        # (in the reader's words) fits it to the box, and that is what must fit.
        page.locator(".rf-zoom").click()
        page.wait_for_function("() => document.querySelector('.rf-zoom').getAttribute('aria-pressed') === 'true'")
        problems = [p for p in [overflow_report(page), *score_table_overflow(page), *board_overflow(page)] if p]
        screenshot(page, f"board-{language}")
        if problems:
            failures.append(f"{language}: {'; '.join(problems)}")
        context.close()
    assert not failures, "\n".join(failures)
