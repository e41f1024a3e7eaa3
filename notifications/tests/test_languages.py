"""The inbox, its lines, the settings grid and the pushes in Dutch, German and Italian
(issue 23), with none of their English sentences left. A line is written once, for its
reader, so it is worded in the reader's language (services.worded)."""
from __future__ import annotations

import pytest
from django.utils import translation

from games import engine
from notifications.models import Notification
from notifications.turns import turn_payload
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_afterwards():
    """A request leaves its language active in the thread: the next test starts in English."""
    yield
    translation.activate("en")
SLUG = "nanga-parbat"
LANGUAGES = ["nl", "de", "it"]

INBOX = {
    "nl": [("<h1>Notifications", "<h1>Meldingen"), ("Mark all read", "Alles als gelezen markeren"),
           ("ended: you placed 1st of 2 (won by bob)", "is afgelopen: je werd 1e van 2 (gewonnen door bob)"),
           ("Choose what you are told, and where", "Kies waarover je een melding krijgt, en waar")],
    "de": [("<h1>Notifications", "<h1>Benachrichtigungen"), ("Mark all read", "Alle als gelesen markieren"),
           ("ended: you placed 1st of 2 (won by bob)", "ist beendet: Du wurdest 1. von 2 (gewonnen hat bob)"),
           ("Choose what you are told, and where", "Wähle, worüber du benachrichtigt wirst und wo")],
    "it": [("<h1>Notifications", "<h1>Notifiche"), ("Mark all read", "Segna tutte come lette"),
           ("ended: you placed 1st of 2 (won by bob)", "è finita: sei arrivato 1º su 2 (ha vinto bob)"),
           ("Choose what you are told, and where", "Scegli di cosa essere avvisato, e dove")],
}
SETTINGS = {
    "nl": [("<h1>Notification settings", "<h1>Instellingen voor meldingen"),
           ("Your turn (correspondence)", "Jouw beurt (correspondentie)"), (">Appearance:<", ">Weergave:<"),
           ("Follow my system", "Volg mijn systeem"), ("No device receives push notifications.",
                                                       "Geen enkel apparaat ontvangt pushmeldingen.")],
    "de": [("<h1>Notification settings", "<h1>Benachrichtigungseinstellungen"),
           ("Your turn (correspondence)", "Du bist am Zug (Fernspiel)"), (">Appearance:<", ">Darstellung:<"),
           ("Follow my system", "Wie mein System"), ("No device receives push notifications.",
                                                     "Kein Gerät empfängt Push-Benachrichtigungen.")],
    "it": [("<h1>Notification settings", "<h1>Impostazioni delle notifiche"),
           ("Your turn (correspondence)", "Tocca a te (per corrispondenza)"), (">Appearance:<", ">Aspetto:<"),
           ("Follow my system", "Segui il sistema"), ("No device receives push notifications.",
                                                      "Nessun dispositivo riceve notifiche push.")],
}


def assert_speaks(html: str, pairs) -> None:
    for english, translated in pairs:
        assert translated in html
        assert english not in html


def page(user, url: str, language: str) -> str:
    response = client_for(user).get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_inbox_and_its_lines_speak_the_readers_language(language, start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    with translation.override(language):  # the readers' language (i18n-core keeps it per user)
        engine.resign(game.pk, alice)
    [line] = Notification.objects.filter(user=bob)
    assert line.text.startswith(f"Nanga Parbat #{game.pk} ")
    assert_speaks(page(bob, "/notifications/", language), INBOX[language])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_notification_settings_speak_the_players_language(language, alice):
    assert_speaks(page(alice, "/notifications/settings/", language), SETTINGS[language])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_offline_page_and_the_push_prompt_speak_the_visitors_language(language, client, alice):
    offline = client.get("/offline/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<html lang="{language}">' in offline and "You are offline" not in offline
    head = page(alice, "/notifications/", language)
    prompt = {"nl": "Ja, laat het me weten", "de": "Ja, benachrichtige mich", "it": "Sì, avvisami"}[language]
    assert f'data-t-yes="{prompt}"' in head and "Yes, notify me" not in head


def test_a_turn_push_is_worded_in_the_active_language(start_game, alice, bob):
    games = [start_game(SLUG, [alice, bob]), start_game(SLUG, [alice, bob])]
    with translation.override("de"):
        assert turn_payload(games)["title"] == "Du bist am Zug in 2 Partien"
        assert turn_payload(games[:1])["body"] == f"Nanga Parbat #{games[0].pk} wartet auf deinen Zug."
    assert turn_payload(games)["title"] == "Your turn in 2 games"
