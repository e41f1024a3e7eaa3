"""The social pages in Dutch, German and Italian (issue 23): search, a profile's social
actions, the blocked list, challenges (received, sent, the form and its errors), play now
and its waiting page, the lobby's filters and the home page's friends box come in the
reader's language with no English sentence of these apps left; the challenge mail is
written in the recipient's language, not the sender's."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from django.core import mail

from social import services
from social.models import Seek

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
SLUG = "roll-to-the-top"
TERMS = {"game_slug": SLUG, "options": {}, "seats": 3, "pace": "correspondence", "rated": True,
         "days_per_move": 2, "clock_minutes": None, "clock_increment": 0}


def compile_catalogues(*apps: str) -> None:
    """The apps' .mo files, compiled from their .po files when missing or older (`make
    install` compiles them; this keeps a test honest straight after an edit)."""
    fresh = False
    for app in apps:
        for po in (ROOT / app / "locale").glob("*/LC_MESSAGES/django.po"):
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
                tmp = mo.with_name(f"django.{os.getpid()}.mo")
                subprocess.run(["msgfmt", "--check", "-o", str(tmp), str(po)], check=True)
                os.replace(tmp, mo)
                fresh = True
    if fresh:  # forget catalogues Django loaded before these existed
        from django.utils.translation import trans_real
        trans_real._translations = {}
        trans_real._default = None


@pytest.fixture(scope="module", autouse=True)
def compiled_catalogues():
    compile_catalogues("social")


# What each language must say per page; the English each replaces is checked gone (ENGLISH).
WORDS = {
    "nl": {
        "search": ["Spelers zoeken", "Naam begint met", "Zoeken", "sinds"],
        "no_match": "Geen spelersnaam begint met „zz”.",
        "profile": ["Uitdagen", "Volgen", "Blokkeren", "Betrouwbaarheid", "Nog geen afgelopen partijen.", "Volgt",
                    "Nog niemand."],
        "followed": ["Je volgt bob.", "Ontvolgen"],
        "own_profile": ["Mijn uitdagingen", "Geblokkeerde en gedempte spelers"],
        "blocked": ["Je hebt bob geblokkeerd: jullie komen elkaar niet meer tegen.", "Geblokkeerde spelers",
                    "Een geblokkeerde speler kan je niet uitdagen", "Deblokkeren",
                    "Gedempt in de chat"],
        "received": ["<strong>", "</strong> daagt je uit voor Roll to the Top", "3 spelers", "1 bot",
                     "Correspondentie, 2 dagen per zet", "voor de rating", "Aannemen", "Afwijzen", "verloopt op",
                     "Uitdagingen voor jou", "Nog eens spelen"],
        "sent": ["Journeys aan", "(nog geen antwoord)", "Wacht op antwoorden", "Annuleren", "Verstuurd",
                 "Er wacht geen uitdaging."],
        "form": ["Spelers om uit te dagen", "Namen gescheiden door komma's", "Dagen per zet (correspondentie)",
                 "Voor de rating (partijen met bots nooit)", "Uitdaging versturen"],
        "form_error": "Geen speler met de naam nobody.",
        "self": "Je kunt jezelf niet uitdagen.",
        "play_now": ["Nu spelen", "We zetten je aan tafel met wachtende spelers"],
        "seek_error": "Snel koppelen zet minstens twee spelers aan tafel.",
        "waiting": ["Journeys: 2 spelers, live", "Op zoek naar spelers rond", "je wacht sinds"],
        "left": "Je hebt de wachtrij verlaten.",
        "lobby": ["Elk spel", "Elk tempo", "Elk aantal spelers", "3 spelers", "Voor de rating of vriendschappelijk",
                  "Vrije plaatsen voor mij", "Filteren", "Vrienden online / nu aan het spelen",
                  "Geen van de spelers die je volgt is nu online."],
        "mail": "alice daagt je uit voor Roll to the Top",
    },
    "de": {
        "search": ["Spieler finden", "Name beginnt mit", "Suchen", "seit"],
        "no_match": "Kein Spielername beginnt mit „zz“.",
        "profile": ["Herausfordern", "Folgen", "Blockieren", "Zuverlässigkeit", "Noch keine beendeten Partien.",
                    "Folgt", "Noch niemand."],
        "followed": ["Du folgst bob.", "Nicht mehr folgen"],
        "own_profile": ["Meine Herausforderungen", "Blockierte und stummgeschaltete Spieler"],
        "blocked": ["Du hast bob blockiert: Ihr begegnet euch nicht mehr.", "Blockierte Spieler",
                    "Ein blockierter Spieler kann dich nicht herausfordern",
                    "Blockierung aufheben", "Im Chat stummgeschaltet"],
        "received": ["</strong> fordert dich zu Roll to the Top", "3 Spieler", "1 Bot",
                     "Fernspiel, 2 Tage pro Zug", "gewertet", "Annehmen", "Ablehnen", "läuft ab:",
                     "Herausforderungen an dich", "Noch einmal spielen"],
        "sent": ["Journeys an", "(noch keine Antwort)", "Wartet auf Antworten", "Abbrechen", "Gesendet",
                 "Keine Herausforderung wartet."],
        "form": ["Spieler, die du herausforderst", "Namen durch Kommas getrennt", "Tage pro Zug (Fernspiel)",
                 "Gewertet (Partien mit Bots nie)", "Herausforderung senden"],
        "form_error": "Kein Spieler namens nobody.",
        "self": "Du kannst dich nicht selbst herausfordern.",
        "play_now": ["Jetzt spielen", "Wir setzen dich mit wartenden Spielern zusammen"],
        "seek_error": "Die Schnellpaarung setzt mindestens zwei Spieler an einen Tisch.",
        "waiting": ["Journeys: 2 Spieler, live", "Wir suchen Spieler um", "du wartest seit"],
        "left": "Du hast die Warteschlange verlassen.",
        "lobby": ["Jedes Spiel", "Jedes Tempo", "Beliebig viele Spieler", "3 Spieler", "Gewertet oder ungewertet",
                  "Freie Plätze für mich", "Filtern", "Freunde online / spielen gerade",
                  "Keiner der Spieler, denen du folgst, ist gerade da."],
        "mail": "alice fordert dich zu Roll to the Top",
    },
    "it": {
        "search": ["Trova giocatori", "Il nome inizia con", "Cerca", "dal"],
        "no_match": "Nessun nome di giocatore inizia con «zz».",
        "profile": ["Sfida", "Segui", "Blocca", "Affidabilità", "Ancora nessuna partita finita.", "Segue",
                    "Ancora nessuno."],
        "followed": ["Segui bob.", "Smetti di seguire"],
        "own_profile": ["Le mie sfide", "Giocatori bloccati e silenziati"],
        "blocked": ["Hai bloccato bob: non vi incontrerete più.", "Giocatori bloccati",
                    "Un giocatore bloccato non può sfidarti", "Sblocca", "Silenziati in chat"],
        "received": ["</strong> ti sfida a Roll to the Top", "3 giocatori", "1 bot",
                     "Per corrispondenza, 2 giorni per mossa", "classificata", "Accetta", "Rifiuta", "scade il",
                     "Sfide per te", "Gioca ancora"],
        "sent": ["Journeys a ", "(nessuna risposta)", "In attesa di risposte", "Annulla", "Inviate",
                 "Nessuna sfida in attesa."],
        "form": ["Giocatori da sfidare", "Nomi separati da virgole", "Giorni per mossa (per corrispondenza)",
                 "Classificata (le partite con bot non lo sono mai)", "Invia la sfida"],
        "form_error": "Nessun giocatore di nome nobody.",
        "self": "Non puoi sfidare te stesso.",
        "play_now": ["Gioca ora", "Ti facciamo sedere con i giocatori in attesa"],
        "seek_error": "L&#x27;abbinamento rapido fa sedere almeno due giocatori.",
        "waiting": ["Journeys: 2 giocatori, dal vivo", "Cerco giocatori intorno a", "in attesa dalle"],
        "left": "Hai lasciato la coda.",
        "lobby": ["Qualsiasi gioco", "Qualsiasi ritmo", "Qualsiasi numero di giocatori", "3 giocatori",
                  "Classificata o amichevole", "Posti liberi per me", "Filtra", "Amici online / in partita ora",
                  "Nessuno dei giocatori che segui è collegato in questo momento."],
        "mail": "alice ti sfida a Roll to the Top",
    },
}
ENGLISH = {
    "search": ["Find players", "Name starts with", ">Search<", "since "],
    "no_match": ["No player&#x27;s name starts with"],
    "profile": [">Challenge<", ">Follow<", ">Block<", "Reliability", "No finished games yet.", ">Following<",
                "Nobody yet."],
    "followed": ["You follow bob.", "Unfollow"],
    "own_profile": ["My challenges", "Blocked and muted players"],
    "blocked": ["You blocked bob", "Blocked players", "A blocked player cannot", ">Unblock<", "Muted in chat"],
    "received": ["challenges you to", "3 players", "days per move", ">rated<", ">Accept<", ">Decline<",
                 "expires", "Challenges for you", "Play again"],
    "sent": ["(not answered)", "Waiting for answers", ">Cancel<", ">Sent<", "No challenge waiting."],
    "form": ["Players to challenge", "Names separated by commas", "Days per move (correspondence)",
             "Rated (games with bots never are)", "Send the challenge"],
    "form_error": ["No player named"],
    "self": ["You cannot challenge yourself."],
    "play_now": [">Play now<", "We seat you with waiting players"],
    "seek_error": ["Quick pairing seats at least two players."],
    "waiting": ["2 players, live", "Looking for players near", "waiting since"],
    "left": ["You left the pool."],
    "lobby": ["Any game", "Any pace", "Any number of players", ">3 players<", "Rated or casual", "Open seats for me",
              ">Filter<", "Friends online / playing now", "None of the players you follow is on right now."],
    "mail": ["challenges you to"],
}
LANGS = ("nl", "de", "it")


def check(text: str, lang: str, part: str) -> None:
    said = WORDS[lang][part]
    for words in [said] if isinstance(said, str) else said:
        assert words in text, f"{lang} {part}: {words!r} missing"
    for english in ENGLISH[part]:
        assert english not in text, f"{lang} {part}: English {english!r} left"


def page(client, url: str, lang: str, **kwargs) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang, **kwargs)
    assert response.status_code in (200, 400), (url, response.status_code)
    return response.content.decode()


def part_of(text: str, element_id: str) -> str:
    """The element with that id (this app's include), so other apps' text on the page
    (translated by their own catalogues) is not judged here."""
    start = text.index(f'id="{element_id}"')
    tag = text.rfind("<", 0, start)
    name = text[tag + 1:start].split()[0]
    return text[tag:text.index(f"</{name}>", start)]


def post(client, url: str, lang: str, data: dict | None = None) -> str:
    return client.post(url, data or {}, HTTP_ACCEPT_LANGUAGE=lang, follow=True).content.decode()


@pytest.mark.parametrize("lang", LANGS)
def test_search_profile_actions_and_the_blocked_list(lang, alice, bob, alice_client):
    check(page(alice_client, "/players/?q=bo", lang), lang, "search")
    check(page(alice_client, "/players/?q=zz", lang), lang, "no_match")
    check(part_of(page(alice_client, "/accounts/u/bob/", lang), "player-actions"), lang, "profile")
    check(post(alice_client, "/players/bob/follow/", lang), lang, "followed")
    check(part_of(page(alice_client, "/accounts/u/alice/", lang), "player-actions"), lang, "own_profile")
    alice_client.post("/players/bob/block/", HTTP_ACCEPT_LANGUAGE=lang)
    check(page(alice_client, "/blocked/", lang), lang, "blocked")


@pytest.mark.parametrize("lang", LANGS)
def test_challenges_received_sent_and_the_form(lang, alice, bob, alice_client, bob_client):
    services.create_challenge(alice, [bob], TERMS)
    check(page(bob_client, "/challenges/", lang), lang, "received")
    check(page(alice_client, "/challenges/", lang), lang, "sent")
    check(page(alice_client, "/challenges/new/?to=bob", lang), lang, "form")
    wrong = {"invitees": "nobody", "game_slug": SLUG, "seats": 2, "pace": "live", "clock_minutes": 10}
    check(alice_client.post("/challenges/new/", wrong, HTTP_ACCEPT_LANGUAGE=lang).content.decode(), lang,
          "form_error")
    oneself = {**wrong, "invitees": "alice"}
    check(alice_client.post("/challenges/new/", oneself, HTTP_ACCEPT_LANGUAGE=lang).content.decode(), lang, "self")


@pytest.mark.parametrize("lang", LANGS)
def test_play_now_its_refusal_and_the_waiting_page(lang, alice, alice_client):
    check(page(alice_client, "/play-now/", lang), lang, "play_now")
    one = {"game_slug": SLUG, "seats": 1, "pace": "live"}
    check(alice_client.post("/play-now/", one, HTTP_ACCEPT_LANGUAGE=lang).content.decode(), lang, "seek_error")
    waiting = alice_client.post("/play-now/", {**one, "seats": 2}, HTTP_ACCEPT_LANGUAGE=lang, follow=True)
    check(waiting.content.decode(), lang, "waiting")
    seek = Seek.objects.get(user=alice)
    check(post(alice_client, f"/play-now/{seek.pk}/cancel/", lang), lang, "left")


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_filters_and_the_friends_box(lang, alice, alice_client):
    home = page(alice_client, "/", lang)
    check(part_of(home, "lobby-filters") + part_of(home, "friends-now"), lang, "lobby")


@pytest.mark.parametrize("lang", LANGS)
def test_the_challenge_mail_is_in_the_recipients_language(lang, alice, bob, settings):
    bob.email, alice.language = "bob@example.org", "en"
    bob.language = lang   # accounts' language setting (config.i18n reads the same attribute)
    services.create_challenge(alice, [bob], TERMS)
    (sent,) = mail.outbox
    check(sent.subject, lang, "mail")


RELIABILITY = {
    "nl": "Over 1 partij: <strong>0%</strong> uitgespeeld, 100% opgegeven, 0% door tijdoverschrijding.",
    "de": "In 1 Partie: <strong>0%</strong> zu Ende gespielt, 100% aufgegeben, 0% Zeit überschritten.",
    "it": "Su 1 partita: <strong>0%</strong> giocata fino alla fine, 100% abbandonata, 0% persa per tempo.",
}
NO_LONGER_OPEN = {
    "nl": "Deze uitdaging staat niet meer open (afgewezen).",
    "de": "Diese Herausforderung ist nicht mehr offen (abgelehnt).",
    "it": "Questa sfida non è più aperta (rifiutata).",
}


@pytest.mark.parametrize("lang", LANGS)
def test_reliability_and_a_refusal_from_the_services(lang, alice, bob, charlie, alice_client, bob_client):
    from games import engine

    game = engine.start_game(SLUG, [engine.SeatPlan(bob), engine.SeatPlan(is_bot=True)], {})
    engine.resign(game.pk, bob)
    profile = part_of(page(alice_client, "/accounts/u/bob/", lang), "player-actions")
    assert RELIABILITY[lang] in profile and "Over the last" not in profile
    challenge = services.create_challenge(alice, [bob, charlie], TERMS)
    services.decline(challenge.pk, charlie)
    refused = post(bob_client, f"/challenges/{challenge.pk}/accept/", lang)
    assert NO_LONGER_OPEN[lang] in refused and "no longer open" not in refused
