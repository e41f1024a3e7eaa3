"""Issue 18, row 9: an action naming a lone UTF-16 surrogate (`{"type": "\\ud800"}`, valid
JSON, but no character) was a 500 in Nanga Parbat and Rifugio, whose refusal repeats the
unknown type and could not be encoded. The input layer (config.inputs.parse_json) refuses
it with a clear 400 for every game, before any rules see it."""
from __future__ import annotations

import pytest

from games import rules
from games.models import Game
from tests.fixtures import client_for, post_action

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", [r.slug for r in rules.all()])
@pytest.mark.parametrize("raw", ['{"type": "\\ud800"}', '{"type": "place", "x": ["\\udfff"]}',
                                 '{"\\ud83d": 1, "type": "done"}'])
def test_a_lone_surrogate_in_an_action_is_a_clear_400(slug, raw, start_game, alice, bob):
    game = start_game(slug, [alice, bob])
    seat = game.to_act()[0]
    response = post_action(client_for([alice, bob][seat]), game, raw, version=game.version)
    assert response.status_code == 400
    assert "characters that are not allowed" in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_real_character_outside_the_basic_plane_is_not_refused_as_a_character():
    from config.inputs import parse_json

    assert parse_json('{"type": "\\ud83d\\ude00"}') == {"type": "\U0001F600"}
