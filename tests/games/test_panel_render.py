"""What one panel render costs in rules calls, and that its numbers never take a locale's
format (SVG coordinates with a decimal comma would break the board)."""
from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.panel import render_panel_for_seat

pytestmark = pytest.mark.django_db
VOLATILE = re.compile(r'[0-9a-f]{32}|data-revision="[^"]*"|data-now="[^"]*"')


def counted(monkeypatch, ruleset, name):
    calls = []
    real = getattr(ruleset, name)

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(ruleset, name, counting)
    return calls


@pytest.mark.parametrize("slug", ["rifugio", "roll-to-the-top", "alpine-trails", "rift-valley-reserve", "nanga-parbat"])
def test_a_seat_panel_asks_the_rules_for_its_view_and_legal_actions_once(slug, start_game, alice, bob, monkeypatch):
    game = start_game(slug, [alice, bob] if slug != "roll-to-the-top" else [alice])
    seat = game.to_act()[0]
    views = counted(monkeypatch, game.rules, "view")
    legals = counted(monkeypatch, game.rules, "legal_actions")
    render_panel_for_seat(game, seat)
    assert (len(views), len(legals)) == (1, 1)


ATTRIBUTE = re.compile(r'\s([\w:-]+)="([^"]*)"')
WORDS = {"title", "aria-label", "aria-valuetext", "data-last-event", "hx-confirm", "alt", "placeholder"}


def geometry(html: str) -> list[tuple[str, str]]:
    """Every attribute of the panel but those that hold words (which are translated)."""
    return [(name, value) for name, value in ATTRIBUTE.findall(VOLATILE.sub("", html)) if name not in WORDS]


def test_a_panel_prints_its_numbers_the_same_in_every_language(start_game, alice, bob):
    game = start_game("rifugio", [alice, bob])
    english = render_panel_for_seat(game, 0)
    with translation.override("de"):  # a decimal comma locale
        german = render_panel_for_seat(game, 0)
    assert geometry(german) == geometry(english)
    assert len(geometry(english)) > 100  # the board's SVG is among them
