"""Resign, abort, rematch, vacation, the rating rule after timeouts, and open tables
expiring: all through the engine (or the lobby's services)."""
from __future__ import annotations

import random
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games import engine
from games.engine import Rejected, final_ranks
from games.models import Game, RematchOffer, Seat
from games.rules import bot_for
from tests.fixtures import client_for, tasks_done

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"
MULTI = "roll-to-the-top"


def finish(game, users: dict) -> Game:
    """Play the game to its end with each seat's bot choices (the stand-in bots answer
    by themselves)."""
    for step in range(3000):
        game.refresh_from_db()
        if not game.is_active:
            return game
        seat = next(s for s in game.to_act())
        engine.submit(game.pk, users[seat], bot_for(game.game_slug).choose(game.state, seat, random.Random(step)))
    raise AssertionError("the game did not end")


# --- the rating rule (written on the help page) ---

def test_absent_seats_rank_last_and_the_others_among_themselves():
    # The bot of seat 1 won the game; its player timed out: last. Seats 0 and 2 keep
    # their order among themselves.
    assert final_ranks([2, 1, 3], absent={1}) == [1, 3, 2]


def test_ties_among_present_players_share_a_rank_and_absent_players_share_the_last():
    assert final_ranks([1, 1, 3, 4], absent={0, 3}) == [3, 1, 2, 3]
    assert final_ranks([1, 2, 2], absent=set()) == [1, 2, 2]


def test_the_help_page_states_the_rating_rule(client):
    page = client.get("/help/").content.decode()
    assert 'id="rating-rule"' in page and "rated last" in page and "among themselves" in page


def everyone_moves_once(game, users: dict) -> Game:
    """Each seat's player moves at least once (a seat that never moved is a no-show)."""
    for step in range(200):
        game.refresh_from_db()
        if set(game.seats_moved) == set(users):
            return game
        seat = game.to_act()[0]
        engine.submit(game.pk, users[seat], bot_for(game.game_slug).choose(game.state, seat, random.Random(step)))
    raise AssertionError("some seat never moved")


def test_a_timed_out_player_who_did_not_return_is_rated_last(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    game = everyone_moves_once(game, {0: alice, 1: bob})
    [absent] = game.to_act()
    Seat.objects.filter(game=game, index=absent).update(running_since=timezone.now() - timedelta(days=2))
    assert engine.expire(game.pk, absent)
    with mock.patch("accounts.ratings.update_ratings") as update:
        game = finish(game, {0: alice, 1: bob})
    seats = {s.index: s for s in game.seats.all()}
    assert seats[absent].rank == 2 and seats[1 - absent].rank == 1
    users, ranks = update.call_args.args[1], update.call_args.args[2]
    assert dict(zip([u.pk for u in users], ranks, strict=True))[seats[absent].user_id] == 2


# --- resign ---

def test_resigning_a_two_player_game_ends_it_and_ranks_you_last(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    response = client_for(alice).post(f"/play/{game.pk}/resign/")
    assert response.status_code == 200 and "You resigned." in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    seats = {s.user_id: s for s in game.seats.all()}
    assert seats[alice.pk].rank == 2 and seats[bob.pk].rank == 1 and seats[alice.pk].resigned


def test_resigning_a_multi_player_game_hands_the_seat_to_a_bot_and_the_game_goes_on(start_game, alice, bob, charlie):
    game = start_game(MULTI, [alice, bob, charlie])
    engine.resign(game.pk, alice)
    game.refresh_from_db()
    assert game.is_active
    seat = game.seats.get(user=alice)
    assert seat.bot_since == 0 and seat.resigned
    assert 0 not in game.to_act(), "the bot chose for the resigned seat at once"
    with pytest.raises(Rejected):
        engine.take_back(game.pk, alice)


# --- abort ---

def test_a_player_may_abort_before_everyone_has_moved(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    response = client_for(alice).post(f"/play/{game.pk}/abort/")
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and not game.rated
    assert all(s.rank is None and s.running_since is None for s in game.seats.all())
    assert game.turn_deadline is None


def test_abort_is_refused_once_every_seat_has_moved(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    users = {0: alice, 1: bob}
    for step in range(200):
        game.refresh_from_db()
        if set(game.seats_moved) == {0, 1}:
            break
        seat = game.to_act()[0]
        engine.submit(game.pk, users[seat], bot_for(SLUG).choose(game.state, seat, random.Random(step)))
    response = client_for(alice).post(f"/play/{game.pk}/abort/")
    assert response.status_code == 409
    assert "can no longer be aborted" in response.content.decode()
    assert Game.objects.get(pk=game.pk).is_active


def test_the_admins_abort_goes_through_the_engine_at_any_time(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    engine.abort(game.pk, by_user=None, reason="test")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert not game.seats.filter(running_since__isnull=False).exists()


# --- rematch ---

def test_a_rematch_starts_when_everyone_accepted_with_seats_rotated(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    engine.accept_rematch(game.pk, alice)
    assert RematchOffer.objects.get(game=game).status == "open"
    page = client_for(bob).get(f"/play/{game.pk}/").content.decode()
    assert "Accept the rematch" in page and "Rematch accepted by alice" in page
    client_for(bob).post(f"/play/{game.pk}/rematch/")
    offer = RematchOffer.objects.get(game=game)
    assert offer.status == "accepted"
    new = offer.new_game
    assert [s.user_id for s in new.ordered_seats()] == [bob.pk, alice.pk]
    assert (new.options, new.pace, new.game_slug) == (game.options, game.pace, game.game_slug)
    assert "go to the new game" in client_for(alice).get(f"/play/{game.pk}/").content.decode()


def test_a_declined_rematch_says_so(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    engine.accept_rematch(game.pk, alice)
    engine.decline_rematch(game.pk, bob)
    assert "The rematch was declined by bob" in client_for(alice).get(f"/play/{game.pk}/").content.decode()
    with pytest.raises(Rejected):
        engine.accept_rematch(game.pk, alice)


def test_an_old_rematch_offer_expires(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    engine.accept_rematch(game.pk, alice)
    RematchOffer.objects.filter(game=game).update(created=timezone.now() - timedelta(hours=25))
    assert "The rematch offer expired" in client_for(bob).get(f"/play/{game.pk}/").content.decode()
    assert RematchOffer.objects.get(game=game).status == "open", "reading a page writes nothing"
    with pytest.raises(Rejected):
        engine.accept_rematch(game.pk, bob)


def test_a_rematch_offer_enqueues_its_expiry_at_its_deadline(start_game, alice, bob, settings):
    from django_tasks_db.models import DBTaskResult

    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    engine.accept_rematch(game.pk, alice)
    engine.accept_rematch(game.pk, alice)  # accepting again adds no second deadline
    offer = RematchOffer.objects.get(game=game)
    task = DBTaskResult.objects.get(task_path__endswith=".expire_rematch")
    assert task.args_kwargs["args"] == [game.pk]
    assert abs(task.run_after - (offer.created + timedelta(hours=settings.REMATCH_OFFER_HOURS))) < timedelta(seconds=1)


def test_the_worker_expires_an_old_rematch_offer_and_tells_the_pages(start_game, alice, bob, run_tasks, monkeypatch,
                                                                     django_capture_on_commit_callbacks):
    from games import publisher

    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    engine.accept_rematch(game.pk, alice)
    told = []
    monkeypatch.setattr(publisher, "send", lambda outcome: told.append(outcome.game.pk))
    RematchOffer.objects.filter(game=game).update(created=timezone.now() - timedelta(hours=25))
    with django_capture_on_commit_callbacks(execute=True):
        run_tasks(only="expire_rematch")
        assert tasks_done("expire_rematch") == 1
    assert RematchOffer.objects.get(game=game).status == "expired"
    assert told == [game.pk]


def test_an_early_rematch_expiry_task_leaves_a_young_or_settled_offer_alone(start_game, alice, bob, run_tasks):
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    engine.accept_rematch(game.pk, alice)
    assert engine.expire_rematch(game.pk) is False, "not due yet"
    assert RematchOffer.objects.get(game=game).status == "open"
    engine.accept_rematch(game.pk, bob)
    RematchOffer.objects.filter(game=game).update(created=timezone.now() - timedelta(hours=25))
    run_tasks(only="expire_rematch")
    assert RematchOffer.objects.get(game=game).status == "accepted"


def test_no_rematch_while_the_game_runs(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    assert client_for(alice).post(f"/play/{game.pk}/rematch/").status_code == 409


# --- vacation ---

def test_vacation_stops_correspondence_clocks_and_opponents_see_it(start_game, alice, bob):
    from accounts import vacation

    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=2)
    [waiting] = game.to_act()
    user, other = (alice, bob) if waiting == 0 else (bob, alice)
    Seat.objects.filter(game=game, index=waiting).update(running_since=timezone.now() - timedelta(days=1))
    vacation.declare(user.pk, 5)
    seat = Seat.objects.get(game=game, index=waiting)
    user.refresh_from_db()
    assert seat.running_since == user.vacation_until, "the clock waits for the vacation to end"
    assert timedelta(hours=23) < seat.time_left <= timedelta(days=1), "the time left is kept"
    assert engine.expire(game.pk, waiting) is False
    page = client_for(other).get(f"/play/{game.pk}/").content.decode()
    assert f"on vacation until {user.vacation_until:%b} {user.vacation_until.day}" in page


def test_a_move_during_vacation_starts_the_next_clock_after_it(start_game, alice, bob):
    from accounts import vacation

    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=2)
    [waiting] = game.to_act()
    idle = bob if waiting == 0 else alice
    vacation.declare(idle.pk, 3)
    seat = Seat.objects.get(game=game, user=idle)
    assert seat.running_since is None  # not waiting now: nothing to stop yet
    idle.refresh_from_db()
    from games import clocks
    clocks.start(game, seat, timezone.now())
    assert seat.running_since == idle.vacation_until


def test_vacation_leaves_live_games_alone(start_game, alice, bob):
    from accounts import vacation

    game = start_game(SLUG, [alice, bob], clock_minutes=10, clock_increment=1)
    before = list(Seat.objects.filter(game=game).values_list("running_since", flat=True))
    vacation.declare(alice.pk, 3)
    vacation.declare(bob.pk, 3)
    assert list(Seat.objects.filter(game=game).values_list("running_since", flat=True)) == before


def test_vacation_is_limited_to_30_days_a_year_and_coming_back_early_gives_days_back(alice):
    from accounts import vacation

    vacation.declare(alice.pk, 20)
    with pytest.raises(Rejected):
        vacation.declare(alice.pk, 11)
    vacation.end(alice.pk)
    alice.refresh_from_db()
    assert not alice.on_vacation()
    assert vacation.days_left(alice) >= 29


def test_the_settings_page_declares_a_vacation(alice_client, alice):
    response = alice_client.post("/accounts/settings/vacation/", {"days": "7"}, follow=True)
    assert "Enjoy!" in response.content.decode()
    alice.refresh_from_db()
    assert alice.on_vacation()
    assert "up to 30 days" in alice_client.get("/accounts/settings/").content.decode().lower()


# --- open tables expire ---

def test_idle_open_tables_expire_and_list_nobody_as_seated(alice, bob):
    from lobby import services
    from lobby.models import Table

    idle = services.create_table(alice, game_slug=SLUG, seats_count=3, options={}, is_private=False,
                                 pace="live", days_per_move=None)
    fresh = services.create_table(bob, game_slug=SLUG, seats_count=3, options={}, is_private=False,
                                  pace="live", days_per_move=None)
    Table.objects.filter(pk=idle.pk).update(last_activity=timezone.now() - timedelta(hours=49))
    assert services.expire_idle_tables() == 1
    idle.refresh_from_db()
    assert idle.status == Table.Status.EXPIRED and idle.seats.count() == 0
    assert Table.objects.get(pk=fresh.pk).is_open


def test_the_periodic_task_expires_tables_and_schedules_its_next_run(alice, run_tasks):
    from django.core.management import call_command
    from django_tasks_db.models import DBTaskResult

    call_command("schedule_periodic_tasks")
    call_command("schedule_periodic_tasks")  # idempotent: no second chain
    assert DBTaskResult.objects.filter(task_path__endswith=".expire_open_tables").count() == 1
    run_tasks(only="expire_open_tables")
    waiting = DBTaskResult.objects.filter(task_path__endswith=".expire_open_tables", status="READY")
    assert waiting.count() == 1 and waiting.get().run_after > timezone.now() + timedelta(minutes=59)
