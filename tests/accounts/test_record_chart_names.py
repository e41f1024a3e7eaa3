"""Issue 17, row 12: a finished game's own page links to its record; one rated game is
enough for a rating chart (it starts at the rating before that game); the leaderboard
keeps long names whole for readers (title and text)."""
from __future__ import annotations

import re

import pytest

from accounts.models import Rating, RatingEvent
from accounts.ratings import display_number

from .helpers import finished_game

pytestmark = pytest.mark.django_db


def test_a_finished_games_page_links_to_its_record(alice, bob, alice_client, start_game):
    from games.models import Game

    game = start_game("nanga-parbat", [alice, bob])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)   # over, whatever its ending
    page = alice_client.get(f"/play/{game.pk}/").content.decode()
    assert f'href="/play/{game.pk}/record.json" download' in page
    assert alice_client.get(f"/play/{game.pk}/record.json").status_code == 200


def test_a_running_games_page_offers_no_record_yet(alice, bob, alice_client, start_game):
    game = start_game("nanga-parbat", [alice, bob])
    assert "record.json" not in alice_client.get(f"/play/{game.pk}/").content.decode()


def test_one_rated_game_draws_a_chart_from_the_rating_before_it(alice, bob, alice_client):
    finished_game([alice, bob], [1, 2])
    event = RatingEvent.objects.get(user=alice)
    page = alice_client.get("/accounts/u/alice/").content.decode()
    assert "<polyline" in page and "after the first rated game" not in page
    label = re.search(r'aria-label="(Rating history over [^"]+)"', page).group(1)
    start = display_number(event.mu_before - 3 * event.sigma_before)
    now = display_number(event.mu_after - 3 * event.sigma_after)
    assert label.startswith("Rating history over 1 rated game,") and label.endswith(f"now {now}")
    assert str(start) in label and now > start


def test_no_rated_game_no_chart_and_a_note_that_says_when(alice, bob, alice_client):
    finished_game([alice, bob], [1, 2], rated=False)
    page = alice_client.get("/accounts/u/alice/").content.decode()
    assert "<polyline" not in page


def test_the_leaderboard_gives_a_long_name_whole_in_its_title_and_text(make_user, client):
    from datetime import timedelta

    from django.utils import timezone

    long = make_user("w" * 150)
    Rating.objects.create(user=long, game_slug="roll-to-the-top", mu=30, sigma=3.0, ordinal=21, games_played=20,
                          last_played=timezone.now(), steady_until=timezone.now() + timedelta(days=30))
    page = client.get("/accounts/leaderboard/roll-to-the-top/").content.decode()
    link = re.search(r'<a class="name"[^>]*>([^<]*)</a>', page)
    assert link and link.group(1) == "w" * 150 and f'title="{"w" * 150}"' in link.group(0)
