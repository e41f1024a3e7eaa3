"""Roll to the Top in Dutch, German and Italian (issue 23): the board at the start, in the
middle and at the end, the history, the how-to-play page and a refused move, each in the
reader's language, with no English sentence left and the SVG drawn exactly as in English."""
from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.roll_to_the_top.presenter import describe
from games.roll_to_the_top.rules import RULES
from games.rules.base import IllegalAction

from tests.fixtures import client_for, post_action

from .helpers import place, write_state

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"
LANGUAGES = ("nl", "de", "it")
EVERY = ("en", *LANGUAGES)   # English too: the English pages say what they always said

# What the pages say, per language (the English is what they must no longer say).
START = {
    "en": ["Your sheet", "Write phase", "Pick one or more dice, then a highlighted box.",
           "Starting pool:", "rolls first."],
    "nl": ["Jouw blad", "Schrijffase", "Kies een of meer dobbelstenen en dan een gemarkeerd vakje.",
           "Startpool:", "gooit als eerste."],
    "de": ["Dein Blatt", "Schreibphase", "Wähle einen oder mehrere Würfel, dann ein markiertes Feld.",
           "Start-Pool:", "würfelt zuerst."],
    "it": ["Il tuo foglio", "Fase di scrittura", "Scegli uno o più dadi, poi una casella evidenziata.",
           "Pool iniziale:", "Inizia a tirare"],
}
MIDDLE = {  # the action die's phase after a five-dice roll: the resolver removes a die
    "en": ["Action phase", "Five dice were rolled: one must be removed.", "remove a die", "Remove d4",
           " wrote ", "in row 1, box", "is done.", "must remove a die"],
    "nl": ["Actiefase", "Er zijn vijf dobbelstenen gegooid: er moet er een uit.", "een dobbelsteen verwijderen",
           "d4 verwijderen", " schreef ", "in rij 1, vakje", "is klaar.", "moet een dobbelsteen verwijderen"],
    "de": ["Aktionsphase", "Es wurden fünf Würfel geworfen: einer muss raus.", "einen Würfel entfernen",
           "d4 entfernen", " schrieb ", "in Reihe 1, Feld", "ist fertig.", "muss einen Würfel entfernen"],
    "it": ["Fase azione", "Sono stati tirati cinque dadi: uno va tolto.", "togliere un dado",
           "Togli d4", " ha scritto ", "in riga 1, casella", "ha finito.", "deve togliere un dado"],
}
END = {
    "en": ["Over phase", "The game is over. Winner", 'status-finished">finished<'],
    "nl": ["Eindfase", "Het spel is voorbij. Winnaar", 'status-finished">uitgespeeld<'],
    "de": ["Endphase", "Das Spiel ist vorbei. Gewonnen ha", 'status-finished">beendet<'],
    "it": ["Fase finale", "La partita è finita. Vinc", 'status-finished">terminato<'],
}
HOW_TO_PLAY = {
    "en": ["Everyone gets the same postcard", "The six boards", "Stone Arch", "Reverse mode", "Rounds mode",
           "A good first board.", "Between 20 and 500 turns per game"],
    "nl": ["Iedereen krijgt dezelfde ansichtkaart", "De zes borden", "Stenen boog", "Omgekeerde modus",
           "Rondemodus", "Een goed bord om mee te beginnen.", "Tussen 20 en 500 beurten per partij"],
    "de": ["Alle bekommen dieselbe Postkarte", "Die sechs Spielpläne", "Steinbogen", "Umkehrmodus",
           "Rundenmodus", "Ein guter erster Spielplan.", "Zwischen 20 und 500 Zügen pro Partie"],
    "it": ["Tutti ricevono la stessa cartolina", "I sei tabelloni", "Arco di pietra", "Modalità inversa",
           "Modalità Manche", "Un buon tabellone per cominciare.", "Tra 20 e 500 turni per partita"],
}
REFUSED = {"en": "Pick at least one die.", "nl": "Kies minstens één dobbelsteen.",
           "de": "Wähle mindestens einen Würfel.", "it": "Scegli almeno un dado."}
TAKEN = {"en": "That box already has a number.", "nl": "Dat vakje heeft al een getal.",
         "de": "In diesem Feld steht schon eine Zahl.", "it": "Quella casella ha già un numero."}


@pytest.fixture(autouse=True)
def english_afterwards():
    """A request activates its reader's language for the rest of the thread (LocaleMiddleware
    does not switch back): later tests in this worker read English again."""
    yield
    translation.deactivate()


def get(client, url: str, lang: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, url
    return html.unescape(response.content.decode())


def says_all_and_no_english(text: str, table: dict, lang: str) -> None:
    for words in table[lang]:
        assert words in text, (lang, words)
    for words in table["en"]:
        if words not in table[lang]:
            assert words not in text, (lang, words)


GEOMETRY = re.compile(r'\s(viewBox|x|y|x1|y1|x2|y2|cx|cy|r|width|height)="([^"]*)"')


def svg_geometry(text: str) -> list[tuple[str, str]]:
    """Every geometry attribute of every SVG on the page, in order."""
    return [m for svg in re.findall(r"<svg.*?</svg>", text, re.S) for m in GEOMETRY.findall(svg)]


@pytest.fixture
def game(start_game, alice, bob):
    return start_game(SLUG, [alice, bob], seed=12, options={**RULES.default_options(), "start_pool": "all"})


@pytest.mark.parametrize("lang", EVERY)
def test_the_board_at_the_start_speaks_the_readers_language(game, alice, lang):
    text = get(client_for(alice), f"/play/{game.pk}/", lang)
    says_all_and_no_english(text, START, lang)
    if lang != "en":
        assert {"nl": "Beurt 1", "de": "Zug 1", "it": "Turno 1"}[lang] in text


@pytest.mark.parametrize("lang", EVERY)
def test_the_board_and_history_in_the_middle_of_a_game(game, alice, bob, lang):
    """Both seats write and finish: the action die's phase, its reason, the resolver's
    buttons and the History's sentences (numbers written, done, must) are translated."""
    first = next(a for a in RULES.legal_actions(game.state, 0) if a["type"] == "place")
    assert post_action(client_for(alice), game, first, token="a1").status_code == 200
    post_action(client_for(alice), game, {"type": "done"}, token="a2")
    post_action(client_for(bob), game, {"type": "done"}, token="b1")
    game.refresh_from_db()
    assert game.state["phase"] == "action" and game.state["action"]["effect"] == "REMOVE"
    resolver = [alice, bob][game.state["action"]["seat"]]
    text = get(client_for(resolver), f"/play/{game.pk}/", lang)
    says_all_and_no_english(text, MIDDLE, lang)


@pytest.mark.parametrize("lang", EVERY)
def test_a_finished_game_its_history_and_replay(start_game, client, lang):
    game = start_game(SLUG, [None, None], seed=4)
    game.refresh_from_db()
    text = get(client, f"/play/{game.pk}/", lang)
    says_all_and_no_english(text, END, lang)
    replay = get(client, f"/play/{game.pk}/replay/?step=3", lang)
    assert START[lang][3] in replay and (lang == "en" or "Starting pool:" not in replay)


@pytest.mark.parametrize("lang", EVERY)
def test_the_how_to_play_page(client, lang):
    text = get(client, reverse("games:how_to_play", args=[SLUG]), lang)
    says_all_and_no_english(text, HOW_TO_PLAY, lang)


@pytest.mark.parametrize("lang", EVERY)
def test_a_refused_move_says_why_in_the_players_language(game, alice, lang):
    no_dice = '{"type": "place", "box": [0, 0], "dice": []}'
    response = client_for(alice).post(f"/play/{game.pk}/act/", {"action": no_dice, "token": "x"},
                                      HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 400
    text = html.unescape(response.content.decode())
    assert REFUSED[lang] in text and (lang == "en" or REFUSED["en"] not in text)
    with translation.override(lang), pytest.raises(IllegalAction) as refused:
        RULES.apply(write_state("giza", roll={"d4": 1}, sheets=[{"0,0": 1}]), 0, place((0, 0), ["d4"]))
    assert refused.value.message == TAKEN[lang]


def test_the_history_is_worded_when_read_not_when_played():
    """The same events read in each language (the state holds data, not sentences)."""
    state = RULES.setup(2, RULES.default_options(), 4)
    event = next(e for e in state["events"] if e["type"] == "roll")
    words = {}
    for lang in ("en", *LANGUAGES):
        with translation.override(lang):
            words[lang] = describe(event, ["Ann", "Bob"])
    assert words["en"].startswith("Turn 1: ") and len(set(words.values())) == 4
    assert words["de"].startswith("Zug 1: ") and "Aktionswürfel" in words["de"]


@pytest.mark.parametrize("lang", ["de", "nl", "it"])
def test_the_svg_geometry_is_the_same_in_every_language(game, alice, client, lang):
    """Numbers in SVG attributes are never localized (de/nl/it write 1,5 for 1.5)."""
    pages = [f"/play/{game.pk}/", reverse("games:how_to_play", args=[SLUG])]
    for reader, url in [(client_for(alice), pages[0]), (client, pages[0]), (client, pages[1])]:
        english, translated = svg_geometry(get(reader, url, "en")), svg_geometry(get(reader, url, lang))
        assert english and translated == english, url
        assert any("." in value for _, value in english)  # the small sheets have fractional sizes
        assert not any("," in value for _, value in translated)


def test_option_labels_and_score_card_categories_are_read_in_the_readers_language():
    """The platform reads OPTION_SPECS and BREAKDOWN_LABELS where it shows them (the
    create-table form, the option lines, the score card), so they follow the page."""
    from games import presenters

    options = {"board": "arch", "mode": "reverse", "start_pool": "all"}
    with translation.override("en"):
        assert presenters.describe_options(SLUG, options) == [
            "Board: Stone Arch", "Mode: Reverse (big numbers at the base)", "Starting dice: All five dice"]
    with translation.override("de"):
        assert presenters.describe_options(SLUG, options) == [
            "Spielplan: Steinbogen", "Modus: Umgekehrt (große Zahlen unten)", "Startwürfel: Alle fünf Würfel"]
        assert presenters.breakdown_label(SLUG, "current_empty") == "Leere Felder in dieser Partie"
    with translation.override("it"):
        assert presenters.describe_options(SLUG, {"board": "matterhorn"}) == ["Tabellone: Cervino"]
        assert presenters.breakdown_label(SLUG, "game_3") == "Partita 3"
    with translation.override("nl"):
        assert presenters.option_specs(SLUG)["board"]["choices"][-1] == ("random", "Willekeurig")
        assert presenters.breakdown_label(SLUG, "filled") == "Gevulde vakjes"
