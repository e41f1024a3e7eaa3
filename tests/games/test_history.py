"""The history is drawn from events (data) through the game's describe(), or from a
legacy prose log with seat numbers swapped for names."""
from __future__ import annotations

import pytest

from games import presenters


@pytest.fixture(autouse=True)
def _no_kept_sentences():
    """These tests swap the presenter: no sentence kept by another test may answer them."""
    presenters.forget_sentences()
    yield
    presenters.forget_sentences()


def test_events_are_put_into_words_by_the_games_describe(monkeypatch):
    class Presenter:
        @staticmethod
        def describe(event, names):
            return f"{names[event['seat']]} trapped in {event['section']}"

    monkeypatch.setattr(presenters, "_module", lambda slug: Presenter)
    view = {"events": [{"type": "trap", "seat": 1, "section": 14, "turn": 3}]}
    [entry] = presenters.history("any", view, ["Ann", "Ben"])
    assert entry == {"turn": 3, "seat": 1, "event": view["events"][0], "text": "Ben trapped in 14"}


def test_a_legacy_log_names_the_seats(monkeypatch):
    monkeypatch.setattr(presenters, "_module", lambda slug: None)
    [entry] = presenters.history("any", {"log": ["Seat 2 passed; Seat 9 is unknown"]}, ["Ann", "Ben"])
    assert entry["text"] == "Ben passed; Seat 9 is unknown"
    assert entry["turn"] is None


def test_every_registered_game_has_a_history_that_reads(start_game, alice, bob):
    from games import rules as registry

    for ruleset in registry.all():
        users = [alice, bob][: max(ruleset.min_players, 2)] if ruleset.max_players >= 2 else [alice]
        game = start_game(ruleset.slug, users)
        view = ruleset.view(game.state, None)
        for entry in presenters.history(ruleset.slug, view, ["alice", "bob"]):
            assert isinstance(entry["text"], str) and entry["text"]
