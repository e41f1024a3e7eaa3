"""Pages and fragments go compressed to browsers that accept it (issue 21): a Rift
Valley Reserve page was 176 KB on the wire, 14 KB gzipped."""
from __future__ import annotations

import gzip

import pytest

pytestmark = pytest.mark.django_db


def test_a_game_page_is_gzipped_for_browsers_that_accept_it(start_game, alice, bob, alice_client):
    game = start_game("rift-valley-reserve", [alice, bob])
    plain = alice_client.get(f"/play/{game.pk}/")
    packed = alice_client.get(f"/play/{game.pk}/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    page = gzip.decompress(packed.content).decode()
    assert f'data-live-version="/live/games/{game.pk}/"' in page or "rvr" in page
    assert len(packed.content) * 5 < len(plain.content), (len(packed.content), len(plain.content))


def test_two_answers_of_the_same_page_differ_on_the_wire_against_breach(alice_client):
    first = alice_client.get("/", HTTP_ACCEPT_ENCODING="gzip").content
    second = alice_client.get("/", HTTP_ACCEPT_ENCODING="gzip").content
    assert first != second and gzip.decompress(first)[:200] == gzip.decompress(second)[:200]
