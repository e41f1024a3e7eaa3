"""E-mail is sent by tasks, never in a request: "your turn" only to players who are not
on the site, at most one per game a day; reminders; digests; one-click unsubscribe."""
from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client

from games import engine, presence
from games.models import Seat
from games.rules import bot_for

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"


@pytest.fixture(autouse=True)
def _nobody_online(nobody_online):
    pass


def play_quickly(game, users, moves: int) -> int:
    """Both players answer at once (as two players online would), `moves` actions."""
    made = 0
    for _ in range(moves):
        game.refresh_from_db()
        if not game.is_active:
            break
        seat = game.to_act()[0]
        action = bot_for(SLUG).choose(game.state, seat, random.Random(made))
        engine.submit(game.pk, users[seat], action)
        made += 1
    return made


def test_a_move_request_sends_no_mail_itself(start_game, alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=2)
    assert mail.outbox == []


def test_an_absent_player_gets_one_turn_mail_from_the_worker(start_game, alice, bob, run_tasks):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=2)
    [first] = game.to_act()
    user = {0: alice, 1: bob}[first]
    run_tasks(only="send_turn_mail")
    assert [m.to for m in mail.outbox] == [[user.email]]
    message = mail.outbox[0]
    assert message.subject == f"Your move in Nanga Parbat #{game.pk}"
    assert f"/play/{game.pk}/" in message.body
    assert message.from_email.startswith("Switchback <")
    assert "127.0.0.1:8000" not in message.from_email
    assert message.extra_headers["List-Unsubscribe"].startswith("<http")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/accounts/unsubscribe/" in message.body


def test_the_33_mails_scenario_sends_at_most_one_per_player_per_game_per_day(start_game, alice, bob, run_tasks):
    """Issue 12: a 2-player correspondence game, both moving quickly, sent 33 mails in
    88 seconds. Now every move only enqueues; the worker sends what is still due."""
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    made = play_quickly(game, {0: alice, 1: bob}, 40)
    assert made >= 33
    run_tasks(only="send_turn_mail")
    # And another burst the same day, then the worker again.
    play_quickly(game, {0: alice, 1: bob}, 10)
    run_tasks(only="send_turn_mail")
    per_player = {email: sum(1 for m in mail.outbox if m.to == [email]) for email in (alice.email, bob.email)}
    print(f"\n33-mails scenario: {made + 10} moves -> mails per player {per_player}")
    assert all(count <= 1 for count in per_player.values())
    assert sum(per_player.values()) >= 1, "the player the game waits for is told once"


def test_no_turn_mail_to_a_player_with_an_open_socket(start_game, alice, bob, run_tasks):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    presence.socket_opened(alice.pk)
    play_quickly(game, {0: alice, 1: bob}, 40)
    run_tasks(only="send_turn_mail")
    assert not [m for m in mail.outbox if m.to == [alice.email]]


def test_presence_counts_sockets_so_one_closed_tab_is_not_absence(alice):
    presence.socket_opened(alice.pk)
    presence.socket_opened(alice.pk)
    presence.socket_closed(alice.pk)
    assert presence.is_online(alice.pk)
    presence.socket_closed(alice.pk)
    assert not presence.is_online(alice.pk)


def test_a_live_game_sends_no_turn_mail(start_game, alice, bob, run_tasks):
    start_game(SLUG, [alice, bob], clock_minutes=10, clock_increment=1)
    run_tasks()
    assert mail.outbox == []


def test_players_who_opted_out_get_no_turn_mail(start_game, alice, bob, run_tasks):
    for user in (alice, bob):
        user.email_turn_notifications = False
        user.save()
    start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    run_tasks(only="send_turn_mail")
    assert mail.outbox == []


def test_a_reminder_comes_when_80_percent_of_the_time_is_used(start_game, alice, bob, run_tasks):
    from django_tasks_db.models import DBTaskResult

    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    [waiting] = game.to_act()
    seat = Seat.objects.get(game=game, index=waiting)
    task = DBTaskResult.objects.get(task_path__endswith=".send_reminder")
    assert abs(task.run_after - (seat.running_since + timedelta(days=0.8))) < timedelta(seconds=1)
    run_tasks(only="send_reminder")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject.startswith("Time is running out")


def test_the_daily_digest_is_opt_in(start_game, alice, bob):
    from games.mail import daily_digests

    start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    assert daily_digests() == 0
    for user in (alice, bob):
        user.email_digest = True
        user.save()
    assert daily_digests() == 1  # only the player the game waits for has something to read
    assert daily_digests() == 0  # once a day
    assert "waiting for you" in mail.outbox[0].subject


def test_the_digest_says_how_the_games_of_the_day_ended(start_game, alice, bob):
    """The digest reads the one account of an ending: a resignation is told as one."""
    from games.mail import daily_digests

    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    play_quickly(game, [alice, bob], 2)
    engine.resign(game.pk, alice)
    bob.email_digest = True
    bob.save()
    assert daily_digests() == 1
    [digest] = mail.outbox
    assert "1 game ended" in digest.subject
    assert "Ended since yesterday" in digest.body and "you placed 1 of 2" in digest.body
    assert "alice resigned on move" in digest.body


@pytest.mark.parametrize(("now", "expected"), [
    ("2026-03-10 06:59:59", "2026-03-10 07:00:00"),  # the next full hour
    ("2026-03-10 07:00:00", "2026-03-10 08:00:00"),  # the run itself: the hour after, never twice
    ("2026-12-31 23:30:00", "2027-01-01 00:00:00"),  # across a year's end
])
def test_the_digest_runs_every_full_hour(now, expected):
    """Hourly: each run mails the players whose local time is the digest hour (issue 23)."""
    from datetime import UTC, datetime

    from games.tasks import next_digest_at

    at = next_digest_at(datetime.fromisoformat(now).replace(tzinfo=UTC))
    assert at == datetime.fromisoformat(expected).replace(tzinfo=UTC)


def test_the_digest_chain_starts_and_continues_on_the_hour(run_tasks):
    from django.core.management import call_command
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from games.tasks import next_digest_at

    call_command("schedule_periodic_tasks")
    first = DBTaskResult.objects.get(task_path__endswith=".daily_digest", status="READY")
    assert (first.run_after.minute, first.run_after.second) == (0, 0)
    run_tasks(only="daily_digest")  # made due now: the run enqueues the next full hour after now
    nxt = DBTaskResult.objects.get(task_path__endswith=".daily_digest", status="READY")
    assert nxt.pk != first.pk and nxt.run_after == next_digest_at(timezone.now())
    assert nxt.run_after.minute == 0 and nxt.run_after > timezone.now()


def test_unsubscribe_works_with_one_click_and_no_login(start_game, alice, bob, run_tasks):
    """A visit (mail scanners open links) only shows the button; the button unsubscribes."""
    from games.mail import unsubscribe_token

    url = f"/accounts/unsubscribe/{unsubscribe_token(alice, 'turn')}/"
    visit = Client().get(url)
    assert visit.status_code == 200 and '<form method="post">' in visit.content.decode()
    alice.refresh_from_db()
    assert alice.email_turn_notifications is True, "a GET changes nothing"
    response = Client(enforce_csrf_checks=True).post(url)
    assert response.status_code == 200
    assert "You are unsubscribed" in response.content.decode()
    alice.refresh_from_db()
    assert alice.email_turn_notifications is False
    assert alice.email_reminders is True  # only that kind


def test_the_one_click_post_of_mail_clients_unsubscribes_without_csrf(alice):
    from games.mail import unsubscribe_token

    client = Client(enforce_csrf_checks=True)
    response = client.post(f"/accounts/unsubscribe/{unsubscribe_token(alice, 'reminder')}/",
                           {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.email_reminders is False


def test_a_forged_unsubscribe_link_changes_nothing(alice):
    from django.core import signing

    forged = signing.dumps({"u": alice.pk, "k": "turn"}, salt="another-salt")
    response = Client().get(f"/accounts/unsubscribe/{forged}/")
    assert response.status_code == 400
    alice.refresh_from_db()
    assert alice.email_turn_notifications is True


def test_mail_preferences_are_on_the_settings_page(alice_client, alice):
    page = alice_client.get("/accounts/settings/").content.decode()
    for field in ("email_turn_notifications", "email_reminders", "email_digest"):
        assert f'name="{field}"' in page
    alice_client.post("/accounts/settings/", {"email": alice.email, "email_digest": "on"})
    alice.refresh_from_db()
    assert alice.email_digest is True and alice.email_turn_notifications is False


def test_the_help_page_says_when_the_digest_goes_out(client):
    from django.conf import settings

    assert f"at {settings.DIGEST_HOUR:02d}:00 your time" in client.get("/help/").content.decode()


# --- A real SMTP server (aiosmtpd) that refuses: issue 18, row 4 ---

class ScriptedSMTP:
    """An aiosmtpd handler answering DATA with the scripted replies first, then 250."""

    def __init__(self):
        self.replies: list[str] = []
        self.received: list[tuple[str, list[str]]] = []

    async def handle_DATA(self, server, session, envelope):
        reply = self.replies.pop(0) if self.replies else "250 2.0.0 OK"
        if reply.startswith("250"):
            self.received.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return reply


@pytest.fixture
def smtp_server(settings):
    from aiosmtpd.controller import Controller

    from tests.browser.fixtures import _free_port

    handler = ScriptedSMTP()
    controller = Controller(handler, hostname="127.0.0.1", port=_free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", controller.port, False
    yield handler
    controller.stop()


def queued(task_name: str):
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects.filter(task_path__endswith=f".{task_name}", status="READY")


def test_a_mail_deferred_with_451_is_retried_later_and_arrives_once(start_game, alice, bob, run_tasks, smtp_server):
    from django.utils import timezone

    from games.models import MailLog

    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=2)
    waiting = {0: alice, 1: bob}[game.to_act()[0]]
    smtp_server.replies = ["451 4.3.0 Mailbox busy, try again later"]
    run_tasks(only="send_turn_mail")
    assert smtp_server.received == []
    assert not MailLog.objects.exists(), "a refused mail is not recorded as sent"
    [retry] = queued("send_turn_mail")
    assert retry.args_kwargs["kwargs"] == {"attempt": 1}
    assert timezone.now() + timedelta(seconds=50) < retry.run_after < timezone.now() + timedelta(seconds=70)
    run_tasks(only="send_turn_mail")  # the server accepts now
    run_tasks(only="send_turn_mail")  # nothing left to send
    assert [to for _, to in smtp_server.received] == [[waiting.email]]
    assert MailLog.objects.filter(user=waiting, kind="turn").count() == 1
    assert not queued("send_turn_mail").exists()


def test_a_mail_refused_with_550_is_given_up_with_a_log_line(start_game, alice, bob, run_tasks, smtp_server,
                                                              caplog):
    from games.models import MailLog

    start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=2)
    smtp_server.replies = ["550 5.1.1 No such user"]
    run_tasks(only="send_turn_mail")
    assert smtp_server.received == [] and not MailLog.objects.exists()
    assert not queued("send_turn_mail").exists(), "a permanent refusal is not retried"
    assert "refused for good" in caplog.text and "550" in caplog.text


def test_a_mail_server_that_is_down_defers_the_mail(start_game, alice, bob, run_tasks, settings):
    from tests.browser.fixtures import _free_port

    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", _free_port()  # nobody listens
    start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=2)
    run_tasks(only="send_turn_mail")
    assert queued("send_turn_mail").get().args_kwargs["kwargs"] == {"attempt": 1}


def test_a_deferred_digest_is_retried_for_that_user_alone(start_game, alice, bob, run_tasks, smtp_server, settings):
    from django.utils import timezone

    from games.models import MailLog
    from games.tasks import daily_digest

    settings.DIGEST_HOUR = timezone.now().hour  # the hourly run finds its players' morning (both in UTC)

    start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    for user in (alice, bob):
        user.email_digest = True
        user.save()
    smtp_server.replies = ["421 4.7.0 Too many connections"]
    daily_digest.enqueue()
    run_tasks(only="daily_digest")
    assert smtp_server.received == [] and not MailLog.objects.filter(kind="digest").exists()
    run_tasks(only="send_digest")
    run_tasks(only="send_digest")
    assert len(smtp_server.received) == 1
    assert MailLog.objects.filter(kind="digest").count() == 1
