"""Start the periodic tasks of every app (each app's `tasks.PERIODIC_TASKS`: open tables
expiring in lobby/tasks.py, the daily digest in games/tasks.py) unless already queued.

Each periodic task enqueues its own next run; this command, run before the worker starts
(see the Procfile), only starts the chain when no run is waiting (games.tasks.enqueue_next_run:
two workers starting together start one chain). Open tables are checked
at once; the daily digest first runs on the next full hour (then hourly, for the players
whose local time is settings.DIGEST_HOUR).
"""
from importlib import import_module

from django.apps import apps
from django.core.management.base import BaseCommand
from django.utils import timezone
from django.utils.module_loading import module_has_submodule

from games.tasks import enqueue_next_run, first_run_at


def periodic_tasks() -> list:
    """Every installed app's PERIODIC_TASKS, found without games naming the apps above it."""
    found: list = []
    for app in apps.get_app_configs():
        if module_has_submodule(app.module, "tasks"):
            found += getattr(import_module(f"{app.name}.tasks"), "PERIODIC_TASKS", [])
    return found


class Command(BaseCommand):
    help = "Enqueue the periodic tasks that are not already waiting in the queue."

    def handle(self, *args, **options):
        for periodic in periodic_tasks():
            run_after = first_run_at(periodic, timezone.now())
            if enqueue_next_run(periodic, run_after):
                self.stdout.write(f"Enqueued {periodic.module_path} to run at {run_after:%Y-%m-%d %H:%M} UTC")
