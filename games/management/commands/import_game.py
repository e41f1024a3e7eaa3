"""Replay an open game record and check it reaches the result it states."""
from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from games.record import RecordError, import_record, load_record


class Command(BaseCommand):
    help = "Replay a game record (JSON, docs/game-record.schema.json) and check its result."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The record's path, or - for standard input.")

    def handle(self, *args, file: str, **options):
        try:
            if file == "-":
                text = sys.stdin.read()
            else:
                with open(file, encoding="utf-8") as handle:
                    text = handle.read()
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {file}: {exc}") from None
        try:
            replayed = import_record(load_record(text))
        except RecordError as exc:
            raise CommandError(f"Refused: {exc}") from None
        totals = ", ".join(str(s["total"]) for s in replayed.scores)
        result = f"ranking {replayed.ranking}" if replayed.ranking else "no result (aborted)"
        self.stdout.write(f"OK: {replayed.slug}, {replayed.moves} moves replayed; ended: {replayed.ending}; "
                          f"final totals {totals}; {result}.")
