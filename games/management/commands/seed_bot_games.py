"""manage.py seed_bot_games [--per-count N]: fill the database with finished bot-only games
of every title and every player count, through the engine (CI runs verify_games on them)."""
from __future__ import annotations

from django.core.management.base import BaseCommand

from games import engine
from games import rules as registry
from games.engine import SeatPlan


class Command(BaseCommand):
    help = "Create bot games of every title and player count through the engine."

    def add_arguments(self, parser):
        parser.add_argument("--per-count", type=int, default=1, help="games per title and player count")
        parser.add_argument("--seed", type=int, default=1, help="first seed (games use seed, seed+1, ...)")

    def handle(self, *args, per_count, seed, **options):
        made = 0
        for rules in registry.all():
            for players in range(rules.min_players, rules.max_players + 1):
                for _ in range(per_count):
                    plans = [SeatPlan(is_bot=True) for _ in range(players)]
                    engine.start_game(rules.slug, plans, rules.default_options(), seed=seed + made)
                    made += 1
        self.stdout.write(f"created {made} bot game(s)")
