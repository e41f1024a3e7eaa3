"""The settings grid, the installable app's files, "Next game", and what browsers and
crawlers ask for (/favicon.ico, /robots.txt, a meta description)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from games.models import Seat
from notifications.models import Preferences, channels_for
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"


def test_the_settings_grid_has_defaults_and_saves_each_kind_and_channel(alice):
    client = client_for(alice)
    page = client.get("/notifications/settings/").content.decode()
    assert 'name="turn__push" checked' in page and 'name="game_over__push" ' in page
    assert 'name="table__push"' not in page  # a table's news is not pushed
    response = client.post("/notifications/settings/", {"turn__push": "on", "turn__site": "on", "reminder__mail": "on",
                                                         "rematch__site": "on", "theme": "dark", "sound": "on"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert channels_for(alice, "turn") == {"push", "site"}
    assert not alice.email_turn_notifications  # games.mail reads this field: the grid holds for mail
    assert alice.email_reminders and not alice.email_digest
    assert channels_for(alice, "rematch") == {"site"} and channels_for(alice, "invitation") == set()  # unticked
    prefs = Preferences.objects.get(user=alice)
    assert prefs.theme == "dark" and prefs.sound


def test_a_bad_theme_is_a_form_error_not_a_500(alice):
    response = client_for(alice).post("/notifications/settings/", {"theme": "neon"})
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()


def test_the_account_settings_page_links_to_notification_settings(alice):
    assert "/notifications/settings/" in client_for(alice).get("/accounts/settings/").content.decode()


def test_the_service_worker_is_served_from_the_root_and_never_caches_pages():
    response = Client().get("/sw.js")
    body = response.content.decode()
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/" and "no-cache" in response["Cache-Control"]
    assert 'const OFFLINE_URL = "/offline/"' in body and "__ICON_URL__" not in body
    assert body.count("cache.addAll") == 1 and "cache.put" not in body  # only the offline page and its icon


def test_the_manifest_makes_the_app_installable():
    manifest = Client().get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["theme_color"]
    purposes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"] if "purpose" in icon}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes
    for icon in manifest["icons"]:
        assert Client().get(icon["src"]).status_code in (200, 304) or icon["src"].startswith("/static/")


def test_every_page_links_the_manifest_and_has_a_theme_colour_and_a_description(alice):
    page = client_for(alice).get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color"' in page and '<meta name="description" content="' in page
    assert 'id="notification-bell"' in page


def test_the_offline_page_carries_nothing_of_the_visitor(alice):
    page = client_for(alice).get("/offline/").content.decode()
    assert "alice" not in page and "You are offline" in page


def test_favicon_and_robots_answer():
    icon = Client().get("/favicon.ico")
    assert icon.status_code == 200 and icon["Content-Type"] == "image/x-icon"
    assert icon.content[:4] == b"\x00\x00\x01\x00"
    robots = Client().get("/robots.txt")
    assert robots.status_code == 200 and "Disallow: /accounts/" in robots.content.decode()


def test_robots_lets_crawlers_read_public_account_pages_only():
    from urllib.robotparser import RobotFileParser

    parser = RobotFileParser()
    parser.parse(Client().get("/robots.txt").content.decode().splitlines())
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/accounts/u/alice/", "/accounts/leaderboard/"):
        assert parser.can_fetch("*", path), path
    for path in ("/accounts/settings/", "/accounts/password_reset/", "/notifications/", "/me/games/", "/admin/"):
        assert not parser.can_fetch("*", path), path


def test_next_game_goes_to_the_game_with_the_least_time_left(start_game, alice, bob):
    games = [start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=d) for d in (3, 1, 2)]
    Seat.objects.filter(game=games[2], index=0).update(time_left=timedelta(hours=1))
    client = client_for(alice)
    board = client.get(f"/play/{games[0].pk}/").content.decode()
    assert f'href="/me/next-game/?from={games[0].pk}"' in board and 'aria-keyshortcuts="n"' in board
    assert client.get(f"/me/next-game/?from={games[0].pk}")["Location"] == f"/play/{games[2].pk}/"
    assert client.get(f"/me/next-game/?from={games[2].pk}")["Location"] == f"/play/{games[1].pk}/"
    assert client.get("/me/next-game/?from=junk").status_code == 302


def test_next_game_with_nothing_waiting_goes_to_my_games(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    assert client_for(bob).get(f"/me/next-game/?from={game.pk}")["Location"] == "/me/games/"


def test_an_open_tab_blinks_by_default_and_chimes_only_when_chosen(alice):
    page = client_for(alice).get("/").content.decode()
    assert 'data-sound="" data-blink="1"' in page
    Preferences.objects.create(user=alice, sound=True)
    assert 'data-sound="1" data-blink="1"' in client_for(alice).get("/").content.decode()
    prefs = Preferences.objects.get(user=alice)
    prefs.choices = {"turn": ["push"]}  # no "your turn" in the site
    prefs.save()  # saved as the site saves them: the header's record is forgotten (config.header)
    assert 'data-sound="" data-blink=""' in client_for(alice).get("/").content.decode()
