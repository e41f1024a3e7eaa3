"""Rifugio's live board written in Python (games/rifugio/board_html.py, issue 21) draws what
board.html (with its _map.html) draws outside a replay: both rendered on the same real panels,
byte for byte (same_markup's normalisation is reported first when they differ)."""
from __future__ import annotations

import random
import re
from html import unescape
from urllib.parse import unquote

import pytest
from django.utils import translation

from games import engine
from games.panel import seat_panel_context
from games.rifugio import presenter
from games.rifugio.board_html import board_html
from tests.games.test_boards_in_python import positions, written_as_drawn

pytestmark = pytest.mark.django_db

NAME = "Bob <b>& 'co\""
CANCEL_SWIM = '<button class="button secondary" data-sel-cancel'
SEEN = ("rf-hand", "rf-rotate", "rf-menu", "rf-actions", "hx-confirm", "rf-final", "rf-tiebreak", "rf-hint",
        "swim-to", "swim-via", "place-other", "sel-target", "data-sel-cancel", CANCEL_SWIM, "rf-edition",
        "disabled", "winner", "Keep swimming", "swimmer")


def assert_same(panel: dict) -> str:
    return written_as_drawn(panel, board_html)


def links(html: str) -> list[str]:
    """The selections the board's own links send back (`?sel=`), in order, once each."""
    return list(dict.fromkeys(unquote(unescape(v)) for v in re.findall(r'\?sel=([^"&]*)"', html)))


def selections(panel: dict) -> list[str]:
    """Each prefix of the seat's legal actions' picks (at most three actions of each kind)."""
    out: list[str] = []
    taken: dict[str, int] = {}
    for action in panel["legal"]:
        kind = action["type"]
        taken[kind] = taken.get(kind, 0) + 1
        if taken[kind] <= 3:
            spelled = presenter.picks(action)
            out += [".".join(spelled[:n]) for n in range(1, len(spelled) + 1)]
    return out


def check_seat(game, seat: int | None, seen: set[str]) -> None:
    html = assert_same(seat_panel_context(game, seat))
    seen.update(k for k in SEEN if k in html)
    seen.update({"english"} if "tiles left" in html or "tile left" in html else set())
    seen.update({"name escaped"} if "Bob &lt;b&gt;&amp; &#x27;co&quot;" in html else set())
    if seat is None:
        return
    # every half-made choice the board offers, and one more step of each
    for sel in list(dict.fromkeys([*links(html)[:12], *selections(seat_panel_context(game, seat))])):
        half = assert_same(seat_panel_context(game, seat, selection=sel))
        seen.update(k for k in SEEN if k in half)
        for deeper in [s for s in links(half) if s != sel][:3]:
            more = assert_same(seat_panel_context(game, seat, selection=deeper))
            seen.update(k for k in SEEN if k in more)


@pytest.mark.parametrize("language", ["en", "de"])
def test_five_players(start_game, make_user, alice, bob, language):
    bob.username = NAME
    bob.save()
    users = [alice, bob, *(make_user(f"p{i}") for i in range(3))]
    seen: set[str] = set()
    with translation.override(language):
        for _played, game in positions(start_game, users, "rifugio", seed=5):
            for seat in (*range(5), None):
                check_seat(game, seat, seen)
    assert {"rf-hand", "rf-final", "rf-hint", "sel-target", "rf-edition", "winner", "name escaped"} <= seen
    assert ("english" in seen) == (language == "en"), "the German catalogue was read"


@pytest.mark.parametrize("language", ["en", "de"])
def test_base_game(start_game, alice, bob, language):
    from games import rules

    bob.username = NAME
    bob.save()
    options = dict(rules.get("rifugio").default_options(), rivers_and_rafts=False)
    start = lambda slug, users: start_game(slug, users, options)   # noqa: E731
    seen: set[str] = set()
    with translation.override(language):
        for _played, game in positions(start, [alice, bob], "rifugio", seed=9):
            for seat in (0, 1, None):
                check_seat(game, seat, seen)
    assert {"rf-hand", "rf-final", "name escaped"} <= seen
    assert "rf-edition" not in seen


@pytest.mark.parametrize("language", ["en", "de"])
def test_played_on(start_game, alice, bob, language):
    """Played on (swims, sails and rafts preferred), the seat on the move drawn wherever it
    may show what has not been drawn yet: a tile that turns (rotate links, cells that take it
    only turned), the walk's buttons (disabled ones, an end of turn to confirm), the water
    menu (random play rarely swims: see test_swimming)."""
    bob.username = NAME
    bob.save()
    game, rng, users, seen = start_game("rifugio", [alice, bob]), random.Random(3), [alice, bob], set()
    wanted = {"rf-rotate", "place-other", "rf-actions", "disabled", "hx-confirm", "rf-menu"}
    water_kinds = {"swim", "continue_swim", "sail", "build_raft"}
    with translation.override(language):
        for _move in range(2000):
            if not game.is_active or wanted <= seen:
                break
            seat = game.to_act()[0]
            legal = game.rules.legal_actions(game.state, seat)
            kinds = {a["type"] for a in legal}
            turning = "place_tile" in kinds and not {"rf-rotate", "place-other"} <= seen
            walking = "end_turn" in kinds and not {"rf-actions", "disabled", "hx-confirm"} <= seen
            if turning or walking or kinds & water_kinds and not wanted <= seen:
                check_seat(game, seat, seen)
            water = [a for a in legal if a["type"] in water_kinds]
            game = engine.submit(game.pk, users[seat], rng.choice(water or legal)).game
        check_seat(game, 0, seen)
    assert wanted <= seen


@pytest.mark.parametrize("language", ["en", "de"])
def test_swimming(start_game, alice, bob, language):
    """A seat that may swim (its shores, then the water to cross), and one swimming (the
    swimmer on the map, Keep swimming): hand-made positions of the rules' own tests."""
    from games.rifugio.tests import helpers

    bob.username = NAME
    bob.save()
    ready = helpers.position(tiles={(1, 0): "WA01", (0, 1): "WA02", (1, 1): "M01"}, at=(0, 0))
    for p in ready["seats"]:
        p["rafts_left"] = 0
    helpers.put(ready, helpers.B, 1, 1)
    swimming = helpers.position(players=2, tiles={(1, 0): "WA02", (1, 1): "WA03", (2, 0): "F01"},
                                active=helpers.B)
    swimming["seats"][helpers.B]["walker"] = {
        "at": [1, 0], "raft": None, "swim": {"from": [2, 0], "via": [1, 0], "to": [0, 0], "stage": 1}}
    seen: set[str] = set()
    with translation.override(language):
        for state in (ready, swimming):
            game = start_game("rifugio", [alice, bob])
            game.state = state
            game.save()
            for seat in (0, 1, None):
                check_seat(game, seat, seen)
    assert {"swim-to", "swim-via", CANCEL_SWIM, "Keep swimming" if language == "en" else "rf-actions",
            "swimmer", "name escaped"} <= seen


def test_the_replay_still_draws_the_template(start_game, alice, bob):
    game = start_game("rifugio", [alice, bob])
    panel = seat_panel_context(game, 0)
    assert board_html({**panel, "replay": True}) is None


def test_kept_texts_follow_the_language(start_game, alice, bob):
    """The tiles' titles and names and the cards' category boxes are kept per language
    (presenter.LanguageTexts): drawn in English first, a German panel still reads German."""
    from html import escape

    from games.rules.base import _

    game = next(g for played, g in positions(start_game, [alice, bob], "rifugio", stops=(30,), seed=5))
    with translation.override("en"):
        english = seat_panel_context(game, 0)["board"]
    with translation.override("de"):
        board = seat_panel_context(game, 0)["board"]
        flowers = _("Flowers")
        view_tiles = {t["key"]: t for t in board["tiles"]}
        for t in game.rules.view(game.state, 0)["tiles"]:
            shown = view_tiles[t["key"]]
            if not t["holders"] and not shown["rifugio"]:
                title = f"({t['q']},{t['r']}) {presenter._tile_text(t)}"
                assert (shown["title"], shown["title_html"]) == (title, escape(title))
            assert shown["name"] == presenter.tile_name(t["tile"])
    assert flowers != "Flowers" and f'title="{flowers}: ' in board["players_html"]
    assert 'title="Flowers: ' in english["players_html"]
    assert [t["title"] for t in english["tiles"]] != [t["title"] for t in board["tiles"]]
