"""Issue 17, row 11: the lockout page leads to a password reset; the reset mail is ours,
signed with the site's name and SITE_URL; an unsubscribe link only acts on a POST (the
page's button, or a mail client's RFC 8058 one-click)."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client

from games.mail import unsubscribe_token

pytestmark = pytest.mark.django_db


def test_the_lockout_page_links_to_a_password_reset(client, alice):
    for _ in range(5):
        answer = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert answer.status_code == 429
    assert 'href="/accounts/password_reset/"' in answer.content.decode()


def test_the_password_reset_mail_is_ours_with_the_site_url(client, alice):
    answer = client.post("/accounts/password_reset/", {"email": alice.email}, HTTP_HOST="127.0.0.1:8000")
    assert answer.status_code == 302
    [message] = mail.outbox
    assert message.subject == "Reset your Switchback password"
    assert "Hello alice" in message.body and "Switchback" in message.body
    assert f"{settings.SITE_URL}/accounts/reset/" in message.body
    assert "127.0.0.1:8000 team" not in message.body and "Thanks for using our site" not in message.body
    link = next(line for line in message.body.splitlines() if "/accounts/reset/" in line).strip()
    assert client.get(link.removeprefix(settings.SITE_URL), follow=True).status_code == 200


def test_a_visit_to_an_unsubscribe_link_changes_nothing_and_shows_a_button(alice):
    url = f"/accounts/unsubscribe/{unsubscribe_token(alice, 'digest')}/"
    alice.email_digest = True
    alice.save()
    page = Client().get(url).content.decode()
    assert "Stop these e-mails?" in page and '<form method="post">' in page and ">Unsubscribe</button>" in page
    alice.refresh_from_db()
    assert alice.email_digest is True


def test_the_one_click_post_of_a_mail_client_unsubscribes_without_a_session_or_csrf(alice):
    url = f"/accounts/unsubscribe/{unsubscribe_token(alice, 'turn')}/"
    answer = Client(enforce_csrf_checks=True).post(url, "List-Unsubscribe=One-Click",
                                                   content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200
    alice.refresh_from_db()
    assert alice.email_turn_notifications is False


def test_other_methods_on_an_unsubscribe_link_are_refused(alice):
    url = f"/accounts/unsubscribe/{unsubscribe_token(alice, 'turn')}/"
    assert Client().put(url).status_code == 405
    alice.refresh_from_db()
    assert alice.email_turn_notifications is True


def test_mails_carry_the_one_click_headers(start_game, alice, bob):
    from games.mail import send

    send(alice, "turn", "turn", {"game": start_game("nanga-parbat", [alice, bob]), "play_url": "x", "deadline": None})
    [message] = mail.outbox
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert url.startswith(settings.SITE_URL + "/accounts/unsubscribe/")


@pytest.mark.parametrize("length", [151, 256, 5000])
def test_a_log_in_name_too_long_is_a_form_error_that_axes_never_records(client, alice, length):
    """Issue 18, row 9: a name of 256+ characters reached django-axes, whose insert of the
    failed attempt (a 255-character column) was a 500 on PostgreSQL."""
    from axes.models import AccessAttempt, AccessFailureLog

    answer = client.post("/accounts/login/", {"username": "n" * length, "password": "whatever"})
    assert answer.status_code == 200
    assert "at most 150 characters" in answer.content.decode()
    assert not AccessAttempt.objects.exists() and not AccessFailureLog.objects.exists()
    assert client.post("/accounts/login/", {"username": "alice", "password": "alice-pass-123"}).status_code == 302
