"""A whole 8-player Swiss correspondence tournament of 3 rounds, run by the worker's own
tick task under a fake clock; every game is played through the engine by the game's bot
for both players, until the player the script names as loser resigns. The standings are
checked against the ones worked out by hand (in the docstring of EXPECTED)."""
from __future__ import annotations

import random
from datetime import timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Rating
from games import engine
from games.models import Game
from games.rules import bot_for
from tests.fixtures import run_due_tasks
from tournaments import services
from tournaments.models import Pairing, Tournament

SLUG = "roll-to-the-top"

# Pairing by score then rating (p1 rated highest); the lower-numbered player always wins.
# R1: 1-2 3-4 5-6 7-8 -> 1, 3, 5, 7 win.   R2: 1-3 5-7 2-4 6-8 -> 1, 5, 2, 6 win.
# R3 (order 1 5 | 2 3 6 7 | 4 8): 1-5 2-3 6-7 4-8 -> 1, 2, 6, 4 win.
# Points: 1:3 2:2 5:2 6:2 3:1 4:1 7:1 8:0.  Buchholz (opponents' points):
# 1: 2+1+2=5  2: 3+1+1=5  3: 1+3+2=6  4: 1+2+0=3  5: 2+1+3=6  6: 2+0+1=3  7: 0+2+2=4  8: 1+2+1=4.
EXPECTED_ROUNDS = [
    {(1, 2), (3, 4), (5, 6), (7, 8)},
    {(1, 3), (5, 7), (2, 4), (6, 8)},
    {(1, 5), (2, 3), (6, 7), (4, 8)},
]
EXPECTED = [  # (rank, player, points, Buchholz, wins)
    (1, "p1", 3, 5, 3), (2, "p5", 2, 6, 2), (3, "p2", 2, 5, 2), (4, "p6", 2, 3, 2),
    (5, "p3", 1, 6, 1), (6, "p7", 1, 4, 1), (7, "p4", 1, 3, 1), (8, "p8", 0, 4, 0),
]


class FakeClock:
    def __init__(self):
        self.now = timezone.now().replace(microsecond=0)

    def __call__(self):
        return self.now

    def advance(self, **delta):
        self.now += timedelta(**delta)


@pytest.fixture
def clock():
    fake = FakeClock()
    with mock.patch("django.utils.timezone.now", fake):
        yield fake


@pytest.fixture
def players(make_user):
    users = [make_user(f"p{i}") for i in range(1, 9)]
    for i, user in enumerate(users):  # p1 highest
        Rating.objects.create(user=user, game_slug=SLUG, ordinal=20 - i)
    return users


def _number(user) -> int:
    return int(user.username[1:])


def _play_and_resign(game: Game, loser, moves: int = 6) -> None:
    """The bot chooses for whoever must act (through engine.submit), then `loser` resigns."""
    rng = random.Random(game.pk)
    for _ in range(moves):
        game = Game.objects.get(pk=game.pk)
        waiting = game.to_act()
        if not game.is_active or not waiting:
            break
        seat = next(s for s in game.ordered_seats() if s.index == waiting[0])
        engine.submit(game.pk, seat.user, bot_for(SLUG).choose(game.state, seat.index, rng))
    engine.resign(game.pk, loser)


def _tick():
    run_due_tasks(only="tick_tournaments")


def test_swiss_correspondence_tournament_run_by_the_worker(clock, players, alice):
    tournament = Tournament.objects.create(
        name="Autumn Swiss", organiser=alice, game_slug=SLUG, options={}, players_per_game=2,
        pace="correspondence", days_per_move=3, rounds=3, starts_at=clock.now + timedelta(days=1))
    for user in players:
        services.sign_up(tournament, user)
    call_command("schedule_periodic_tasks")  # the worker's start: the tick chain begins

    _tick()
    assert Tournament.objects.get(pk=tournament.pk).status == "signup"  # not its time yet
    clock.advance(days=1)
    for number, expected in enumerate(EXPECTED_ROUNDS, start=1):
        _tick()
        tournament.refresh_from_db()
        assert (tournament.status, tournament.current_round) == ("running", number)
        pairings = Pairing.objects.filter(round__number=number).prefetch_related("game__seats__user")
        tables = {tuple(sorted(_number(s.user) for s in p.game.seats.all())) for p in pairings}
        assert tables == expected
        _tick()  # nothing ended: the round stays
        assert Tournament.objects.get(pk=tournament.pk).current_round == number
        for p in pairings:
            loser = max((s.user for s in p.game.seats.all()), key=_number)
            _play_and_resign(p.game, loser)
        clock.advance(hours=1)
    _tick()
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    rows = [(r.row.rank, r.user.username, r.row.points, r.row.buchholz, r.row.wins)
            for r in services.standings(tournament)]
    assert rows == EXPECTED
    assert all(g.status == "finished" and g.version > 0 for g in Game.objects.all())


def _tournament_with_results(organiser, users, tables: int) -> Tournament:
    tournament = Tournament.objects.create(name="t", organiser=organiser, game_slug=SLUG, players_per_game=2,
                                           status="running", starts_at=timezone.now(), rounds=1)
    for user in users:
        tournament.entries.create(user=user)
    for i in range(tables):
        game = Game.objects.create(game_slug=SLUG, rules_version="1", seed=i, players=2, state={},
                                   status=Game.Status.FINISHED)
        Pairing.objects.create(tournament=tournament, game=game, recorded=True,
                               points={str(users[2 * i].pk): 1, str(users[2 * i + 1].pk): 0},
                               winners=[users[2 * i].pk])
    return tournament


def _queries(fn) -> int:
    with CaptureQueriesContext(connection) as captured:
        fn()
    return len(captured.captured_queries)


def test_standings_queries_do_not_grow_with_the_field(make_user, django_user_model, client):
    organiser = make_user("org")
    users = django_user_model.objects.bulk_create(django_user_model(username=f"u{i}") for i in range(100))
    small = _tournament_with_results(organiser, users[:10], 5)
    large = _tournament_with_results(organiser, users, 50)
    assert _queries(lambda: services.standings(small)) == _queries(lambda: services.standings(large)) == 3
    page = lambda t: client.get(f"/tournaments/{t.pk}/standings/")
    assert _queries(lambda: page(small)) == _queries(lambda: page(large))
