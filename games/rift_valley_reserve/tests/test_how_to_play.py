"""The Rift Valley Reserve how-to-play page: its own text in every block, with maps drawn
by the board's builders and an example scored by the rules."""
from __future__ import annotations


import pytest

from games.rift_valley_reserve import presenter
from games.rift_valley_reserve.rules import RULES

pytestmark = pytest.mark.django_db
URL = "/games/rift-valley-reserve/how-to-play/"


def test_the_page_has_its_own_text_for_every_block(client):
    page = client.get(URL).content.decode()
    assert "How to play Rift Valley Reserve" in page
    for words in ("owner of its Rift", "exactly one", "bridge it straight across", "−2 for each",
                  "one map fewer than the number of players", "Asymmetrical"):
        assert words in page, words
    assert "games/generic" not in page and "This game has no variants" not in page


def test_the_diagrams_are_maps_drawn_by_the_board_builders(client):
    page = client.get(URL).content.decode()
    assert page.count('<svg class="rvr-map thumb"') == 1 + 1 + 5       # empty map, example, five maps
    assert 'id="rvr-paw"' in page                                      # the icons the maps use
    assert 'class="plank"' in page                                     # the example's bridge over the Rift
    for name in ("Lakeside", "Grassland", "Lakeside West", "Grassland Reversed", "Lakeside South"):
        assert f"<figcaption>{name}</figcaption>" in page
    assert 'role="button"' not in page.split('class="card how-to-play"')[1]            # pictures, not controls


def test_the_example_says_what_the_rules_count():
    context = presenter.how_to_play_context()
    red, blue = context["example_scores"]
    assert (red["trails"], red["animals"], red["tents"], red["stop_penalty"]) == (3, 6, 2, 0)
    assert (blue["total"], blue["stop_penalty"]) == (-2, -2)
    trail = context["example"]["map"]["trails"][0]
    areas = {context["example"]["map"]["areas"][r][c] for r, c in trail["path"]}
    assert len(areas) == red["trails"]
    assert "2,4" in {f"{r},{c}" for r, c in trail["path"]}              # it crosses the Rift at (2,4)
    assert RULES.map_scores(presenter._example_state())[0][0]["trails"] == 3
