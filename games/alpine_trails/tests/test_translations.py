"""Alpine Trails in Dutch, German and Italian (issue 23): the board at the start, in the middle
and at the end, the history, the how-to-play page and the refusals come in the reader's
language, with no English left over, and the SVG geometry is the same in every language."""
from __future__ import annotations

import json
import random
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from games.alpine_trails import presenter as P
from games.alpine_trails.rules import RULES
from games.alpine_trails.rules.bot import choose
from games.alpine_trails.rules.data import GOALS
from games.models import Game
from games.rules.base import IllegalAction

from tests.fixtures import client_for, post_action

pytestmark = pytest.mark.django_db
SLUG = "alpine-trails"
LANGUAGES = ("nl", "de", "it")

# Sentences each page must show, per language, and English ones it must not.
START = {
    "nl": ["Ronde 1 van 16", "Je getrokken tegels", "Ronde afronden", "Scoreblok", "Je kaart", "Omdraaien"],
    "de": ["Runde 1 von 16", "Deine gezogenen Plättchen", "Runde beenden", "Wertungsblock", "Deine Karte", "Umdrehen"],
    "it": ["Round 1 di 16", "Le tessere che hai pescato", "Termina il round", "Segnapunti", "La tua mappa", "Gira"],
}
START_EN = ["Round 1 of 16", "Your drawn tiles", "Finish round", "Score pad", "Your map", "Whole map",
            "left in the bag", "Open trail end", "Base camp", "habitat, 2 icons", "Longest path"]
HISTORY = {
    "nl": ["Ronde 1 van 16 begint.", "Ronde 3 van 16 begint.", "alice legde een", "met de padkant boven op"],
    "de": ["Runde 1 von 16 beginnt.", "Runde 3 von 16 beginnt.", "alice hat eine", "mit der Wegseite nach oben auf"],
    "it": ["Inizia il round 1 di 16.", "Inizia il round 3 di 16.", "alice ha piazzato una", "sul lato sentiero in"],
}
HISTORY_EN = ["begins.", "trail side up at", "terrain side up at", " placed a "]
END = {
    "nl": ["Eindkaarten", "Doelkaart", "Totaal", "Langste pad", "Watervallen", "meer +2", "krijgt"],
    "de": ["Karten am Spielende", "Zielkarte", "Summe", "Längster Weg", "Wasserfälle", "See +2", "erhält"],
    "it": ["Mappe finali", "Carta obiettivo", "Totale", "Percorso più lungo", "Cascate", "lago +2", "riceve"],
}
END_EN = ["Final maps", "Goal card", "Total</th>", "Longest path", "Waterfalls", "lake +2", " gets ",
          "Game over:", "mi path"]
HOW_TO_PLAY = {
    "nl": ["Iedere speler bouwt een eigen bergkaart", "Padkant boven", "Weekendwandelaar", "Berg-G.O.A.T.",
           "Bij gelijkspel wint het langere pad"],
    "de": ["Alle bauen aus quadratischen Plättchen", "Wegseite nach oben", "Wochenendwanderer", "Gipfelsammler",
           "Bei Gleichstand entscheidet der längere Weg"],
    "it": ["Ogni giocatore costruisce la propria mappa", "Lato sentiero in su", "Escursionista della domenica",
           "Collezionista di vette", "In caso di parità vince il percorso più lungo"],
}
HOW_TO_PLAY_EN = ["Each player builds their own mountain map", "Trail side up", "Weekend Wanderer", "Peak Bagger",
                  "Ties go to the longer path", "Its score pad", "trail side and terrain side", "mi path"]


@pytest.fixture(scope="module", autouse=True)
def catalogues():
    """The .mo files are built by make install, never committed: build them for this test."""
    call_command("compilemessages", locale=list(LANGUAGES), ignore_patterns=[".venv"], verbosity=0)
    translation.trans_real._translations = {}
    translation.trans_real._default = None


@pytest.fixture(autouse=True)
def english_afterwards():
    """A request leaves its language active in the thread (LocaleMiddleware never switches it
    back), and the rules' own tests, run later in the same process, expect English."""
    yield
    translation.deactivate()


def get(client: Client, url: str, lang: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


def visible(html: str) -> str:
    """The page's text without tags (English class names and ids are no text)."""
    return re.sub(r"<[^>]+>", " ", html)


def assert_language(html: str, wanted: list[str], english: list[str]) -> None:
    for words in wanted:
        assert words in html, words
    text = visible(html)
    for words in english:
        assert words not in text, words


GEOMETRY = re.compile(r'\b(viewBox|transform|x|y|width|height|d|rx|cx|cy|r|style)="([^"]*)"')


def geometry(html: str) -> list[tuple[str, str]]:
    return GEOMETRY.findall(html)


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def play_rounds(game, clients, rounds: int) -> Game:
    """Every seat plays the bot's moves (through the page) until `rounds` rounds are over."""
    n = 0
    while fresh(game).state["round"] <= rounds:
        state = fresh(game).state
        for seat, client in enumerate(clients):
            if seat in RULES.to_act(state):
                action = choose(state, seat, random.Random(n))
                assert post_action(client, game, action).status_code == 200
                n += 1
                break
    return fresh(game)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_board_at_the_start_speaks_the_readers_language(alice, bob, start_game, lang):
    game = start_game(SLUG, [alice, bob])
    html = get(client_for(alice), f"/play/{game.pk}/", lang)
    assert_language(html, START[lang], START_EN)
    goal = GOALS[game.state["seats"][0]["goal"]]
    with translation.override(lang):
        assert translation.gettext(goal["name"]) in html and translation.gettext(goal["text"]) in html
    assert goal["name"] not in html and goal["text"] not in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_board_and_history_in_the_middle_of_a_game(alice, bob, start_game, lang):
    game = start_game(SLUG, [alice, bob])
    game = play_rounds(game, [client_for(alice), client_for(bob)], 3)
    html = get(client_for(alice), f"/play/{game.pk}/", lang)
    assert_language(html, HISTORY[lang], HISTORY_EN + ["as of round", "(seat "])
    assert {"nl": "Ronde 4 van 16", "de": "Runde 4 von 16", "it": "Round 4 di 16"}[lang] in html
    assert {"nl": "stand na ronde 3", "de": "Stand nach Runde 3", "it": "situazione dopo il round 3"}[lang] in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_final_board_and_its_replay(alice, start_game, lang):
    game = fresh(start_game(SLUG, [None, None]))
    html = get(client_for(alice), f"/play/{game.pk}/", lang)
    assert_language(html, END[lang], END_EN)
    for s in game.state["seats"]:
        assert GOALS[s["goal"]]["name"] not in visible(html)
    replay = get(Client(), f"/play/{game.pk}/replay/?step={game.version}", lang)
    assert_language(replay, END[lang][1:4], END_EN[1:4])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_solo_game_ends_with_a_translated_title(start_game, lang):
    game = fresh(start_game(SLUG, [None], seed=2))
    html = get(Client(), f"/play/{game.pk}/", lang)
    title = RULES.view(game.state, None)["result"]["title"]
    with translation.override(lang):
        shown = translation.gettext(title) if title else None
        expected = ({"nl": "Solorang", "de": "Solo-Rang", "it": "Grado in solitario"}[lang] if title
                    else translation.gettext("No title this time (85 points earn “Weekend Wanderer”)."))
    assert expected in html and "Solo rank" not in html and "No title this time" not in html
    if shown:
        assert shown in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_how_to_play_page(client, lang):
    html = get(client, _how_to_play_url(), lang)
    assert_language(html, HOW_TO_PLAY[lang], HOW_TO_PLAY_EN)


def _how_to_play_url() -> str:
    from django.urls import reverse
    return reverse("games:how_to_play", args=[SLUG])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_illegal_action_is_refused_in_the_readers_language(alice, bob, start_game, lang):
    game = start_game(SLUG, [alice, bob])
    tile = game.state["seats"][0]["hand"][0]
    taken = {"type": "place", "tile": tile, "side": "terrain", "x": 0, "y": 0}   # the base camp's square
    with translation.override(lang):
        wanted = translation.gettext("That square is already taken.")
    assert wanted != "That square is already taken."
    response = client_for(alice).post(f"/play/{game.pk}/act/", {"action": json.dumps(taken)},
                                      HTTP_ACCEPT_LANGUAGE=lang)
    html = response.content.decode()
    assert 'class="error' in html
    assert wanted in html and "That square is already taken." not in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_refuse_in_the_active_language(lang):
    state = RULES.setup(2, {}, 1)
    with translation.override(lang):
        with pytest.raises(IllegalAction) as refused:
            RULES.apply(state, 0, {"type": "animal", "animal": "bear", "x": 0, "y": 0})
        assert refused.value.message == translation.gettext("You have no bear to place.")
        assert "bear" not in refused.value.message
        with pytest.raises(IllegalAction) as refused:
            RULES.validate_options(7, {})
        assert "1" in refused.value.message and "5" in refused.value.message
        assert refused.value.message != "Alpine Trails is for 1 to 5 players."
    with translation.override("en"), pytest.raises(IllegalAction) as refused:
        RULES.validate_options(7, {})
    assert refused.value.message == "Alpine Trails is for 1 to 5 players."


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_reads_in_the_language_without_english(lang):
    names = ["Ada", "Bo"]
    events = [
        {"type": "round_start", "turn": 2, "rounds": 16, "seat": None},
        {"type": "place", "seat": 0, "tile": "T001", "side": "trail", "x": 1, "y": -1, "rotation": 0, "loops": 1},
        {"type": "place", "seat": 0, "tile": "T001", "side": "terrain", "x": 1, "y": -1},
        {"type": "campsite", "seat": 1, "x": 2, "y": 3, "miles": 7, "tile": "T002", "loops": 0},
        {"type": "waterfall", "seat": 0, "x": 0, "y": 1},
        {"type": "waterfall_lost", "seat": 0, "count": 2},
        {"type": "animal", "seat": 1, "animal": "goat", "x": 3, "y": 3},
        {"type": "discard", "seat": 1, "tile": "T040"},
        {"type": "trade_fork", "seat": 0, "tile": "T033", "animal": "bear"},
        {"type": "gift", "seat": 0, "to": 1, "animal": "moose", "terrain": "wetland"},
        {"type": "end_animals", "seat": 1, "count": 1},
        {"type": "lakes", "seat": 0, "count": 3},
        {"type": "game_over", "seat": None, "winners": [0, 1], "points": 88, "solo": False},
        {"type": "game_over", "seat": None, "winners": [0], "points": 120, "solo": True},
    ]
    with translation.override("en"):
        english = [P.describe(e, names) for e in events]
    with translation.override(lang):
        words = [P.describe(e, names) for e in events]
        done = P.describe_move({"type": "done"}, 1, names, {"round": 5})
    for en, text in zip(english, words, strict=True):
        assert text != en
        for word in ("placed", "made a campsite", "receives", "discarded", "traded", "gets", "Game over",
                     "Round ", " begins", "forest", "wetland", "goat", "moose", "bear", "mile"):
            assert word not in text, (word, text)
    assert "Bo" in done and "5" in done and "finished" not in done


@pytest.mark.parametrize("page", ["start", "end", "how-to-play"])
def test_svg_geometry_is_the_same_in_german_as_in_english(alice, bob, start_game, page):
    if page == "how-to-play":
        url, client = _how_to_play_url(), Client()
    else:
        game = start_game(SLUG, [alice, bob] if page == "start" else [None, None])
        url, client = f"/play/{game.pk}/", client_for(alice)
    en, de = geometry(get(client, url, "en")), geometry(get(client, url, "de"))
    assert len(en) > 50
    assert de == en
    assert not any(re.search(r"\d,\d+[^\d,)]", value) for name, value in de if name in ("x", "y", "width", "height"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_side_score_card_names_its_categories_in_the_language(lang):
    from games.presenters import breakdown_label
    with translation.override("en"):
        english = [breakdown_label(SLUG, key) for key, _label in P.PAD_ROWS]
    assert english == [label for _key, label in P.PAD_ROWS]
    with translation.override(lang):
        words = [breakdown_label(SLUG, key) for key, _label in P.PAD_ROWS]
    assert words[0] == {"nl": "Bos", "de": "Wald", "it": "Bosco"}[lang]
    assert not set(words) & set(english)
