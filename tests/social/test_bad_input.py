"""Bad input on the new pages gets a clear message, never a 500."""
from __future__ import annotations

import pytest

SLUG = "roll-to-the-top"


@pytest.mark.parametrize("path, data", [
    ("/tournaments/new/", {"name": "t", "format": "swiss", "game_slug": SLUG, "players_per_game": 1,
                           "pace": "live", "rounds": 3, "starts_at": "2999-01-01T10:00"}),
    ("/tournaments/new/", {"name": "t", "format": "arena", "game_slug": "nope", "players_per_game": 2,
                           "pace": "live", "rounds": 0, "starts_at": "yesterday"}),
    ("/tournaments/new/", {"name": "t", "format": "swiss", "game_slug": "nanga-parbat", "players_per_game": 5,
                           "pace": "live", "rounds": 3, "starts_at": "2999-01-01T10:00"}),
    ("/challenges/new/", {"game_slug": SLUG, "seats": 1, "pace": "live", "invitees": "bob"}),
    ("/challenges/new/", {"game_slug": SLUG, "seats": 2, "pace": "live", "invitees": "nobody, alice"}),
    ("/challenges/new/", {"game_slug": SLUG, "seats": 99, "pace": "bogus", "invitees": ""}),
    ("/play-now/", {"game_slug": SLUG, "seats": 1, "pace": "live"}),
    ("/play-now/", {"game_slug": "nope", "seats": "x", "pace": "live"}),
])
def test_bad_forms_answer_with_errors(alice, bob, alice_client, path, data):
    response = alice_client.post(path, data)
    assert response.status_code in (200, 400)
    assert "errorlist" in response.content.decode()


def test_bad_ids_and_answers(alice, alice_client):
    assert alice_client.post("/challenges/999/accept/").status_code == 302  # "no such challenge" message
    assert alice_client.get("/tournaments/999/").status_code == 404
    assert alice_client.post("/players/nobody/block/").status_code == 404
    assert alice_client.post("/players/alice/block/").status_code == 302  # "cannot block yourself"
    assert alice_client.post("/blocked/", {"unmute": "x"}).status_code == 200
    assert alice_client.get("/play-now/999/").status_code == 404
