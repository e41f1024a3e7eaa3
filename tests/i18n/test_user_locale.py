"""A player's own language and time zone (issue 23, build 3 and 4): stored on the account,
chosen on sign-up, in the settings and in the header, and activated on every request."""
from __future__ import annotations

import pytest
from django.utils import timezone

from config.i18n import in_users_language, language_from_headers, time_zone_or_default


@pytest.mark.django_db
def test_sign_up_keeps_the_browsers_zone_and_the_pages_language(client):
    response = client.post("/accounts/signup/", {
        "username": "dora", "email": "", "password1": "a-long-pass-123", "password2": "a-long-pass-123",
        "time_zone": "Europe/Amsterdam"}, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 302
    from accounts.models import User

    dora = User.objects.get(username="dora")
    assert (dora.time_zone, dora.language) == ("Europe/Amsterdam", "nl")


@pytest.mark.django_db
def test_sign_up_with_an_unknown_zone_falls_back_to_utc(client):
    client.post("/accounts/signup/", {"username": "eve", "password1": "a-long-pass-123",
                                      "password2": "a-long-pass-123", "time_zone": "Mars/Olympus"})
    from accounts.models import User

    assert User.objects.get(username="eve").time_zone == "UTC"
    assert time_zone_or_default("Europe/Rome") == "Europe/Rome"
    assert time_zone_or_default(None) == "UTC"


def test_the_sign_up_page_carries_the_hidden_zone_field(client, db):
    html = client.get("/accounts/signup/").content.decode()
    assert 'name="time_zone"' in html and "data-guess-time-zone" in html


def test_settings_change_language_and_zone(alice, alice_client):
    response = alice_client.post("/accounts/settings/", {
        "email": alice.email, "language": "de", "time_zone": "Europe/Berlin"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.language, alice.time_zone) == ("de", "Europe/Berlin")
    page = alice_client.get("/accounts/settings/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<html lang="de">' in page  # the account's choice beats the browser's
    assert 'data-time-zone="Europe/Berlin"' in page


def test_settings_refuse_an_unknown_zone(alice, alice_client):
    response = alice_client.post("/accounts/settings/", {"email": alice.email, "language": "",
                                                         "time_zone": "Nowhere/Town"})
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.time_zone == "UTC"


def test_a_blank_language_follows_the_browser(alice, alice_client):
    assert '<html lang="it">' in alice_client.get("/help/", HTTP_ACCEPT_LANGUAGE="it").content.decode()


def test_what_is_written_away_from_a_request_follows_the_browser_of_a_player_who_chose_nothing(
        alice, alice_client):
    """Mail, pushes and inbox lines (config.i18n.language_of) for a blank language: the
    language the player's browser last asked for, kept with one UPDATE when it changes."""
    from accounts.models import User
    from config.i18n import language_of

    assert language_of(alice) == "en"
    alice_client.get("/help/", HTTP_ACCEPT_LANGUAGE="de")
    alice.refresh_from_db()
    assert (alice.language, alice.browser_language, language_of(alice)) == ("", "de", "de")
    with in_users_language(alice):
        from django.utils.translation import gettext

        assert gettext("Notification settings") == "Benachrichtigungseinstellungen"
    alice_client.get("/help/", HTTP_ACCEPT_LANGUAGE="nl")
    assert language_of(User.objects.get(pk=alice.pk)) == "nl"
    User.objects.filter(pk=alice.pk).update(language="it")  # a choice wins over the browser
    assert language_of(User.objects.get(pk=alice.pk)) == "it"


def test_an_unchanged_browser_language_costs_no_query(alice, alice_client):
    alice_client.get("/help/", HTTP_ACCEPT_LANGUAGE="de")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        alice_client.get("/help/", HTTP_ACCEPT_LANGUAGE="de")
    assert not [q for q in queries.captured_queries if "browser_language" in q["sql"] and "UPDATE" in q["sql"]]
    with CaptureQueriesContext(connection) as queries:
        alice_client.get("/help/", HTTP_ACCEPT_LANGUAGE="it")
    assert [q for q in queries.captured_queries if "browser_language" in q["sql"] and "UPDATE" in q["sql"]]


def test_the_header_chooser_sets_the_cookie_and_the_account(alice, alice_client):
    response = alice_client.post("/i18n/setlang/", {"language": "nl", "next": "/help/"})
    assert response.status_code == 302 and response["Location"] == "/help/"
    alice.refresh_from_db()
    assert alice.language == "nl"
    assert '<html lang="nl">' in alice_client.get("/help/").content.decode()


def test_a_visitors_choice_is_the_cookie(client, db):
    client.post("/i18n/setlang/", {"language": "it", "next": "/help/"})
    assert '<html lang="it">' in client.get("/help/").content.decode()


def test_pages_show_times_in_the_players_zone(make_user):
    from datetime import UTC, datetime

    from django.template import engines

    dora = make_user("dora", time_zone="Europe/Amsterdam", language="nl")
    moment = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
    template = engines["django"].from_string("{{ moment|local_time }}|{{ moment|local_time:'j M Y' }}")
    with in_users_language(dora):
        html = template.render({"moment": moment})
    assert html.startswith('<time datetime="2026-01-15T12:00:00Z" data-zone="Europe/Amsterdam"')
    assert ">15 Jan, 13:00 CET</time>" in html
    assert html.endswith('data-shows="date-year">15 Jan 2026</time>')
    with in_users_language(None):
        assert ">Jan 15, 12:00 UTC</time>" in template.render({"moment": moment})
    assert timezone.get_current_timezone_name() == "UTC"


def test_a_sockets_language_comes_from_its_cookie_or_its_browser():
    assert language_from_headers([(b"accept-language", b"de-CH,de;q=0.9,en;q=0.5")]) == "de"
    assert language_from_headers([(b"accept-language", b"fr,it;q=0.8")]) == "it"
    assert language_from_headers([(b"cookie", b"django_language=nl"), (b"accept-language", b"de")]) == "nl"
    assert language_from_headers([]) == "en"


def test_a_tournament_starts_at_the_players_local_time(make_user):
    from datetime import UTC, datetime

    from tournaments.models import Tournament

    dora = make_user("dora", time_zone="Europe/Amsterdam")
    tournament = Tournament.objects.create(name="Spring climb", organiser=dora, game_slug="roll-to-the-top",
                                           starts_at=datetime(2031, 1, 15, 12, 0, tzinfo=UTC))
    from tests.fixtures import client_for

    page = client_for(dora).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'datetime="2031-01-15T12:00:00Z" data-zone="Europe/Amsterdam"' in page
    assert "15 Jan 2031 13:00 CET" in page and " UTC" not in page
