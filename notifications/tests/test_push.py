"""Web Push end to end against a real receiver (push_receiver.py): sent only by the task
worker, encrypted (RFC 8291) and signed (RFC 8292) so the receiver can read and check it;
the quiet rules (no push for a game you have open; one push for games that became yours
within a minute); gone subscriptions deleted; subscriptions validated."""
from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.utils import timezone

from games import engine
from games.models import Game
from games.audiences import join as join_audience
from games.audiences import leave as leave_audience
from games.notify import seat_group
from tests.redis_server import settle_registry
from notifications.models import PendingTurn, Preferences, PushSubscription
from tests.fixtures import client_for

from .push_receiver import PushReceiver, verify_vapid

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"  # seat 0 moves first


@pytest.fixture(scope="module")
def vapid_keys() -> dict[str, str]:
    out = io.StringIO()
    call_command("generate_vapid_keys", stdout=out, stderr=io.StringIO())
    return dict(line.split("=", 1) for line in out.getvalue().split())


@pytest.fixture
def receiver(settings, vapid_keys):
    settings.VAPID_PRIVATE_KEY = vapid_keys["VAPID_PRIVATE_KEY"]
    settings.VAPID_PUBLIC_KEY = vapid_keys["VAPID_PUBLIC_KEY"]
    settings.VAPID_SUBJECT = "mailto:ops@switchback.example"
    settings.PUSH_ENDPOINT_HOSTS = ["127.0.0.1"]
    settings.PUSH_ALLOW_HTTP = True
    with PushReceiver() as running:
        yield running


@pytest.fixture(autouse=True)
def _no_open_games():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def subscribe(receiver, user):
    """As the settings page's button does: the browser's subscription, POSTed as JSON."""
    device = receiver.subscribe()
    body = json.dumps(receiver.subscription_json(device))
    response = client_for(user).post("/notifications/push/subscribe/", body, content_type="application/json",
                                     HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux) Chrome/140")
    assert response.status_code == 201, response.content
    return device


def correspondence(start_game, users):
    return start_game(SLUG, users, pace="correspondence", days_per_move=2)


def test_a_push_arrives_encrypted_and_signed_and_only_from_the_worker(start_game, alice, bob, receiver, run_tasks):
    device = subscribe(receiver, bob)
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    client_for(alice).post(f"/play/{game.pk}/rematch/")  # a request: nothing is pushed inside it
    assert receiver.received == []
    run_tasks()
    assert receiver.rejected == []
    # The result and the rematch offer (in whichever order the worker took them).
    [game_over] = [p for p in receiver.received if p.payload["body"].startswith(f"{game} ended")]
    [push] = [p for p in receiver.received if p is not game_over]
    assert game_over.payload["body"].startswith(f"{game} ended: you placed 1st of 2")
    assert push.device == device.token
    assert push.payload["body"] == f"alice offers a rematch of {game}."
    assert push.payload["url"] == f"/play/{game.pk}/"
    assert push.claims["aud"] == receiver.origin and push.claims["sub"] == "mailto:ops@switchback.example"
    assert push.vapid_key == receiver_settings_public_key()
    assert PushSubscription.objects.get(user=bob).last_used is not None


def receiver_settings_public_key() -> str:
    from django.conf import settings

    return settings.VAPID_PUBLIC_KEY


def test_the_receiver_refuses_a_forged_signature(vapid_keys):
    """The check is real: a token signed by another key does not pass."""
    from py_vapid import Vapid02

    other = Vapid02()
    other.generate_keys()
    header = other.sign({"aud": "http://127.0.0.1:1", "exp": int(timezone.now().timestamp()) + 600,
                         "sub": "mailto:x@example.com"})["Authorization"]
    token = header.split("t=")[1].split(",")[0]
    with pytest.raises(Exception, match="signature"):
        verify_vapid(f"vapid t={token},k={vapid_keys['VAPID_PUBLIC_KEY']}", "http://127.0.0.1:1")


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_forgot_is_deleted(start_game, alice, bob, receiver, run_tasks, status):
    device = subscribe(receiver, bob)
    keep = subscribe(receiver, bob)
    receiver.gone[device.token] = status
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    engine.accept_rematch(game.pk, alice)
    run_tasks()
    assert list(PushSubscription.objects.filter(user=bob).values_list("endpoint", flat=True)) == \
        [receiver.endpoint(keep)]
    assert {p.device for p in receiver.received} == {keep.token}


def test_five_games_becoming_yours_within_a_minute_give_one_push(start_game, alice, bob, receiver, run_tasks):
    subscribe(receiver, bob)
    games = [correspondence(start_game, [bob, alice]) for _ in range(5)]  # bob (seat 0) moves first in each
    assert PendingTurn.objects.filter(user=bob).count() == 5
    run_tasks(only="push_turns")  # the reminders are due later
    assert len(receiver.received) == 1
    [push] = receiver.received
    assert push.payload["title"] == "Your turn in 5 games"
    assert push.payload["url"] == "/me/games/"
    assert str(games[0]) in push.payload["body"]
    assert not PendingTurn.objects.exists()


@pytest.fixture
def open_page():
    """Open a seat's page (a socket registered in games.audiences); every page closes after
    the test, since a later test's game may get the same id."""
    opened = []

    def open_seat(game, seat: int) -> None:
        settle_registry()
        group = seat_group(game.pk, seat)
        async_to_sync(join_audience)(group, "bobs-page")
        opened.append(group)

    yield open_seat
    for group in opened:
        async_to_sync(leave_audience)(group, "bobs-page")


def test_no_push_for_a_game_the_player_has_open(start_game, alice, bob, receiver, run_tasks, open_page):
    subscribe(receiver, bob)
    game = correspondence(start_game, [bob, alice])
    open_page(game, 0)  # bob's board is open (a socket on his seat)
    run_tasks(only="push_turns")  # the reminders are due later
    assert len(receiver.received) == 0


def test_one_game_open_among_two_pushes_only_the_other(start_game, alice, bob, receiver, run_tasks, open_page):
    subscribe(receiver, bob)
    watched, other = correspondence(start_game, [bob, alice]), correspondence(start_game, [bob, alice])
    open_page(watched, 0)
    run_tasks(only="push_turns")  # the reminders are due later
    [push] = receiver.received
    assert push.payload["title"] == "Your turn" and push.payload["url"] == f"/play/{other.pk}/"


def test_a_turn_already_played_when_the_batch_goes_is_left_out(start_game, alice, bob, receiver, run_tasks):
    subscribe(receiver, bob)
    game = correspondence(start_game, [bob, alice])
    Game.objects.filter(pk=game.pk).update(waiting_for=[1])  # bob moved meanwhile
    run_tasks(only="push_turns")  # the reminders are due later
    assert receiver.received == []


def test_players_who_turned_turn_pushes_off_get_none(start_game, alice, bob, receiver, run_tasks):
    subscribe(receiver, bob)
    Preferences.objects.create(user=bob, choices={"turn": ["site"]})
    correspondence(start_game, [bob, alice])
    run_tasks(only="push_turns")  # the reminders are due later
    assert receiver.received == []


def test_players_without_a_device_cost_the_move_nothing(start_game, alice, bob, receiver):
    correspondence(start_game, [bob, alice])
    assert not PendingTurn.objects.exists()


def test_a_reminder_push_at_80_percent_of_the_time(start_game, alice, bob, receiver, run_tasks):
    subscribe(receiver, bob)
    game = correspondence(start_game, [bob, alice])
    run_tasks(only="push_turns")
    receiver.received.clear()
    run_tasks(only="push_reminder")
    [push] = receiver.received
    assert push.payload["title"] == "Reminder: 20 % of your time left"
    assert push.payload["url"] == f"/play/{game.pk}/"


@pytest.mark.parametrize("body, why", [
    ("not json", "not JSON"),
    (json.dumps({"endpoint": "https://evil.internal/x", "keys": {"p256dh": "B" * 87, "auth": "a" * 22}}),
     "an endpoint that is no push service"),
    (json.dumps({"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": {"p256dh": "<script>", "auth": ""}}),
     "keys that are not base64url"),
    (json.dumps(["a list"]), "not an object"),
])
def test_a_bad_subscription_is_refused_with_a_message(alice, receiver, body, why):
    response = client_for(alice).post("/notifications/push/subscribe/", body, content_type="application/json")
    assert response.status_code == 400, why
    assert "not a push subscription" in response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_without_vapid_keys_subscribing_says_push_is_not_set_up(alice, settings):
    settings.VAPID_PRIVATE_KEY = ""
    response = client_for(alice).post("/notifications/push/subscribe/", "{}", content_type="application/json")
    assert response.status_code == 409 and "not set up" in response.json()["error"]


def test_devices_are_listed_and_removable_in_settings(alice, bob, receiver):
    subscribe(receiver, alice)
    page = client_for(alice).get("/notifications/settings/").content.decode()
    assert "Chrome on Linux" in page
    device = PushSubscription.objects.get(user=alice)
    assert client_for(bob).post(f"/notifications/push/{device.pk}/remove/").status_code == 302
    assert PushSubscription.objects.filter(pk=device.pk).exists()  # not bob's to remove
    client_for(alice).post(f"/notifications/push/{device.pk}/remove/")
    assert not PushSubscription.objects.exists()


def test_an_old_pending_turn_older_than_a_minute_still_goes_in_the_next_batch(start_game, alice, bob, receiver,
                                                                                run_tasks):
    subscribe(receiver, bob)
    correspondence(start_game, [bob, alice])
    PendingTurn.objects.update(created=timezone.now() - timedelta(minutes=5))
    run_tasks(only="push_turns")  # the reminders are due later
    assert len(receiver.received) == 1
