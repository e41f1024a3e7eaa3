"""The game archive: finished games filtered by game, player and rated/casual."""
from __future__ import annotations

import pytest

from tests.accounts.helpers import finished_game


def listed(client, query):
    return sorted(g.pk for g in client.get(f"/games/?{query}").context["page"])


@pytest.mark.django_db
def test_the_archive_filters_by_game_player_and_kind(client, alice, bob, charlie):
    rated = finished_game([alice, bob], [1, 2])
    casual = finished_game([bob, charlie], [1, 2], rated=False)
    other = finished_game([alice, charlie], [2, 1], slug="rifugio")
    assert listed(client, "status=finished") == sorted([rated.pk, casual.pk, other.pk])
    assert listed(client, "game=rifugio") == [other.pk]
    assert listed(client, "player=alice") == sorted([rated.pk, other.pk])
    assert listed(client, "kind=casual") == [casual.pk]
    assert listed(client, "kind=rated&player=charlie") == [other.pk]


@pytest.mark.django_db
def test_the_archive_links_replays_and_records_and_ignores_unknown_filters(client, alice, bob):
    game = finished_game([alice, bob], [1, 2])
    response = client.get("/games/?game=chess&kind=<b>&player=")
    html = response.content.decode()
    assert response.status_code == 200 and [g.pk for g in response.context["page"]] == [game.pk]
    assert f"/play/{game.pk}/replay/" in html and f"/play/{game.pk}/record.json" in html
