"""Shared fixtures: named users (alice, bob, charlie), logged-in clients, and helpers
to create tables and games through the same services the site uses."""
from __future__ import annotations

import json
import os

import pytest

REQUIRE_SERVICES = os.environ.get("CI_REQUIRE_SERVICES") == "1"


def _missing_service(item) -> str | None:
    from django.conf import settings

    if "postgres" in item.keywords and "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        return "needs PostgreSQL: set DATABASE_URL=postgres://..."
    if "redis" in item.keywords and not os.environ.get("REDIS_URL"):
        return "needs Redis: set REDIS_URL=redis://..."
    return None


@pytest.fixture(autouse=True)
def _require_marked_services(request):
    """postgres/redis tests skip with a reason without their service, but fail in CI
    (CI_REQUIRE_SERVICES=1), where a missing service is a broken set-up."""
    reason = _missing_service(request.node)
    if reason:
        if REQUIRE_SERVICES:
            pytest.fail(f"CI_REQUIRE_SERVICES=1 but this test {reason}")
        pytest.skip(reason)


@pytest.fixture(autouse=True)
def _no_rate_limits(settings):
    """The suite makes hundreds of requests a minute from one address: rate limits are off
    except in the tests of the limits themselves (tests/web/test_abuse.py turns them on)."""
    settings.RATELIMIT_ENABLE = False


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str, **extra):
        return django_user_model.objects.create_user(username=username, password=f"{username}-pass-123",
                                                     email=extra.pop("email", f"{username}@example.com"), **extra)
    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def charlie(make_user):
    return make_user("charlie")


def client_for(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice_client(alice):
    return client_for(alice)


@pytest.fixture
def bob_client(bob):
    return client_for(bob)


@pytest.fixture
def start_game(db):
    """start_game(slug, [alice, bob or None for a bot], options=None) -> Game, seats in order."""
    from games import engine
    from games.engine import SeatPlan

    def start(slug, users, options=None, seed=1, **kwargs):
        from games import rules

        plans = [SeatPlan(user=u, is_bot=u is None) for u in users]
        opts = options if options is not None else rules.get(slug).default_options()
        return engine.start_game(slug, plans, opts, seed=seed, shuffle=False, **kwargs)
    return start


def post_action(client, game, action, token="", version=None):
    return client.post(f"/play/{game.pk}/act/", {
        "action": action if isinstance(action, str) else json.dumps(action),
        "token": token, "version": "" if version is None else version,
    })
