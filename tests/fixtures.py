"""Shared fixtures: named users (alice, bob, charlie), logged-in clients, and helpers
to create tables and games through the same services the site uses."""
from __future__ import annotations

import json
import os
from unittest import mock

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
    """The suite makes hundreds of requests a minute from one address: the site's rate
    limits (settings.RATELIMITS, config.abuse) are lifted except in the tests of the
    limits themselves (tests/web/test_abuse.py sets them). Views with a limit of their
    own (chat) keep it, so their tests can check it."""
    settings.RATELIMITS = {group: None for group in settings.RATELIMITS}


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


def run_due_tasks(*, only: str | None = None, make_due: bool = True, worker_id: str = "test-worker") -> int:
    """Run queued tasks through django-tasks-db's own worker loop (batch mode), after
    making them due (their run_after moved to now) unless make_due is False. `only`: a
    task name (e.g. "expire_clock") to make due. Returns how many tasks ran."""
    from django.utils import timezone
    from django_tasks_db.management.commands.db_worker import Worker
    from django_tasks_db.models import DBTaskResult

    ready = DBTaskResult.objects.filter(status="READY")
    if make_due:
        (ready.filter(task_path__endswith=f".{only}") if only else ready).update(run_after=timezone.now())
    before = DBTaskResult.objects.exclude(status="READY").count()
    worker = Worker(queue_names=["default"], interval=0, batch=True, backend_name="default", startup_delay=False,
                    max_tasks=None, worker_id=worker_id, excluded_queue_names=[])
    # The loop closes "old" connections between tasks, which would close the test's own.
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        worker.run()
    return DBTaskResult.objects.exclude(status="READY").count() - before


def tasks_done(name: str) -> int:
    """How many tasks called `name` have run (other tasks may have run beside them: an
    offer's mail, say)."""
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects.filter(task_path__endswith=f".{name}").exclude(status="READY").count()


@pytest.fixture
def nobody_online():
    """Nobody is on the site (games.presence): the mail rules' "not while you are here"
    never holds a mail back, before or after the test."""
    from django.core.cache import caches

    caches["presence"].clear()
    yield
    caches["presence"].clear()


def time_out_the_absent_seat(game) -> int:
    """The seat the game waits for has used two days more; its clock expires (a bot takes
    the seat). Returns the seat's index."""
    from datetime import timedelta

    from games import engine
    from games.models import Seat

    [absent] = game.to_act()
    seat = Seat.objects.get(game=game, index=absent)
    seat.running_since -= timedelta(days=2)
    seat.save(update_fields=["running_since"])
    assert engine.expire(game.pk, absent) is True
    return absent


@pytest.fixture
def run_tasks(db):
    return run_due_tasks


def play_random_moves(game, users, moves: int, seed: int = 3):
    """`game` after up to `moves` random legal moves through the engine (fewer if it ends);
    `users[i]` plays seat i. The same seed plays the same moves."""
    import random

    from games import engine

    rng = random.Random(seed)
    for _ in range(moves):
        if not game.is_active:
            break
        seat = game.to_act()[0]
        game = engine.submit(game.pk, users[seat], rng.choice(game.rules.legal_actions(game.state, seat))).game
    return game
