"""Alpine Trails' live board written in Python (games/alpine_trails/board_html.py, issue 21)
draws what board.html draws outside a replay: both rendered on the same real panels, byte for
byte (same_markup's normalisation is compared first, so a difference reads more easily)."""
from __future__ import annotations

import random
import re
from html import unescape
from urllib.parse import unquote

import pytest
from django.utils import translation

from games import engine
from games.alpine_trails.board_html import board_html
from games.panel import seat_panel_context
from tests.games.test_boards_in_python import positions, written_as_drawn

pytestmark = pytest.mark.django_db

NAME = "Bob <b>& 'co\""
OFFERED = re.compile(r'\?sel=([^"]*)"')
# What the writer's branches draw, by a word of their markup (in any language; "boxed" is a
# campsite being made, with its Cancel button).
MARKS = {"tray": "at-tray", "flip": 'data-hotkey="f"', "rotate": 'data-hotkey="R"', "campsite": "?sel=camp%3A",
         "no campsite": "disabled title=", "clear": "data-sel-cancel",
         "boxed": "at-tile selected boxed", "held animal": "at-animal a-", "animal chip": '<span class="chip">',
         "done": "done-button", "not done": 'class="button" disabled', "goal": "at-goal", "notice": "at-notice",
         "finished round": "at-banner soft", "waterfall": 'class="at-banner" role="alert"',
         "trade": "hx-vals=\"{&quot;action&quot;: &quot;{\\&quot;tile", "discard": "at-discard",
         "final": "data-whole", "spectator": "at-layout no-main", "hint": "at-hint"}


def assert_same(panel: dict) -> str:
    return written_as_drawn(panel, board_html)


def offered(html: str) -> list[str]:
    """Every `?sel=` the board links to (tray tiles, flip, rotate, campsite, animals, squares)."""
    return sorted({unquote(unescape(sel)) for sel in OFFERED.findall(html)})


def check_seat(game, seat, seen: set, depth: int = 2) -> None:
    """The seat's panel, then every selection it offers, and every one those offer in turn."""
    todo, done = [""], set()
    for _step in range(depth + 1):
        following = []
        for sel in todo:
            if sel in done:
                continue
            done.add(sel)
            html = assert_same(seat_panel_context(game, seat, selection=sel))
            seen.update(name for name, mark in MARKS.items() if mark in html)
            following += offered(html)
        todo = following


def check_game(game, seats: int, language: str, seen: set, depth: int = 1) -> None:
    with translation.override(language):
        for seat in [*range(seats), None]:
            if seat is None:
                html = assert_same(seat_panel_context(game, None))
                seen.update(name for name, mark in MARKS.items() if mark in html)
                seen.update({"english"} if "Score pad" in html else set())
            else:
                check_seat(game, seat, seen, depth)


@pytest.mark.parametrize("language", ["en", "de"])
def test_five_players(start_game, make_user, alice, bob, language):
    """Every audience at 0, 9 and 40 moves and at the end, with the selections offered."""
    bob.username = NAME
    bob.save()
    users = [alice, bob, *(make_user(f"p{i}") for i in range(3))]
    seen: set = set()
    for _played, game in positions(start_game, users, "alpine-trails", seed=7):
        check_game(game, 5, language, seen)
    assert {"tray", "flip", "rotate", "no campsite", "clear", "done", "not done", "goal",
            "finished round", "final", "spectator"} <= seen
    assert ("english" in seen) == (language == "en"), "the German catalogue was read"


def test_solo_to_its_end(start_game, alice):
    """A solo game: its rank banner at the end, and the moves' rarer states on the way (a
    loop's waterfall, held animals, a fork traded, a campsite), trails and rare moves
    preferred so that they come (seed 3 closes a loop)."""
    game, rng, seen, kinds_seen = start_game("alpine-trails", [alice], seed=3), random.Random(3), set(), set()
    while game.is_active:
        legal = game.rules.legal_actions(game.state, 0)
        kinds = {a["type"] for a in legal}
        if kinds & {"waterfall", "animal", "trade_fork", "campsite"} - kinds_seen:
            check_game(game, 1, "en", seen, depth=2)
            kinds_seen |= kinds
        rare = [a for a in legal if a["type"] in ("waterfall", "animal", "trade_fork", "campsite")]
        trails = [a for a in legal if a["type"] == "place" and a.get("side") == "trail"]
        pool = rare if rare and rng.random() < 0.5 else (trails if trails and rng.random() < 0.8 else legal)
        game = engine.submit(game.pk, alice, rng.choice(pool)).game
    with translation.override("en"):
        html = assert_same(seat_panel_context(game, 0))
    assert "at-title-banner" in html
    assert {"waterfall", "held animal", "trade", "campsite", "boxed"} <= seen


@pytest.mark.parametrize("language", ["en", "de"])
def test_states_no_game_reached(start_game, alice, language):
    """A tile that fits nowhere (its Discard button), two waterfalls to place, a solo game's
    end with no title: set on a real panel's context, drawn by both."""
    game = start_game("alpine-trails", [alice])
    with translation.override(language):
        panel = seat_panel_context(game, 0)
        ctl = panel["board"]["ctl"]
        tile = ctl["tray"][0]["id"]
        ctl["buttons"]["discard"] = {"type": "discard", "tile": tile}
        assert "at-discard" in assert_same(panel)
        ctl["sel"] = {**ctl["sel"], "mode": "waterfall"}
        panel["board"]["me"] = {**panel["board"]["me"], "waterfalls_pending": 2}
        html = assert_same(panel)
        assert re.search(r'role="alert">[^<]*2', html) and "                  disabled\n" in html
        panel["board"]["pad"].update(has_title=True, title="")
        assert "at-title-banner" in assert_same(panel)


def test_the_replay_still_draws_the_template(start_game, alice, bob):
    game = start_game("alpine-trails", [alice, bob])
    panel = seat_panel_context(game, 0)
    assert board_html({**panel, "replay": True}) is None


def _afresh(entry: dict, over: bool, small: bool, index, label: str) -> str:
    """A map drawn with nothing kept (every kept piece, title, mark and map put aside, then back)."""
    from games.alpine_trails import presenter as P

    memos = (P._KEPT_MAPS, P._KEPT_SVGS, P._FACES, P._PIECE_SVGS, P._END_MARKS, P._TITLES)
    kept = [dict(memo) for memo in memos]
    for memo in memos:
        memo.clear()
    try:
        return P.map_svg(P.map_geometry(entry, over=over), small=small, seat_index=index, label=label)
    finally:
        for memo, entries in zip(memos, kept, strict=True):
            memo.clear()
            memo.update(entries)


def test_kept_maps_are_the_maps_drawn_afresh(start_game, make_user, alice, bob):
    """Every audience shares the maps that have nothing to tap (kept_map_geometry and
    kept_map_svg, per language): each kept map is the one drawn with nothing kept, at every
    point of a game, in English and German, with the other points' and language's maps kept."""
    bob.username = NAME
    bob.save()
    users = [alice, bob, make_user("p2")]
    shared = 0
    for _played, game in positions(start_game, users, "alpine-trails", seed=5):
        for language in ("en", "de", "en"):
            with translation.override(language):
                drawn, by_seat = [], {}
                for seat in (0, 1, 2, None):
                    panel = seat_panel_context(game, seat)
                    board, view = panel["board"], panel["view"]
                    over = view["phase"] == "over"
                    for m in board["maps"]:
                        drawn.append((m["svg"], view["seats"][m["seat"]], over, True, m["seat"], m["name"]))
                        by_seat.setdefault(m["seat"], []).append(m["svg"])
                    main = board["main"]
                    if main is not None and not main["highlights"]:
                        drawn.append((main["svg"], view["seats"][seat], over, False, seat,
                                      translation.gettext("Your map")))
                shared += sum(svg is svgs[0] for svgs in by_seat.values() for svg in svgs[1:])
                for svg, entry, over, small, index, label in drawn:
                    assert svg == _afresh(entry, over, small, index, label)
    assert shared > 20, "the audiences drew their own maps: nothing was kept"
