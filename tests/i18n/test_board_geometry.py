"""Numbers in SVG, CSS and data attributes are never localized (issue 23, build 5): with
German active Django writes 1.5 as "1,5", which would break a board's geometry. Each game's
board, at its start, middle and end, for its player and a spectator, must draw the same
shapes in German as in English: every attribute of every SVG element, every style
attribute and every numeric data- attribute, text left out."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from games import rules
from tests.fixtures import client_for
from tests.i18n.stages import stages

pytestmark = pytest.mark.django_db

TEXT_ATTRIBUTES = {"aria-label", "aria-description", "aria-roledescription", "aria-valuetext", "title", "alt",
                   "lang", "placeholder", "value", "content"}
NUMBERS = re.compile(r"[-+\d.,%\s]*\d[-+\d.,%\s]*")


class Geometry(HTMLParser):
    """(tag, attribute, value) of what draws: SVG elements' attributes, style attributes,
    data- attributes holding numbers."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.svg_depth = 0
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "svg":
            self.svg_depth += 1
        for name, value in attrs:
            value = value or ""
            if name in TEXT_ATTRIBUTES or name.startswith("aria-") or name == "hx-vals":
                continue
            if self.svg_depth or name == "style" or (name.startswith("data-") and NUMBERS.fullmatch(value)):
                self.found.append((tag, name, value))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == "svg":
            self.svg_depth -= 1

    def handle_endtag(self, tag):
        if tag == "svg" and self.svg_depth:
            self.svg_depth -= 1


def geometry(html: str) -> list[tuple[str, str, str]]:
    parser = Geometry()
    parser.feed(html)
    return parser.found


def differences(english: str, german: str) -> list[str]:
    en, de = geometry(english), geometry(german)
    out = [f"{a} != {b}" for a, b in zip(en, de, strict=False) if a != b]
    if len(en) != len(de):
        out.append(f"{len(en)} drawn attributes in English, {len(de)} in German")
    return out[:10]


def same_in_german(client, url: str, what) -> None:
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'lang="de"' in german, "German was not active"
    assert geometry(english), f"{what}: nothing drawn?"
    assert not differences(english, german), (what, differences(english, german))


@pytest.mark.parametrize("slug", rules.slugs())
def test_boards_draw_the_same_geometry_in_german(slug, alice):
    """The play page (seat and spectator) at start, middle and end; the replay at its end;
    the how-to-play page's example boards; the player's profile and its rating chart."""
    seat, spectator = client_for(alice), Client()
    same_in_german(spectator, f"/games/{slug}/how-to-play/", (slug, "how to play"))
    for stage, game in stages(slug, alice):
        for who, client in (("seat", seat), ("spectator", spectator)):
            same_in_german(client, f"/play/{game.pk}/", (slug, stage, who))
    same_in_german(seat, f"/play/{game.pk}/replay/", (slug, "replay"))
    same_in_german(spectator, f"/accounts/u/{alice.username}/", (slug, "profile"))
