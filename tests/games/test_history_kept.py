"""The History keeps each event's sentence once written (games.presenters.sentence_writer,
issue 21): a kept sentence must read exactly as a fresh one, in every language and for every
audience, must never carry what an audience's own view does not hold, and must follow an
undo. A finished game's rating changes are read once per game object, not once per render."""
from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from tests.fixtures import play_random_moves
from games import engine, presenters
from games.panel import numbered_history, render_panel_for_seat, seat_names

pytestmark = pytest.mark.django_db
VOLATILE = re.compile(r'[0-9a-f]{32}|data-revision="[^"]*"|data-now="[^"]*"')
LANGUAGES = ["en", "de", "it", "nl"]
GAMES = ["alpine-trails", "nanga-parbat", "rift-valley-reserve", "rifugio", "roll-to-the-top"]


@pytest.fixture(autouse=True)
def _no_kept_sentences():
    presenters.forget_sentences()
    yield
    presenters.forget_sentences()


def fresh_texts(slug, view, names):
    """The History's sentences as the presenter words them, keeping nothing."""
    return [presenters.describe(slug, event, names, view) for event in view.get("events", [])]


@pytest.mark.parametrize("slug", GAMES)
def test_kept_sentences_read_as_fresh_ones_for_every_audience_and_language(slug, start_game, alice, bob):
    game = play_random_moves(start_game(slug, [alice, bob]), [alice, bob], 30)
    names = seat_names(game)
    audiences = [0, 1, None]
    for _round in range(2):                       # the second round reads every sentence kept
        for language in LANGUAGES:
            with translation.override(language):
                for seat in audiences:
                    view = game.rules.view(game.state, seat)
                    kept = [entry["text"] for entry in presenters.history(slug, view, names)]
                    assert kept == fresh_texts(slug, view, names), (language, seat)
    with translation.override("de"):
        view = game.rules.view(game.state, None)
        german = [entry["text"] for entry in presenters.history(slug, view, names)]
    english = [entry["text"] for entry in presenters.history(slug, game.rules.view(game.state, None), names)]
    assert german and len(german) == len(english)


@pytest.mark.parametrize("slug", GAMES)
def test_a_panel_drawn_from_kept_sentences_is_the_panel_drawn_afresh(slug, start_game, alice, bob):
    game = play_random_moves(start_game(slug, [alice, bob]), [alice, bob], 30)
    for language in ("en", "de"):
        with translation.override(language):
            for seat in (0, 1, None):
                presenters.forget_sentences()
                afresh = VOLATILE.sub("", render_panel_for_seat(game, seat))
                kept = VOLATILE.sub("", render_panel_for_seat(game, seat))
                assert kept == afresh
                assert 'class="log"' in kept


class HiddenDraws:
    """A presenter whose seat sees its own card and the others see only that a card was drawn."""
    calls: list = []

    @staticmethod
    def describe(event, names):
        HiddenDraws.calls.append(event)
        if "card" in event:
            return f"{names[event['seat']]} drew the {event['card']}."
        return f"{names[event['seat']]} drew a card."


def test_a_sentence_is_never_served_to_an_audience_whose_view_lacks_its_data(monkeypatch):
    monkeypatch.setattr(presenters, "_module", lambda slug: HiddenDraws)
    HiddenDraws.calls = []
    names = ["Ann", "Ben"]
    own = {"events": [{"type": "draw", "seat": 0, "turn": 1, "card": "Queen of hearts"}]}
    others = {"events": [{"type": "draw", "seat": 0, "turn": 1}]}
    assert presenters.history("g", own, names)[0]["text"] == "Ann drew the Queen of hearts."
    assert presenters.history("g", others, names)[0]["text"] == "Ann drew a card."
    assert presenters.history("g", own, names)[0]["text"] == "Ann drew the Queen of hearts."
    assert len(HiddenDraws.calls) == 2            # each audience's event worded once, then kept


def test_each_sentence_is_written_once_per_language_and_names(monkeypatch):
    monkeypatch.setattr(presenters, "_module", lambda slug: HiddenDraws)
    HiddenDraws.calls = []
    view = {"events": [{"type": "draw", "seat": 1, "turn": t} for t in range(1, 41)]}
    for _ in range(3):
        presenters.history("g", view, ["Ann", "Ben"])
    assert len(HiddenDraws.calls) == 40
    with translation.override("de"):
        presenters.history("g", view, ["Ann", "Ben"])
    assert len(HiddenDraws.calls) == 80           # German sentences are written anew
    assert presenters.history("g", view, ["Ann", "Bea"])[0]["text"] == "Bea drew a card."
    assert len(HiddenDraws.calls) == 120          # so are sentences with another name


def test_a_presenter_that_reads_the_view_without_saying_what_keeps_nothing(monkeypatch):
    calls = []

    class InView:
        @staticmethod
        def describe_in_view(event, names, view):
            calls.append(1)
            return f"on {view['board']}"

    monkeypatch.setattr(presenters, "_module", lambda slug: InView)
    event = {"type": "x", "turn": 1}
    assert presenters.history("g", {"board": "A", "events": [event]}, ["Ann"])[0]["text"] == "on A"
    assert presenters.history("g", {"board": "B", "events": [event]}, ["Ann"])[0]["text"] == "on B"
    assert len(calls) == 2


def test_roll_to_the_top_keeps_a_sentence_per_board_it_names():
    """Its `describe_in_view` names a box as the board played names it: the same event reads
    differently on two boards, and the kept sentences follow the board (`describe_context`)."""
    from games.roll_to_the_top.rules import data

    slug, names = "roll-to-the-top", ["Ann"]
    event = {"type": "wrote", "seat": 0, "turn": 1, "game": 1, "numbers": [{"box": [2, 3], "value": 3}]}
    texts = set()
    for board in data.BOARD_ORDER:
        view = {"board": board, "board_plan": [board], "events": [event]}
        for _ in range(2):
            [entry] = presenters.history(slug, view, names)
            assert entry["text"] == presenters.describe(slug, event, names, view)
        texts.add(entry["text"])
    assert len(texts) > 1                         # the box "2,3" is not on every board


def test_after_an_undo_the_history_is_the_one_before_the_step(start_game, alice, bob):
    game = start_game("rifugio", [alice, bob], seed=8)
    users = {0: alice, 1: bob}
    while game.state["phase"] != "walk":
        seat = game.to_act()[0]
        game = engine.submit(game.pk, users[seat], game.rules.legal_actions(game.state, seat)[0]).game
    seat = game.to_act()[0]
    names = seat_names(game)

    def texts(g):
        return [e["text"] for e in numbered_history(g.game_slug, g.rules.view(g.state, seat), names)]
    before = texts(game)
    step = next(a for a in game.rules.legal_actions(game.state, seat) if a["type"] != "end_turn")
    after_step = texts(engine.submit(game.pk, users[seat], step).game)
    assert after_step != before                    # the step added its sentence, now kept
    undone = engine.undo(game.pk, users[seat]).game
    assert texts(undone) == before


def test_a_finished_games_rating_changes_are_read_once_for_every_audience(start_game, alice, bob):
    game = play_random_moves(start_game("nanga-parbat", [alice, bob]), [alice, bob], 400)
    assert not game.is_active and game.rated
    from games.models import Game

    game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    with CaptureQueriesContext(connection) as queries:
        for seat in (0, 1, None):
            render_panel_for_seat(game, seat)
    rating_reads = [q["sql"] for q in queries.captured_queries if "ratingevent" in q["sql"].lower()]
    assert len(rating_reads) == 1


def test_the_kept_sentences_are_bounded(monkeypatch):
    monkeypatch.setattr(presenters, "_module", lambda slug: HiddenDraws)
    monkeypatch.setattr(presenters, "SENTENCES_KEPT", 50)
    HiddenDraws.calls = []
    view = {"events": [{"type": "draw", "seat": 0, "turn": t} for t in range(1, 121)]}
    texts = [entry["text"] for entry in presenters.history("g", view, ["Ann"])]
    assert texts == ["Ann drew a card."] * 120
    assert presenters._kept_count[0] <= 50
    assert sum(len(kept) for kept in presenters._SENTENCES.values()) <= 50


def test_rift_valley_reserves_turn_by_turn_reuses_the_historys_sentences(start_game, alice, bob):
    from games.rift_valley_reserve.presenter import history_rows

    game = play_random_moves(start_game("rift-valley-reserve", [alice, bob]), [alice, bob], 40)
    names = seat_names(game)
    for seat in (0, 1, None):
        with translation.override("it"):
            view = game.rules.view(game.state, seat)
            written = numbered_history(game.game_slug, view, names)
            assert history_rows(view, names, written) == history_rows(view, names)
            assert history_rows(view, names, written)
