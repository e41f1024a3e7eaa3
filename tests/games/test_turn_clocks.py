"""Clocks follow turns, not requests (issue 17 row 2 / build 3), a taken-back correspondence
seat shows its real time (row 7), and the clock is the law, not the worker (issue 18 row 7).

A player's turn ends when the game stops asking them, even if a bot's reply asks them again
within the same request: their clock stops (time spent, increment added) and starts again.
"""
from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.models import Game, Seat
from games.rules import bot_for
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db
STEP = timedelta(seconds=2)  # each move takes the player this long (the clock is aged)
INCREMENT = 20  # large beside the real time a loaded machine spends in the requests
THREE_BOTS = "rifugio"  # one seat acts at a time: every turn ends when a bot is asked


def seat(game, index) -> Seat:
    return Seat.objects.get(game=game, index=index)


def age(game, index, by=STEP) -> None:
    clock = seat(game, index)
    assert clock.running_since is not None, "the waiting player's clock runs"
    clock.running_since -= by
    clock.save(update_fields=["running_since"])


def bot_move(game, user, index, step):
    game.refresh_from_db()
    action = bot_for(game.game_slug).choose(game.state, index, random.Random(step))
    return engine.submit(game.pk, user, action)


def turns_ended(game, index, after: int) -> int:
    """How often the game stopped asking the seat since move `after`, replayed move by move
    (the rules decide: in Alpine Trails a "done" may open a phase that asks everyone, the
    player included, so that turn never stopped being asked)."""
    rules, ended, asked = game.rules, 0, True
    for move, state in engine.replay_states(game):
        if move is None or move.seq <= after:
            continue
        now_asked = index in rules.to_act(state)
        ended += asked and not now_asked
        asked = now_asked
    return ended


def play_against_bots(game, user, index, moves=16) -> None:
    """The player moves `moves` times, each taking STEP; the bots answer at once. The clock
    must show the time spent and one increment per turn that ended."""
    start, version, began = seat(game, index).remaining(), game.version, timezone.now()
    for step in range(moves):
        game.refresh_from_db()
        if not game.is_active:
            break
        assert index in game.to_act(), "a bot answered: the game asks the player again"
        age(game, index)
        bot_move(game, user, index, step)
    game.refresh_from_db()
    ended = turns_ended(game, index, version)
    assert ended >= 2, "the bots answered several turns"
    clock = seat(game, index)
    # Before clocks followed turns, the clock never stopped against bots: `start - spent`.
    expected = start - STEP * moves + timedelta(seconds=INCREMENT) * ended
    real_time = timezone.now() - began  # the requests themselves take time too
    assert expected - real_time - timedelta(seconds=1) <= clock.remaining() <= expected, (
        clock.remaining(), expected, ended, real_time)


def test_live_against_one_bot_each_turn_stops_the_clock_and_adds_the_increment(start_game, alice):
    game = start_game("nanga-parbat", [alice, None], clock_minutes=10, clock_increment=INCREMENT)
    play_against_bots(game, alice, 0)


def test_live_against_three_bots(start_game, alice):
    game = start_game(THREE_BOTS, [alice, None, None, None], clock_minutes=10, clock_increment=INCREMENT)
    play_against_bots(game, alice, 0)


def test_live_against_the_bot_standing_in_for_a_timed_out_player(start_game, alice, bob):
    game = start_game("nanga-parbat", [alice, bob], clock_minutes=10, clock_increment=INCREMENT)
    users = {0: alice, 1: bob}
    for step in range(50):  # both players move once (a seat that never moved is a no-show)
        game.refresh_from_db()
        if set(game.seats_moved) == {0, 1} and game.to_act() == [1]:
            break
        [waiting] = game.to_act()
        bot_move(game, users[waiting], waiting, step)
    age(game, 1, by=timedelta(minutes=11))
    assert engine.expire(game.pk, 1), "bob's flag fell: a bot plays his seat"
    game.refresh_from_db()
    assert game.is_active and game.to_act() == [0]
    play_against_bots(game, alice, 0)


def test_live_simultaneous_phase_against_a_bot(start_game, alice):
    game = start_game("roll-to-the-top", [alice, None], clock_minutes=10, clock_increment=INCREMENT)
    assert game.to_act() == [0], "the bot chose at once; the round waits for alice"
    play_against_bots(game, alice, 0)


def test_between_two_people_a_turn_still_ends_once(start_game, alice, bob):
    """No double increment: a turn that ends and is not asked again is stopped once."""
    game = start_game("nanga-parbat", [alice, bob], clock_minutes=10, clock_increment=INCREMENT)
    [waiting] = game.to_act()
    before = seat(game, waiting).remaining()
    age(game, waiting)
    bot_move(game, {0: alice, 1: bob}[waiting], waiting, 0)
    game.refresh_from_db()
    if waiting not in game.to_act():
        after = seat(game, waiting)
        assert after.running_since is None
        assert abs(after.time_left - (before - STEP + timedelta(seconds=INCREMENT))) < timedelta(seconds=3)


# --- Row 7: taking a correspondence seat back ---------------------------------------

def test_a_player_taking_back_a_correspondence_seat_sees_a_full_clock_not_zero(start_game, alice, bob):
    game = start_game("nanga-parbat", [alice, bob], pace="correspondence", days_per_move=2)
    users = {0: alice, 1: bob}
    for step in range(50):
        game.refresh_from_db()
        if set(game.seats_moved) == {0, 1}:
            break
        [waiting] = game.to_act()
        bot_move(game, users[waiting], waiting, step)
    [absent] = game.to_act()
    age(game, absent, by=timedelta(days=3))
    assert engine.expire(game.pk, absent)
    game.refresh_from_db()
    assert absent not in game.to_act(), "the bot played the seat's turn; the game waits for the other"
    engine.take_back(game.pk, users[absent])
    clock = seat(game, absent)
    assert clock.bot_since is None and clock.running_since is None
    assert clock.time_left == timedelta(days=2)
    page = client_for(users[absent]).get(f"/play/{game.pk}/").content.decode()
    assert '<span class="clock"  title="Time left">2d 0h</span>' in page or "2d 0h" in page
    assert 'title="Time left">0:00<' not in page


# --- Issue 18 row 7: the clock is the law, not the worker ----------------------------

def _both_moved(start_game, alice, bob, **clock):
    game = start_game("nanga-parbat", [alice, bob], **clock)
    users = {0: alice, 1: bob}
    for step in range(50):
        game.refresh_from_db()
        if set(game.seats_moved) == {0, 1}:
            return game, users
        [waiting] = game.to_act()
        bot_move(game, users[waiting], waiting, step)
    raise AssertionError("some seat never moved")


def test_a_move_after_the_deadline_is_refused_and_the_bot_takes_the_seat_at_once(start_game, alice, bob):
    game, users = _both_moved(start_game, alice, bob, clock_minutes=1, clock_increment=0)
    [late] = game.to_act()
    age(game, late, by=timedelta(seconds=61))  # the flag fell; no worker has run
    version = game.version
    game.refresh_from_db()
    action = bot_for(game.game_slug).choose(game.state, late, random.Random(1))
    response = client_for(users[late]).post(f"/play/{game.pk}/act/", {"action": json.dumps(action)})
    assert response.status_code == 409
    assert engine.LATE_MESSAGE in response.content.decode()
    game.refresh_from_db()
    clock = seat(game, late)
    assert clock.bot_since == version, "the seat went to the bot on the spot"
    assert not game.moves.filter(seat=late, by_bot=False, seq__gt=version).exists(), "the late move was not applied"
    assert engine.expire(game.pk, late) is False, "the deadline task, when it comes, finds nothing to do"


def test_a_late_first_move_is_a_no_show(start_game, alice, bob):
    game = start_game("nanga-parbat", [alice, bob], clock_minutes=1)
    [late] = game.to_act()
    age(game, late, by=timedelta(minutes=2))
    game.refresh_from_db()
    action = bot_for(game.game_slug).choose(game.state, late, random.Random(1))
    outcome = engine.submit(game.pk, [alice, bob][late], action)
    assert not outcome.applied and outcome.status == 409
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.ending == Game.Ending.NO_SHOW


def test_a_vacation_declared_after_the_deadline_does_not_rescue_the_seat(start_game, alice, bob):
    from accounts import vacation

    game, users = _both_moved(start_game, alice, bob, pace="correspondence", days_per_move=1)
    [late] = game.to_act()
    clock = seat(game, late)
    clock.running_since = timezone.now() - timedelta(days=1, seconds=0.2)  # 0.2 s past its deadline
    clock.save(update_fields=["running_since"])
    vacation.declare(users[late].pk, 5)
    clock = seat(game, late)
    assert clock.bot_since is not None, "the flag had fallen: the bot took the seat"
    assert clock.running_since is None or clock.running_since <= timezone.now()


def test_a_vacation_declared_before_the_deadline_still_pauses_the_clock(start_game, alice, bob):
    from accounts import vacation

    game, users = _both_moved(start_game, alice, bob, pace="correspondence", days_per_move=1)
    [waiting] = game.to_act()
    age(game, waiting, by=timedelta(hours=23))
    vacation.declare(users[waiting].pk, 5)
    clock = seat(game, waiting)
    assert clock.bot_since is None
    assert clock.running_since > timezone.now() + timedelta(days=4), "paused until the vacation ends"
    assert timedelta(minutes=59) < clock.time_left <= timedelta(hours=1)
