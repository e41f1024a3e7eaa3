"""Never a 500: every game's pages answer garbage selections and actions with a message."""
from __future__ import annotations

import json

import pytest

from games import rules as registry
from games.models import Game, Move

from tests.fixtures import client_for, post_action

pytestmark = pytest.mark.django_db
SLUGS = registry.slugs()
GARBAGE_SELECTIONS = ["", "x", "0", "-1", "999999", "a,b,c", "tile:9:9:9", "{}", "[1,2]", "%00", "place:1:2",
                      "sel" * 300, "1,2,3,4,5,6,7,8", "stop:0:0", "activate:zz", "🙂"]
GARBAGE_ACTIONS = ["null", "[]", "\"x\"", "{}", '{"type": "place"}', '{"type": "trap", "section": "11"}',
                   '{"type": "step", "to": [1e309, 0]}', '{"type": "trail", "from": [0], "to": null}',
                   '{"type": "place_tile", "q": true, "r": 0, "rotation": 0}', '{"type": "stop", "cell": [-1, -1]}',
                   '{"type": "claim", "row": "camps", "col": 99, "sections": "all"}']


@pytest.fixture(params=SLUGS)
def seated_game(request, start_game, alice, bob):
    slug = request.param
    ruleset = registry.get(slug)
    players = [alice, bob] + [None] * (max(ruleset.min_players, 2) - 2)
    return start_game(slug, players, seed=31)


def test_garbage_selections_never_break_a_board(seated_game, alice, bob, client):
    acting = alice if seated_game.seat_of(alice) in seated_game.to_act() else bob
    for selection in GARBAGE_SELECTIONS:
        response = client_for(acting).get(f"/play/{seated_game.pk}/panel/", {"sel": selection})
        assert response.status_code == 200, (seated_game.game_slug, selection)
    for viewer in (client_for(alice), client_for(bob), client):
        assert viewer.get(f"/play/{seated_game.pk}/", {"sel": "x,9"}).status_code == 200


def test_garbage_actions_are_refused_and_change_nothing(seated_game, alice, bob):
    for user in (alice, bob):
        client = client_for(user)
        for raw in GARBAGE_ACTIONS:
            response = post_action(client, seated_game, raw)
            assert 400 <= response.status_code < 500, (seated_game.game_slug, raw, response.status_code)
    assert Move.objects.filter(game=seated_game).count() == Game.objects.get(pk=seated_game.pk).version


def test_every_first_legal_action_goes_through_the_page(seated_game, alice, bob):
    game = seated_game
    users = {0: alice, 1: bob}
    for _ in range(12):
        game.refresh_from_db()
        waiting = [s for s in game.to_act() if s in users]
        if not waiting:
            break
        seat = waiting[0]
        action = game.rules.legal_actions(game.state, seat)[0]
        response = post_action(client_for(users[seat]), game, json.dumps(action), version=game.version)
        assert response.status_code == 200, response.content[:500]


def test_no_template_syntax_leaks_into_a_page(seated_game, alice, client):
    for viewer in (client_for(alice), client):
        text = viewer.get(f"/play/{seated_game.pk}/").content.decode()
        assert "{#" not in text and "{%" not in text and "{{" not in text
