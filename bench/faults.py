"""Issue 18's fault soak for the task worker: real `manage.py run_worker` processes on a
scratch PostgreSQL database (`<db>_faults`), a real SMTP server (aiosmtpd), and faults
injected from outside. Prints the resolve table: fault, cases tried, lost, doubled, time
to recover.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/workers .venv/bin/python bench/faults.py [--quick]

Only this script's own connections are terminated (pg_terminate_backend filtered by the
scratch database and the workers' application_name); the server is never restarted.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import timedelta
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BASE = os.environ.get("DATABASE_URL", "")
if not BASE.startswith("postgres"):
    sys.exit("bench/faults.py needs DATABASE_URL=postgres://...")
SCRATCH = BASE.rsplit("/", 1)[1] + "_faults"
SCRATCH_URL = f"{BASE.rsplit('/', 1)[0]}/{SCRATCH}"
os.environ.update(DATABASE_URL=SCRATCH_URL, DJANGO_SETTINGS_MODULE="config.settings", DB_POOL_MAX_SIZE="0")
os.environ.pop("REDIS_URL", None)  # the workers' pushes go to their own in-memory layer
APP_NAME = "switchback-faults-bench"
SLUG = "nanga-parbat"
ROWS: list[tuple] = []
LOG = open(os.environ.get("FAULTS_WORKER_LOG", os.devnull), "ab")  # noqa: SIM115 (the workers' output, for a post-mortem)


# ---- set-up ---------------------------------------------------------------------------

def fresh_database() -> None:
    import psycopg

    with psycopg.connect(BASE.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{SCRATCH}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class CountingSMTP:
    """Answers DATA with the scripted replies first, then 250 after `delay` seconds."""

    def __init__(self, delay: float = 0.0):
        self.delay = delay
        self.replies: list[str] = []
        self.received: list[tuple[str, ...]] = []

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(self.delay)
        reply = self.replies.pop(0) if self.replies else "250 2.0.0 OK"
        if reply.startswith("250"):
            self.received.append(tuple(envelope.rcpt_tos))
        return reply


def smtp(delay: float = 0.0):
    from aiosmtpd.controller import Controller

    from tests.browser.fixtures import _free_port

    handler = CountingSMTP(delay)
    controller = Controller(handler, hostname="127.0.0.1", port=_free_port())
    controller.start()
    return handler, controller


def worker(name: str, smtp_port: int | None = None, lease: float = 2.0) -> subprocess.Popen:
    env = dict(os.environ, PGAPPNAME=APP_NAME, DEBUG="1", LOG_LEVEL="ERROR")
    env.pop("DB_POOL_MAX_SIZE")  # the workers run as in production: with the connection pool
    if smtp_port:
        env.update(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST="127.0.0.1",
                   EMAIL_PORT=str(smtp_port))
    return subprocess.Popen([sys.executable, "manage.py", "run_worker", "--no-reload", "--no-startup-delay",
                             "--interval", "0.1", "--lease", str(lease), "--worker-id", name],
                            cwd=ROOT, env=env, stdout=LOG, stderr=subprocess.STDOUT)


def games_due(count: int, prefix: str, *, deadlines: bool, mails: bool) -> list:
    """`count` correspondence games between fresh players; their deadlines and/or turn
    mails made due now (the other tasks of these games deleted)."""
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from accounts.models import User
    from games import engine, rules
    from games.engine import SeatPlan
    from games.models import Seat

    games = []
    for i in range(count):
        players = [User.objects.create_user(f"{prefix}{i}{side}", email=f"{prefix}{i}{side}@example.com",
                                            password=None) for side in "ab"]  # no password: no hashing
        game = engine.start_game(SLUG, [SeatPlan(user=u) for u in players], rules.get(SLUG).default_options(),
                                 seed=i, shuffle=False, pace="correspondence", days_per_move=1)
        if deadlines:
            Seat.objects.filter(game=game, index=game.to_act()[0]).update(
                running_since=timezone.now() - timedelta(days=2))
        games.append(game)
    ids = [g.pk for g in games]
    tasks = DBTaskResult.objects.filter(status="READY")
    keep = (["expire_clock"] if deadlines else []) + (["send_turn_mail"] if mails else [])
    for task in tasks:
        game_id = task.args_kwargs["args"][0] if task.args_kwargs["args"] else None
        if game_id in ids:
            if task.task_path.rsplit(".", 1)[1] in keep:
                DBTaskResult.objects.filter(pk=task.pk).update(run_after=timezone.now())
            else:
                DBTaskResult.objects.filter(pk=task.pk).delete()
    return games


def outstanding(paths: tuple[str, ...]) -> int:
    """Tasks of these kinds due or running (a running task's run_after is its lease)."""
    from django.db.models import Q
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects.filter(Q(status="READY", run_after__lte=timezone.now()) | Q(status="RUNNING"),
                                       task_path__in=[f"games.tasks.{p}" for p in paths]).count()


def deadline_counts(games) -> tuple[int, int]:
    """(lost, doubled) deadlines: seats the bot never took / expiries handled twice."""
    from django_tasks_db.models import DBTaskResult

    from games.models import Seat

    handled = Counter(tuple(r.args_kwargs["args"]) for r in DBTaskResult.objects.filter(
        task_path="games.tasks.expire_clock", status="SUCCESSFUL", return_value=True))
    lost = sum(1 for g in games if not Seat.objects.filter(game=g, bot_since__isnull=False).exists())
    return lost, sum(1 for n in handled.values() if n > 1)


def mail_counts(games, received) -> tuple[int, int]:
    waiting: Counter[tuple[str, ...]] = Counter()
    for g in games:
        g.refresh_from_db()
        waiting[(g.seats.get(index=g.to_act()[0]).user.email,)] = 1
    got = Counter(received)
    return sum(1 for k in waiting if got[k] == 0), sum(1 for k in waiting if got[k] > 1)


def kill_connections() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s "
                       "AND application_name = %s", [SCRATCH, APP_NAME])
        return cursor.fetchone()[0]


def wait_for(check, timeout: float) -> float | None:
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        if check():
            return time.monotonic() - began
        time.sleep(0.05)
    return None


# ---- the faults -----------------------------------------------------------------------

def killed_connections(quick: bool) -> None:
    """Row 1: the worker's PostgreSQL connections terminated again and again (a restart,
    as the worker sees it) while it works through deadlines; a probe task after each."""
    kills = 5 if quick else 20
    games = games_due(40 if quick else 100, "pg", deadlines=True, mails=False)
    proc = worker("pg-survivor", lease=5)
    from tests.faults.tasks import note

    recover = []
    probe_file = Path(f"/tmp/faults-bench-{os.getpid()}")
    for n in range(kills):
        time.sleep(random.uniform(0.1, 0.6))
        kill_connections()
        result = note.using(priority=10).enqueue(str(probe_file), f"probe-{n}")  # ahead of the backlog
        from django_tasks_db.models import DBTaskResult

        recover.append(wait_for(lambda r=result: DBTaskResult.objects.get(pk=r.id).status == "SUCCESSFUL", 60))
    wait_for(lambda: outstanding(("expire_clock",)) == 0, 120)
    alive = proc.poll() is None
    proc.kill()
    proc.wait()
    probe_file.unlink(missing_ok=True)
    lost, doubled = deadline_counts(games)
    ok = [r for r in recover if r is not None]
    ROWS.append(("1 PostgreSQL connections killed under the worker",
                 f"{kills} kills, {len(games)} deadlines", f"{lost} (+{len(recover) - len(ok)} probes)", doubled,
                 f"worker {'alive' if alive else 'EXITED'}; probe ran {max(ok):.2f} s after a kill (max), "
                 f"{sum(ok) / len(ok):.2f} s mean"))


def killed_workers(quick: bool) -> None:
    """Row 3: workers SIGKILLed in the middle of a task (deadlines and turn mails, a slow SMTP
    server so kills land mid-send), one after another, beside one steady worker."""
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    handler, controller = smtp(delay=0.3)
    deadline_games = games_due(40 if quick else 100, "dl", deadlines=True, mails=False)
    mail_games = games_due(24 if quick else 48, "ml", deadlines=False, mails=True)
    paths = ("expire_clock", "send_turn_mail")
    cut_short: dict = {}  # task id -> when its worker was killed in the middle of it
    killed, spawned = 0, 0
    steady = worker("steady", smtp_port=controller.port, lease=2)  # the survivor that takes over
    doomed: list[tuple[str, subprocess.Popen]] = []
    target = 10 if quick else 40
    while killed < target and outstanding(paths):
        while len(doomed) < 3:  # three starting at a time, so kills come faster than start-ups
            doomed.append((f"doomed-{spawned}", worker(f"doomed-{spawned}", smtp_port=controller.port, lease=2)))
            spawned += 1
        for name, proc in list(doomed):
            mine = DBTaskResult.objects.filter(status="RUNNING", worker_ids__contains=[name])
            if mine.exists():  # up and in the middle of a task: kill it there
                time.sleep(random.uniform(0, 0.2))
                proc.kill()
                proc.wait()
                killed += 1
                doomed.remove((name, proc))
                for pk in mine.values_list("pk", flat=True):
                    cut_short.setdefault(pk, timezone.now())
        time.sleep(0.05)
    for _, proc in doomed:
        proc.kill()
        proc.wait()
    wait_for(lambda: outstanding(paths) == 0, 300)
    takeover = idle_takeover_times(steady, 5 if quick else 10)
    steady.kill()
    steady.wait()
    controller.stop()
    recovered = [(task.finished_at - cut_short[task.pk]).total_seconds()
                 for task in DBTaskResult.objects.filter(pk__in=cut_short, status="SUCCESSFUL")]
    lost, doubled = deadline_counts(deadline_games)
    mail_lost, mail_doubled = mail_counts(mail_games, handler.received)
    ROWS.append(("3 worker SIGKILLed mid-task: deadlines", f"{killed} kills, {len(deadline_games)} deadlines",
                 lost, doubled, f"{len(cut_short)} tasks cut short, {len(recovered)} finished by another worker "
                 f"{max(recovered, default=0):.1f} s (max) / {sum(recovered) / max(len(recovered), 1):.1f} s (mean) "
                 "after the kill, waiting their turn in the backlog; with the queue empty: "
                 f"{max(takeover):.1f} s (max) / {sum(takeover) / len(takeover):.1f} s (mean), lease 2 s"))
    ROWS.append(("3 ... the same kills: turn mails (SMTP 0.3 s each)", f"{len(mail_games)} mails", mail_lost,
                 mail_doubled, "(same run)"))


def task_state(result_id, **match) -> bool:
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects.filter(pk=result_id, **match).exists()


def idle_takeover_times(steady: subprocess.Popen, rounds: int) -> list[float]:
    """Seconds from a SIGKILL mid-task to that task done by the idle steady worker (a 0.5 s
    task): the lease running out, the sweep, the run. The steady worker is paused (SIGSTOP)
    while the doomed one claims the task, so that it is the doomed one's."""
    from tests.faults.tasks import note

    times = []
    scratch = Path(f"/tmp/faults-bench-takeover-{os.getpid()}")
    for n in range(rounds):
        name = f"taken-over-{n}"
        steady.send_signal(signal.SIGSTOP)
        proc = worker(name, lease=2)
        result = note.enqueue(str(scratch), name, seconds=0.5)
        wait_for(partial(task_state, result.id, status="RUNNING", worker_ids__contains=[name]), 60)
        steady.send_signal(signal.SIGCONT)
        proc.kill()
        proc.wait()
        killed = time.monotonic()
        wait_for(partial(task_state, result.id, status="SUCCESSFUL"), 60)
        times.append(time.monotonic() - killed)
    scratch.unlink(missing_ok=True)
    return times


def refusing_mail_server(quick: bool) -> None:
    """Row 4: the SMTP server answers 451 to every mail once, then 250."""
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from games.models import MailLog

    DBTaskResult.objects.filter(status="READY").delete()  # earlier rows' later mails: not this row's
    handler, controller = smtp()
    games = games_due(10, "rf", deadlines=False, mails=True)
    handler.replies = ["451 4.3.0 Try again later"] * len(games)
    proc = worker("mailer", smtp_port=controller.port)
    wait_for(lambda: outstanding(("send_turn_mail",)) == 0, 60)
    recorded_before = MailLog.objects.filter(game__in=games).count()
    # The retries wait MAIL_RETRY_DELAYS[0] (a minute); the bench makes them due at once.
    DBTaskResult.objects.filter(task_path="games.tasks.send_turn_mail", status="READY").update(
        run_after=timezone.now())
    recovered = wait_for(lambda: len(handler.received) >= len(games), 60)
    time.sleep(1)  # anything sent twice would arrive now
    proc.kill()
    proc.wait()
    controller.stop()
    lost, doubled = mail_counts(games, handler.received)
    ROWS.append(("4 mail server answers 451, then 250", f"{len(games)} mails", lost, doubled,
                 f"{recorded_before} recorded as sent while refused; retried 60 s later, all delivered "
                 f"{recovered:.1f} s after the retries came due"))


def two_at_once(work) -> None:
    from django.db import connection

    barrier = threading.Barrier(2)

    def run() -> None:
        barrier.wait()
        try:
            work()
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def concurrent_digests(quick: bool) -> None:
    """Row 8: two workers start together (both schedule the periodic chains) and run the
    daily digest at the same moment."""
    from django.core.management import call_command
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from accounts.models import User
    from games.models import Game
    from games.tasks import PERIODIC_TASKS, daily_digest

    handler, controller = smtp(delay=0.02)
    games_due(15, "dg", deadlines=False, mails=False)
    User.objects.filter(username__startswith="dg").update(email_digest=True)
    DBTaskResult.objects.all().delete()
    rounds, chains = 5, 0
    for _ in range(rounds):
        DBTaskResult.objects.filter(task_path__in=[p.module_path for p in PERIODIC_TASKS]).delete()
        two_at_once(lambda: call_command("schedule_periodic_tasks", stdout=open(os.devnull, "w")))  # noqa: SIM115
        chains += sum(max(DBTaskResult.objects.filter(task_path=p.module_path, status="READY").count() - 1, 0)
                      for p in PERIODIC_TASKS)
    DBTaskResult.objects.all().delete()
    for _ in range(2):
        daily_digest.enqueue()
    workers = [worker(f"digest-{i}", smtp_port=controller.port) for i in range(2)]
    wait_for(lambda: DBTaskResult.objects.filter(task_path="games.tasks.daily_digest", status="SUCCESSFUL").count()
             == 2, 120)
    time.sleep(1)
    for proc in workers:
        proc.kill()
        proc.wait()
    controller.stop()
    users = User.objects.filter(username__startswith="dg", email_digest=True)
    waiting = Game.objects.waiting_for_users({u.pk for u in users})
    expected = {u.email for u in users if waiting[u.pk]}
    got = Counter(to for (to,) in handler.received)
    next_runs = DBTaskResult.objects.filter(task_path="games.tasks.daily_digest", status="READY",
                                            run_after__gt=timezone.now()).count()
    ROWS.append(("8 two digest runs at once", f"{len(expected)} users", sum(1 for e in expected if not got[e]),
                 sum(1 for n in got.values() if n > 1), f"next day's runs queued: {next_runs}"))
    ROWS.append(("8 two workers start together", f"{rounds} starts", 0, chains, "extra periodic chains"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", help="one fault: connections, workers, mail or digests")
    args = parser.parse_args()
    fresh_database()
    faults = {"connections": killed_connections, "workers": killed_workers, "mail": refusing_mail_server,
              "digests": concurrent_digests}
    for name, fault in faults.items():
        if args.only and name != args.only:
            continue
        print(f"== {(fault.__doc__ or '').strip().splitlines()[0]}", flush=True)
        fault(args.quick)
        print(f"   {ROWS[-1]}", flush=True)
    print("\n| fault | cases tried | lost | doubled | recovery |\n| --- | --- | --- | --- | --- |")
    for row in ROWS:
        print("| " + " | ".join(str(cell) for cell in row) + " |")


if __name__ == "__main__":
    main()
