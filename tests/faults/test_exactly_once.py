"""Issue 18, row 8: the digest and the periodic chains are exactly-once on PostgreSQL.
Two digest runs at once (two workers, a mail server that takes its time) send each user
one digest; two workers starting together create one chain of each periodic task."""
from __future__ import annotations

import asyncio
import threading

import pytest
from django.core.management import call_command
from django.db import connection
from django_tasks_db.models import DBTaskResult

from games.tasks import PERIODIC_TASKS
from tests.games.test_mail import ScriptedSMTP

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
USERS = 12
SLUG = "nanga-parbat"


class SlowSMTP(ScriptedSMTP):
    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(0.05)  # a server that takes its time: the two runs overlap
        return await super().handle_DATA(server, session, envelope)


def at_once(work, count: int = 2) -> None:
    """Run `work()` on `count` threads released together; each closes its connection."""
    barrier = threading.Barrier(count)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait()
            work()
        except BaseException as error:  # reported by the test, not lost in the thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors


def test_two_digest_runs_at_once_send_each_user_one_digest(settings, make_user, start_game):
    from aiosmtpd.controller import Controller

    from games.mail import daily_digests
    from games.models import MailLog
    from tests.browser.fixtures import _free_port

    for i in range(USERS // 2):
        players = [make_user(f"a{i}", email_digest=True), make_user(f"b{i}", email_digest=True)]
        start_game(SLUG, players, pace="correspondence", days_per_move=1)  # one of the two is waited for
    server = SlowSMTP()
    controller = Controller(server, hostname="127.0.0.1", port=_free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", controller.port, False
    try:
        at_once(daily_digests)
    finally:
        controller.stop()
    per_user: dict[str, int] = {}
    for _, [to] in server.received:
        per_user[to] = per_user.get(to, 0) + 1
    doubled = sum(1 for n in per_user.values() if n > 1)
    print(f"\ntwo digest runs at once: {len(per_user)} users mailed, {doubled} got two")
    assert len(per_user) == USERS // 2
    assert doubled == 0
    assert MailLog.objects.filter(kind="digest").count() == USERS // 2


@pytest.mark.parametrize("attempt", range(5))
def test_two_workers_starting_together_create_one_chain_of_each_periodic_task(attempt):
    at_once(lambda: call_command("schedule_periodic_tasks", stdout=open("/dev/null", "w")))  # noqa: SIM115
    for periodic in PERIODIC_TASKS:
        assert DBTaskResult.objects.filter(task_path=periodic.module_path, status="READY").count() == 1
