"""Nanga Parbat's live board written in Python (games/nanga_parbat/board_html.py, issue 21)
draws what board.html draws outside a replay: both rendered on the same real panels, byte
for byte (same_markup's normalisation is reported first when they differ)."""
from __future__ import annotations

import re
from html import unescape
from urllib.parse import unquote

import pytest
from django.utils import translation

from games.nanga_parbat import presenter
from games.nanga_parbat.board_html import board_html
from games.panel import seat_panel_context
from tests.games.test_boards_in_python import positions, written_as_drawn

pytestmark = pytest.mark.django_db

NAME = "Bob <b>& 'co\""
SEEN = ("np-mode", "np-end-turn", "np-confirm sel-target", "np-confirm\" disabled", "np-counter", "np-events",
        "np-hint", "np-end", "in-mode", "np-area")


def assert_same(panel: dict) -> str:
    return written_as_drawn(panel, board_html)


def links(html: str) -> list[str]:
    """The selections the board's own links send back (`?sel=`), in order, once each."""
    return list(dict.fromkeys(unquote(unescape(v)) for v in re.findall(r'\?sel=([^"&]+)"', html)))


def selections(panel: dict) -> list[str]:
    """Half-made and whole picks of the seat's legal activations and claims (at most three of
    each kind): each prefix of an activation, a claim's spot with none, one and all its items."""
    out: list[str] = []
    taken: dict[str, int] = {}
    for action in panel["legal"]:
        kind = action["type"]
        if kind not in ("activate", "claim") or taken.get(kind, 0) >= 3:
            continue
        taken[kind] = taken.get(kind, 0) + 1
        spelled = presenter.picks(action)
        if kind == "activate":
            first = spelled[0] if isinstance(spelled[0], list) else spelled
            out += [".".join(first[:n]) for n in range(1, len(first) + 1)]
        else:
            spot, items = spelled[0], str(spelled[1])[2:].split(",")
            out += [spot, f"i:{items[0]}.{spot}", f"i:{','.join(items)}.{spot}"]
    return out


def check_seat(game, seat: int | None, seen: set[str]) -> None:
    html = assert_same(seat_panel_context(game, seat))
    seen.update(k for k in SEEN if k in html)
    seen.update({"english"} if "Scoring path:" in html else set())
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
def test_two_players(start_game, alice, bob, language):
    bob.username = NAME
    bob.save()
    seen: set[str] = set()
    with translation.override(language):
        for _played, game in positions(start_game, [alice, bob], "nanga-parbat", seed=5):
            for seat in (0, 1, None):
                check_seat(game, seat, seen)
    assert {"np-mode", "np-end-turn", "np-confirm sel-target", "in-mode", "np-end",
            "np-counter", "np-events", "np-hint", "name escaped"} <= seen
    assert ("english" in seen) == (language == "en"), "the German catalogue was read"


@pytest.mark.parametrize("language", ["en", "de"])
def test_area_scoring(start_game, alice, bob, language):
    from games import rules

    bob.username = NAME
    bob.save()
    options = dict(rules.get("nanga-parbat").default_options(), area_scoring=True)
    start = lambda slug, users: start_game(slug, users, options)   # noqa: E731
    seen: set[str] = set()
    with translation.override(language):
        for _played, game in positions(start, [alice, bob], "nanga-parbat", seed=9):
            for seat in (0, 1, None):
                check_seat(game, seat, seen)
    assert {"np-end", "np-area", "name escaped"} <= seen


def test_the_replay_still_draws_the_template(start_game, alice, bob):
    game = start_game("nanga-parbat", [alice, bob])
    panel = seat_panel_context(game, 0)
    assert board_html({**panel, "replay": True}) is None


def test_the_kept_urls_follow_the_game_and_the_script_prefix(start_game, alice, bob):
    """The act and panel URLs are reversed once per game and kept (board_html.game_urls):
    another game, or the site served under a script prefix, gets its own."""
    from django.urls import reverse, set_script_prefix

    from games.nanga_parbat.board_html import game_urls

    one, two = start_game("nanga-parbat", [alice, bob]), start_game("nanga-parbat", [bob, alice])
    assert game_urls(one.pk) == (reverse("games:act", args=[one.pk]), reverse("games:panel", args=[one.pk]))
    assert game_urls(two.pk) == (reverse("games:act", args=[two.pk]), reverse("games:panel", args=[two.pk]))
    assert game_urls(one.pk) != game_urls(two.pk)
    set_script_prefix("/under/")
    try:
        assert game_urls(one.pk)[1] == reverse("games:panel", args=[one.pk])
        assert game_urls(one.pk)[1].startswith("/under/")
    finally:
        set_script_prefix("/")
