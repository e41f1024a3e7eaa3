"""Races on PostgreSQL: 20 threads at once on one sequential turn, on one simultaneous
round, and with one repeated token. No move is lost or doubled: what applied is exactly
what the rules allow once, the move list has no gap, and the game replays to its snapshot."""
from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import engine
from games.engine import Rejected
from games.models import Game, Move
from games.verify import verify

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]
THREADS = 20


def race(calls) -> list:
    """Run the calls in threads released together; each result is True/False (applied) or
    the refusal's status."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        try:
            results[i] = call().applied
        except Rejected as exc:
            results[i] = exc.status
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def assert_intact(game: Game, applied: int) -> None:
    game.refresh_from_db()
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, applied + 1)), "moves are numbered 1..n with no gap or double"
    assert game.version == applied
    assert verify(game) is None


def test_twenty_threads_on_one_sequential_turn_apply_once(start_game, alice, bob):
    game = start_game("nanga-parbat", [alice, bob])
    seat = game.to_act()[0]
    user = [alice, bob][seat]
    action = game.rules.legal_actions(game.state, seat)[0]
    key = game.rules.seat_turn(game.state, seat)
    results = race([lambda n=n: engine.submit(game.pk, user, action, token=f"t{n}", seen_version=0, seen_turn=key)
                    for n in range(THREADS)])
    assert results.count(True) == 1
    assert all(r == 409 for r in results if r is not True), results
    assert_intact(game, 1)


def test_twenty_threads_on_one_simultaneous_round_apply_once_per_seat(start_game, alice, bob):
    game = start_game("rift-valley-reserve", [alice, bob])
    assert sorted(game.to_act()) == [0, 1], "turn 1 is simultaneous"
    calls = []
    for n in range(THREADS):
        seat, user = n % 2, [alice, bob][n % 2]
        action = game.rules.legal_actions(game.state, seat)[0]
        key = game.rules.seat_turn(game.state, seat)
        calls.append(lambda user=user, action=action, key=key, n=n:
                     engine.submit(game.pk, user, action, token=f"s{n}", seen_version=0, seen_turn=key))
    results = race(calls)
    assert results.count(True) == 2
    assert sorted(Move.objects.filter(game=game).values_list("seat", flat=True)) == [0, 1]
    assert_intact(game, 2)


def test_twenty_threads_with_one_token_apply_once(start_game, alice, bob):
    game = start_game("roll-to-the-top", [alice, bob])
    action = game.rules.legal_actions(game.state, 0)[0]
    results = race([lambda: engine.submit(game.pk, alice, action, token="one-click") for _ in range(THREADS)])
    assert results.count(True) == 1
    assert results.count(False) == THREADS - 1, "the repeats get the first answer, not an error"
    assert_intact(game, 1)
