"""Rift Valley Reserve's live board written in Python (games/rift_valley_reserve/board_html.py,
issue 21) draws what board.html draws outside its replay branch: both rendered on the same
real panels, byte for byte (same_markup's normalisation is reported first when they differ)."""
from __future__ import annotations

import pytest
from django.utils import translation

from games.panel import seat_panel_context
from games.rift_valley_reserve import presenter
from games.rift_valley_reserve.board_html import board_html
from tests.games.test_boards_in_python import positions, written_as_drawn

pytestmark = pytest.mark.django_db

NAME = "Bob <b>& 'co\""
SELECTING = ("rvr-zoom", "button confirm", "data-sel-cancel", "dashed route", "Confirm Tent")


def assert_same(panel: dict) -> str:
    return written_as_drawn(panel, board_html)


def selections(panel: dict) -> list[str]:
    """Half-made and whole picks the acting seat's page may send back: a mode, a ghost Stop
    or Tent, a Trail's first Stop, both its Stops, a zoomed half."""
    out = ["m:tent", "m:stop", "z:e", "z:w"]
    taken: dict[str, int] = {}
    for action in panel["legal"]:
        kind = action["type"]
        taken[kind] = taken.get(kind, 0) + 1
        if taken[kind] > 3:
            continue
        picks = presenter.picks(action)
        if kind == "trail":
            first, second, _corner = picks[0]
            out += [first, f"{first}.{second}", f"{first}.{second}.z:e"]
        elif kind in ("stop", "tent"):
            out += [picks[1], ".".join(picks)]
    return out


def check_game(game, seats: int, language: str) -> set[str]:
    seen = set()
    with translation.override(language):
        for seat in [*range(seats), None]:
            html = assert_same(seat_panel_context(game, seat))
            seen.update({"english"} if "Live scores" in html or "Final scoring" in html else set())
            seen.update(k for k in ("rvr-controls", "rvr-pending", "rvr-waiting", "rvr-zoom", "take-back",
                                    "button confirm", "rvr-history", "winner-star", "last turn")
                        if k in html)
            if seat is None:
                continue
            panel = seat_panel_context(game, seat, selection=f"v:{(seat + 1) % seats}")
            seen.update({"viewing"} if "data-back" in assert_same(panel) else set())
            if panel["legal"]:
                for sel in selections(seat_panel_context(game, seat)):
                    html = assert_same(seat_panel_context(game, seat, selection=sel))
                    seen.update(k for k in SELECTING if k in html)
    return seen


@pytest.mark.parametrize("language", ["en", "de"])
def test_five_players(start_game, make_user, alice, bob, language):
    bob.username = NAME
    bob.save()
    users = [alice, bob, *(make_user(f"p{i}") for i in range(3))]
    seen = set()
    for _played, game in positions(start_game, users, "rift-valley-reserve", seed=7):
        seen |= check_game(game, 5, language)
    assert {"rvr-controls", "rvr-pending", "rvr-waiting", "rvr-history", "winner-star", "viewing",
            "button confirm", "data-sel-cancel", "rvr-zoom"} <= seen
    assert language != "en" or "Confirm Tent" in seen
    assert ("english" in seen) == (language == "en"), "the German catalogue was read"


@pytest.mark.parametrize("language", ["en", "de"])
def test_two_players_asymmetrical(start_game, alice, bob, language):
    from games import rules

    bob.username = NAME
    bob.save()
    options = dict(rules.get("rift-valley-reserve").default_options(), boards="asymmetrical")
    seen = set()
    start = lambda slug, users: start_game(slug, users, options)   # noqa: E731
    for _played, game in positions(start, [alice, bob], "rift-valley-reserve", seed=3):
        seen |= check_game(game, 2, language)
    assert {"rvr-controls", "rvr-history", "winner-star"} <= seen


def test_the_replay_still_draws_the_template(start_game, alice, bob):
    game = start_game("rift-valley-reserve", [alice, bob])
    panel = seat_panel_context(game, 0)
    assert board_html({**panel, "replay": True}) is None


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_trail_half_made(start_game, alice, bob, language):
    """A Trail's first Stop picked, then both (one route or several): the hint, the routes,
    Cancel; played on until a seat may draw a Trail (Stops preferred)."""
    import random

    from games import engine

    bob.username = NAME
    bob.save()
    game, rng, users, seen = start_game("rift-valley-reserve", [alice, bob]), random.Random(11), [alice, bob], set()
    for _move in range(300):
        if not game.is_active:
            break
        seat = game.to_act()[0]
        legal = game.rules.legal_actions(game.state, seat)
        if any(a["type"] == "trail" for a in legal):
            seen |= check_game(game, 2, language)
            if "dashed route" in seen or language != "en" and len(seen) > 8:
                break
        stops = [a for a in legal if a["type"] == "stop"]
        game = engine.submit(game.pk, users[seat], rng.choice(stops or legal)).game
    assert "data-sel-cancel" in seen
    assert language != "en" or "dashed route" in seen
