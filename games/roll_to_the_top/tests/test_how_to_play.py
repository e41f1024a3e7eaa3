"""Roll to the Top's own "how to play" page: every part of the rules, every board drawn."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.roll_to_the_top.rules import data as D

pytestmark = pytest.mark.django_db


@pytest.fixture
def text(client) -> str:
    response = client.get(reverse("games:how_to_play", args=["roll-to-the-top"]))
    assert response.status_code == 200
    return response.content.decode()


def test_it_explains_setup_a_turn_scoring_the_end_and_each_variant(text):
    for section in ("setup", "turn", "scoring", "end", "variants"):
        assert f'id="{section}"' in text
    for words in ("Starting pool", "dot box", "hanging box", "action die", "Reverse mode",
                  "Rounds mode", "Solo", "Starting dice", "Board special rules", "Turn cap"):
        assert words in text, words


def test_it_draws_each_of_the_six_boards_with_the_boards_own_builder(text):
    for board in D.BOARD_ORDER:
        name = D.BOARDS[board]["name"]
        assert re.search(rf'<svg class="sheet small"[^>]*role="img" aria-label="{re.escape(name)}"', text), name
    # each board's drawing has one box per box of the board
    drawn = re.findall(r'aria-label="([^"]+)">(.*?)</svg>', text, re.S)
    by_name = {label: body.count('<g class="box') for label, body in drawn}
    for board in D.BOARD_ORDER:
        assert by_name[D.BOARDS[board]["name"]] == len(D.GEOMETRY[board]["order"])


def test_its_examples_show_the_numbers_they_talk_about(text):
    example = re.search(r'aria-label="Giza: 2, 5 and 3[^"]*">(.*?)</svg>', text, re.S).group(1)
    assert re.findall(r'class="num"[^>]*>(\d+)<', example) == ["2", "5", "3", "5"]
