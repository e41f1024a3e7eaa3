"""Sign-up, lobby, tables and the play page through Django's test client."""
from __future__ import annotations

import json
import re

import pytest
from django.core import mail

from games.models import Game, Move
from lobby.models import Table

from tests.fixtures import client_for, post_action

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"


def alerts(response) -> list[str]:
    return [m.strip() for m in re.findall(r'role="alert">([^<]*)<', response.content.decode())]


def create_table(client, seats=2, **extra):
    form = client.get(f"/tables/new/?game={SLUG}").context["form"]
    data = {"game": SLUG, "seats": seats, "pace": "live", "days_per_move": 3}
    for name in form.option_field_names():
        initial = form.fields[name].initial
        if isinstance(initial, bool):
            if initial:
                data[name] = "on"
        else:
            data[name] = initial
    data.update(extra)
    return client.post("/tables/new/", data)


def test_it_signs_up_and_logs_in(client):
    response = client.post("/accounts/signup/", {"username": "dora", "email": "dora@example.com",
                                                 "password1": "trail-mix-42", "password2": "trail-mix-42"})
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "dora"
    client.post("/accounts/logout/")
    assert not client.get("/").context["user"].is_authenticated
    assert client.post("/accounts/login/", {"username": "dora", "password": "trail-mix-42"}).status_code == 302


def test_it_changes_the_password(alice_client, alice):
    response = alice_client.post("/accounts/password_change/", {
        "old_password": "alice-pass-123", "new_password1": "new-summit-77", "new_password2": "new-summit-77"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("new-summit-77")


def test_password_reset_sends_mail(client, alice):
    client.post("/accounts/password_reset/", {"email": alice.email})
    assert len(mail.outbox) == 1 and "reset" in mail.outbox[0].body.lower()


def test_a_table_fills_and_starts_a_game(alice_client, bob_client, alice, bob):
    response = create_table(alice_client)
    table = Table.objects.get()
    assert response.status_code == 302 and table.is_open
    response = bob_client.post(f"/tables/{table.pk}/join/")
    table.refresh_from_db()
    assert table.status == "started" and response["Location"] == f"/play/{table.game_id}/"
    game = table.game
    assert {s.user for s in game.seats.all()} == {alice, bob}
    assert game.state == game.rules.setup(2, game.options, game.seed)


def test_the_host_adds_a_bot_and_starts(alice_client, alice):
    create_table(alice_client, seats=3)
    table = Table.objects.get()
    alice_client.post(f"/tables/{table.pk}/bots/add/")
    alice_client.post(f"/tables/{table.pk}/start/")
    table.refresh_from_db()
    assert table.status == "started"
    assert [s.is_bot for s in table.game.ordered_seats()].count(True) == 1


def test_only_the_host_may_start(alice_client, bob_client):
    create_table(alice_client, seats=3)
    table = Table.objects.get()
    bob_client.post(f"/tables/{table.pk}/join/")
    response = bob_client.post(f"/tables/{table.pk}/start/", follow=True)
    assert "Only the host can do that." in response.content.decode()
    assert Table.objects.get().is_open


def test_a_private_table_needs_its_invite_link(alice_client, bob_client):
    create_table(alice_client, is_private="on")
    table = Table.objects.get()
    assert table.is_private
    assert bob_client.get("/").context["tables"] == []
    response = bob_client.post(f"/tables/{table.pk}/join/", follow=True)
    assert "invite link" in response.content.decode()
    bob_client.post(f"/invite/{table.invite_token}/join/")
    assert Table.objects.get().status == "started"


def test_correspondence_tables_store_the_time_per_move(alice_client, bob_client):
    create_table(alice_client, pace="correspondence", days_per_move=7)
    table = Table.objects.get()
    bob_client.post(f"/tables/{table.pk}/join/")
    game = Table.objects.get().game
    assert game.pace == "correspondence" and game.days_per_move == 7 and game.turn_deadline is not None


def test_a_bad_option_is_refused_with_a_message(alice_client):
    response = create_table(alice_client, opt_max_turns=5)
    assert response.status_code == 200 and not Table.objects.exists()


def test_the_play_page_shows_the_board_to_seats_and_spectators(start_game, alice, bob, client):
    game = start_game(SLUG, [alice, bob])
    assert client_for(alice).get(f"/play/{game.pk}/").status_code == 200
    assert client.get(f"/play/{game.pk}/").status_code == 200


class TestBadInput:
    @pytest.fixture
    def game(self, start_game, alice, bob):
        return start_game(SLUG, [alice, bob])

    def first_legal(self, game, seat=0):
        return game.rules.legal_actions(game.state, seat)[0]

    def test_bad_json_is_refused(self, game, alice_client):
        response = post_action(alice_client, game, "{not json")
        assert response.status_code == 400 and "not valid JSON" in alerts(response)[0]
        assert Move.objects.count() == 0

    @pytest.mark.parametrize("action", [None, 5, [], {}, {"type": "fly"}, {"type": None}, "\"write\""])
    def test_garbage_actions_are_refused(self, game, alice_client, action):
        response = post_action(alice_client, game, json.dumps(action))
        assert response.status_code == 400
        assert Game.objects.get().version == 0

    def test_someone_not_seated_is_refused(self, game, make_user):
        response = post_action(client_for(make_user("eve")), game, self.first_legal(game))
        assert response.status_code == 403 and alerts(response) == ["You are not seated at this game."]

    def test_anonymous_is_refused(self, game, client):
        assert post_action(client, game, self.first_legal(game)).status_code == 403

    def test_an_unknown_game_is_404(self, alice_client, game):
        response = alice_client.post("/play/987654/act/", {"action": "{}"})
        assert response.status_code == 404

    def test_get_is_not_allowed(self, alice_client, game):
        assert alice_client.get(f"/play/{game.pk}/act/").status_code == 405

    def test_a_repeated_token_applies_once(self, game, alice_client):
        action = self.first_legal(game)
        first = post_action(alice_client, game, action, token="abc", version=0)
        second = post_action(alice_client, game, action, token="abc", version=0)
        assert first.status_code == 200 and second.status_code == 200
        assert "That move was already received." in second.content.decode()
        assert Move.objects.count() == 1

    def test_a_finished_game_refuses_moves(self, game, alice_client):
        Game.objects.filter(pk=game.pk).update(status="finished")
        response = post_action(alice_client, game, self.first_legal(game))
        assert response.status_code == 409 and alerts(response) == ["This game is over."]

    def test_foreign_origin_posts_are_refused(self, game, alice):
        from django.test import Client

        client = Client(enforce_csrf_checks=True)
        client.force_login(alice)
        response = client.post(f"/play/{game.pk}/act/", {"action": json.dumps(self.first_legal(game))},
                               HTTP_ORIGIN="https://evil.example")
        assert response.status_code == 403 and Move.objects.count() == 0


def test_the_lobby_filters_private_tables_in_sql_and_its_queries_do_not_grow(alice_client, bob_client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    create_table(alice_client, is_private="on")
    create_table(alice_client)
    assert len(alice_client.get("/").context["tables"]) == 2, "the host sees her own private table"
    assert len(bob_client.get("/").context["tables"]) == 1
    with CaptureQueriesContext(connection) as few:
        bob_client.get("/")
    for _ in range(15):
        create_table(alice_client, is_private="on")
    with CaptureQueriesContext(connection) as many:
        assert len(bob_client.get("/").context["tables"]) == 1
    assert len(many) == len(few) > 0
