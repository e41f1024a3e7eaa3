"""Nanga Parbat in Dutch, German and Italian (issue 23): the board at the start, in the
middle and at the end, the history, the how-to-play page and the rules' refusals come in the
reader's language, English words do not leak through, and the SVG geometry is the same in
every language (no 1,5 for 1.5)."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

from games.models import Game
from games.nanga_parbat.rules import RULES
from games.rules.base import IllegalAction

from tests.fixtures import client_for
from .helpers import animal, camp, held, hiker, position

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"
LANGS = ("nl", "de", "it")
LOCALE = Path(__file__).resolve().parents[1] / "locale"


@pytest.fixture(scope="module", autouse=True)
def compiled_catalogues():
    """The game's .mo files, compiled from its .po files when missing or older (`make
    install` compiles them; this keeps the test honest when run straight after an edit)."""
    fresh = False
    for po in LOCALE.glob("*/LC_MESSAGES/django.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            tmp = mo.with_name(f"django.{os.getpid()}.mo")
            subprocess.run(["msgfmt", "--check", "-o", str(tmp), str(po)], check=True)
            os.replace(tmp, mo)
            fresh = True
    if fresh:   # forget catalogues Django loaded before these existed
        from django.utils.translation import trans_real
        trans_real._translations = {}
        trans_real._default = None


# What each language must say, and the English it replaces, per part of the site.
WORDS = {
    "nl": {
        "place_guide": "Zet de gids neer: kies de vlag van een regio.",
        "act": "Claim een plek, activeer dieren of beëindig je beurt.",
        "end_turn": "Beurt beëindigen",
        "chart": "Puntentabel",
        "path": "Scorespoor",
        "board_of": "Dierenbord van alice (van jou)",
        "first": "is geloot als startspeler",
        "trapped": "ving een",
        "follows": "De gids gaat naar regio",
        "over": "Einde van het spel (",
        "area": "Regiotelling, regio voor regio.",
        "wins": "wint!",
        "ended": "Het spel is afgelopen omdat",
        "howto": ["<strong>Vangen.</strong> Neem een dier uit de regio", "De zes soorten",
                  "sneeuwluipaard", "Regiotelling"],
        "refusal": "Die wandelaars zijn niet allemaal verbonden.",
        "not_yours": "In vak 14 staat geen wandelaar van jou.",
        "no_tahr": "Je hebt geen ongebruikte tahr.",
    },
    "de": {
        "place_guide": "Stelle den Bergführer auf: Wähle die Flagge einer Region.",
        "act": "Belege ein Feld, aktiviere Tiere oder beende deinen Zug.",
        "end_turn": "Zug beenden",
        "chart": "Punktetafel",
        "path": "Wertungsleiste",
        "board_of": "Tiertableau von alice (deins)",
        "first": "wurde als Startspieler gelost",
        "trapped": "gefangen.",
        "follows": "Der Bergführer geht in Region",
        "over": "Spielende (",
        "area": "Gebietswertung, Region für Region.",
        "wins": "gewinnt!",
        "ended": "Das Spiel ist zu Ende, weil",
        "howto": ["<strong>Fangen.</strong> Nimm ein Tier aus der Region", "Die sechs Arten",
                  "Schneeleopard", "Gebietswertung"],
        "refusal": "Diese Wanderer sind nicht alle verbunden.",
        "not_yours": "In Abschnitt 14 steht keiner deiner Wanderer.",
        "no_tahr": "Du hast keinen unbenutzten Tahr.",
    },
    "it": {
        "place_guide": "Piazza la guida: scegli la bandierina di una regione.",
        "act": "Occupa una casella, attiva animali o concludi il turno.",
        "end_turn": "Concludi il turno",
        "chart": "Tabella dei punti",
        "path": "Tracciato dei punti",
        "board_of": "Plancia degli animali di alice (la tua)",
        "first": "è stato sorteggiato come primo giocatore",
        "trapped": "ha catturato",
        "follows": "La guida va nella regione",
        "over": "Fine della partita (",
        "area": "Punteggio delle regioni, una regione alla volta.",
        "wins": "Vince ",
        "ended": "La partita è finita perché",
        "howto": ["<strong>Cattura.</strong> Prendi un animale dalla regione", "Le sei specie",
                  "leopardo delle nevi", "Punteggio delle regioni"],
        "refusal": "Quegli escursionisti non sono tutti collegati.",
        "not_yours": "Nella sezione 14 non c&#x27;è un tuo escursionista.",
        "no_tahr": "Non hai un tahr non attivato.",
    },
}
ENGLISH = {
    "place_guide": "Place the guide: choose a region's flag.",
    "act": "Claim a spot, activate animals or end your turn.",
    "end_turn": "End turn",
    "board_of": "animal board",
    "first": "was drawn to play first",
    "trapped": " trapped a",
    "follows": "The guide goes to region",
    "over": "Game over (",
    "area": "Area scoring, region by region.",
    "howto": ["<strong>Trap.</strong>", "The six species", "snow leopard", "exchange two animals"],
    "refusal": "not all connected",
}
# English the game itself writes on its board; any of them in a translated page is a leak.
GAME_ENGLISH = ["Points chart", "Scoring path", "Show on the mountain", "Whole mountain", "Hikers left",
                "Camps left", "Cubes left", "first player", "second player", "held", "the guide is in region",
                "Region 1, section", "musk deer", "red panda", "snow leopard", "click to", "Your move:",
                "Animals: S snow leopard"]


def get(client, url: str, lang: str, **params) -> str:
    response = client.get(url, params, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


def board_part(html: str) -> str:
    """The game's own board (the platform's frame around it belongs to others)."""
    start = html.index('<section class="card board np')
    return html[start:html.index("</section>\n", html.index('class="np-legend'))]


def history_part(html: str) -> str:
    match = re.search(r'class="[^"]*\bhistory\b[^"]*".*?</(?:ol|ul)>', html, re.S)
    assert match, "the page shows the history"
    return match.group(0)


def geometry(html: str) -> list[tuple[str, str]]:
    """Every drawing attribute of the page's SVG, in order."""
    return re.findall(r'\s(x|y|x1|x2|y1|y2|cx|cy|r|rx|width|height|points|viewBox|transform)="([^"]*)"', html)


@pytest.fixture
def game(alice, bob, start_game):
    return start_game(SLUG, [alice, bob], seed=424242)


def mid_position() -> dict:
    """alice to act after her trap: a claim, two animals to use, a used tahr, bob's camp."""
    return position(phase="act", current=0, guide=2,
                    board={15: hiker(0), 21: hiker(0), 23: hiker(0), 44: hiker(0), 13: camp(1), 14: hiker(1),
                           35: animal("yak")},
                    seats={0: {"score": 4, "animals": held("tahr", "yak", "snow_leopard", "bharal", activated=(0,))},
                           1: {"score": 1, "animals": held("red_panda")}},
                    chart={("same", 0): 1})


@pytest.mark.parametrize("lang", LANGS)
def test_the_board_at_the_start_speaks_the_readers_language(game, alice, bob, charlie, lang):
    words = WORDS[lang]
    placer = [alice, bob][RULES.to_act(game.state)[0]]
    html = get(client_for(placer), f"/play/{game.pk}/", lang)
    board = board_part(html)
    assert words["place_guide"] in board and ENGLISH["place_guide"] not in board
    assert words["chart"] in board and words["path"] in board
    for english in GAME_ENGLISH:
        assert english not in board, english
    history = history_part(html)
    assert words["first"] in history and ENGLISH["first"] not in history
    spectator = board_part(get(client_for(charlie), f"/play/{game.pk}/", lang))
    for english in GAME_ENGLISH:
        assert english not in spectator, english


@pytest.mark.parametrize("lang", LANGS)
def test_the_board_in_the_middle_of_a_turn_and_its_choices(game, alice, lang):
    words = WORDS[lang]
    game.state = mid_position()
    game.save(update_fields=["state"])
    client = client_for(alice)
    board = board_part(get(client, f"/play/{game.pk}/", lang))
    assert words["act"] in board and ENGLISH["act"] not in board
    assert words["end_turn"] in board and f">{ENGLISH['end_turn']}<" not in board
    assert words["board_of"] in board and ENGLISH["board_of"] not in board
    for english in GAME_ENGLISH:
        assert english not in board, english
    # the multi-step choices: a claim and a swap, each with its counter and buttons
    for sel in ("c:camps-3", "i:15,21.c:camps-3", "a:snow_leopard", "a:yak", "a:yak.r:3"):
        panel = board_part(get(client, f"/play/{game.pk}/panel/", lang, sel=sel))
        assert "Confirm" not in panel and "Cancel" not in panel and "chosen" not in panel, sel
        for english in GAME_ENGLISH:
            assert english not in panel, (sel, english)


@pytest.mark.parametrize("lang", LANGS)
def test_the_history_tells_the_moves_in_the_readers_language(game, alice, bob, lang):
    placer = RULES.to_act(game.state)[0]
    users = [alice, bob]
    client = client_for(users[placer])
    client.post(f"/play/{game.pk}/act/", {"action": '{"type": "place_guide", "region": 3}', "token": "", "version": ""})
    game.refresh_from_db()
    trapper = RULES.to_act(game.state)[0]
    trap = next(a for a in RULES.legal_actions(game.state, trapper) if a["type"] == "trap")
    client_for(users[trapper]).post(f"/play/{game.pk}/act/", {
        "action": f'{{"type": "trap", "section": {trap["section"]}}}', "token": "", "version": ""})
    history = history_part(get(client, f"/play/{game.pk}/", lang))
    words = WORDS[lang]
    for key in ("first", "trapped", "follows"):
        assert words[key] in history, key
        assert ENGLISH[key] not in history, key


@pytest.mark.parametrize("lang", LANGS)
def test_the_end_of_the_game_its_banner_and_its_history(start_game, alice, lang):
    game = start_game(SLUG, [None, None], seed=7, options={"area_scoring": True})
    assert not game.is_active
    words = WORDS[lang]
    html = get(client_for(alice), f"/play/{game.pk}/", lang)
    board = board_part(html)
    assert words["wins"] in board and words["ended"] in board
    assert "wins!" not in board and "The game ended because" not in board
    history = history_part(html)
    for key in ("over", "area", "trapped"):
        assert words[key] in history, key
        assert ENGLISH[key] not in history, key


@pytest.mark.parametrize("lang", LANGS)
def test_the_how_to_play_page_exists_in_the_readers_language(client, lang):
    html = get(client, f"/games/{SLUG}/how-to-play/", lang)
    article = html[html.index('<article class="card how-to-play'):html.index("</article>")]
    for words in WORDS[lang]["howto"]:
        assert words in article, words
    for english in ENGLISH["howto"]:
        assert english not in article, english


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_action_comes_back_in_the_readers_language(game, alice, lang):
    game.state = mid_position()
    game.save(update_fields=["state"])
    before = Game.objects.get(pk=game.pk).state
    client = client_for(alice)
    response = client.post(f"/play/{game.pk}/act/", {
        "action": '{"type": "claim", "row": "camps", "col": 3, "sections": [14, 15, 23]}',
        "token": "", "version": ""}, HTTP_ACCEPT_LANGUAGE=lang)
    html = response.content.decode()
    assert 'role="alert"' in html
    assert WORDS[lang]["not_yours"] in html and "Section 14 does not hold one of your hikers." not in html
    assert Game.objects.get(pk=game.pk).state == before
    response = client.post(f"/play/{game.pk}/act/", {
        "action": '{"type": "claim", "row": "camps", "col": 3, "sections": [15, 21, 44]}',
        "token": "", "version": ""}, HTTP_ACCEPT_LANGUAGE=lang)
    html = response.content.decode()
    assert WORDS[lang]["refusal"] in html and ENGLISH["refusal"] not in html


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_refuse_in_the_active_language(lang):
    state = mid_position()
    with translation.override(lang), pytest.raises(IllegalAction) as refused:
        RULES.apply(state, 0, {"type": "activate", "animal": "tahr", "a": 15, "b": 16})
    assert refused.value.message == WORDS[lang]["no_tahr"]
    with translation.override("en"), pytest.raises(IllegalAction) as english:
        RULES.apply(state, 0, {"type": "activate", "animal": "tahr", "a": 15, "b": 16})
    assert english.value.message == "You have no unactivated tahr."


def test_the_drawings_have_the_same_geometry_in_every_language(game, alice, start_game, client):
    """nl, de and it write 1,5 for 1.5: every SVG number must stay as in English."""
    game.state = mid_position()
    game.save(update_fields=["state"])
    ended = start_game(SLUG, [None, None], seed=7, options={"area_scoring": True})
    pages = [(client_for(alice), f"/play/{game.pk}/", {}),
             (client_for(alice), f"/play/{game.pk}/panel/", {"sel": "a:snow_leopard"}),
             (client_for(alice), f"/play/{ended.pk}/", {}),
             (client, f"/games/{SLUG}/how-to-play/", {})]
    for who, url, params in pages:
        english = geometry(get(who, url, "en", **params))
        assert any("." in value for _, value in english)      # there are fractions to get wrong
        for lang in LANGS:
            assert geometry(get(who, url, lang, **params)) == english, (url, lang)
