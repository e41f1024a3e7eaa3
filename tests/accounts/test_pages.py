"""Player pages: the profile and the leaderboard, with query counts that do not grow."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Rating

from .helpers import finished_game

# The header's notification bell reads the unread count and the player's notification
# choices, the profile's social actions the follows and the reliability counts: constant too.
PROFILE_QUERIES = 19
LEADERBOARD_QUERIES = 9


def play_history(games, alice, bob, charlie):
    start = timezone.now() - timedelta(days=2)
    for i in range(games):
        users = [alice, bob] if i % 3 else [alice, bob, charlie]
        ranks = [1 + i % 2, 2 - i % 2] if i % 3 else [2, 1, 3]
        finished_game(users, ranks, finished_at=start + timedelta(minutes=i), rated=i % 5 != 4)


@pytest.mark.django_db
@pytest.mark.parametrize("games", [5, 500])
def test_the_profile_takes_the_same_queries_whatever_the_number_of_games(
        games, alice, bob, charlie, alice_client, start_game, django_assert_max_num_queries):
    play_history(games, alice, bob, charlie)
    start_game("rifugio", [alice, bob])
    with django_assert_max_num_queries(PROFILE_QUERIES):
        response = alice_client.get("/accounts/u/alice/")
    assert response.status_code == 200
    assert "<polyline" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("games", [5, 500])
def test_the_leaderboard_takes_the_same_queries_whatever_the_number_of_games(
        games, alice, bob, charlie, alice_client, django_assert_max_num_queries):
    play_history(games, alice, bob, charlie)
    with django_assert_max_num_queries(LEADERBOARD_QUERIES):
        response = alice_client.get("/accounts/leaderboard/roll-to-the-top/")
    assert response.status_code == 200


def steady(user, ordinal, slug="roll-to-the-top"):
    return Rating.objects.create(user=user, game_slug=slug, mu=ordinal + 9, sigma=3.0, ordinal=ordinal,
                                 games_played=20, last_played=timezone.now(),
                                 steady_until=timezone.now() + timedelta(days=30))


@pytest.mark.django_db
def test_the_leaderboard_lists_steady_ratings_and_shows_my_position(alice, bob, charlie, make_user, client):
    from tests.fixtures import client_for

    steady(alice, 10.0)
    steady(bob, 20.0)
    Rating.objects.create(user=charlie, game_slug="roll-to-the-top", mu=40, sigma=8, ordinal=16)
    page = client_for(alice).get("/accounts/leaderboard/roll-to-the-top/")
    html = page.content.decode()
    assert [r.user.username for r in page.context["page"]] == ["bob", "alice"]
    assert "charlie" not in html, "provisional ratings stay off the leaderboard"
    assert "You are <strong>#2</strong>" in html
    html = client_for(charlie).get("/accounts/leaderboard/roll-to-the-top/").content.decode()
    assert "is provisional" in html and "1640?" in html


@pytest.mark.django_db
def test_the_leaderboard_is_paginated(make_user, client):
    for i in range(55):
        steady(make_user(f"hiker{i:02}"), float(i))
    first = client.get("/accounts/leaderboard/roll-to-the-top/")
    assert len(first.context["page"]) == 50 and first.context["page"].has_next()
    second = client.get("/accounts/leaderboard/roll-to-the-top/?page=2").content.decode()
    assert "hiker04" in second and "<td>51</td>" in second


@pytest.mark.django_db
def test_the_profile_explains_each_rated_result_and_counts_head_to_head(alice, bob, charlie, client):
    finished_game([alice, bob], [1, 2])
    finished_game([alice, bob, charlie], [2, 1, 3])
    finished_game([alice, charlie], [1, 2], rated=False)
    response = client.get("/accounts/u/alice/")
    html = response.content.decode()
    assert "1st of 2; table average 1000; you were expected" in html
    rivals = {r["user__username"]: (r["games"], r["wins"], r["losses"]) for r in response.context["rivals"]}
    assert rivals == {"bob": (2, 1, 1), "charlie": (2, 2, 0)}
    [standing] = response.context["standings"]
    assert (standing.played, standing.won, standing.average_rank) == (3, 2, pytest.approx(4 / 3))
    assert standing.rating.display_label.endswith("?")


@pytest.mark.django_db
def test_the_profile_is_kept_between_visits_and_drawn_again_when_a_game_or_a_rating_changes(
        alice, bob, charlie, alice_client, start_game, django_assert_max_num_queries):
    """Issue 21: a repeat visit reads the player with their stamp and draws only the reader's
    buttons; a new game, a move, a result with its rating each show on the next visit."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import engine

    def unmasked(page: str) -> str:   # the CSRF token is masked afresh on every page
        return re.sub(r"[A-Za-z0-9]{64}", "T", page)

    play_history(5, alice, bob, charlie)
    first = alice_client.get("/accounts/u/alice/").content.decode()
    with CaptureQueriesContext(connection) as repeat:
        assert unmasked(alice_client.get("/accounts/u/alice/").content.decode()) == unmasked(first)
    assert len(repeat.captured_queries) <= PROFILE_QUERIES - 8   # none of the lists, counts or charts

    game = start_game("rifugio", [alice, bob])
    assert f"#{game.pk}<" in alice_client.get("/accounts/u/alice/").content.decode()  # a current game
    engine.resign(game.pk, bob)
    page = alice_client.get("/accounts/u/alice/").content.decode()
    current = page[page.index("Current games"):page.index("Recent results")]
    assert f"#{game.pk}<" not in current and f"#{game.pk}<" in page[page.index("Recent results"):]

    played_before = page.count("games played")
    finished_game([alice, charlie], [1, 2], slug="nanga-parbat")   # a first rated Nanga Parbat result
    after = alice_client.get("/accounts/u/alice/").content.decode()
    assert after.count("games played") + after.count("game played") > played_before
    assert "Nanga Parbat" in after
