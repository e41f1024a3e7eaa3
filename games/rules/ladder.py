"""The bot ladder (issue 25): levels against each other and against random, per game.

Pure Python (no Django): `manage.py bot_ladder` and `bench/bot_ladder.py` call `run`.
Each cell of the table is a pairing of two levels ("0" is a random mover) over N games at
one player count; seats alternate between the two levels so neither keeps the first seat.
A game counts 1 to the level of the winning seat, 1/k each for a k-way shared first place
(so ties count 1/k, as the issue asks) and 0 otherwise; the win rate of a pairing is the
first level's share, with a 95 % Wilson interval. Every finished game also updates an
OpenSkill (Plackett-Luce) rating per level, so the levels line up on one scale.

Levels 4 and 5 may be measured with a reduced time budget (`budget`): the table says so.
"""
from __future__ import annotations

import math
import multiprocessing
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from . import choose_at_level, get

RANDOM = 0
PAIRINGS_2P = ((1, 0), (2, 1), (3, 2), (3, 0), (4, 3), (5, 4), (5, 3))


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (successes may be fractional: ties)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Cell:
    slug: str
    players: int
    first: int
    second: int
    games: int = 0
    points: float = 0.0          # the first level's wins (ties 1/k)
    won: int = 0                 # games the first level won alone ...
    shared: int = 0              # ... and shared first place in
    seconds: float = 0.0         # wall time of the run that played the games
    cpu: float = 0.0             # CPU time of the games (summed over the processes)
    solo_totals: list[int] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)   # the first level's total less the best other's

    @property
    def margin(self) -> float:
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    @property
    def rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.points, self.games)


def seat_levels(first: int, second: int, players: int, game: int) -> list[int]:
    """Which level sits where: the first level takes seat game % players, the rest are the
    second level (at 2 players: alternate seats game by game)."""
    seats = [second] * players
    seats[game % players] = first
    return seats


def play(slug: str, levels_by_seat: list[int], seed: int, budget: float | None = None,
         iterations: int | None = None) -> tuple[list[int], list[int]]:
    """One game between these levels; returns (ranking, totals)."""
    ranking, totals, _sign = play_scored(slug, levels_by_seat, seed, budget, iterations)
    return ranking, totals


def play_scored(slug: str, levels_by_seat: list[int], seed: int, budget: float | None = None,
                iterations: int | None = None) -> tuple[list[int], list[int], int]:
    """`play`, with the game's `score_sign` at the end (+1: more is better)."""
    rules = get(slug)
    players = len(levels_by_seat)
    state = rules.setup(players, rules.validate_options(players, rules.default_options()), seed)
    rng = random.Random(seed)
    for _ in range(20000):
        if rules.is_over(state):
            break
        seat = rng.choice(rules.to_act(state))
        level = levels_by_seat[seat]
        if level == RANDOM:
            action = rng.choice(rules.legal_actions(state, seat))
        else:
            action = choose_at_level(slug, state, seat, rng, level=level, budget=budget, iterations=iterations)
        state = rules.apply(state, seat, action)
    else:
        raise RuntimeError(f"{slug}: game {seed} did not end")
    return rules.ranking(state), [entry["total"] for entry in rules.scores(state)], rules.score_sign(state)


class Ratings:
    """One OpenSkill rating per level, updated by each finished game."""

    def __init__(self) -> None:
        from openskill.models import PlackettLuce  # a plain dependency, imported when rating
        self.model = PlackettLuce()
        self.by_level: dict[int, Any] = {}

    def rate(self, levels_by_seat: list[int], ranking: list[int]) -> None:
        if len(set(levels_by_seat)) < 2:
            return
        teams = [[self.by_level.setdefault(level, self.model.rating(name=str(level)))] for level in levels_by_seat]
        rated = self.model.rate(teams, ranks=[float(r) for r in ranking])
        # a level seated twice (multi-player games) takes its last seat's update
        for level, team in zip(levels_by_seat, rated, strict=True):
            self.by_level[level] = team[0]

    def table(self) -> list[tuple[int, float, float, float]]:
        return sorted(((level, r.mu, r.sigma, r.ordinal()) for level, r in self.by_level.items()),
                      key=lambda row: row[0])


def _play_game(args: tuple) -> tuple[list[int], list[int], int, float]:
    """`play_scored`, and the CPU seconds the game took (in the process that played it)."""
    start = time.process_time()
    ranking, totals, sign = play_scored(*args)
    return ranking, totals, sign, time.process_time() - start


def game_record(cell: Cell, game: int, seed: int, seats: list[int], ranking: list[int], totals: list[int],
                sign: int, cpu: float = 0.0) -> dict[str, Any]:
    """One finished game of a cell as a plain dict (a JSON line of `--record`): enough to
    count it again in `pool`, and to pool games played in several streams or sessions."""
    first_seat = game % cell.players
    record: dict[str, Any] = {"slug": cell.slug, "players": cell.players, "first": cell.first,
                              "second": cell.second, "game": game, "seed": seed, "seats": seats,
                              "ranking": ranking, "totals": totals, "cpu": round(cpu, 3)}
    if cell.players > 1:
        turned = [sign * t for t in totals]
        record["margin"] = turned[first_seat] - max(t for i, t in enumerate(turned) if i != first_seat)
        winners = sum(1 for r in ranking if r == 1)
        record["points"] = 1 / winners if ranking[first_seat] == 1 else 0.0
    return record


def count(cell: Cell, record: dict[str, Any]) -> None:
    """Add one game's record to its cell."""
    if cell.players == 1:
        cell.solo_totals.append(record["totals"][0])
    else:
        cell.margins.append(record["margin"])
        cell.points += record["points"]
        cell.won += int(record["points"] == 1)
        cell.shared += int(0 < record["points"] < 1)
    cell.cpu += record.get("cpu", 0.0)
    cell.games += 1


def run_cell(cell: Cell, games: int, seed: int, ratings: Ratings, budget: float | None,
             iterations: int | None, jobs: int = 1, first_game: int = 0,
             record: Callable[[dict[str, Any]], None] | None = None) -> Cell:
    """`games` games of the cell (games first_game, first_game + 1, ..., each on seed
    seed + game, the first level in seat game % players), on `jobs` processes at once: the
    search's budget is CPU time, so a game played beside another on its own core is the
    same game, and the results are read in seed order (the ratings depend on it). `record`
    gets each game as it is counted (`--record` appends it to a file, so a long cell can be
    stopped, continued with `first_game`, and pooled)."""
    start = time.monotonic()
    numbers = range(first_game, first_game + games)
    plans = [(cell.slug, seat_levels(cell.first, cell.second, cell.players, game), seed + game, budget, iterations)
             for game in numbers]
    if jobs > 1:
        # spawned, not forked: a fork of a process with threads (a test run, a server) can
        # inherit a lock held by one of them and hang
        with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as executor:
            _count_all(cell, numbers, plans, executor.map(_play_game, plans), ratings, record)
    else:
        _count_all(cell, numbers, plans, map(_play_game, plans), ratings, record)
    cell.seconds += time.monotonic() - start
    return cell


def _count_all(cell: Cell, numbers: range, plans: list[tuple], results: Any, ratings: Ratings,
               record: Callable[[dict[str, Any]], None] | None) -> None:
    for game, plan, (ranking, totals, sign, cpu) in zip(numbers, plans, results, strict=True):
        _slug, seats, seed, *_limits = plan
        entry = game_record(cell, game, seed, seats, ranking, totals, sign, cpu)
        count(cell, entry)
        ratings.rate(seats, ranking)
        if record is not None:
            record(entry)


def pool(records: list[dict[str, Any]]) -> list[Cell]:
    """The cells these records make up (one per game, pairing and player count, in the order
    first met), each game counted once: a seed recorded twice (a stream restarted over games
    it had played) counts its first record."""
    cells: dict[tuple, Cell] = {}
    seen: set[tuple] = set()
    for entry in records:
        key = (entry["slug"], entry["players"], entry["first"], entry["second"])
        game = (*key, entry["seed"])
        if game in seen:
            continue
        seen.add(game)
        cell = cells.setdefault(key, Cell(*key))
        count(cell, entry)
    return list(cells.values())


def run(slugs: list[str], pairings: tuple[tuple[int, int], ...] = PAIRINGS_2P, players: int = 2,
        games: int = 20, seed: int = 1, budget: float | None = None, iterations: int | None = None,
        report: Callable[[str], None] = print, jobs: int = 1, first_game: int = 0,
        record: Callable[[dict[str, Any]], None] | None = None) -> dict[str, tuple[list[Cell], Ratings]]:
    """Every pairing in every game; `report` gets each row as it is measured, `record`
    each game (see `run_cell`)."""
    results = {}
    for slug in slugs:
        rules = get(slug)
        if not rules.min_players <= players <= rules.max_players:
            continue
        ratings = Ratings()
        cells = []
        for first, second in pairings:
            cell = run_cell(Cell(slug, players, first, second), games, seed, ratings, budget, iterations, jobs,
                            first_game, record)
            cells.append(cell)
            report(format_row(cell, budget))
        results[slug] = (cells, ratings)
        report(format_ratings(slug, ratings))
    return results


def solo(slug: str, level: int, games: int, seed: int = 1, budget: float | None = None,
         iterations: int | None = None, jobs: int = 1, first_game: int = 0,
         record: Callable[[dict[str, Any]], None] | None = None) -> Cell:
    cell = Cell(slug, 1, level, level)
    return run_cell(cell, games, seed, Ratings(), budget, iterations, jobs, first_game, record)


def level_name(level: int) -> str:
    return "random" if level == RANDOM else f"L{level}"


def format_row(cell: Cell, budget: float | None, pooled: bool = False) -> str:
    """A row of the table; `pooled` (cells counted from records): the time column gives the
    CPU a game took, not the wall time of a run."""
    reduced = f" (L4-5 budget {budget:g} s)" if budget is not None and max(cell.first, cell.second) >= 4 else ""
    took = f"{cell.cpu / max(cell.games, 1):.1f} s of CPU a game" if pooled else f"{cell.seconds:.0f} s{reduced}"
    if cell.players == 1:
        totals = cell.solo_totals
        mean = sum(totals) / len(totals) if totals else 0.0
        return (f"| {cell.slug} | solo | {level_name(cell.first)} | mean {mean:.1f}, "
                f"{sum(1 for t in totals if t >= 115)}/{len(totals)} reach 115 | {cell.games} | {took} |")
    low, high = cell.interval()
    return (f"| {cell.slug} | {cell.players}p | {level_name(cell.first)} vs {level_name(cell.second)} | "
            f"{100 * cell.rate:.0f} % [{100 * low:.0f}-{100 * high:.0f}], margin {cell.margin:+.1f} "
            f"({cell.won} won, {cell.shared} shared, {cell.games - cell.won - cell.shared} lost) | {cell.games} | "
            f"{took} |")


def format_ratings(slug: str, ratings: Ratings) -> str:
    rows = ", ".join(f"{level_name(level)} {mu:.1f}±{sigma:.1f}" for level, mu, sigma, _ in ratings.table())
    return f"| {slug} | OpenSkill (mu±sigma) | {rows} | | |"
