"""manage.py bot_ladder: play the bot levels against each other and against random in
every game (games/rules/ladder.py) and print the table docs/bots.md carries.

    manage.py bot_ladder --games 40 --jobs 2             # 2 players, every game, every pairing
    manage.py bot_ladder --slug rifugio --players 5 --pairs 3-0,5-3 --budget 0.1
    manage.py bot_ladder --slug alpine-trails --solo 5 --games 20
    manage.py bot_ladder --slug nanga-parbat --pairs 5-4 --games 70 --first-game 140 --record np.jsonl
    manage.py bot_ladder --pool np.jsonl other.jsonl         # the cells those games make up

A long cell is best played as several streams, each `--record`ing its games (one JSON line
each, written as it is counted) over its own range of `--first-game`, and counted with
`--pool`: a stream stopped half-way loses only the game it was playing.
"""
from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import rules as registry
from games.rules import ladder


def parse_pairs(text: str) -> tuple[tuple[int, int], ...]:
    try:
        pairs = tuple((int(a), int(b)) for a, b in (item.split("-") for item in text.split(",")))
    except ValueError as exc:
        raise CommandError("--pairs is a comma-separated list like 1-0,2-1 (0 = random)") from exc
    if any(level not in range(6) for pair in pairs for level in pair):
        raise CommandError("levels are 1-5, and 0 for random")
    return pairs


class Command(BaseCommand):
    help = "Play bot levels against each other and against random; print win rates and ratings."

    def add_arguments(self, parser):
        parser.add_argument("--slug", action="append", help="a game (repeatable; default: every game)")
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--games", type=int, default=20, help="games per pairing")
        parser.add_argument("--pairs", default=None, help="e.g. 1-0,2-1,3-2 (default: the ladder's pairings)")
        parser.add_argument("--budget", type=float, default=None,
                            help="seconds per level 4-5 move instead of the level's own (reported)")
        parser.add_argument("--iterations", type=int, default=None, help="level 4-5 iteration cap override")
        parser.add_argument("--solo", type=int, default=None, help="a level's solo games instead of pairings")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--first-game", type=int, default=0,
                            help="the first game's number (seed = --seed + number; the first level sits in "
                                 "seat number %% players): continues a cell another stream began")
        parser.add_argument("--record", default=None, help="append each game to this file, one JSON line")
        parser.add_argument("--pool", nargs="+", default=None, metavar="FILE",
                            help="print the cells the games recorded in these files make up, and play nothing")
        parser.add_argument("--jobs", type=int, default=1,
                            help="games played at once, one process each (the search's budget is CPU time: "
                                 "up to one per core leaves every move as strong)")

    def handle(self, *args, slug, players, games, pairs, budget, iterations, solo, seed, jobs, first_game,
               record, pool, **options):
        if pool:
            return self.print_pooled(pool)
        slugs = slug or registry.slugs()
        unknown = [s for s in slugs if not registry.has(s)]
        if unknown:
            raise CommandError(f"no such game: {', '.join(unknown)}")
        if games < 1:
            raise CommandError("--games must be at least 1")
        if jobs < 1:
            raise CommandError("--jobs must be at least 1")
        if first_game < 0:
            raise CommandError("--first-game must be 0 or more")
        out = lambda line: self.stdout.write(line)  # noqa: E731
        keep = appender(Path(record)) if record else None
        table_head(out, "time")
        if solo is not None:
            for s in slugs:
                if registry.get(s).min_players == 1:
                    out(ladder.format_row(ladder.solo(s, solo, games, seed, budget, iterations, jobs, first_game, keep),
                                          budget))
            return
        chosen = parse_pairs(pairs) if pairs else ladder.PAIRINGS_2P
        ladder.run(slugs, chosen, players, games, seed, budget, iterations, report=out, jobs=jobs,
                   first_game=first_game, record=keep)

    def print_pooled(self, paths: list[str]) -> None:
        records = []
        for path in paths:
            try:
                lines = Path(path).read_text(encoding="utf-8").splitlines()
                records += [json.loads(line) for line in lines if line.strip()]
            except (OSError, ValueError) as exc:
                raise CommandError(f"{path}: {exc}") from exc
        table_head(self.stdout.write, "CPU")
        for cell in ladder.pool(records):
            self.stdout.write(ladder.format_row(cell, None, pooled=True))


def table_head(out, last_column: str) -> None:
    out(f"| game | players | pairing (first's share, 95 % Wilson) | games | {last_column} |")
    out("| --- | --- | --- | --- | --- |")


def appender(path: Path):
    """Append one game's record to `path` as it is counted (flushed, so a stream killed
    half-way keeps every game it finished)."""
    def append(entry: dict) -> None:
        with path.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(entry) + "\n")
    return append
