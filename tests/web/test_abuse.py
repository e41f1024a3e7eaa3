"""Abuse control: log-in lockout (django-axes), rate limits (django-ratelimit) by user and
by address, and the Content-Security-Policy header."""
from __future__ import annotations

import json

import pytest
from django.core.cache import cache

from games.models import Game
from lobby.models import Table
from tests.fixtures import client_for, post_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    """Rate limits on, low, counted from zero."""
    settings.RATELIMIT_ENABLE = True
    settings.RATELIMITS = {**settings.RATELIMITS, "moves": "3/m", "tables": "2/h", "signup": "2/h", "login": "4/m",
                           "password-reset": "2/h"}
    settings.RATELIMIT_IP_FACTOR = 100
    cache.clear()
    yield settings
    cache.clear()


def log_in(client, username, password):
    return client.post("/accounts/login/", {"username": username, "password": password})


def test_after_five_wrong_passwords_even_the_right_one_is_refused_with_a_message(client, alice):
    statuses = [log_in(client, "alice", "wrong").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429], "the fifth failure locks the account for this address"
    response = log_in(client, "alice", "alice-pass-123")
    assert response.status_code == 429
    assert "Too many failed log-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_lockout_does_not_lock_out_the_same_user_from_another_address(client, alice):
    for _ in range(5):
        log_in(client, "alice", "wrong")
    other = client.__class__(REMOTE_ADDR="10.0.0.9")
    assert log_in(other, "alice", "alice-pass-123").status_code == 302


def test_the_right_password_before_the_limit_logs_in(client, alice):
    for _ in range(3):
        log_in(client, "alice", "wrong")
    assert log_in(client, "alice", "alice-pass-123").status_code == 302


def test_moves_are_limited_per_user_with_a_clear_429(limits, start_game, alice, bob):
    game = start_game("roll-to-the-top", [alice, bob])
    client = client_for(alice)
    statuses = [post_action(client, game, {"type": "no-such"}).status_code for _ in range(4)]
    assert statuses == [400, 400, 400, 429]
    assert "Too many attempts" in post_action(client, game, {"type": "x"}).content.decode()
    assert post_action(client_for(bob), game, {"type": "no-such"}).status_code == 400, "bob has his own count"


def test_moves_are_limited_per_address_across_users(limits, start_game, alice, bob):
    limits.RATELIMIT_IP_FACTOR = 1
    game = start_game("roll-to-the-top", [alice, bob])
    for _ in range(3):
        post_action(client_for(alice), game, {"type": "no-such"})
    assert post_action(client_for(bob), game, {"type": "no-such"}).status_code == 429


def test_table_creation_is_limited_and_a_refusal_creates_nothing(limits, alice):
    client = client_for(alice)
    form = {"game": "roll-to-the-top", "seats": "2", "pace": "live", "rated": "rated"}
    for _ in range(2):
        client.post("/tables/new/", form)
    tables = Table.objects.count()
    response = client.post("/tables/new/", form)
    assert response.status_code == 429
    assert Table.objects.count() == tables
    assert client.get("/tables/new/").status_code == 200, "showing the form is not limited"


def test_sign_up_is_limited_per_address(limits, client, django_user_model):
    for n in range(2):
        client.post("/accounts/signup/", {"username": f"u{n}", "email": f"u{n}@example.com",
                                          "password1": "summit-path-42", "password2": "summit-path-42"})
        client.logout()
    response = client.post("/accounts/signup/", {"username": "u9", "email": "u9@example.com",
                                                 "password1": "summit-path-42", "password2": "summit-path-42"})
    assert response.status_code == 429
    assert not django_user_model.objects.filter(username="u9").exists()


def test_log_in_and_password_reset_are_rate_limited(limits, client, alice):
    assert [log_in(client, f"nobody{n}", "x").status_code for n in range(5)][-1] == 429
    codes = [client.post("/accounts/password_reset/", {"email": "alice@example.com"}).status_code for _ in range(3)]
    assert codes[-1] == 429


def test_every_page_carries_a_strict_content_security_policy(client):
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["default-src"] == "'self'"
    assert "'unsafe-inline'" not in directives["script-src"] and "'unsafe-eval'" not in directives["script-src"]
    assert "'unsafe-inline'" not in directives["style-src-elem"]
    assert directives["frame-ancestors"] == "'none'"


def test_no_template_has_inline_script_or_event_handlers():
    from pathlib import Path
    import re

    root = Path(__file__).resolve().parents[2]
    inline = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style[\s>]|\son[a-z]+\s*=", re.I)
    offenders = [str(p.relative_to(root)) for p in [*root.glob("templates/**/*.html"),
                                                    *root.glob("games/templates/**/*.html"),
                                                    *root.glob("games/*/templates/**/*.html")]
                 if inline.search(p.read_text())]
    assert offenders == []


def test_a_game_page_keeps_working_under_the_policy(client, start_game, alice, bob):
    game = start_game("roll-to-the-top", [alice, bob])
    response = client_for(alice).get(f"/play/{game.pk}/")
    assert response.status_code == 200 and "Content-Security-Policy" in response
    assert json.loads(response.content.decode().split("name=\"htmx-config\" content='")[1].split("'")[0]) == {
        "includeIndicatorStyles": False, "allowEval": False}
    assert Game.objects.get(pk=game.pk).version == 0
