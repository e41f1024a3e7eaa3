"""The validation layer (config.inputs): every input the issue found answering 500 now gets
a clear 4xx and changes nothing."""
from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from config.inputs import InputError, json_depth_exceeds, parse_json
from games.models import Game, Move
from tests.fixtures import client_for, post_action

SLUG = "roll-to-the-top"


@pytest.fixture
def game(start_game, alice, bob):
    return start_game(SLUG, [alice, bob])


def snapshot(game):
    fresh = Game.objects.get(pk=game.pk)
    return fresh.version, json.dumps(fresh.state, sort_keys=True), Move.objects.filter(game=game).count()


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/invite/%00/", "/accounts/u/a%00b/", "/invite/%00/join/", "/play/1/%00/",
                                 "/accounts/leaderboard/%01x/"])
def test_a_nul_or_control_character_in_a_url_is_a_clear_400(client, url):
    response = client.get(url)
    assert response.status_code == 400
    assert "not allowed" in response.content.decode()


@pytest.mark.django_db
def test_a_nul_in_a_query_parameter_is_a_400(client, game):
    assert client.get(f"/play/{game.pk}/", {"sel": "a\x00b"}).status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/play/99999999999999999999999/", "/tables/99999999999999999999/",
                                 "/invite/" + "x" * 200 + "/", "/invite/a.b/"])
def test_ids_and_tokens_out_of_shape_are_404s(client, url):
    assert client.get(url).status_code == 404


@pytest.mark.django_db
def test_a_nul_in_the_move_token_is_refused_and_changes_nothing(game, alice):
    before = snapshot(game)
    action = game.rules.legal_actions(game.state, 0)[0]
    response = post_action(client_for(alice), game, action, token="abc\x00def")
    assert response.status_code == 400
    assert snapshot(game) == before


@pytest.mark.django_db
def test_deeply_nested_json_in_a_move_is_a_clear_400(game, alice):
    before = snapshot(game)
    response = post_action(client_for(alice), game, "[" * 5000 + "]" * 5000)
    assert response.status_code == 400
    assert "nested too deeply" in response.content.decode()
    assert snapshot(game) == before


@pytest.mark.django_db
def test_an_outsiders_repeated_token_learns_nothing(game, alice, charlie):
    """The token is looked up after the seat: an outsider is refused, whatever token."""
    action = game.rules.legal_actions(game.state, 0)[0]
    post_action(client_for(alice), game, action, token="t-1")
    response = post_action(client_for(charlie), game, action, token="t-1")
    assert response.status_code == 403


def test_the_depth_scan_ignores_brackets_inside_strings():
    assert not json_depth_exceeds(json.dumps({"type": "[" * 100}), 3)
    assert json_depth_exceeds("[[[[", 3)
    assert parse_json('{"type": "x", "a": [1, [2]]}') == {"type": "x", "a": [1, [2]]}


@pytest.mark.parametrize("raw", ["NaN", "[Infinity]", "x" * 20_000, "{", "[" * 40 + "]" * 40])
def test_parse_json_refuses_what_is_not_plain_small_json(raw):
    with pytest.raises(InputError):
        parse_json(raw)


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/play/1/act/", "/play/1/undo/", "/tables/1/join/", "/tables/1/start/"])
def test_get_on_a_post_only_url_is_a_styled_page(alice_client, url):
    response = alice_client.get(url)
    assert response.status_code == 405
    text = response.content.decode()
    assert "<html" in text and "buttons" in text
    assert "POST" in response["Allow"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/ws/nowhere/", "/ws/play/abc/", "/ws/play/99999999999999999999999/", "/"])
async def test_a_websocket_to_an_unknown_path_is_closed_cleanly(path):
    communicator = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://127.0.0.1:8000")])
    connected, code = await communicator.connect()
    assert not connected
    await communicator.disconnect()
