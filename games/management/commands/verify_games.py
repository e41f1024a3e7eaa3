"""manage.py verify_games [ids...]: replay every game (or those named) from seed + moves and
compare with the stored snapshot. Exits non-zero on any mismatch, naming the game and the
first differing move."""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.verify import verify


class Command(BaseCommand):
    help = "Replay games from seed + moves and compare with the stored snapshots."

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="*", type=int, help="game ids (default: every game)")

    def handle(self, *args, ids, **options):
        games = Game.objects.order_by("pk")
        if ids:
            games = games.filter(pk__in=ids)
            missing = set(ids) - set(games.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"no such game: {', '.join(map(str, sorted(missing)))}")
        checked, mismatches = 0, []
        for game in games.iterator(chunk_size=100):
            checked += 1
            mismatch = verify(game)
            if mismatch:
                mismatches.append(mismatch)
                self.stderr.write(str(mismatch))
        self.stdout.write(f"verified {checked} game(s): {checked - len(mismatches)} match, {len(mismatches)} mismatch")
        if mismatches:
            raise CommandError(f"{len(mismatches)} game(s) do not replay to their snapshot")
