"""The admin changes games only through the engine: abort calls engine.abort_game, nothing
is edited or deleted around it, and moves cannot be deleted (a replay needs them all)."""
from __future__ import annotations

import pytest

from games import engine
from games.models import Game, Move
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"


@pytest.fixture
def admin_client(make_user):
    return client_for(make_user("root", is_staff=True, is_superuser=True))


def test_the_abort_action_goes_through_the_engine(admin_client, start_game, alice, bob, monkeypatch):
    game = start_game(SLUG, [alice, bob])
    calls = []
    real = engine.abort_game
    monkeypatch.setattr(engine, "abort_game", lambda game_id, **kw: calls.append(game_id) or real(game_id, **kw))
    response = admin_client.post("/admin/games/game/", {"action": "abort_games", "_selected_action": [game.pk]})
    assert response.status_code == 302
    assert calls == [game.pk]
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.turn_deadline is None and game.waiting_for == []


def test_an_aborted_game_refuses_moves(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.abort_game(game.pk, by=None)
    with pytest.raises(engine.Rejected):
        engine.submit(game.pk, alice, {"type": "done"})
    with pytest.raises(engine.Rejected):
        engine.abort_game(game.pk)


def test_the_change_form_edits_nothing(admin_client, start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    for field in ("status", "turn_deadline", "days_per_move", "seats-0-user", "seats-0-is_bot"):
        assert f'name="{field}"' not in page, field
    admin_client.post(f"/admin/games/game/{game.pk}/change/", {"status": "finished"})
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_games_and_moves_cannot_be_deleted(admin_client, start_game, alice):
    game = start_game(SLUG, [alice, None])
    engine.submit(game.pk, alice, {"type": "done"})
    engine.abort_game(game.pk)
    move = Move.objects.filter(game=game).first()
    assert admin_client.get(f"/admin/games/move/{move.pk}/delete/").status_code == 403
    assert admin_client.get(f"/admin/games/game/{game.pk}/delete/").status_code == 403
    admin_client.post("/admin/games/move/", {"action": "delete_selected", "_selected_action": [move.pk], "post": "yes"})
    assert Move.objects.filter(pk=move.pk).exists()
