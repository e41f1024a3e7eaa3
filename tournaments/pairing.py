"""Tournament pairing: pure Python, no Django (tests/tournaments/test_pairing.py checks its
promises with hypothesis).

No package on PyPI fitted: the chess pairers (bbpPairings' Dutch system and its wrappers)
pair two players per board, while our games seat two to six at a table. So this module
pairs by the Monrad idea, which extends to tables of N: order the players by score, then
rating, and seat each table with the best-placed players still free, skipping anyone who
already met someone at the table; when no table avoids every rematch, the seating with
the fewest rematches is taken. Byes go to the lowest-placed players among those with the
fewest byes so far, so they spread over the field.

The promises:
- every player is at exactly one table or has a bye, every table has `table_size` seats;
- `len(players) % table_size` byes, given to players with the fewest byes so far;
- no two players meet again while a seating without rematches exists;
- the first table (no history) is the top `table_size` by score, then rating.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# How many seatings the exact search may try before it settles for the fewest rematches.
SEARCH_BUDGET = 20_000


@dataclass(frozen=True)
class Entrant:
    """A player as the pairer sees them: an id, their points so far, rating and bye count."""

    id: int
    score: float = 0.0
    rating: float = 0.0
    byes: int = 0


@dataclass
class Round:
    tables: list[tuple[int, ...]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)


Met = set[frozenset[int]]


def met_pairs(tables: Iterable[Sequence[int]]) -> Met:
    """Every pair of players who sat at one of `tables`."""
    return {frozenset(pair) for table in tables for pair in itertools.combinations(table, 2)}


def standing_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Score first, then rating (both highest first); the id breaks the last ties."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))


def pair_round(entrants: Sequence[Entrant], table_size: int, met: Met) -> Round:
    """One Swiss round: see the module's promises."""
    if table_size < 2:
        raise ValueError("a table seats at least two players")
    order = standing_order(entrants)
    bye_count = len(order) % table_size
    best: tuple[int, list[int], list[tuple[int, ...]]] | None = None
    for byes in _bye_choices(order, bye_count):
        playing = [e.id for e in order if e.id not in byes]
        tables = _seat_without_rematch(playing, table_size, met)
        if tables is not None:
            return Round(tables=tables, byes=sorted(byes))
        fallback = _seat_fewest_rematches(playing, table_size, met)
        rematches = _rematches(fallback, met)
        if best is None or rematches < best[0]:
            best = (rematches, sorted(byes), fallback)
    assert best is not None
    return Round(tables=best[2], byes=best[1])


def _bye_choices(order: list[Entrant], count: int, limit: int = 50) -> Iterable[set[int]]:
    """Sets of players who may sit out, best first: the fewest byes so far (spread), then
    the lowest placed. Only players needed to reach `count` from the lowest bye counts are
    candidates, so byes never pile on someone while another has fewer."""
    if count == 0:
        yield set()
        return
    by_need = sorted(reversed(order), key=lambda e: e.byes)  # stable: lowest placed first
    threshold = by_need[count - 1].byes
    sure = [e.id for e in by_need if e.byes < threshold]
    maybe = [e.id for e in by_need if e.byes == threshold]
    for chosen in itertools.islice(itertools.combinations(maybe, count - len(sure)), limit):
        yield set(sure) | set(chosen)


def _seat_without_rematch(playing: list[int], size: int, met: Met) -> list[tuple[int, ...]] | None:
    """Depth-first: the first free player takes the best-placed free players who met
    nobody at the table. Complete (every partition is reachable), within SEARCH_BUDGET."""
    budget = [SEARCH_BUDGET]

    def seat(free: list[int]) -> list[tuple[int, ...]] | None:
        if not free:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        head, rest = free[0], free[1:]
        for mates in itertools.combinations(rest, size - 1):
            table = (head, *mates)
            if any(frozenset(pair) in met for pair in itertools.combinations(table, 2)):
                continue
            others = seat([p for p in rest if p not in mates])
            if others is not None:
                return [table, *others]
        return None

    return seat(playing)


def _seat_fewest_rematches(playing: list[int], size: int, met: Met) -> list[tuple[int, ...]]:
    """Greedy: each table is the first free player and the mates with the fewest rematches."""
    free = list(playing)
    tables = []
    while free:
        head, rest = free[0], free[1:]
        mates = min(itertools.islice(itertools.combinations(rest, size - 1), 2000),
                    key=lambda m: _rematches([(head, *m)], met))
        tables.append((head, *mates))
        free = [p for p in rest if p not in mates]
    return tables


def _rematches(tables: Iterable[Sequence[int]], met: Met) -> int:
    return sum(1 for pair in met_pairs(tables) if pair in met)


def round_robin(ids: Sequence[int]) -> list[Round]:
    """Every pair of players meets once (two-player tables): the circle method; with an odd
    count each player sits out once."""
    players: list[int | None] = list(ids)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    rounds = []
    for _ in range(n - 1):
        current = Round()
        for i in range(n // 2):
            a, b = players[i], players[n - 1 - i]
            if a is None or b is None:
                current.byes.append(a if b is None else b)  # type: ignore[arg-type]
            else:
                current.tables.append((a, b))
        rounds.append(current)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def table_points(ranks: Sequence[int]) -> list[float]:
    """Points by rank at one table of N: first N-1, last 0; tied players share the points of
    the places they hold together (two-player: win 1, draw 0.5, loss 0)."""
    n = len(ranks)
    points = []
    for rank in ranks:
        tied = sum(1 for r in ranks if r == rank)
        places = range(rank, rank + tied)  # ranks are 1-based and skip after a tie (1, 1, 3)
        points.append(sum(n - place for place in places) / tied)
    return points


@dataclass
class Standing:
    id: int
    points: float = 0.0
    buchholz: float = 0.0
    wins: int = 0
    rating: float = 0.0
    games: int = 0
    byes: int = 0
    rank: int = 0


@dataclass(frozen=True)
class TableResult:
    """A finished table: player ids and their points; `winners` ranked first."""

    points: dict[int, float]
    winners: frozenset[int] = frozenset()


def standings(ratings: dict[int, float], results: Iterable[TableResult], byes: Iterable[int],
              bye_points: float) -> list[Standing]:
    """Ranked standings. Tie-breaks, in order: Buchholz (the sum of the final points of
    everyone you sat with, counted per game), then games won (ranked first), then rating.
    Players level on all of them share a rank."""
    rows = {pid: Standing(id=pid, rating=rating) for pid, rating in ratings.items()}
    results = list(results)
    for result in results:
        for pid, points in result.points.items():
            rows[pid].points += points
            rows[pid].games += 1
            rows[pid].wins += pid in result.winners
    for pid in byes:
        rows[pid].points += bye_points
        rows[pid].byes += 1
    for result in results:
        for pid in result.points:
            rows[pid].buchholz += sum(rows[other].points for other in result.points if other != pid)
    key = lambda s: (-s.points, -s.buchholz, -s.wins, -s.rating)
    ordered = sorted(rows.values(), key=lambda s: (key(s), s.id))
    for position, row in enumerate(ordered):
        previous = ordered[position - 1] if position else None
        row.rank = previous.rank if previous and key(previous) == key(row) else position + 1
    return ordered


def arena_points(points_at_table: float, table_size: int, won: bool, streak: int) -> tuple[int, int]:
    """Arena scoring (lichess's): a table's points doubled (two-player: win 2, draw 1, loss 0),
    doubled again while on fire (after two wins in a row). Returns (points, new streak)."""
    base = round(2 * points_at_table)
    on_fire = streak >= 2
    return (2 * base if on_fire else base), (streak + 1 if won else 0)


def arena_tables(waiting: Sequence[Entrant], table_size: int, last_met: Met) -> list[tuple[int, ...]]:
    """Seat the waiting arena players now: by score then rating, avoiding each player's last
    table when possible; whoever is left over waits for the next finished game."""
    seated = len(waiting) - len(waiting) % table_size
    if seated < table_size:
        return []
    order = standing_order(waiting)
    playing = [e.id for e in order[:seated]]
    tables = _seat_without_rematch(playing, table_size, last_met)
    return tables if tables is not None else _seat_fewest_rematches(playing, table_size, last_met)
