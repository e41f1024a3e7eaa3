"""The replay of a game still in progress (issue 17, row 8): a page of the site saying
why, with a way back to the game, not a bare unstyled fragment."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"


def test_the_replay_of_a_running_game_is_a_page_with_a_link_back(start_game, alice, bob, charlie):
    from tests.fixtures import client_for

    game = start_game(SLUG, [alice, bob])
    for client in (client_for(alice), client_for(charlie)):
        answer = client.get(f"/play/{game.pk}/replay/")
        page = answer.content.decode()
        assert answer.status_code == 403
        assert "<!doctype html>" in page and 'rel="stylesheet"' in page, "the site's own page, styled"
        assert "The replay opens when the game is over" in page
        assert f'href="/play/{game.pk}/"' in page
        assert 'id="game-panel"' not in page


def test_an_htmx_step_of_a_running_replay_stays_a_fragment(start_game, alice, bob, alice_client):
    game = start_game(SLUG, [alice, bob])
    answer = alice_client.get(f"/play/{game.pk}/replay/", headers={"HX-Request": "true"})
    assert answer.status_code == 403 and "<!doctype html>" not in answer.content.decode()
