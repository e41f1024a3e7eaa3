"""Admin, replay and hidden information on pages."""
from __future__ import annotations

import pytest

from games import engine
from games.models import Game

from tests.fixtures import client_for, post_action

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"


@pytest.fixture
def admin_client(make_user):
    return client_for(make_user("root", is_staff=True, is_superuser=True))


def finish(game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    return game


def test_admin_lists_users_tables_and_games(admin_client, start_game, alice, bob):
    start_game(SLUG, [alice, bob])
    for url in ["/admin/accounts/user/", "/admin/lobby/table/", "/admin/games/game/", "/admin/accounts/rating/"]:
        assert admin_client.get(url).status_code == 200


def test_admin_hides_a_running_games_state_and_moves(admin_client, start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], seed=987654321)
    place = game.rules.legal_actions(game.state, 0)[0]
    engine.submit(game.pk, alice, place)
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert str(game.seed) not in page and '"pending"' not in page and "Replay</a>" not in page
    assert admin_client.get("/admin/games/move/").content.decode().count("seat") < 50


def test_admin_shows_a_finished_games_moves_read_only_and_its_replay(admin_client, start_game, alice):
    game = start_game(SLUG, [alice, None], seed=3)
    engine.submit(game.pk, alice, {"type": "done"})
    finish(game)
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert f"/play/{game.pk}/replay/" in page
    assert 'name="moves-0-action"' not in page, "moves are read-only"
    assert admin_client.get("/admin/games/game/add/").status_code == 403


def test_a_seats_page_never_shows_another_seats_pending_number(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], seed=987654321)
    place = next(a for a in game.rules.legal_actions(game.state, 0) if a["type"] == "place")
    assert post_action(client_for(alice), game, place).status_code == 200
    alice_page = client_for(alice).get(f"/play/{game.pk}/").content.decode()
    bob_page = client_for(bob).get(f"/play/{game.pk}/").content.decode()
    assert "pending-num" in alice_page and "pending-num" not in bob_page
    assert str(game.seed) not in bob_page


def test_replay_steps_through_a_finished_game(client, start_game, alice):
    game = start_game(SLUG, [None, None], seed=5)
    game.refresh_from_db()
    assert not game.is_active
    first = client.get(f"/play/{game.pk}/replay/?step=0")
    assert first.status_code == 200 and "Move <strong>0</strong>" in first.content.decode()
    last = client.get(f"/play/{game.pk}/replay/")
    assert f"Move <strong>{game.version}</strong>" in last.content.decode()
    assert client.get(f"/play/{game.pk}/replay/?step=bogus").status_code == 200
    partial = client.get(f"/play/{game.pk}/replay/?step=3", HTTP_HX_REQUEST="true")
    assert partial.content.decode().lstrip().startswith('<div id="replay-body">')


def test_replay_of_a_running_game_is_refused(client, start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    assert client.get(f"/play/{game.pk}/replay/").status_code == 403


def test_profile_leaderboard_and_game_list_render(client, start_game, alice, bob):
    start_game(SLUG, [alice, bob])
    assert client.get("/accounts/u/alice/").status_code == 200
    assert client.get("/accounts/leaderboard/").status_code == 200
    assert client.get(f"/accounts/leaderboard/{SLUG}/").status_code == 200
    assert client.get("/accounts/leaderboard/nope/").status_code == 404
    assert client.get("/games/?status=active").status_code == 200


def test_undo_is_refused_when_the_rules_do_not_allow_it(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    response = client_for(alice).post(f"/play/{game.pk}/undo/")
    assert response.status_code == 409
