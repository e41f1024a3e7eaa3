"""The dark theme (the system's setting, or the player's switch) keeps every page
readable: no serious axe-core violation on the site's pages, the inbox, the settings
and a board, in dark and in light."""
from __future__ import annotations

import pytest

from tests.browser.checks import axe_violations, describe_violations
from tests.browser.fixtures import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]
PAGES = ["/", "/games/", "/notifications/", "/notifications/settings/", "/accounts/settings/"]


@pytest.mark.parametrize("system, switch, scheme", [
    ("dark", "auto", "dark"),  # follows the system
    ("light", "auto", "light"),
    ("light", "dark", "dark"),  # the player's switch wins
])
def test_pages_and_a_board_pass_axe_in_both_themes(live_site, browser, system, switch, scheme):
    from accounts.models import User
    from games import engine
    from games.engine import SeatPlan
    from notifications.models import Preferences

    context = browser.new_context(color_scheme=system)
    page = context.new_page()
    sign_up(page, live_site, f"theme_{system}_{switch}")
    user = User.objects.get(username=f"theme_{system}_{switch}")
    Preferences.objects.create(user=user, theme=switch)
    game = engine.start_game("nanga-parbat", [SeatPlan(user=user), SeatPlan(is_bot=True)], {}, shuffle=False)
    problems = []
    for path in [*PAGES, f"/play/{game.pk}/"]:
        page.goto(live_site + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == scheme
        violations = axe_violations(page)
        if violations:
            problems.append(f"{path}:\n{describe_violations(violations)}")
    context.close()
    assert not problems, "\n".join(problems)
