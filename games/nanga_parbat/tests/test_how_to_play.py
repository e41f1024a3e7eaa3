"""Nanga Parbat's own "how to play" page: every part of the rules, with diagrams drawn by
the board's builders."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.nanga_parbat.rules.data import SPECIES_INFO

pytestmark = pytest.mark.django_db


@pytest.fixture
def text(client) -> str:
    response = client.get(reverse("games:how_to_play", args=["nanga-parbat"]))
    assert response.status_code == 200
    return response.content.decode()


def test_it_explains_setup_a_turn_scoring_the_end_and_the_variant(text):
    for section in ("setup", "turn", "scoring", "end", "variants"):
        assert f'id="{section}"' in text
    for words in ("placing the guide", "Trap.", "The guide moves", "Activate", "Claim", "bharal",
                  "red panda", "the bump", "both</strong> players", "Area scoring", "4, 5 or 6 pieces"):
        assert words in text, words
    for info in SPECIES_INFO.values():
        assert info["power"] in text.lower()


def test_its_diagrams_are_drawn_by_the_boards_builders_without_controls(text):
    diagrams = re.findall(r'<svg class="np-svg np-howto-svg[^"]*"[^>]*role="img" aria-label="([^"]+)"', text)
    assert len(diagrams) == 6
    assert len(re.findall(r'<g class="np-sec[^"]*" data-section="\d\d"', text)) == 4 * 36
    assert 'role="button"' not in text and "hx-post" not in text
    # the turn's diagram: a hiker of the first player in 23, the guide gone on to region 3
    turn = text.split('id="turn"')[1].split('id="scoring"')[0]
    assert re.search(r'class="np-sec last" data-section="23" data-piece="hiker"', turn)
    assert re.findall(r'<g class="np-guide-token" data-region="(\d)"', turn) == ["3"]
    scoring = text.split('id="scoring"')[1].split('id="end"')[0]
    assert re.search(r'<g class="np-spot owned" data-row="camps" data-col="3"', scoring)
    assert len(re.findall(r'data-piece="camp" data-owner="0"', scoring)) == 3
