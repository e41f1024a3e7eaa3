"""Every game has a "how to play" page (issue 13), linked from the lobby, the table and
the board. A game package provides games/<slug>/how_to_play.html; until it does, a
generic page built from the rules stands in."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games import presenters
from games import rules as registry

SECTIONS = ("setup", "turn", "scoring", "end", "variants")


@pytest.mark.django_db
@pytest.mark.parametrize("slug", registry.slugs())
def test_every_registered_game_has_a_how_to_play_page_with_its_sections(client, slug):
    rules = registry.get(slug)
    response = client.get(reverse("games:how_to_play", args=[slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"How to play {rules.title}" in html
    for section in SECTIONS:
        assert f'id="{section}"' in html, f"{slug}: no {section} section"


@pytest.mark.django_db
def test_an_unknown_game_has_no_how_to_play_page(client):
    response = client.get("/games/no-such-game/how-to-play/")
    assert response.status_code == 404
    assert "no game by that name" in response.content.decode()


def test_a_game_without_its_own_page_gets_the_generic_one(settings, tmp_path):
    assert presenters.how_to_play_template("no-such-game") == "games/generic/how_to_play.html"


def test_a_game_with_exactly_two_players_says_2_players_not_2_2():
    class Two:
        min_players = max_players = 2

    class Range:
        min_players, max_players = 1, 6

    assert presenters.players_label(Two) == "2 players"
    assert presenters.players_label(Range) == "1–6 players"


@pytest.mark.django_db
def test_the_lobby_links_each_games_how_to_play(client):
    html = client.get(reverse("lobby:index")).content.decode()
    for slug in registry.slugs():
        assert reverse("games:how_to_play", args=[slug]) in html


@pytest.mark.django_db
def test_the_board_and_the_table_link_their_games_how_to_play(client, start_game, alice, bob):
    game = start_game("roll-to-the-top", [alice, bob])
    link = reverse("games:how_to_play", args=["roll-to-the-top"])
    assert link in client.get(reverse("games:play", args=[game.pk])).content.decode()
    from tests.web.test_flow import create_table

    client.force_login(alice)
    table_url = create_table(client)["Location"]
    assert link in client.get(table_url).content.decode()
