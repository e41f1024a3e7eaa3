"""Every page type in every language (issue 23's merge gate): rendered in en, nl, de and it
(tests/i18n/site.py lists them), no text a reader sees in nl, de or it may be an English
sentence the catalogues translate, left as in the English rendering. Names, titles and
numbers stay as they are; a sentence no catalogue holds yet is for test_catalogues to find
(it fails on any marked message left untranslated).

This test reads which catalogues exist: a page is checked in a language once every
catalogue its text comes from (the site's, and its app's and game's: site.pages names them)
has that language, so it grows stricter as each app's and game's catalogue lands; the
pages still waiting are named in a warning. Once every catalogue is in, every page is checked:
it is the merge gate of issue 23's translations."""
from __future__ import annotations

from html.parser import HTMLParser

import warnings
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.fixtures import client_for
from tests.i18n.po import TRANSLATED, untranslated
from tests.i18n.site import build, pages

pytestmark = pytest.mark.django_db
SHOWN_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}


class Text(HTMLParser):
    """What a reader sees or hears: text nodes (not scripts or styles) and the attributes
    read aloud or shown on hover."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self.skip += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value:
                self.add(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.add(data)

    def add(self, text: str) -> None:
        text = " ".join(text.split())
        if text:
            self.found.append(text)


def texts(html: str) -> list[str]:
    parser = Text()
    parser.feed(html)
    return parser.found


def has_catalogue(root: str, language: str) -> bool:
    return (Path(settings.BASE_DIR) / root / "locale" / language / "LC_MESSAGES" / "django.po").exists()


def test_every_page_in_every_language(alice, bob):
    site = build(alice, bob)
    clients = {"player": client_for(alice), "visitor": Client()}
    # Inbox lines are written once, when they happen, in the reader's chosen language
    # (notifications.wording); alice chose none, so hers were written in the site's default.
    # The other tests of the inbox check a Dutch reader's lines (notifications/tests).
    from notifications.models import Notification

    written_once = set(Notification.objects.filter(user=alice).values_list("text", flat=True))
    failures, waiting = [], []
    for name, path, who, owners in pages(site):
        client = clients[who]
        english = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
        assert english.status_code in (200, 404), (name, path, english.status_code)
        english_texts = set(texts(english.content.decode()))
        for language in TRANSLATED:
            missing = [root for root in owners if not has_catalogue(root, language)]
            if missing:
                waiting.append(f"{name} in {language} (no catalogue yet: {', '.join(missing)})")
                continue
            response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
            html = response.content.decode()
            assert f'<html lang="{language}"' in html, (name, language)
            left = untranslated([t for t in texts(html) if t in english_texts and t not in written_once], language)
            if left:
                failures.append(f"{name} ({path}, {who}) in {language}: {sorted(set(left))[:6]}")
    if waiting:
        warnings.warn(f"{len(waiting)} page renders not checked yet: " + "; ".join(waiting[:12]), stacklevel=1)
    assert not failures, "English left on translated pages:\n" + "\n".join(failures)


def test_the_check_finds_english_left_on_a_page(alice):
    """The check itself: the header's words are in the site's catalogue, so a Dutch page
    showing them in English is caught."""
    english = texts(Client().get("/help/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Leaderboards" in english
    assert untranslated(["Leaderboards", "How Switchback plays out", "alice", "42", "Lobby"], "nl") == [
        "Leaderboards", "How Switchback plays out"]  # "Lobby" is Dutch too
    assert untranslated(["Going away? Declare a vacation on your"], "de") == ["Going away? Declare a vacation on your"]
