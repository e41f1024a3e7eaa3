"""The pages of issue 24 (players, challenges, play now, tournaments) under the same checks
as every site page (tests/browser/test_site_pages.py): they fit phone and desktop widths
with a 150-character name on them and pass axe."""
from __future__ import annotations

from datetime import timedelta

import pytest

from .checks import DESKTOP, PHONE
from .test_site_pages import LONG_NAME, SLUG, _log_in, _visit_all, long_named_player  # noqa: F401

pytestmark = [pytest.mark.browser]


@pytest.fixture
def social_pages(long_named_player) -> list[tuple[str, str]]:  # noqa: F811
    from django.utils import timezone

    from accounts.models import User
    from social import services
    from tournaments import services as tournaments
    from tournaments.models import Tournament

    long, alice = User.objects.get(username=LONG_NAME), User.objects.get(username="alice")
    services.follow(long, alice)
    services.create_challenge(alice, [long], {"game_slug": SLUG, "options": {}, "seats": 3, "pace": "live",
                                              "rated": True, "days_per_move": None, "clock_minutes": 10,
                                              "clock_increment": 5})
    swiss = Tournament.objects.create(name="Autumn Swiss " + "x" * 60, organiser=long, game_slug=SLUG,
                                      pace="correspondence", days_per_move=3,
                                      starts_at=timezone.now() + timedelta(days=1))
    arena = Tournament.objects.create(name="Arena", organiser=alice, game_slug=SLUG, format="arena", pace="live",
                                      clock_minutes=3, starts_at=timezone.now(),
                                      ends_at=timezone.now() + timedelta(hours=1), status="running")
    for user in (long, alice):
        tournaments.sign_up(swiss, user)
        tournaments.sign_up(arena, user)
    return [("players", "/players/?q=tr"), ("challenges", "/challenges/"),
            ("new-challenge", f"/challenges/new/?game={long_named_player['game']}"), ("play-now", "/play-now/"),
            ("blocked", "/blocked/"), ("tournaments", "/tournaments/"), ("new-tournament", "/tournaments/new/"),
            ("swiss", f"/tournaments/{swiss.pk}/"), ("arena", f"/tournaments/{arena.pk}/"),
            ("profile-of-alice", "/accounts/u/alice/"), ("lobby-with-friends", "/")]


def test_the_social_pages_fit_and_pass_axe(social_pages, live_site, browser):
    page = browser.new_page()
    _log_in(page, live_site)
    failures = _visit_all(page, live_site, social_pages, (PHONE, DESKTOP))
    assert not failures, "\n\n".join(failures)
