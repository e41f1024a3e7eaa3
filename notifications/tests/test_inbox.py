"""The inbox is fed by the games' and lobby's model signals (nothing calls the app): a
result, a rematch, a bot taking a seat and handing it back, a table expiring or closed,
an invitation. Read/unread, mark all read, 30 days kept, the bell live over the socket."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from lobby import services as lobby
from lobby.models import Table
from notifications.models import Notification, Preferences
from notifications.tasks import PERIODIC_TASKS, prune_notifications
from tests.fixtures import client_for, time_out_the_absent_seat

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"  # one seat acts at a time
MANY = "roll-to-the-top"  # 2 to 4 players


def lines(user) -> list[Notification]:
    return list(Notification.objects.filter(user=user).order_by("pk"))


def texts(user) -> list[str]:
    return [n.text for n in lines(user)]


def test_a_finished_game_puts_the_result_in_each_players_inbox(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    [for_bob], [for_alice] = lines(bob), lines(alice)
    assert for_bob.kind == "game_over" and for_bob.url == f"/play/{game.pk}/"
    assert "you placed 1st of 2 (won by bob)" in for_bob.text
    assert "you placed 2nd of 2" in for_alice.text
    assert not for_bob.read


def test_an_aborted_game_says_so(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.abort(game.pk, alice)
    assert texts(bob) == [f"{game} was aborted: no result, no rating change."]


def test_moves_that_do_not_end_a_live_game_write_nothing(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], clock_minutes=10)
    from games.rules import bot_for
    import random

    for _ in range(3):
        game.refresh_from_db()
        seat = game.to_act()[0]
        engine.submit(game.pk, [alice, bob][seat], bot_for(SLUG).choose(game.state, seat, random.Random(1)))
    assert Notification.objects.count() == 0


def test_a_bot_taking_a_seat_and_handing_it_back(start_game, alice, bob):
    import random

    from games.rules import bot_for

    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    while len(game.seats_moved) < 2:  # a seat that never moved is a no-show: the game is aborted instead
        seat = game.to_act()[0]
        engine.submit(game.pk, [alice, bob][seat], bot_for(SLUG).choose(game.state, seat, random.Random(1)))
        game.refresh_from_db()
    Notification.objects.all().delete()
    absent = time_out_the_absent_seat(game)
    user, other = {0: (alice, bob), 1: (bob, alice)}[absent]
    assert texts(user) == [f"Your time ran out in {game}: a bot plays your seat until you take it back."]
    assert texts(other) == [f"A bot took over {user.username}'s seat in {game}."]
    engine.take_back(game.pk, user)
    assert texts(other)[-1] == f"{user.username} is back in {game}: the bot handed the seat back."
    assert len(texts(user)) == 1  # they did it themselves


def test_resigning_in_a_three_player_game_tells_nobody_about_a_bot(start_game, alice, bob, charlie):
    game = start_game(MANY, [alice, bob, charlie])
    engine.resign(game.pk, charlie)
    assert not [n for n in Notification.objects.all() if n.kind == "seat"]


def test_a_rematch_offer_and_its_start_reach_the_other_player(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    Notification.objects.all().delete()
    engine.accept_rematch(game.pk, alice)
    assert texts(bob) == [f"alice offers a rematch of {game}."] and texts(alice) == []
    engine.accept_rematch(game.pk, bob)
    game.rematch.refresh_from_db()
    new_url = f"/play/{game.rematch.new_game_id}/"
    assert [(n.text, n.url) for n in lines(alice)] == [(f"The rematch of {game} started.", new_url)]
    assert lines(bob)[-1].url == new_url


def test_a_declined_rematch_tells_the_one_who_offered(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    engine.accept_rematch(game.pk, alice)
    engine.decline_rematch(game.pk, bob)
    assert texts(alice)[-1] == f"bob declined the rematch of {game}."


def _table(host, guest=None, **extra):
    table = lobby.create_table(host, game_slug=MANY, seats_count=3, options={}, is_private=extra.get("private", False),
                               pace="correspondence", days_per_move=2)
    if guest:
        lobby.join(table.pk, guest, token=table.invite_token)
    return table


def test_an_expired_table_tells_everyone_who_sat_there(alice, bob):
    table = _table(alice, bob)
    assert lobby.expire_idle_tables(now=timezone.now() + timedelta(days=30)) == 1
    for user in (alice, bob):
        [line] = lines(user)
        assert line.kind == "table" and "expired" in line.text and line.url == f"/tables/{table.pk}/"


def test_a_table_closed_by_its_host_tells_the_guests(alice, bob):
    table = _table(alice, bob)
    lobby.leave(table.pk, alice)
    assert texts(bob) == ["alice closed the Roll to the Top: Journeys table you sat at."]
    assert texts(alice) == []
    assert Table.objects.get(pk=table.pk).status == "cancelled"


def test_the_host_invites_a_player_by_name(alice, bob):
    table = _table(alice, private=True)
    response = client_for(alice).post(f"/notifications/invite/{table.pk}/", {"username": "BOB"})
    assert response.status_code == 302
    [line] = lines(bob)
    assert line.kind == "invitation" and line.url == f"/invite/{table.invite_token}/"
    assert "alice invites you to a private table of Roll to the Top: Journeys" in line.text


def test_only_the_host_invites_and_only_existing_players(alice, bob, charlie):
    table = _table(alice)
    assert client_for(bob).post(f"/notifications/invite/{table.pk}/", {"username": "charlie"}).status_code == 404
    client_for(alice).post(f"/notifications/invite/{table.pk}/", {"username": "nobody"})
    assert Notification.objects.count() == 0


def test_the_inbox_lists_links_and_marks_read(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    [line] = lines(bob)
    client = client_for(bob)
    page = client.get("/notifications/").content.decode()
    assert line.text in page and "1 unread" in page and f"/notifications/{line.pk}/open/" in page
    assert 'class="bell hot"' in page
    opened = client.get(f"/notifications/{line.pk}/open/")
    assert opened.status_code == 302 and opened["Location"] == f"/play/{game.pk}/"
    line.refresh_from_db()
    assert line.read
    client.post(f"/notifications/{line.pk}/read/", {"read": "0"})
    line.refresh_from_db()
    assert not line.read
    client.post("/notifications/read-all/")
    assert not Notification.objects.filter(user=bob, read=False).exists()


def test_nobody_reads_or_marks_another_players_line(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    [line] = lines(bob)
    assert client_for(alice).get(f"/notifications/{line.pk}/open/").status_code == 404
    assert client_for(alice).post(f"/notifications/{line.pk}/read/").status_code == 404
    assert line.text not in client_for(alice).get("/notifications/").content.decode()


def test_a_kind_turned_off_in_the_site_writes_no_line(start_game, alice, bob):
    Preferences.objects.create(user=bob, choices={"game_over": ["push"]})
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    assert lines(bob) == [] and len(lines(alice)) == 1


def test_lines_older_than_30_days_are_pruned_daily(alice):
    old = Notification.objects.create(user=alice, kind="table", text="old", url="/",
                                      created=timezone.now() - timedelta(days=31))
    recent = Notification.objects.create(user=alice, kind="table", text="recent", url="/",
                                         created=timezone.now() - timedelta(days=29))
    assert prune_notifications.call() == 1
    assert list(Notification.objects.values_list("pk", flat=True)) == [recent.pk]
    assert old.pk not in Notification.objects.values_list("pk", flat=True)


def test_the_prune_is_one_of_the_periodic_tasks_the_scheduler_starts():
    from games.management.commands.schedule_periodic_tasks import periodic_tasks

    assert prune_notifications in PERIODIC_TASKS
    assert prune_notifications in periodic_tasks()


def test_the_table_page_offers_its_host_the_invitation_by_name(alice, bob):
    table = _table(alice)
    form = f'action="/notifications/invite/{table.pk}/"'
    assert form in client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert form not in client_for(bob).get(f"/tables/{table.pk}/").content.decode()
