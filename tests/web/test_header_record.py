"""The header's per-user record (config.header, issue 21): the turn badge, the bell and the
tab preferences come from one cache read, kept by the first page that draws them. Every
change that could alter one of them forgets the record, so the next page shows it fresh.

Each test first draws a page (the record is kept: asserted), then makes one change, then
draws the page again: without the change's forgetting, the page would show the kept,
stale values. Both ways a page draws its header are checked: a page drawn in full
(base.html, the lobby) and a page kept for everyone with the visitor's header filled in
(config.shell, a finished game's replay)."""
from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.utils import timezone

from config.header import RECORD_SECONDS, header_of, record_key
from games import engine
from notifications.models import Notification, Preferences
from tests.fixtures import client_for, time_out_the_absent_seat

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"  # one seat acts at a time


@pytest.fixture(params=["lobby", "replay"])
def page(request, start_game):
    """A page that draws the header: the lobby (in full), or a replay (kept, the header filled)."""
    if request.param == "lobby":
        return "/"
    game = start_game("roll-to-the-top", [None, None])  # bots play it to its end at once
    assert not game.is_active
    return f"/play/{game.pk}/replay/"


def shown(user, path: str) -> dict:
    """What the header shows `user` on `path`: the title's and badge's count, the bell's, the
    head's tab preferences."""
    response = client_for(user).get(path)
    assert response.status_code == 200
    html = response.content.decode()
    title = re.search(r"<title>(?:\((\d+)\) )?", html)
    badge = re.search(r'id="turn-badge" data-count="(\d+)"', html)
    bell = re.search(r'id="notification-bell" data-unread="(\d+)"', html)
    head = re.search(r'data-sound="(1?)" data-blink="(1?)" data-theme="(\w+)"', html)
    assert title and badge and bell and head, "the page draws the whole header"
    assert int(title.group(1) or 0) == int(badge.group(1)), "the title and the badge agree"
    return {"turn": int(badge.group(1)), "unread": int(bell.group(1)), "sound": head.group(1) == "1",
            "blink": head.group(2) == "1", "theme": head.group(3)}


def kept(user, path: str) -> dict:
    """`shown`, after which the user's record is kept (the next page would read it)."""
    before = shown(user, path)
    assert caches["shared"].get(record_key(user.pk)) is not None
    return before


def to_act(game):
    game.refresh_from_db()
    return game.to_act()[0]


def play_one(game, users):
    from games.rules import bot_for

    seat = to_act(game)
    engine.submit(game.pk, users[seat], bot_for(SLUG).choose(game.state, seat, random.Random(1)))


# --- The turn badge -------------------------------------------------------------------------

def test_a_move_that_passes_the_turn(page, start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    users = [alice, bob]
    mover, other = users[to_act(game)], users[1 - to_act(game)]
    assert kept(mover, page)["turn"] == 1 and kept(other, page)["turn"] == 0
    play_one(game, users)
    assert shown(mover, page)["turn"] == 0 and shown(other, page)["turn"] == 1


def test_a_game_starting(page, start_game, alice, bob):
    assert kept(alice, page)["turn"] == 0 and kept(bob, page)["turn"] == 0
    game = start_game(SLUG, [alice, bob])
    first = [alice, bob][to_act(game)]
    assert shown(first, page)["turn"] == 1


def test_a_game_ending(page, start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    waiting = [alice, bob][to_act(game)]
    assert kept(waiting, page) == {**kept(waiting, page), "turn": 1, "unread": 0}
    engine.resign(game.pk, alice)
    now = shown(waiting, page)
    assert now["turn"] == 0 and now["unread"] == 1, "the badge and the result's line in the bell"


def test_a_game_aborted(page, start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    waiting = [alice, bob][to_act(game)]
    assert kept(waiting, page)["turn"] == 1
    engine.abort(game.pk, by_user=None, reason="the staff")
    assert shown(waiting, page)["turn"] == 0


def test_a_seat_taken_over_by_a_bot_and_taken_back(page, start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    users = [alice, bob]
    while len(game.seats_moved) < 2:  # a seat that never moved is a no-show (aborted instead)
        play_one(game, users)
        game.refresh_from_db()
    absent = users[to_act(game)]
    assert kept(absent, page)["turn"] == 1 and kept(absent, page)["unread"] == 0
    time_out_the_absent_seat(game)
    after = shown(absent, page)
    assert after["unread"] == 1, "'your time ran out' in the bell"
    other = users[1 - users.index(absent)]
    kept(other, page)
    engine.take_back(game.pk, absent)
    assert shown(other, page)["unread"] == 2, "'the bot handed the seat back' in the other's bell"


def test_a_game_deleted(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    waiting = [alice, bob][to_act(game)]
    assert kept(waiting, "/")["turn"] == 1
    game.delete()
    assert shown(waiting, "/")["turn"] == 0


# --- The bell -------------------------------------------------------------------------------

def test_a_line_created_by_the_site(page, alice, bob):
    from lobby import services as lobby

    table = lobby.create_table(alice, game_slug="roll-to-the-top", seats_count=3, options={}, is_private=False,
                               pace="correspondence", days_per_move=2)
    assert kept(bob, page)["unread"] == 0
    client_for(alice).post(f"/notifications/invite/{table.pk}/", {"username": "bob"})  # a bulk_create
    assert shown(bob, page)["unread"] == 1


def test_a_line_created_or_changed_one_by_one(page, alice):
    assert kept(alice, page)["unread"] == 0
    line = Notification.objects.create(user=alice, kind="table", text="a line", url="/")
    assert kept(alice, page)["unread"] == 1
    line.read = True
    line.save()
    assert shown(alice, page)["unread"] == 0


def test_a_line_opened_marked_unread_and_read_again(page, alice):
    line = Notification.objects.create(user=alice, kind="table", text="a line", url="/")
    Notification.objects.create(user=alice, kind="table", text="another", url="/")
    client = client_for(alice)
    assert kept(alice, page)["unread"] == 2
    client.get(f"/notifications/{line.pk}/open/")
    assert kept(alice, page)["unread"] == 1
    client.post(f"/notifications/{line.pk}/read/", {"read": "0"})
    assert kept(alice, page)["unread"] == 2
    client.post(f"/notifications/{line.pk}/read/")
    assert kept(alice, page)["unread"] == 1
    client.post("/notifications/read-all/")
    assert shown(alice, page)["unread"] == 0


def test_a_line_expired(page, alice):
    from notifications.tasks import prune_notifications

    Notification.objects.create(user=alice, kind="table", text="old", url="/",
                                created=timezone.now() - timedelta(days=400))
    assert kept(alice, page)["unread"] == 1
    prune_notifications.call()
    assert shown(alice, page)["unread"] == 0


# --- The tab preferences --------------------------------------------------------------------

def test_the_preferences_saved_on_the_settings_page(page, alice):
    assert kept(alice, page) == {"turn": 0, "unread": 0, "sound": False, "blink": True, "theme": "auto"}
    response = client_for(alice).post("/notifications/settings/", {"turn__push": "on", "turn__site": "on",
                                                                  "sound": "on", "theme": "dark"})
    assert response.status_code == 302
    now = kept(alice, page)
    assert now["sound"] and now["blink"] and now["theme"] == "dark"
    client_for(alice).post("/notifications/settings/", {"turn__push": "on", "theme": "light"})  # no blink
    now = shown(alice, page)
    assert not now["sound"] and not now["blink"] and now["theme"] == "light"


def test_the_preferences_made_or_removed_elsewhere(page, alice):
    assert kept(alice, page)["theme"] == "auto"
    prefs = Preferences.objects.create(user=alice, theme="dark")
    assert kept(alice, page)["theme"] == "dark"
    prefs.delete()
    assert shown(alice, page)["theme"] == "auto"


# --- The record itself ----------------------------------------------------------------------

def test_a_record_kept_before_the_change_commits_is_forgotten_when_it_commits(
        alice, django_capture_on_commit_callbacks):
    """A reader who read the rows before the commit and kept them: the second deletion."""
    from django.db import transaction

    header_of(alice)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        Notification.objects.create(user=alice, kind="table", text="a line", url="/")
        caches["shared"].set(record_key(alice.pk), (alice.date_joined.timestamp(), 0, 0, False, True, "auto"))  # stale
    assert header_of(alice).bell_unread == 1


def test_a_record_is_the_users_own_and_short_lived(alice, bob, monkeypatch):
    """A user id used again (tests roll their rows back) does not read another's record, and a
    record lives RECORD_SECONDS at most: the bound on a change this list of writers missed."""
    kept_for = []
    real_set = caches["shared"].set
    monkeypatch.setattr(caches["shared"], "set", lambda key, value, timeout=None: kept_for.append(timeout) or real_set(
        key, value, timeout))
    header_of(alice)
    assert kept_for == [RECORD_SECONDS] and 0 < RECORD_SECONDS <= 60
    joined, *values = caches["shared"].get(record_key(alice.pk))
    caches["shared"].set(record_key(bob.pk), (joined, 3, 5, True, True, "dark"))  # alice's date_joined, bob's id
    assert header_of(bob).turn_count == 0 and header_of(bob).bell_unread == 0


def test_a_page_with_the_record_reads_no_header_row(alice, bob, start_game):
    """A page drawn twice: the second reads the badge, bell and preferences from the record."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    start_game(SLUG, [alice, bob])
    Notification.objects.create(user=alice, kind="table", text="a line", url="/")
    client = client_for(alice)
    with CaptureQueriesContext(connection) as first:
        client.get("/help/")
    with CaptureQueriesContext(connection) as second:
        client.get("/help/")
    header_rows = ("notifications_notification", "notifications_preferences", 'AS "seat_user"')
    assert [q for q in first.captured_queries if any(t in q["sql"] for t in header_rows)]
    assert not [q for q in second.captured_queries if any(t in q["sql"] for t in header_rows)]
    assert len(second.captured_queries) == len(first.captured_queries) - 3


def test_the_record_is_kept_where_the_worker_can_forget_it():
    """The worker (another process) makes bot moves, times seats out and writes inbox lines:
    its deletions must reach the server's records. A per-process memory cache would keep a
    stale badge there for RECORD_SECONDS; without Redis the record is in a file cache both
    processes read, with Redis in Redis."""
    from django.conf import settings

    assert "locmem" not in settings.CACHES["shared"]["BACKEND"].lower()
