"""The tournament pages in Dutch, German and Italian (issue 23): the index, the organiser's
form (its labels, help texts and errors), a Swiss tournament's detail page with its
standings, rounds and a bye, an arena's leaderboard, and the join/withdraw messages come
in the reader's language, with no English sentence of the app left."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.fixtures import client_for
from tests.social.test_translations import compile_catalogues, part_of
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"
LANGS = ("nl", "de", "it")


@pytest.fixture(scope="module", autouse=True)
def compiled_catalogues():
    compile_catalogues("tournaments")


WORDS = {
    "nl": {
        "index": ["<h1>Toernooien</h1>", "Organiseer een toernooi", "Naam", "Formule", "Begint", "Status",
                  "Inschrijving open", "Zwitsers", "officieel"],
        "empty": "Nog geen toernooien.",
        "form": ["Begint om (in jouw tijdzone)", "De inschrijving sluit en ronde 1 begint.", "Spelers per partij",
                 "Duur van de arena (minuten)", "Seconden erbij per zet (live)", "Zwitsers",
                 "Round robin (iedereen tegen iedereen)", "Aanmaken"],
        "errors": ["Kies een tijdstip in de toekomst.", "Tussen 1 en 20 ronden."],
        "detail": ["2 spelers per partij", "correspondentie, 2 dagen per zet", "voor de rating", "Georganiseerd door",
                   "Begint ", "Bezig", "ronde 1 van 3", "<h2>Stand</h2>", "Punten naar plaats aan elke tafel",
                   "Bij gelijke stand: Buchholz", "Speler", "Punten", "Partijen", "1 bye", "Ronde 1</h2>",
                   "Partij #", ": bye</li>"],
        "arena": ["Ranglijst", "Winst 2, remise 1", "Reeks", "Meedoen"],
        "joined": "Je doet mee.",
        "withdrew": "Je hebt je teruggetrokken.",
        "closed": "De inschrijving voor dit toernooi is gesloten.",
    },
    "de": {
        "index": ["<h1>Turniere</h1>", "Veranstalte ein Turnier", "Name", "Modus", "Beginnt", "Status",
                  "Anmeldung offen", "Schweizer System", "offiziell"],
        "empty": "Noch keine Turniere.",
        "form": ["Beginnt um (in deiner Zeitzone)", "Die Anmeldung schließt und Runde 1 beginnt.",
                 "Spieler pro Partie", "Dauer der Arena (Minuten)", "Sekunden dazu pro Zug (live)",
                 "Schweizer System", "Rundenturnier (jeder gegen jeden)", "Erstellen"],
        "errors": ["Wähle einen Zeitpunkt in der Zukunft.", "Zwischen 1 und 20 Runden."],
        "detail": ["2 Spieler pro Partie", "Fernspiel, 2 Tage pro Zug", "gewertet", "Veranstaltet von",
                   "Beginnt ", "Läuft", "Runde 1 von 3", "<h2>Tabelle</h2>", "Punkte nach Platz an jedem Tisch",
                   "Feinwertung: Buchholz", "Spieler", "Punkte", "Partien", "1 Freilos", "Runde 1</h2>",
                   "Partie #", ": Freilos</li>"],
        "arena": ["Rangliste", "Sieg 2, Remis 1", "Serie", "Mitspielen"],
        "joined": "Du bist dabei.",
        "withdrew": "Du hast dich abgemeldet.",
        "closed": "Die Anmeldung für dieses Turnier ist geschlossen.",
    },
    "it": {
        "index": ["<h1>Tornei</h1>", "Organizza un torneo", "Nome", "Formula", "Inizio", "Stato",
                  "Iscrizioni aperte", "Sistema svizzero", "ufficiale"],
        "empty": "Ancora nessun torneo.",
        "form": ["Inizio (nel tuo fuso orario)", "Le iscrizioni si chiudono e inizia il turno 1.",
                 "Giocatori per partita", "Durata dell&#x27;arena (minuti)", "Secondi aggiunti a ogni mossa (dal vivo)",
                 "Sistema svizzero", "Girone all&#x27;italiana", "Crea"],
        "errors": ["Scegli un momento nel futuro.", "Tra 1 e 20 turni."],
        "detail": ["2 giocatori per partita", "per corrispondenza, 2 giorni per mossa", "classificato",
                   "Organizzato da", "Inizia il ", "In corso", "turno 1 di 3", "<h2>Classifica</h2>",
                   "Punti per posizione a ogni tavolo", "Spareggi: Buchholz", "Giocatore", "Punti", "Partite",
                   "1 turno di riposo", "Turno 1</h2>", "Partita #", ": turno di riposo</li>"],
        "arena": ["Classifica", "Vittoria 2, pareggio 1", "Serie", "Partecipa"],
        "joined": "Iscrizione confermata.",
        "withdrew": "Hai ritirato l&#x27;iscrizione.",
        "closed": "Le iscrizioni a questo torneo sono chiuse.",
    },
}
ENGLISH = {
    "index": ["<h1>Tournaments</h1>", "Organise a tournament", ">Format<", ">Starts<", "Open for sign-up",
              ">Swiss<", ">official<"],
    "empty": ["No tournaments yet."],
    "form": ["Starts at", "Sign-up closes", "Players per game", "Arena length", "Seconds added per move",
             ">Round robin<", ">Create<"],
    "errors": ["Pick a time in the future.", "Between 1 and 20 rounds."],
    "detail": ["players per game", "days per move", ">rated<", "Organised by", "Starts ", ">Running<", "round 1 of",
               "Standings", "Points by rank", "Tie-breaks", ">Player<", ">Points<", ">Games<", "byes<",
               "Round 1", "Game #"],
    "arena": ["Leaderboard", "Win 2, draw 1", ">Streak<", ">Join<"],
    "joined": ["You are in."],
    "withdrew": ["You withdrew."],
    "closed": ["Sign-up for this tournament is closed."],
}


def check(text: str, lang: str, part: str) -> None:
    said = WORDS[lang][part]
    for words in [said] if isinstance(said, str) else said:
        assert words in text, f"{lang} {part}: {words!r} missing"
    for english in ENGLISH[part]:
        assert english not in text, f"{lang} {part}: English {english!r} left"


def get(client, url: str, lang: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def post(client, url: str, lang: str, data: dict | None = None) -> str:
    return client.post(url, data or {}, HTTP_ACCEPT_LANGUAGE=lang, follow=True).content.decode()


def main_part(text: str) -> str:
    """The page's own content (base.html's header and footer belong to the site's catalogue)."""
    return text[text.index("<main"):text.index("</main>")]


@pytest.mark.parametrize("lang", LANGS)
def test_the_index_and_the_create_form_with_its_errors(lang, alice, alice_client):
    check(main_part(get(alice_client, "/tournaments/", lang)), lang, "empty")
    Tournament.objects.create(name="Winter", organiser=alice, official=True, game_slug=SLUG,
                              starts_at=timezone.now() + timedelta(days=1))
    check(main_part(get(alice_client, "/tournaments/", lang)), lang, "index")
    check(main_part(get(alice_client, "/tournaments/new/", lang)), lang, "form")
    past = (timezone.now() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    wrong = {"name": "x", "format": "swiss", "game_slug": SLUG, "players_per_game": 2, "pace": "correspondence",
             "rounds": 30, "starts_at": past}
    check(main_part(alice_client.post("/tournaments/new/", wrong, HTTP_ACCEPT_LANGUAGE=lang).content.decode()),
          lang, "errors")


@pytest.mark.parametrize("lang", LANGS)
def test_a_swiss_tournament_with_standings_rounds_and_a_bye(lang, alice, bob, charlie, alice_client):
    tournament = Tournament.objects.create(name="Autumn", organiser=alice, game_slug=SLUG, format="swiss",
                                           pace="correspondence", days_per_move=2, rounds=3,
                                           starts_at=timezone.now() + timedelta(days=1))
    check(post(client_for(bob), f"/tournaments/{tournament.pk}/join/", lang), lang, "joined")
    check(post(client_for(bob), f"/tournaments/{tournament.pk}/withdraw/", lang), lang, "withdrew")
    for user in (alice, bob, charlie):
        services.sign_up(tournament, user)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    services.tick()
    check(main_part(get(alice_client, tournament.get_absolute_url(), lang)), lang, "detail")
    standings = get(alice_client, f"/tournaments/{tournament.pk}/standings/", lang)
    assert WORDS[lang]["detail"][7] in standings and "Standings" not in standings   # the htmx refresh too
    late = client_for(alice.__class__.objects.create(username="dora"))
    check(post(late, f"/tournaments/{tournament.pk}/join/", lang), lang, "closed")


@pytest.mark.parametrize("lang", LANGS)
def test_an_arena_leaderboard(lang, alice, bob_client):
    arena = Tournament.objects.create(name="Blitz", organiser=alice, game_slug=SLUG, format="arena", pace="live",
                                      clock_minutes=3, starts_at=timezone.now() - timedelta(minutes=1),
                                      ends_at=timezone.now() + timedelta(hours=1), status="running")
    services.sign_up(arena, alice)
    page = main_part(get(bob_client, arena.get_absolute_url(), lang))
    check(part_of(page, "arena") + page[:page.index('id="arena"')], lang, "arena")
