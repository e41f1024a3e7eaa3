"""The games platform speaks the player's language (issue 23): the play page, the result
screen of a resigned game, the replay and the turn mail, in Dutch, German and Italian,
with none of their English sentences left. The catalogues are games/locale's (compiled by
`make install`; the English pages are the existing tests')."""
from __future__ import annotations

import random

import pytest
from django.core import mail
from django.utils import translation

from games import engine
from games.models import Game
from games.rules import bot_for
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_afterwards():
    """A request leaves its language active in the thread: the next test starts in English."""
    yield
    translation.activate("en")
SLUG = "nanga-parbat"
LANGUAGES = ["nl", "de", "it"]

# What the platform says, by language: (English, translated).
PLAY = {
    "nl": [("Table options", "Tafelopties"), ("Abort the game", "Partij afbreken"),
           ("<h2>History</h2>", "<h2>Verloop</h2>"), ("How to play<", "Spelregels<")],
    "de": [("Table options", "Tischoptionen"), ("Abort the game", "Partie abbrechen"),
           ("<h2>History</h2>", "<h2>Verlauf</h2>"), ("How to play<", "Spielregeln<")],
    "it": [("Table options", "Opzioni del tavolo"), ("Abort the game", "Annulla la partita"),
           ("<h2>History</h2>", "<h2>Cronologia</h2>"), ("How to play<", "Come si gioca<")],
}
RESULT = {
    "nl": [("Final result", "Eindresultaat"), ("Watch the replay", "Bekijk de herhaling"),
           ("Game over.", "De partij is voorbij."), ("Offer a rematch", "Revanche aanbieden"),
           ("alice resigned on move {move}.", "alice gaf op bij zet {move}."),
           ("<strong>1st</strong>", "<strong>1e</strong>")],
    "de": [("Final result", "Endergebnis"), ("Watch the replay", "Wiederholung ansehen"),
           ("Game over.", "Die Partie ist vorbei."), ("Offer a rematch", "Revanche anbieten"),
           ("alice resigned on move {move}.", "alice hat bei Zug {move} aufgegeben."),
           ("<strong>1st</strong>", "<strong>1.</strong>")],
    "it": [("Final result", "Risultato finale"), ("Watch the replay", "Guarda il replay"),
           ("Game over.", "Partita finita."), ("Offer a rematch", "Proponi la rivincita"),
           ("alice resigned on move {move}.", "alice ha abbandonato alla mossa {move}."),
           ("<strong>1st</strong>", "<strong>1º</strong>")],
}
REPLAY_START = {
    "nl": [("Start of the game", "Begin van de partij"), ("Scores at this point", "Scores op dit moment"),
           ("Final board", "Eindstand op het bord"), ("History to this move", "Verloop tot deze zet")],
    "de": [("Start of the game", "Beginn der Partie"), ("Scores at this point", "Punkte an dieser Stelle"),
           ("Final board", "Schlussstellung"), ("History to this move", "Verlauf bis zu diesem Zug")],
    "it": [("Start of the game", "Inizio della partita"), ("Scores at this point", "Punteggi a questo punto"),
           ("Final board", "Tabellone finale"), ("History to this move", "Cronologia fino a questa mossa")],
}
REPLAY_END = {
    "nl": [("How it ended:", "Zo eindigde het:"), ("Move <strong>{last}</strong> of {last}",
                                                  "Zet <strong>{last}</strong> van {last}")],
    "de": [("How it ended:", "So endete es:"), ("Move <strong>{last}</strong> of {last}",
                                               "Zug <strong>{last}</strong> von {last}")],
    "it": [("How it ended:", "Com'è finita:"), ("Move <strong>{last}</strong> of {last}",
                                               "Mossa <strong>{last}</strong> di {last}")],
}
TURN_MAIL = {
    "nl": ("Jouw zet in Nanga Parbat #{pk}", ["Hallo {name},", "Speel hier:", "Stop deze e-mails met één klik:"]),
    "de": ("Dein Zug in Nanga Parbat #{pk}", ["Hallo {name},", "Hier spielen:", "Diese E-Mails mit einem Klick"]),
    "it": ("Tocca a te in Nanga Parbat #{pk}", ["Ciao {name},", "Gioca qui:", "Interrompi queste e-mail con un clic:"]),
}
MAIL_ENGLISH = ["Your move in", "Play it here:", "Stop these e-mails", "is waiting for your move",
                "You get at most one such e-mail"]


def assert_speaks(html: str, pairs, **values) -> None:
    for english, translated in pairs:
        assert translated.format(**values) in html
        assert english.format(**values) not in html


def page(user, url: str, language: str) -> str:
    response = client_for(user).get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response.headers["Content-Language"] == language
    return response.content.decode()


def played(game, users, moves: int) -> Game:
    for step in range(moves):
        game = Game.objects.get(pk=game.pk)
        seat = game.to_act()[0]
        engine.submit(game.pk, users[seat], bot_for(SLUG).choose(game.state, seat, random.Random(step)))
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def resigned(start_game, alice, bob):
    """A two-player game alice resigned after a few moves: over, with a result."""
    game = played(start_game(SLUG, [alice, bob]), {0: alice, 1: bob}, 3)
    engine.resign(game.pk, alice)
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_play_page_speaks_the_players_language(language, start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    assert_speaks(page(alice, f"/play/{game.pk}/", language), PLAY[language])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_result_of_a_resigned_game_speaks_the_players_language(language, resigned, bob):
    html = page(bob, f"/play/{resigned.pk}/", language)
    assert_speaks(html, RESULT[language], move=resigned.ended_on_move)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_replay_speaks_the_viewers_language(language, resigned, bob):
    assert_speaks(page(bob, f"/play/{resigned.pk}/replay/?step=0", language), REPLAY_START[language])
    last = resigned.version
    html = page(bob, f"/play/{resigned.pk}/replay/?step={last}", language)
    assert_speaks(html, REPLAY_END[language], last=last)
    assert_speaks(html, RESULT[language][4:5], move=resigned.ended_on_move)


def test_a_replay_step_is_cached_per_language(resigned, bob):
    """The fragment cache holds one step in every language it was asked in."""
    client = client_for(bob)
    url = f"/play/{resigned.pk}/replay/?step=0"
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de", HTTP_HX_REQUEST="true").content.decode()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en", HTTP_HX_REQUEST="true").content.decode()
    assert "Beginn der Partie" in german and "Start of the game" in english


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_turn_mail_speaks_the_recipients_language(language, start_game, alice, bob, run_tasks):
    from django.core.cache import caches

    caches["presence"].clear()  # nobody is on the site: the mail goes out
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=2)
    user = {0: alice, 1: bob}[game.to_act()[0]]
    user.language = language  # the recipient's setting; the worker's own language is English
    user.save(update_fields=["language"])
    run_tasks(only="send_turn_mail")
    [message] = mail.outbox
    subject, sentences = TURN_MAIL[language]
    assert message.subject == subject.format(pk=game.pk)
    for sentence in sentences:
        assert sentence.format(name=user.username) in message.body
    for english in MAIL_ENGLISH:
        assert english not in message.body and english not in message.subject


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_engine_refuses_in_the_players_language(language, start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    waiting = {0: alice, 1: bob}[1 - game.to_act()[0]]
    with translation.override(language), pytest.raises(engine.Rejected) as refused:
        engine.submit(game.pk, waiting, {"type": "anything"})
    assert refused.value.message == {"nl": "Je bent niet aan de beurt.", "de": "Du bist nicht am Zug.",
                                     "it": "Non è il tuo turno."}[language]


def test_option_lines_seat_names_and_clocks_are_worded_in_the_active_language(start_game, alice):
    from games.models import Seat
    from games.presenters import ordinal, players_label
    from games.rules import get
    from games.templatetags.game_tags import clock

    with translation.override("de"):
        assert [ordinal(n) for n in (1, 2, 11)] == ["1.", "2.", "11."]
        assert clock(2 * 86400 + 3 * 3600) == "2T 3Std"
        assert Seat(index=2, is_bot=True).name == "Bot 3"
        assert players_label(get("rifugio")).endswith("Spieler")
    with translation.override("it"):
        assert Seat(index=1).name == "Posto 2"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 21)] == ["1st", "2nd", "3rd", "4th", "11th", "21st"]
