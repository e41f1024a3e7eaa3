"""Alpine Trails' own "how to play" page: every part of the rules, maps drawn by the board's builders."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.alpine_trails import presenter
from games.alpine_trails.rules.data import SOLO_TITLES

pytestmark = pytest.mark.django_db


@pytest.fixture
def text(client) -> str:
    response = client.get(reverse("games:how_to_play", args=["alpine-trails"]))
    assert response.status_code == 200
    return response.content.decode()


def test_it_explains_setup_a_turn_scoring_the_end_and_solo(text):
    for section in ("setup", "turn", "scoring", "end", "variants"):
        assert f'id="{section}"' in text
    for words in ("base camp", "personal goal", "Trail side up", "Terrain side up", "campsite", "waterfall",
                  "Habitats", "Longest path", "Solo", "traded"):
        assert words in text, words


def test_it_lists_every_solo_rank_title_with_its_points(text):
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td></tr>", text)
    assert rows[0] == ("below 85", "no title")
    assert [title for _, title in rows[1:]] == [t for _, t in sorted(SOLO_TITLES)]
    assert rows[1] == ("85 to 94", "Weekend Wanderer") and rows[-1] == ("125 or more", "Mountain G.O.A.T.")


def test_its_maps_are_the_boards_own_drawings_of_one_solo_game(text):
    context = presenter.how_to_play_context()
    maps = re.findall(r'<svg class="at-map"[^>]*role="img"[^>]*>', text)
    assert len(maps) == 3
    # the finished map carries its lakes and the longest path the caption names
    assert f'{context["final_map"]["path_miles"]} mi path' in text
    assert context["final_map"]["path_miles"] > 0
    assert sum(r["points"] for r in context["final_breakdown"]) == context["final_total"]
    # every icon a map uses is defined once on the page
    assert text.count('<symbol id="at-i-forest"') == 1
