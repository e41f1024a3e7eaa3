"""Start the periodic tasks (open tables expiring, the daily digest) unless already queued.

Each periodic task enqueues its own next run; this command, run before the worker starts
(see the Procfile), only starts the chain when no run is waiting (games.tasks.enqueue_next_run:
two workers starting together start one chain). Open tables are checked
at once; the daily digest first runs at settings.DIGEST_HOUR_UTC.
"""
from django.core.management.base import BaseCommand
from django.utils import timezone

from games.tasks import PERIODIC_TASKS, enqueue_next_run, first_run_at


class Command(BaseCommand):
    help = "Enqueue the periodic tasks that are not already waiting in the queue."

    def handle(self, *args, **options):
        for periodic in PERIODIC_TASKS:
            run_after = first_run_at(periodic, timezone.now())
            if enqueue_next_run(periodic, run_after):
                self.stdout.write(f"Enqueued {periodic.module_path} to run at {run_after:%Y-%m-%d %H:%M} UTC")
