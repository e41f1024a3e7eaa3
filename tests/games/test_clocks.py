"""Seat clocks, deadlines enforced by tasks, the bot standing in and handing back."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.models import Game, Seat
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db
SEQUENTIAL = "nanga-parbat"  # one seat acts at a time
SIMULTANEOUS = "roll-to-the-top"  # every seat chooses at once at the start


def seats(game) -> dict[int, Seat]:
    return {s.index: s for s in Seat.objects.filter(game=game).select_related("user")}


def age_clock(game, index: int, by: timedelta) -> None:
    """Pretend the seat's clock started `by` earlier (time passing, without sleeping)."""
    seat = Seat.objects.get(game=game, index=index)
    seat.running_since -= by
    seat.save(update_fields=["running_since"])


def play_first_legal(game, user, seat_index):
    """The seat's move as the game's bot would choose it (first legal actions may loop)."""
    import random

    from games.rules import bot_for

    game.refresh_from_db()
    action = bot_for(game.game_slug).choose(game.state, seat_index, random.Random(game.version))
    return engine.submit(game.pk, user, action)


def everyone_moves_once(game, users: dict):
    """Each seat's player moves at least once: a seat that never moved before its time ran
    out is a no-show, which aborts the game instead of handing the seat to a bot."""
    for _ in range(100):
        game.refresh_from_db()
        if set(game.seats_moved) >= set(users):
            return game
        waiting = game.to_act()
        seat = next((s for s in waiting if s not in game.seats_moved), waiting[0])
        play_first_legal(game, users[seat], seat)
    raise AssertionError("some seat never moved")


def play_until_waiting(game, users: dict, seat_index, limit=60):
    """The other seats play until the game waits for `seat_index`."""
    for _ in range(limit):
        game.refresh_from_db()
        waiting = game.to_act()
        if seat_index in waiting:
            return game
        play_first_legal(game, users[waiting[0]], waiting[0])
    raise AssertionError("the game never waited for the seat")


def play_until_not_waiting(game, user, seat_index, limit=30):
    """The seat plays its first legal actions until the game stops waiting for it."""
    for _ in range(limit):
        if seat_index not in Game.objects.get(pk=game.pk).to_act():
            return
        play_first_legal(game, user, seat_index)
    raise AssertionError("the seat kept waiting")


def test_only_the_waiting_seat_clock_runs_in_a_sequential_phase(start_game, alice, bob):
    game = start_game(SEQUENTIAL, [alice, bob], clock_minutes=10, clock_increment=5)
    [waiting] = game.to_act()
    clocks = seats(game)
    assert clocks[waiting].running_since is not None
    assert clocks[1 - waiting].running_since is None
    assert clocks[1 - waiting].time_left == timedelta(minutes=10)
    assert game.turn_deadline == clocks[waiting].deadline


def test_a_live_move_stops_the_clock_spends_the_time_and_adds_the_increment(start_game, alice, bob):
    game = start_game(SEQUENTIAL, [alice, bob], clock_minutes=10, clock_increment=5)
    [waiting] = game.to_act()
    users = {0: alice, 1: bob}
    age_clock(game, waiting, timedelta(seconds=90))
    play_until_not_waiting(game, users[waiting], waiting)
    clocks = seats(game)
    assert clocks[waiting].running_since is None
    spent = timedelta(minutes=10) + timedelta(seconds=5) - clocks[waiting].time_left
    assert timedelta(seconds=90) <= spent < timedelta(seconds=95)
    assert clocks[1 - waiting].running_since is not None


def test_every_waiting_seat_clock_runs_in_a_simultaneous_phase(start_game, alice, bob, charlie):
    game = start_game(SIMULTANEOUS, [alice, bob, charlie], clock_minutes=3, clock_increment=2)
    assert game.to_act() == [0, 1, 2]
    assert all(s.running_since is not None for s in seats(game).values())


def test_a_seat_that_finished_its_simultaneous_choice_stops_while_the_others_run(start_game, alice, bob):
    game = start_game(SIMULTANEOUS, [alice, bob], clock_minutes=3, clock_increment=2)
    play_until_not_waiting(game, alice, 0)
    game.refresh_from_db()
    clocks = seats(game)
    if 1 in game.to_act():  # bob still choosing: only his clock runs
        assert clocks[0].running_since is None and clocks[1].running_since is not None


def test_correspondence_time_is_credited_back_to_the_full_allowance_after_a_move(start_game, alice, bob):
    game = start_game(SEQUENTIAL, [alice, bob], pace="correspondence", days_per_move=3)
    [waiting] = game.to_act()
    age_clock(game, waiting, timedelta(days=2))
    users = {0: alice, 1: bob}
    play_until_not_waiting(game, users[waiting], waiting)
    assert seats(game)[waiting].time_left == timedelta(days=3)
    assert seats(game)[waiting].running_since is None


def test_games_without_a_clock_have_no_deadline(start_game, alice, bob):
    game = start_game(SEQUENTIAL, [alice, bob])
    assert game.turn_deadline is None
    assert all(s.running_since is None for s in seats(game).values())


def test_a_started_clock_enqueues_its_deadline_task(start_game, alice, bob):
    from django_tasks_db.models import DBTaskResult

    game = start_game(SEQUENTIAL, [alice, bob], pace="correspondence", days_per_move=1)
    [waiting] = game.to_act()
    task = DBTaskResult.objects.get(task_path__endswith=".expire_clock")
    assert task.args_kwargs["args"] == [game.pk, waiting]
    assert abs(task.run_after - seats(game)[waiting].deadline) < timedelta(seconds=1)


def test_time_out_hands_the_seat_to_the_bot_through_the_worker(start_game, alice, bob, run_tasks):
    game = start_game(SEQUENTIAL, [alice, bob], pace="correspondence", days_per_move=1)
    game = everyone_moves_once(game, {0: alice, 1: bob})
    [absent] = game.to_act()
    version = game.version
    age_clock(game, absent, timedelta(days=1, seconds=1))
    run_tasks(only="expire_clock")
    game.refresh_from_db()
    seat = seats(game)[absent]
    assert seat.bot_since == version
    assert game.version > version, "the bot played for the absent seat"
    assert game.moves.filter(seat=absent, by_bot=True).exists()
    assert absent not in game.to_act() or not game.is_active


def test_a_deadline_task_that_finds_the_game_moved_on_does_nothing(start_game, alice, bob, run_tasks):
    game = start_game(SEQUENTIAL, [alice, bob], pace="correspondence", days_per_move=1)
    [waiting] = game.to_act()
    # The deadline has not come (the task ran early, or the seat played): nothing happens.
    assert engine.expire(game.pk, waiting) is False
    run_tasks(only="expire_clock")
    assert seats(game)[waiting].bot_since is None
    assert Game.objects.get(pk=game.pk).version == game.version


def test_the_board_and_history_say_a_bot_plays_the_seat_and_the_player_takes_it_back(start_game, alice, bob):
    game = start_game(SEQUENTIAL, [alice, bob], pace="correspondence", days_per_move=1)
    game = everyone_moves_once(game, {0: alice, 1: bob})
    [absent] = game.to_act()
    user = {0: alice, 1: bob}[absent]
    age_clock(game, absent, timedelta(days=2))
    assert engine.expire(game.pk, absent) is True
    marked = seats(game)[absent].bot_since
    page = client_for(user).get(f"/play/{game.pk}/").content.decode()
    assert f"played by a bot since move {marked}" in page
    assert f"Move {marked}: {user.username} ran out of time" in page  # in the history too
    assert "Take my seat back from the bot" in page
    response = client_for(user).post(f"/play/{game.pk}/take-back/")
    assert response.status_code == 200
    assert "the seat is yours again" in response.content.decode()
    assert seats(game)[absent].bot_since is None
    assert "played by a bot since" not in client_for(user).get(f"/play/{game.pk}/").content.decode()


def test_a_returning_player_whose_turn_it_is_gets_a_running_clock_again(start_game, alice, bob):
    game = start_game(SIMULTANEOUS, [alice, bob], clock_minutes=3, clock_increment=2)
    game = everyone_moves_once(game, {0: alice, 1: bob})
    play_until_waiting(game, {0: alice, 1: bob}, 0)
    age_clock(game, 0, timedelta(minutes=4))
    # A stand-in bot on a simultaneous phase: the bot chooses at once for alice.
    assert engine.expire(game.pk, 0) is True
    engine.take_back(game.pk, alice)
    game.refresh_from_db()
    seat = seats(game)[0]
    assert seat.bot_since is None
    if 0 in game.to_act():
        assert seat.running_since is not None and seat.time_left >= timedelta(minutes=1)


def test_only_a_seated_player_can_take_a_seat_back(start_game, alice, bob, charlie):
    game = start_game(SEQUENTIAL, [alice, bob], pace="correspondence", days_per_move=1)
    with pytest.raises(engine.Rejected) as refused:
        engine.take_back(game.pk, charlie)
    assert refused.value.status == 403


def test_the_clock_ticks_on_the_page_from_the_server_figure(start_game, alice, bob):
    game = start_game(SEQUENTIAL, [alice, bob], clock_minutes=10, clock_increment=1)
    [waiting] = game.to_act()
    age_clock(game, waiting, timedelta(seconds=30))
    page = client_for(alice).get(f"/play/{game.pk}/").content.decode()
    assert 'data-remaining="569"' in page or 'data-remaining="570"' in page
    assert "10:00" in page  # the stopped clock of the other seat


def test_deadlines_do_not_fire_at_timezone_now_before_they_are_due(start_game, alice, bob):
    game = start_game(SEQUENTIAL, [alice, bob], clock_minutes=1)
    [waiting] = game.to_act()
    assert seats(game)[waiting].deadline > timezone.now()
    assert engine.expire(game.pk, waiting) is False


# --- the pace chosen at creation ---

def _create(client, **extra):
    from games import rules

    data = {"game": SEQUENTIAL, "seats": 2, "pace": "live", "days_per_move": 3, "rated": "casual", **extra}
    for name, value in rules.get(SEQUENTIAL).default_options().items():
        data.setdefault(f"opt_{name}", value)
    return client.post("/tables/new/", data)


@pytest.mark.parametrize("preset, minutes, increment", [("3+2", 3, 2), ("10+1", 10, 1), ("15+10", 15, 10)])
def test_a_live_table_takes_a_clock_preset(alice, preset, minutes, increment):
    from lobby.models import Table

    _create(client_for(alice), clock=preset)
    table = Table.objects.get(host=alice)
    assert (table.clock_minutes, table.clock_increment) == (minutes, increment)
    assert table.pace_label() == f"Live, {minutes}+{increment}"


def test_a_custom_clock_needs_its_minutes(alice):
    from lobby.models import Table

    response = _create(client_for(alice), clock="custom", clock_increment=5)
    assert "Give the minutes of your custom clock." in response.content.decode()
    _create(client_for(alice), clock="custom", clock_minutes=25, clock_increment=5)
    assert (Table.objects.get(host=alice).clock_minutes, Table.objects.get(host=alice).clock_increment) == (25, 5)


def test_a_correspondence_table_has_no_live_clock(alice, bob):
    from lobby import services
    from lobby.models import Table

    _create(client_for(alice), pace="correspondence", days_per_move=2, clock="10+1")
    table = Table.objects.get(host=alice)
    assert table.clock_minutes is None and table.days_per_move == 2
    services.join(table.pk, bob)
    table.refresh_from_db()
    assert table.game.days_per_move == 2 and table.game.turn_deadline is not None
