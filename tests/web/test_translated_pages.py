"""Issue 23: the pages of accounts, lobby and chat in Dutch, German and Italian (the browser's
Accept-Language), with no English sentence left; the English pages are the other tests'."""
from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation

from chat import services as chat_services
from chat.models import ChatMessage
from lobby import services as lobby_services
from lobby.models import Table
from tests.fixtures import client_for

from tests.accounts.helpers import finished_game

LANGUAGES = ["nl", "de", "it"]


@pytest.fixture(autouse=True)
def _english_afterwards():
    """A request leaves its language active in the thread: later tests expect English."""
    yield
    translation.activate("en")

# Per page: (English sentences that must be gone, {language: sentences that must appear}).
SIGNUP = (["Create your Switchback account", "Already have an account?", "Optional: for password resets"], {
    "nl": ["Maak je Switchback-account aan", "Heb je al een account?", "Optioneel: om je wachtwoord te herstellen"],
    "de": ["Leg dein Switchback-Konto an", "Du hast schon ein Konto?", "Optional: zum Zurücksetzen des Passworts"],
    "it": ["Crea il tuo account Switchback", "Hai già un account?", "Facoltativa: per reimpostare la password"],
})
LOGIN = (["New here?", "Forgot your password?", "<h1>Log in</h1>"], {
    "nl": ["Nieuw hier?", "Wachtwoord vergeten?", "<h1>Inloggen</h1>"],
    "de": ["Neu hier?", "Passwort vergessen?", "<h1>Anmelden</h1>"],
    "it": ["Sei nuovo?", "Password dimenticata?", "<h1>Accedi</h1>"],
})
SETTINGS = (["Your settings", "Muted in chat", "A daily digest", "Start my vacation now", "Days away"], {
    "nl": ["Je instellingen", "Gedempt in de chat", "Een dagelijks overzicht", "Begin mijn vakantie nu", "Dagen weg"],
    "de": ["Deine Einstellungen", "Im Chat stummgeschaltet", "Eine tägliche Zusammenfassung",
           "Urlaub jetzt beginnen", "Tage weg"],
    "it": ["Le tue impostazioni", "Silenziati in chat", "Un riepilogo giornaliero", "Inizia ora la mia vacanza",
           "Giorni di assenza"],
})
PROFILE = (["Recent results", "Head to head", "table average", "you were expected", "games played"], {
    "nl": ["Recente uitslagen", "Onderling", "1e van 2; tafelgemiddelde", "partijen gespeeld"],
    "de": ["Letzte Ergebnisse", "Direkter Vergleich", "1. von 2; Tischdurchschnitt", "Partien gespielt"],
    "it": ["Risultati recenti", "Testa a testa", "1º su 2; media del tavolo", "partite giocate"],
})
LEADERBOARD = (["Leaderboard:", "Ratings use openskill", "Nobody has a settled rating"], {
    "nl": ["Ranglijst:", "De ratings gebruiken openskill", "Nog niemand heeft een stabiele rating"],
    "de": ["Rangliste:", "Die Wertungszahlen verwenden openskill", "Noch niemand hat eine gefestigte Wertungszahl"],
    "it": ["Classifica:", "I punteggi usano openskill", "Nessuno ha ancora un punteggio stabile"],
})
LOBBY = (["Open tables", "Create a table", "Recently finished", "Welcome to Switchback", "Sign up to play"], {
    "nl": ["Open tafels", "Open een tafel", "Net afgelopen", "Welkom bij Switchback", "Registreer je om te spelen"],
    "de": ["Offene Tische", "Eröffne einen Tisch", "Kürzlich beendet", "Willkommen bei Switchback",
           "Registriere dich zum Spielen"],
    "it": ["Tavoli aperti", "Crea un tavolo", "Finite da poco", "Benvenuti su Switchback", "Registrati per giocare"],
})
CREATE = (["Create table", "Time per move (correspondence)", "Spectators may read the chat", "No clock",
           "The full time comes back"], {
    "nl": ["Tafel openen", "Tijd per zet (correspondentie)", "Toeschouwers mogen de chat lezen", "Geen klok",
           "Vriendschappelijk", "3 dagen"],
    "de": ["Tisch eröffnen", "Zeit pro Zug (Fernspiel)", "Zuschauer dürfen den Chat lesen", "Keine Uhr",
           "Ungewertet", "3 Tage"],
    "it": ["Crea il tavolo", "Tempo per mossa (per corrispondenza)", "Gli spettatori possono leggere la chat",
           "Senza orologio", "Amichevole", "3 giorni"],
})
TABLE = (["Add a bot", "empty seat", "Close table", "Copy the invite link", "Waiting for players", " seated"], {
    "nl": ["Bot toevoegen", "lege plaats", "Tafel sluiten", "Kopieer de uitnodigingslink", "Wacht op spelers",
           "aan tafel", "Correspondentie, 3 dagen per zet"],
    "de": ["Bot hinzufügen", "freier Platz", "Tisch schließen", "Einladungslink kopieren", "Wartet auf Spieler",
           "am Tisch", "Fernspiel, 3 Tage pro Zug"],
    "it": ["Aggiungi un bot", "posto libero", "Chiudi il tavolo", "Copia il link d’invito", "In attesa di giocatori",
           "seduti", "Per corrispondenza, 3 giorni per mossa"],
})
CHAT = (["No messages yet.", "Say something", "Good game", ">Send<"], {
    "nl": ["Nog geen berichten.", "Zeg iets", "Goed gespeeld", ">Versturen<"],
    "de": ["Noch keine Nachrichten.", "Sag etwas", "Gutes Spiel", ">Senden<"],
    "it": ["Ancora nessun messaggio.", "Scrivi qualcosa", "Bella partita", ">Invia<"],
})


def check(response, page, language) -> None:
    english, translated = page
    assert response.status_code == 200
    html = response.content.decode()
    for sentence in translated[language]:
        assert sentence in html, f"{sentence!r} missing in {language}"
    for sentence in english:
        assert sentence not in html, f"{sentence!r} left in English in {language}"


def open_table(host, *, pace="correspondence") -> Table:
    return lobby_services.create_table(host, game_slug="roll-to-the-top", seats_count=3, options={},
                                       is_private=False, pace=pace, days_per_move=3)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_sign_up_and_log_in(client, language):
    check(client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE=language), SIGNUP, language)
    check(client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=language), LOGIN, language)


@pytest.mark.django_db
def test_djangos_own_texts_on_the_sign_up_page_say_je_in_dutch(client):
    html = client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Je wachtwoord mag niet alleen uit cijfers bestaan." in html
    assert "Je wachtwoord moet minstens 8 tekens lang zijn." in html
    assert "Uw " not in html and " uw " not in html


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_settings(alice_client, language):
    check(alice_client.get("/accounts/settings/", HTTP_ACCEPT_LANGUAGE=language), SETTINGS, language)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_profile_and_leaderboard(client, alice, bob, language):
    for _ in range(2):
        finished_game([alice, bob], [1, 2])
    check(client.get("/accounts/u/alice/", HTTP_ACCEPT_LANGUAGE=language), PROFILE, language)
    check(client.get("/accounts/leaderboard/roll-to-the-top/", HTTP_ACCEPT_LANGUAGE=language), LEADERBOARD, language)


@pytest.mark.django_db
def test_the_rating_chart_has_the_same_geometry_in_every_language(client, alice, bob):
    for ranks in ([1, 2], [2, 1], [1, 2]):
        finished_game([alice, bob], ranks)

    def chart(language):
        html = client.get("/accounts/u/alice/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        start = html.index('<svg class="rating-chart"')
        svg = html[start:html.index("</svg>", start)]
        return svg.split(' role="img"')[0], svg.split('aria-label="')[1].split('"', 1)[1]

    english = chart("en")
    assert "." in english[1]   # the polyline's coordinates have decimals
    for language in LANGUAGES:
        assert chart(language) == english


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_lobby_and_create_form(client, alice, language):
    open_table(alice)
    finished_game([alice, None], [1, 2], rated=False)
    check(client.get("/", HTTP_ACCEPT_LANGUAGE=language), LOBBY, language)
    check(client_for(alice).get("/tables/new/", HTTP_ACCEPT_LANGUAGE=language), CREATE, language)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_table_page_and_its_chat_box(alice, language):
    table = open_table(alice)
    alice_client = client_for(alice)
    check(alice_client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE=language), TABLE, language)
    check(alice_client.get(f"/chat/table/{table.pk}/", HTTP_ACCEPT_LANGUAGE=language), CHAT, language)


@pytest.mark.django_db
def test_refusals_and_messages_speak_the_readers_language(alice, bob):
    table = open_table(alice)
    bob_client = client_for(bob)
    response = bob_client.post(f"/tables/{table.pk}/start/", HTTP_ACCEPT_LANGUAGE="de", follow=True)
    assert "Das kann nur der Gastgeber." in response.content.decode()
    response = bob_client.post(f"/chat/table/{table.pk}/post/", {"text": "hoi"}, HTTP_ACCEPT_LANGUAGE="nl")
    assert "De chat van de spelers is privé aan deze tafel." in response.content.decode()
    response = client_for(alice).post(f"/chat/table/{table.pk}/post/", {"text": " "}, HTTP_ACCEPT_LANGUAGE="nl")
    assert "Schrijf eerst iets." in response.content.decode()
    response = client_for(alice).post("/accounts/settings/vacation/", {"days": "99"}, HTTP_ACCEPT_LANGUAGE="it",
                                      follow=True)
    assert "Indica un numero di giorni tra 1 e 30." in response.content.decode()
    response = client_for(alice).post(f"/tables/{table.pk}/leave/", HTTP_ACCEPT_LANGUAGE="it", follow=True)
    assert "Il tavolo è stato chiuso." in response.content.decode()


@pytest.mark.django_db
def test_the_password_reset_mail_in_the_accounts_language(client, alice):
    """Written in the account's language, whatever the page that asked for it was in."""
    alice.language = "nl"
    alice.save(update_fields=["language"])
    client.post("/accounts/password_reset/", {"email": alice.email}, HTTP_ACCEPT_LANGUAGE="de")
    [message] = mail.outbox
    assert message.subject == "Herstel je Switchback-wachtwoord"
    assert "Iemand (hopelijk jij) heeft gevraagd" in message.body
    assert "Hallo alice," in message.body and "Someone" not in message.body


@pytest.mark.django_db
def test_a_live_chat_line_goes_out_in_every_language(alice, bob, monkeypatch):
    table = open_table(alice)
    lobby_services.join(table.pk, bob)
    sent = []
    monkeypatch.setattr(chat_services.notify, "send_many", sent.extend)
    room = chat_services.table_room(Table.objects.get(pk=table.pk))
    chat_services.broadcast(room, ChatMessage.objects.create(table=table, author=bob, text="Hallo"))
    event = sent[0][1]
    assert ">mute</button>" in event["html"]
    assert ">dempen</button>" in event["html_by_language"]["nl"]
    assert ">stummschalten</button>" in event["html_by_language"]["de"]
    assert ">segnala</button>" in event["html_by_language"]["it"]


def test_ordinals_and_table_labels_per_language():
    from accounts.models import ordinal_word

    with translation.override("en"):
        assert [ordinal_word(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 111)] == [
            "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "111th"]
    with translation.override("nl"):
        assert [ordinal_word(n) for n in (1, 2, 11)] == ["1e", "2e", "11e"]
    with translation.override("de"):
        assert ordinal_word(3) == "3."
        assert Table(pace="live", clock_minutes=10, clock_increment=1).pace_label() == "Live, 10+1"
        assert Table(pace="correspondence", days_per_move=1).pace_label() == "Fernspiel, 1 Tag pro Zug"
    with translation.override("it"):
        assert ordinal_word(2) == "2º"
        assert Table(pace="live").pace_label() == "Dal vivo"
