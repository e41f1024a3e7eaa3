"""Several workers share the deadline queue: each expiry is handled exactly once
(django-tasks-db's SKIP LOCKED claims a task; the engine's row lock decides the rest)."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Seat
from games.publisher import expire_clock

SLUG = "nanga-parbat"
GAMES = 12


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_expire_a_batch_of_games_with_no_deadline_handled_twice(start_game, make_user):
    from django_tasks_db.management.commands.db_worker import Worker
    from django_tasks_db.models import DBTaskResult

    games = []
    for i in range(GAMES):
        game = start_game(SLUG, [make_user(f"a{i}"), make_user(f"b{i}")], pace="correspondence", days_per_move=1)
        [waiting] = game.to_act()
        Seat.objects.filter(game=game, index=waiting).update(running_since=timezone.now() - timedelta(days=2))
        # The same deadline enqueued twice (e.g. by two changes): it must still be handled once.
        expire_clock.enqueue(game.pk, waiting)
        games.append((game, waiting))
    DBTaskResult.objects.filter(task_path__endswith=".expire_clock").update(run_after=timezone.now())
    DBTaskResult.objects.exclude(task_path__endswith=".expire_clock").delete()

    def work(name: str) -> None:
        try:
            Worker(queue_names=["default"], interval=0, batch=True, backend_name="default", startup_delay=False,
                   max_tasks=None, worker_id=name, excluded_queue_names=[]).run()
        finally:
            connection.close()

    workers = [threading.Thread(target=work, args=(f"worker-{n}",)) for n in range(2)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(timeout=120)

    # (The opponents' clocks started after each takeover: their deadlines wait, not yet due.)
    results = DBTaskResult.objects.filter(task_path__endswith=".expire_clock").exclude(status="READY")
    handled = results.filter(return_value=True).count()
    by_worker = {w: results.filter(return_value=True, worker_ids__contains=[w]).count()
                 for w in ("worker-0", "worker-1")}
    print(f"\nexpiry race: {GAMES} games, {results.count()} deadline tasks, two workers -> "
          f"{handled} expiries handled {by_worker}, {results.filter(return_value=False).count()} no-ops")
    assert results.count() == 2 * GAMES
    assert results.filter(status="SUCCESSFUL").count() == results.count()
    assert handled == GAMES
    for game, seat in games:
        assert Seat.objects.get(game=game, index=seat).bot_since == game.version
