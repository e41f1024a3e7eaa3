"""Rift Valley Reserve in Dutch, German and Italian (issue 23): the board at the start, in
the middle and at the end, the history, the replay, the how-to-play page and the rules'
refusals come out in the reader's language, with the game's own words, and nothing of the
English is left; the maps' SVG geometry is the same in every language."""
from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

import pytest
from django.utils import translation

from games import engine
from games.models import Game
from games.rift_valley_reserve import presenter
from games.rift_valley_reserve.rules import RULES
from games.rift_valley_reserve.rules.bot import choose
from games.rules.base import IllegalAction

from tests.fixtures import client_for

pytestmark = pytest.mark.django_db
SLUG = "rift-valley-reserve"
LANGUAGES = ["nl", "de", "it"]
LOCALE = Path(__file__).resolve().parents[1] / "locale"

# What each page must say, per language, in the game's own words.
START = {
    "nl": ["Eerste beurt: alleen Haltes", "Klik op een gemarkeerd vak om een Halte te tekenen.", "Open Vlakte",
           "A1, gebied 1", "Kaarten rond de tafel", "Actuele score", "Volle kaarten 0 / 1"],
    "de": ["Erste Runde: nur Stationen", "Klicke auf ein markiertes Feld, um eine Station zu zeichnen.",
           "Offene Ebene", "A1, Gebiet 1", "Karten rund um den Tisch", "Aktueller Punktestand",
           "Volle Karten 0 / 1"],
    "it": ["Primo turno: solo Tappe", "Clicca su una casella evidenziata per disegnare una Tappa.", "Pianura Aperta",
           "A1, area 1", "Mappe intorno al tavolo", "Punteggi in corso", "Mappe piene 0 / 1"],
}
GHOST = {
    "nl": ["Bevestig Halte op D1", "Bevestig de Halte op D1 van de kaart Open Vlakte"],
    "de": ["Station auf D1 bestätigen", "Bestätige die Station auf D1 der Karte Offene Ebene"],
    "it": ["Conferma Tappa in D1", "Conferma la Tappa in D1 della mappa Pianura Aperta"],
}
MIDDLE = {
    "nl": ["Hoofdspel", "Beurt voor beurt", " tekende een ", "op de kaart van "],
    "de": ["Hauptspiel", "Runde für Runde", " zeichnete ", "auf der Karte von "],
    "it": ["Partita principale", "Turno per turno", " ha disegnato ", "sulla mappa di "],
}
END = {
    "nl": ["Eindtelling", "Spel afgelopen", "Het spel is afgelopen:", "Score per kaart", "Losse Haltes"],
    "de": ["Schlusswertung", "Spiel vorbei", "Das Spiel ist vorbei:", "Punkte pro Karte", "Unverbundene Stationen"],
    "it": ["Punteggio finale", "Partita finita", "La partita è finita:", "Punteggi per mappa", "Tappe non collegate"],
}
HOW_TO = {
    "nl": ["eigenaar van de Kloof", "precies één", "Een Halte (een cirkel)", "Een Pad (een lijn)",
           "Een Tent (een driehoek)", "3 elk als er 1 speler is", "1 bij 2, 2 bij 3, 3 bij 4, 4 bij 5 spelers",
           "<figcaption>Meeroever Zuid</figcaption>", "Identiek: iedereen krijgt dezelfde 9×9 Open Vlakte"],
    "de": ["Besitzer ihres Grabens", "genau ein", "Eine Station (ein Kreis)", "Ein Pfad (eine Linie)",
           "Ein Zelt (ein Dreieck)", "je 3, wenn 1 Spieler dort ist", "1 bei 2, 2 bei 3, 3 bei 4, 4 bei 5 Spielern",
           "<figcaption>Seeufer Süd</figcaption>", "Identisch: alle bekommen dieselbe 9×9 Offene Ebene"],
    "it": ["proprietario della sua Faglia", "esattamente un", "Una Tappa (un cerchio)", "Un Sentiero (una linea)",
           "Una Tenda (un triangolo)", "3 ciascuno se c'è 1 giocatore", "1 con 2, 2 con 3, 3 con 4, 4 con 5 giocatori",
           "<figcaption>Riva del Lago Sud</figcaption>", "Identiche: tutti ricevono la stessa Pianura Aperta 9×9"],
}
ILLEGAL = {
    "nl": "In de eerste beurt mag een Halte geen dier raken, ook niet diagonaal.",
    "de": "In der ersten Runde darf eine Station kein Tier berühren, auch nicht diagonal.",
    "it": "Al primo turno una Tappa non può toccare un animale, nemmeno in diagonale.",
}
# English that only this game's own texts would show.
ENGLISH_BOARD = ["First turn: Stops only", "Click a highlighted square", "Open Plain",
                 "Maps round the table", "Live scores", "Players this turn", "Rift of", "held by", "Full maps",
                 "Confirm Stop", "of the Open Plain map"]
ENGLISH_MIDDLE = ["Main game", "Turn by turn", " drew a ", "'s map"]
ENGLISH_END = ["Final scoring", "Game over", "The game is over", "Scores per map", "Every map at this point"]
ENGLISH_HOW_TO = ["owner of its Rift", "exactly one", "A Stop (a circle)", "bridge it straight across",
                  "one map fewer than the number of players", "Lakeside South", "Identical: everyone",
                  "each when", "On the map above the rules count"]


@pytest.fixture(autouse=True, scope="module")
def _compiled_catalogues():
    missing = [lang for lang in LANGUAGES if not (LOCALE / lang / "LC_MESSAGES" / "django.mo").exists()]
    if missing:
        pytest.fail(f"compile the catalogues first (make install, or manage.py compilemessages): {missing}")


@pytest.fixture(autouse=True)
def _english_afterwards():
    """A request leaves its language active in the thread (LocaleMiddleware does not undo
    it): the tests after these ones run in English again."""
    yield
    translation.deactivate()


def page(client, url: str, lang: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, response.content[:1000]
    return response.content.decode()


def board(text: str) -> str:
    """The game's own board on a page (the platform's frame around it is not this game's)."""
    start = text.index('class="card board rvr"')
    scores_end = text.index("</section>", text.index('class="rvr-scores"', start))
    return text[start:text.index("</section>", scores_end + 1)]


def says(text: str, wanted: list[str], unwanted: list[str]) -> None:
    text = html.unescape(text)
    for words in wanted:
        assert words in text, words
    for words in unwanted:
        assert words not in text, words


def geometry(text: str) -> list:
    """Every number an SVG of the page is drawn with."""
    attrs = r'\b(x|y|x1|y1|x2|y2|cx|cy|r|width|height|d|points|viewBox)="([^"]*)"'
    return [re.findall(attrs, svg) for svg in re.findall(r"<svg.*?</svg>", text, re.S)]


def play(game, users, turns: int, rng: random.Random) -> Game:
    for _ in range(turns * len(users)):
        g = Game.objects.get(pk=game.pk)
        if g.status != "active" or not g.to_act():
            break
        seat = g.to_act()[0]
        engine.submit(g.pk, users[seat], choose(g.state, seat, rng))
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_board_at_the_start_speaks_the_readers_language(start_game, alice, bob, lang):
    game = start_game(SLUG, [alice, bob])
    c = client_for(alice)
    says(board(page(c, f"/play/{game.pk}/", lang)), START[lang], ENGLISH_BOARD)
    says(board(page(c, f"/play/{game.pk}/panel/?sel=m:stop.c:0-3", lang)), GHOST[lang], ENGLISH_BOARD)
    english = board(page(c, f"/play/{game.pk}/panel/?sel=m:stop.c:0-3", "en"))
    says(english, ["First turn: Stops only", "Confirm Stop on D1"], GHOST[lang])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_board_in_the_middle_tells_the_turns_in_the_readers_language(start_game, alice, bob, lang):
    users = [alice, bob]
    game = play(start_game(SLUG, users), users, 6, random.Random(2))
    assert game.status == "active" and game.state["turn"] > 2
    for user in users:
        text = board(page(client_for(user), f"/play/{game.pk}/", lang))
        says(text, MIDDLE[lang], ENGLISH_BOARD + ENGLISH_MIDDLE)
    seat = game.to_act()[0]
    engine.submit(game.pk, users[seat], choose(game.state, seat, random.Random(3)))
    pending = board(page(client_for(users[seat]), f"/play/{game.pk}/panel/", lang))
    assert {"nl": "Jouw zet: een ", "de": "Dein Zug: ei", "it": "La tua mossa: "}[lang] in pending
    assert "waiting for the others" not in pending


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_end_and_the_replay_speak_the_readers_language(start_game, client, lang):
    game = start_game(SLUG, [None, None, None], seed=5)
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished"
    says(board(page(client, f"/play/{game.pk}/", lang)), END[lang], ENGLISH_END + ENGLISH_MIDDLE)
    last = game.moves.count()
    replay = board(page(client, f"/play/{game.pk}/replay/?step={last // 2}", lang))
    says(replay, MIDDLE[lang][1:], ENGLISH_END + ENGLISH_MIDDLE + ["Rift of"])


def test_the_history_sentences_are_whole_in_each_language():
    names = ["ann", "bo"]
    stop = {"type": "stop", "seat": 0, "turn": 1, "map": 1, "cell": [6, 5]}
    trail = {"type": "trail", "seat": 1, "turn": 2, "map": 0, "from": [0, 3], "to": [2, 5], "corner": [2, 3]}
    end = {"type": "game_over", "seat": None, "turn": 9, "winners": [0, 1], "points": 12}
    expected = {
        "nl": ["ann tekende een Halte op F7 op de kaart van bo.",
               "bo tekende een Pad van D1 naar F3 via D3 op de kaart van ann.",
               "Het spel is afgelopen: ann en bo delen de eerste plaats met 12 punten."],
        "de": ["ann zeichnete auf der Karte von bo eine Station auf F7.",
               "bo zeichnete auf der Karte von ann einen Pfad von D1 nach F3 über D3.",
               "Das Spiel ist vorbei: ann und bo teilen sich den ersten Platz mit 12 Punkten."],
        "it": ["ann ha disegnato una Tappa in F7 sulla mappa di bo.",
               "bo ha disegnato un Sentiero da D1 a F3 passando per D3 sulla mappa di ann.",
               "La partita è finita: ann e bo condividono il primo posto con 12 punti."],
    }
    for lang, lines in expected.items():
        with translation.override(lang):
            assert [presenter.describe(e, names) for e in (stop, trail, end)] == lines
    with translation.override("en"):
        assert presenter.describe(stop, names) == "ann drew a Stop at F7 on bo's map."


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_how_to_play_page_is_written_in_each_language(client, lang):
    text = page(client, f"/games/{SLUG}/how-to-play/", lang)
    says(text, HOW_TO[lang], ENGLISH_HOW_TO)
    assert text.count('<svg class="rvr-map thumb"') == 7


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_draw_says_why_in_the_readers_language(start_game, alice, bob, lang):
    game = start_game(SLUG, [alice, bob])
    # On the first turn a Stop may not touch an animal: (0, 0) is next to the one at (1, 1).
    draw = {"action": json.dumps({"type": "stop", "cell": [0, 0]}), "token": "", "version": game.version}
    response = client_for(alice).post(f"/play/{game.pk}/act/", draw, HTTP_ACCEPT_LANGUAGE=lang)
    text = html.unescape(response.content.decode())
    assert response.status_code == 400 and ILLEGAL[lang] in text and "cannot touch an animal" not in text
    with translation.override(lang), pytest.raises(IllegalAction) as refused:
        RULES.apply(game.state, 0, {"type": "stop", "cell": [0, 0]})
    assert refused.value.message == ILLEGAL[lang]
    with translation.override("en"), pytest.raises(IllegalAction, match="cannot touch an animal"):
        RULES.apply(game.state, 0, {"type": "stop", "cell": [0, 0]})


def test_the_maps_are_drawn_with_the_same_numbers_in_every_language(start_game, alice, bob, charlie):
    users = [alice, bob, charlie]
    game = play(start_game(SLUG, users, options={"boards": "asymmetrical"}), users, 8, random.Random(4))
    c = client_for(users[game.to_act()[0]])
    english = geometry(page(c, f"/play/{game.pk}/", "en"))
    assert re.search(r"'\d+\.\d+'", str(english))                # fractions that nl/de/it would write 1,5
    for lang in LANGUAGES:
        assert geometry(page(c, f"/play/{game.pk}/", lang)) == english, lang
    how_to = geometry(page(c, f"/games/{SLUG}/how-to-play/", "en"))
    assert geometry(page(c, f"/games/{SLUG}/how-to-play/", "de")) == how_to
