"""Quick pairing: pure Python, no Django (tests/social/test_pools.py).

Like lichess's pools: each waiting player accepts opponents within a rating range that
widens the longer they wait. Live players wait seconds, correspondence seekers days, so
the range grows per second for one and per hour for the other. The longest waiter is
seated first, with the players closest to their rating; blocked pairs never share a table.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BASE_RANGE = 100.0
LIVE_WIDENING_PER_SECOND = 15.0
CORRESPONDENCE_WIDENING_PER_HOUR = 50.0


@dataclass(frozen=True)
class Seeker:
    id: int
    user_id: int
    rating: float
    waited_seconds: float


def rating_range(seeker: Seeker, live: bool) -> float:
    per_second = LIVE_WIDENING_PER_SECOND if live else CORRESPONDENCE_WIDENING_PER_HOUR / 3600
    return BASE_RANGE + per_second * seeker.waited_seconds


def _fits(a: Seeker, b: Seeker, live: bool) -> bool:
    """Both must accept each other: the gap is within the narrower of the two ranges."""
    return abs(a.rating - b.rating) <= min(rating_range(a, live), rating_range(b, live))


def match(seekers: Sequence[Seeker], size: int, blocked: set[frozenset[int]], *, live: bool) -> list[list[int]]:
    """Tables of `size` seek ids; everyone at a table fits everyone else and no two blocked
    each other; a player seeking twice is seated once."""
    free = sorted(seekers, key=lambda s: (-s.waited_seconds, s.id))
    tables = []
    while free:
        first, rest = free[0], free[1:]
        table = [first]
        for other in sorted(rest, key=lambda s: (abs(s.rating - first.rating), -s.waited_seconds, s.id)):
            if len(table) == size:
                break
            if all(_fits(other, seated, live) and other.user_id != seated.user_id
                   and frozenset((other.user_id, seated.user_id)) not in blocked for seated in table):
                table.append(other)
        if len(table) == size:
            tables.append([s.id for s in table])
            free = [s for s in free if s not in table]
        else:
            free = rest
    return tables
