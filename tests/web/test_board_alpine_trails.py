"""The Alpine Trails board page through Django's test client: every seat, spectators,
replays, each kind of action, and no hidden information in the HTML."""
from __future__ import annotations

import json
import re

import pytest

from games.models import Game
from games.rules import get as get_rules

from ..conftest import client_for, post_action

pytestmark = pytest.mark.django_db
SLUG = "alpine-trails"
RULES = get_rules(SLUG)


def panel(client, game, sel=""):
    response = client.get(f"/play/{game.pk}/panel/" + (f"?sel={sel}" if sel else ""))
    assert response.status_code == 200
    return response.content.decode()


def map_section(html: str, seat: int) -> str:
    start = html.index(f'id="at-map-{seat}"')
    return html[start: html.index("</figure>", start)]


def test_smoke(alice, bob, start_game):
    game = start_game(SLUG, [alice, bob])
    html = client_for(alice).get(f"/play/{game.pk}/").content.decode()
    open("/tmp/at/alice.html", "w").write(html)
    assert "at-board" in html
