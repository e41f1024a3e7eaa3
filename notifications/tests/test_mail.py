"""The mail column of the settings grid for the inbox's kinds (issue 22, build 5): rematch
offers, invitations and seats taken over by a bot go by mail by default, game endings
only when chosen (the digest tells them); mail and the grid agree; the worker sends them
(never the request), in the reader's language, with the one-click unsubscribe, and not
to a player who is on the site."""
from __future__ import annotations

import random

import pytest
from django.core import mail as outbox
from django.test import Client

from games import engine, presence
from games.models import MailLog
from lobby import services as lobby
from games.mail import unsubscribe_token
from notifications.models import Notification, Preferences, channels_for
from tests.fixtures import client_for, time_out_the_absent_seat

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"


@pytest.fixture(autouse=True)
def _nobody_online(nobody_online):
    pass


def mails_to(user) -> list:
    return [m for m in outbox.outbox if m.to == [user.email]]


def offer_rematch(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    engine.accept_rematch(game.pk, alice)
    return game


def test_a_rematch_offer_is_mailed_by_the_worker_with_the_inbox_line_and_its_link(start_game, alice, bob, run_tasks,
                                                                                settings):
    game = offer_rematch(start_game, alice, bob)
    assert mails_to(bob) == []  # nothing inside the request: the worker sends it
    run_tasks()
    [message] = mails_to(bob)
    assert message.subject == f"Rematch: {game.title} #{game.pk}"
    assert f"alice offers a rematch of {game}." in message.body
    assert f"{settings.SITE_URL}/play/{game.pk}/" in message.body
    assert message.body.startswith("Hello bob,")
    unsubscribe = message.extra_headers["List-Unsubscribe"]
    assert unsubscribe.startswith(f"<{settings.SITE_URL}/notifications/unsubscribe/")
    assert unsubscribe[1:-1] in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert MailLog.objects.filter(user=bob, game=game, kind="rematch").count() == 1
    assert mails_to(alice) == []  # the one who offered is not told of their own offer


def test_a_game_ending_goes_by_mail_only_to_who_chose_it(start_game, alice, bob, run_tasks):
    Preferences.objects.create(user=bob, choices={"game_over": ["mail", "site"]})
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    run_tasks()
    assert mails_to(alice) == []  # off by default: the daily digest tells endings
    [message] = mails_to(bob)
    assert message.subject == f"{game.title} #{game.pk} has ended"
    assert "you placed 1st of 2 (won by bob)" in message.body


def test_an_invitation_is_mailed(alice, bob, run_tasks):
    table = lobby.create_table(alice, game_slug="roll-to-the-top", seats_count=3, options={}, is_private=True,
                               pace="correspondence", days_per_move=2)
    client_for(alice).post(f"/notifications/invite/{table.pk}/", {"username": "bob"})
    run_tasks()
    [message] = mails_to(bob)
    assert message.subject == "You are invited to a table"
    assert f"/invite/{table.invite_token}/" in message.body


def test_a_seat_taken_by_a_bot_is_mailed_but_not_its_hand_back_to_a_player_on_the_site(start_game, alice, bob,
                                                                                      run_tasks):
    from games.rules import bot_for

    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    while len(game.seats_moved) < 2:
        seat = game.to_act()[0]
        engine.submit(game.pk, [alice, bob][seat], bot_for(SLUG).choose(game.state, seat, random.Random(1)))
        game.refresh_from_db()
    run_tasks()
    outbox.outbox.clear()
    absent = time_out_the_absent_seat(game)
    user, other = {0: (alice, bob), 1: (bob, alice)}[absent]
    run_tasks()
    [to_user] = [m for m in mails_to(user) if m.subject == f"Your seat in {game.title} #{game.pk}"]
    assert "a bot plays your seat until you take it back" in to_user.body
    assert any("took over" in m.body for m in mails_to(other))
    outbox.outbox.clear()
    presence.socket_opened(other.pk)  # on the site: the bell tells them, no mail
    engine.take_back(game.pk, user)
    run_tasks()
    assert Notification.objects.filter(user=other, kind="seat", text__contains="is back").exists()
    assert [m for m in mails_to(other) if m.subject.startswith("Your seat")] == []


def test_the_settings_grid_turns_the_mail_off_and_keeps_the_inbox(start_game, alice, bob, run_tasks):
    page = client_for(bob).get("/notifications/settings/").content.decode()
    for kind in ("game_over", "rematch", "invitation", "seat"):
        assert f'name="{kind}__mail"' in page
    assert "mail" in channels_for(bob, "rematch") and "mail" not in channels_for(bob, "game_over")  # the defaults
    form = {f"{kind}__{channel}": "on" for kind in ("turn", "game_over", "rematch", "invitation", "seat")
            for channel in ("push", "site")}
    form.update(reminder__push="on", theme="auto")
    assert client_for(bob).post("/notifications/settings/", form).status_code == 302
    assert Preferences.objects.get(user=bob).channels("rematch") == {"push", "site"}
    offer_rematch(start_game, alice, bob)
    run_tasks()
    assert mails_to(bob) == []
    assert Notification.objects.filter(user=bob, kind="rematch").count() == 1


def test_no_mail_to_a_player_on_the_site(start_game, alice, bob, run_tasks):
    presence.socket_opened(bob.pk)
    offer_rematch(start_game, alice, bob)
    run_tasks()
    assert mails_to(bob) == [] and not MailLog.objects.filter(user=bob).exists()


def test_a_player_without_an_address_costs_no_task(start_game, alice, bob):
    from django_tasks_db.models import DBTaskResult

    bob.email = ""
    bob.save()
    offer_rematch(start_game, alice, bob)
    assert not DBTaskResult.objects.filter(task_path__endswith=".mail_notification").exists()


def test_the_mail_speaks_the_readers_language(start_game, alice, bob, run_tasks):
    bob.language = "de"
    bob.save()
    offer_rematch(start_game, alice, bob)
    run_tasks()
    [message] = mails_to(bob)
    assert message.body.startswith("Hallo bob,")


def test_one_click_unsubscribe_takes_mail_off_that_kind_only(start_game, alice, bob, run_tasks):
    url = f"/notifications/unsubscribe/{unsubscribe_token(bob, 'rematch')}/"
    visit = Client().get(url)  # mail scanners open links: a visit changes nothing
    assert visit.status_code == 200 and '<form method="post">' in visit.content.decode()
    assert not Preferences.objects.filter(user=bob).exists()
    answer = Client(enforce_csrf_checks=True).post(url, "List-Unsubscribe=One-Click",
                                                   content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200
    prefs = Preferences.objects.get(user=bob)
    assert prefs.channels("rematch") == {"push", "site"} and "mail" in prefs.channels("invitation")
    offer_rematch(start_game, alice, bob)
    run_tasks()
    assert mails_to(bob) == []


@pytest.mark.parametrize("token", ["nonsense", None])
def test_a_bad_or_foreign_unsubscribe_token_is_refused(alice, token):
    from games.mail import unsubscribe_token as turn_token

    token = token or turn_token(alice, "turn")  # signed, but for the other view's mails
    assert Client().post(f"/notifications/unsubscribe/{token}/").status_code == 400
