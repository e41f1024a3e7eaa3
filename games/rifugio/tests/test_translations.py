"""Rifugio in Dutch, German and Italian (issue 23): the board (start, mid-game, end; base
game and Rivers & Rafts), the history, the refusals and the how-to-play page read in the
reader's language with the rulebook's own words, and the SVG geometry stays the same."""
from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.models import Game
from games.rifugio import presenter
from games.rifugio.rules import RULES
from games.rifugio.tests.helpers import add_raft, position, put
from games.rules.base import IllegalAction
from tests.fixtures import client_for, post_action

pytestmark = pytest.mark.django_db
SLUG = "rifugio"
LANGS = ("nl", "de", "it")

# The printed rulebook's words (shared/seeds/rifugio_rivers_and_rafts.rulebook.txt) for Raft,
# River, Waterfall and Extra step, and the site's sentences that must read translated.
RULEBOOK = {
    "nl": {"raft": "Raft-puntenkaart", "river": "Rivier", "waterfall": "waterval", "extra": "Extra-stapkaart"},
    "de": {"raft": "Floß-Punkte-Karte", "river": "Fluss", "waterfall": "Wasserfall", "extra": "Extra-Schritt-Karte"},
    "it": {"raft": "punti Zattera", "river": "Fiume", "waterfall": "cascata", "extra": "carta mossa extra"},
}
BOARD = {
    "nl": ["Tegel om aan te leggen", "Raft-puntenkaarten, elk 2 punten", "Extra-stapkaarten, 0 punten", "Gras", "Bos"],
    "de": ["Feld zum Anlegen", "Floß-Punkte-Karten, je 2 Punkte", "Extra-Schritt-Karten, 0 Punkte", "Wald", "Fels"],
    "it": ["Tessera da collegare", "Carte punti Zattera, 2 punti ciascuna", "Carte mossa extra, 0 punti", "Bosco"],
}
ENGLISH_BOARD = ["Tile to place", "Raft-point cards, 2 points each", "Extra-step cards, 0 points", "<dd>Meadow</dd>",
                 "Steps left", "on the move", "Rotate left"]
FINAL = {"nl": ["Eindtelling", "Watervalbonus", "Raft-puntenkaarten"],
         "de": ["Schlusswertung", "Wasserfall-Bonus", "Floß-Punkte-Karten"],
         "it": ["Punteggio finale", "Bonus cascata", "Carte punti Zattera"]}
HOW_TO = {"nl": ["Niemand loopt over water", "Een beurt heeft twee delen", "Raft", "Rivier", "Extra-stapkaart"],
          "de": ["Niemand läuft übers Wasser", "Ein Spielzug hat zwei Teile", "Floß", "Fluss", "Extra-Schritt-Karte"],
          "it": ["Nessuno cammina sull'acqua", "Un turno ha due parti", "Zattera", "Fiume", "carta mossa extra"]}
ENGLISH_HOW_TO = ["Nobody walks on water", "A turn has two parts", "extra-step card", "Ada holds a pass",
                  "Points per card", "Flower, animal, pass, mountaintop"]
# Numbers in the SVG: attributes with coordinates, sizes and transforms, and the map's column count.
GEOMETRY = re.compile(r'(?<![\w-])(?:points|viewBox|transform|[xy][12]?|c[xy]|r|width|height|d)="([^"]*)"'
                      r'|--rf-cols: ([^"]*)"')


@pytest.fixture(autouse=True)
def english_afterwards():
    """A request activates its language for the thread (LocaleMiddleware) and nothing resets
    it: later tests that call the rules directly would read Italian. Back to English."""
    yield
    translation.deactivate()


def page(client, url: str, lang: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


def board_part(html: str) -> str:
    """The board (the part of the page this game draws), without the site's frame."""
    return html[html.index('<section class="card board rf'):]


def geometry(html: str) -> list[str]:
    return [a or b for a, b in GEOMETRY.findall(html)]


@pytest.fixture
def game(start_game, alice, bob):
    return start_game(SLUG, [alice, bob], seed=5)


@pytest.fixture
def finished(start_game):
    game = start_game(SLUG, [None, None], seed=11)
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("lang", LANGS)
def test_the_board_at_the_start_reads_in_the_language(game, alice, lang):
    html = board_part(page(client_for(alice), f"/play/{game.pk}/", lang))
    for words in BOARD[lang]:
        assert words in html, words
    for words in ENGLISH_BOARD:
        assert words not in html, words
    assert RULEBOOK[lang]["raft"].lower() in html.lower()


def test_the_board_geometry_is_the_same_in_every_language(game, finished, alice):
    """The SVG numbers are never localized (de, it and nl write 1,5): identical in all four."""
    for g in (game, finished):
        english = geometry(board_part(page(client_for(alice), f"/play/{g.pk}/", "en")))
        assert english and any("." in value for value in english)
        for lang in LANGS:
            assert geometry(board_part(page(client_for(alice), f"/play/{g.pk}/", lang))) == english, lang
    english = geometry(page(client_for(alice), "/games/rifugio/how-to-play/", "en"))
    assert geometry(page(client_for(alice), "/games/rifugio/how-to-play/", "de")) == english


@pytest.mark.parametrize("lang", LANGS)
def test_mid_game_replay_end_and_history_read_in_the_language(finished, alice, lang):
    client = client_for(alice)
    middle = page(client, f"/play/{finished.pk}/replay/?step={finished.moves.count() // 2}", lang)
    assert 'class="rf-map"' in middle and "Tile to place" not in middle
    end = page(client, f"/play/{finished.pk}/", lang)
    for words in FINAL[lang]:
        assert words in end, words
    for words in ("Final scoring", "Waterfall bonus", "The map at the end", "Raft cards"):
        assert words not in board_part(end), words
    # the history: the game's events in words, in the reader's language
    names = ["Ada", "Bea"]
    view = RULES.view(finished.state, None)
    with translation.override(lang):
        lines = [presenter.describe(e, names) for e in view["events"]]
    with translation.override("en"):
        english = [presenter.describe(e, names) for e in view["events"]]
    assert lines and all(a != b for a, b in zip(lines, english, strict=True) if "(" in b)
    assert not any(" placed a " in line or " ended their turn." in line for line in lines)
    history = end[end.index('class="log"'):]
    assert "ended their turn" not in history and " placed a " not in history


@pytest.mark.parametrize("lang", LANGS)
def test_the_base_game_reads_in_the_language(start_game, alice, bob, lang):
    base = start_game(SLUG, [alice, bob], options={"rivers_and_rafts": False}, seed=3)
    html = board_part(page(client_for(alice), f"/play/{base.pk}/", lang))
    assert {"nl": "basisspel", "de": "Basisspiel", "it": "gioco base"}[lang] in html
    assert "base game" not in html and BOARD[lang][1] not in html   # no raft cards in the base game


def test_events_use_the_rulebooks_words():
    """Raft, River, Waterfall, Extra step: each language's printed rulebook words."""
    names = ["Ada", "Bea"]
    events = [{"type": "raft_visit", "seat": 0, "owner": 1, "raft": 0, "at": [1, 0]},
              {"type": "extra_step", "seat": 0},
              {"type": "sailed", "seat": 0, "owner": 1, "raft": 0, "to": [2, 0], "carried": [1]},
              {"type": "placed", "seat": 1, "tile": "WF1", "at": [1, 1], "rotation": 0},
              {"type": "game_over", "seat": None, "winners": [0, 1]}]
    expected = {
        "nl": ["Ada stapte op de Raft van Bea: Bea krijgt een Raft-puntenkaart, Ada een extra stap.",
               "Ada gebruikte een Extra-stapkaart.", "Ada voer met de Raft van Bea naar (2,0) en nam Bea mee.",
               "Bea legde Waterval 1 (waterval) aan op (1,1).", "Het spel is voorbij. Ada en Bea winnen."],
        "de": ["Ada betrat das Floß von Bea: Bea erhält eine Floß-Punkte-Karte, Ada einen Extra-Schritt.",
               "Ada setzte eine Extra-Schritt-Karte ein.",
               "Ada segelte mit dem Floß von Bea nach (2,0) und nahm Bea mit.",
               "Bea legte Wasserfall 1 (Wasserfall) bei (1,1) an.", "Das Spiel ist vorbei. Ada und Bea gewinnen."],
        "it": ["Ada ha preso posto sulla Zattera di Bea: Bea riceve una carta punti Zattera, Ada una mossa extra.",
               "Ada ha usato una carta mossa extra.",
               "Ada ha navigato con la Zattera di Bea fino a (2,0), portando con sé Bea.",
               "Bea ha collegato Cascata 1 (cascata) in (1,1).", "La partita è finita. Vincono Ada e Bea."],
    }
    for lang, lines in expected.items():
        with translation.override(lang):
            assert [presenter.describe(e, names) for e in events] == lines
    with translation.override("en"):
        assert presenter.describe(events[1], names) == "Ada used an extra-step card."


@pytest.mark.parametrize("lang", LANGS)
def test_how_to_play_reads_in_the_language(client, lang):
    html = page(client, "/games/rifugio/how-to-play/", lang)
    for words in HOW_TO[lang]:
        assert words in html, words
    for words in ENGLISH_HOW_TO:
        assert words not in html, words
    assert html.count('class="rf-map rf-diagram"') == 4


@pytest.mark.parametrize("lang, words", [
    ("nl", "Een tegel moet aan een tegel grenzen die al op het speelveld ligt."),
    ("de", "Ein Feld muss an ein Feld grenzen, das schon in der Landschaft liegt."),
    ("it", "Una tessera deve toccare una tessera già presente sulla mappa."),
])
def test_a_refused_action_comes_back_in_the_language(game, alice, bob, lang, words):
    seat = game.state["active"]
    client = client_for([alice, bob][seat])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    response = post_action(client, game, {"type": "place_tile", "q": 40, "r": 40, "rotation": 0}, token="x",
                           version=game.version)
    html = response.content.decode()
    assert response.status_code == 400 and words in html
    assert "Tiles must touch a tile already on the map." not in html


def test_the_rules_refuse_in_the_active_language():
    state = position(tiles={(1, 0): "WA01", (2, 0): "M01"})
    walk_on_water = {"type": "step", "to": [1, 0]}
    refusals = {"en": "You cannot walk on water.", "nl": "Je kunt niet over water lopen.",
                "de": "Du kannst nicht übers Wasser laufen.", "it": "Non puoi camminare sull’acqua."}
    for lang, words in refusals.items():
        with translation.override(lang), pytest.raises(IllegalAction) as info:
            RULES.apply(state, 0, walk_on_water)
        assert words in info.value.message
    aboard = position(tiles={(1, 0): "WA01", (0, 1): "WA02", (2, 0): "M01"})
    add_raft(aboard, 1, 1, 0)
    put(aboard, 0, 0, 0)
    with translation.override("de"), pytest.raises(IllegalAction) as info:
        RULES.apply(aboard, 0, {"type": "build_raft", "at": [1, 0]})
    assert info.value.message == "Auf diesem Wasserfeld liegt schon ein anderes Floß."
    with translation.override("it"), pytest.raises(IllegalAction) as info:
        RULES.apply(position(), 0, {"type": "place_tile", "q": 1, "r": 0, "rotation": 0})
    assert info.value.message == "Ora non ci sono tessere da collegare."
    # the placement check names the terrains in the language
    board = {"0,0": {"tile": "START", "rot": 0}, "1,0": {"tile": "PK1", "rot": 0}}
    from games.rifugio.rules.rules import placement_error
    with translation.override("de"):
        assert placement_error(board, "M01", 2, 0, 0) == \
            "Das Feld passt dort nicht: Seine Seite Gras würde an Gipfel grenzen."


@pytest.mark.parametrize("lang, label", [("nl", "Uitbreiding Rivers & Rafts"), ("de", "Erweiterung Rivers & Rafts"),
                                         ("it", "Espansione Rivers & Rafts")])
def test_option_and_score_labels_read_in_the_language(lang, label):
    with translation.override(lang):
        assert presenter.OPTION_SPECS["rivers_and_rafts"].get("label").startswith(label)
        assert presenter.BREAKDOWN_LABELS.get("waterfall_bonus") == {
            "nl": "Watervalbonus", "de": "Wasserfall-Bonus", "it": "Bonus cascata"}[lang]
    with translation.override("en"):
        assert presenter.BREAKDOWN_LABELS["raft_cards"] == "Raft cards"
