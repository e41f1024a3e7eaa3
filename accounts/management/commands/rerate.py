"""Rebuild every rating from the stored rating events and report what differed."""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from accounts.ratings import rerate
from games import rules as registry


class Command(BaseCommand):
    help = "Rebuild ratings from the archive of rating events (all games, or --game SLUG)."

    def add_arguments(self, parser):
        parser.add_argument("--game", metavar="SLUG", help="Only this game's ratings.")
        parser.add_argument("--check", action="store_true", help="Report differences, change nothing.")

    def handle(self, *args, game: str | None = None, check: bool = False, **options):
        if game and game not in registry.slugs():
            raise CommandError(f"No game {game!r}; games: {', '.join(registry.slugs())}")
        report = rerate(game, write=not check)
        verb = "differ" if check else "were corrected"
        self.stdout.write(
            f"Replayed {report.events} rating events: {report.changed_events} events and "
            f"{report.changed_ratings} rating(s) of {report.ratings} {verb}."
        )
