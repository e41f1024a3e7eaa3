"""Which games are rated, and that a result updates ratings exactly once."""
from __future__ import annotations

import random
import threading

import pytest
from django.db import connection

from accounts.models import Rating, RatingEvent
from games import engine
from games.engine import Rejected
from games.models import Game

SLUG = "roll-to-the-top"


def play_until_one_move_is_left(game, users_by_seat):
    """Random legal moves through the engine; returns (seat, action) that would end the game."""
    rng = random.Random(3)
    rules = game.rules
    for _ in range(5000):
        game.refresh_from_db()
        seat = rng.choice(game.to_act())
        action = rng.choice(rules.legal_actions(game.state, seat))
        if rules.is_over(rules.apply(game.state, seat, action)):
            return seat, action
        engine.submit(game.pk, users_by_seat[seat], action)
    raise AssertionError("the game did not end")


def finish(game, users_by_seat):
    seat, action = play_until_one_move_is_left(game, users_by_seat)
    engine.submit(game.pk, users_by_seat[seat], action)
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_a_game_between_people_is_rated_with_one_event_per_seat(start_game, alice, bob):
    game = finish(start_game(SLUG, [alice, bob]), {0: alice, 1: bob})
    assert game.is_rated and game.rated
    events = RatingEvent.objects.filter(game=game)
    assert sorted(e.rank for e in events) == sorted(s.rank for s in game.ordered_seats())
    assert all(e.played_at == game.finished_at for e in events)


@pytest.mark.django_db
def test_a_casual_game_is_not_rated(start_game, alice, bob):
    game = finish(start_game(SLUG, [alice, bob], rated=False), {0: alice, 1: bob})
    assert not game.is_rated and not game.rated and not Rating.objects.exists()


@pytest.mark.django_db
def test_a_game_with_a_bot_from_the_start_is_never_rated(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob, None])
    assert not game.is_rated


@pytest.mark.django_db
def test_a_solo_game_is_never_rated(start_game, alice):
    assert not start_game(SLUG, [alice]).is_rated


@pytest.mark.django_db
def test_the_host_chooses_casual_on_the_create_form(alice_client, bob_client):
    from lobby.models import Table

    from tests.web.test_flow import create_table

    create_table(alice_client, rated="casual")
    table = Table.objects.get()
    assert not table.is_rated
    bob_client.post(f"/tables/{table.pk}/join/")
    table.refresh_from_db()
    assert table.game and not table.game.is_rated


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_two_requests_finishing_one_game_rate_it_exactly_once(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    users = {0: alice, 1: bob}
    seat, action = play_until_one_move_is_left(game, users)
    barrier = threading.Barrier(2)
    results = []

    def send(token):
        barrier.wait()
        try:
            results.append(engine.submit(game.pk, users[seat], action, token=token).applied)
        except Rejected as exc:
            results.append(exc.status)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(t,)) for t in ("final-a", "final-b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(map(str, results)) == ["409", "True"]
    assert Game.objects.get(pk=game.pk).rated
    assert RatingEvent.objects.filter(game=game).count() == 2
    assert sorted(r.games_played for r in Rating.objects.all()) == [1, 1]


@pytest.mark.django_db
def test_the_results_screen_shows_every_seat_its_change_and_why(start_game, alice, bob, alice_client):
    game = finish(start_game(SLUG, [alice, bob]), {0: alice, 1: bob})
    html = alice_client.get(f"/play/{game.pk}/").content.decode()
    for event in RatingEvent.objects.filter(game=game):
        assert event.reason in html
