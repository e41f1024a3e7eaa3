"""The pairer's promises (tournaments/pairing.py), checked on random fields with hypothesis."""
from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (Entrant, TableResult, met_pairs, pair_round, round_robin, standing_order,
                                 standings, table_points)


@st.composite
def fields(draw, max_players=9):
    size = draw(st.integers(2, 4))
    n = draw(st.integers(size, max_players))
    entrants = [Entrant(id=i, score=draw(st.integers(0, 3)) / 2, rating=draw(st.integers(900, 1100)),
                        byes=draw(st.integers(0, 2))) for i in range(n)]
    pairs = list(itertools.combinations(range(n), 2))
    met = {frozenset(p) for p in draw(st.lists(st.sampled_from(pairs), max_size=len(pairs)))}
    return entrants, size, met


def _partitions(ids, size):
    if not ids:
        yield []
        return
    head, rest = ids[0], ids[1:]
    for mates in itertools.combinations(rest, size - 1):
        for others in _partitions([p for p in rest if p not in mates], size):
            yield [(head, *mates), *others]


def _repeat_free_exists(entrants, size, met):
    """Brute force: some allowed bye set and seating with no rematch."""
    fewest = sorted(e.byes for e in entrants)
    count = len(entrants) % size
    for byes in itertools.combinations(entrants, count):
        if sorted(e.byes for e in byes) != fewest[:count]:
            continue
        rest = [e.id for e in entrants if e not in byes]
        if any(not (met_pairs(p) & met) for p in _partitions(rest, size)):
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(fields())
def test_everyone_placed_once_tables_full_byes_to_the_fewest(field):
    entrants, size, met = field
    result = pair_round(entrants, size, met)
    seated = [p for table in result.tables for p in table] + result.byes
    assert sorted(seated) == [e.id for e in entrants]
    assert all(len(table) == size for table in result.tables)
    assert len(result.byes) == len(entrants) % size
    bye_counts = sorted(e.byes for e in entrants)
    given_to = sorted(e.byes for e in entrants if e.id in result.byes)
    assert given_to == bye_counts[:len(given_to)]


@settings(max_examples=300, deadline=None)
@given(fields(max_players=8))
def test_no_rematch_while_avoidable(field):
    entrants, size, met = field
    result = pair_round(entrants, size, met)
    if _repeat_free_exists(entrants, size, met):
        assert not (met_pairs(result.tables) & met)


@settings(max_examples=200, deadline=None)
@given(fields())
def test_first_table_is_the_top_by_score_then_rating(field):
    entrants, size, _ = field
    result = pair_round([Entrant(e.id, e.score, e.rating) for e in entrants], size, set())
    playing = [e.id for e in standing_order(entrants) if e.id not in result.byes]
    assert sorted(result.tables[0]) == sorted(playing[:size])


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 11), st.integers(2, 3))
def test_byes_spread_over_rounds(n, size):
    """Nobody sits out twice before everyone who must sit out once has."""
    byes = dict.fromkeys(range(n), 0)
    met: set = set()
    for _ in range(n):
        result = pair_round([Entrant(i, byes=byes[i]) for i in range(n)], size, met)
        met |= met_pairs(result.tables)
        for pid in result.byes:
            byes[pid] += 1
        assert max(byes.values()) - min(byes.values()) <= 1


@given(st.integers(2, 12))
def test_round_robin_everyone_meets_everyone_once(n):
    rounds = round_robin(list(range(n)))
    pairs = [frozenset(t) for r in rounds for t in r.tables]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    for r in rounds:
        seated = [p for t in r.tables for p in t] + r.byes
        assert sorted(seated) == list(range(n))


def test_table_points_share_ties():
    assert table_points([1, 2]) == [1, 0]
    assert table_points([1, 1]) == [0.5, 0.5]
    assert table_points([2, 1, 3, 4]) == [2, 3, 1, 0]
    assert table_points([1, 1, 3]) == [1.5, 1.5, 0]


def test_standings_name_their_tie_breaks():
    results = [TableResult({1: 1, 2: 0}, frozenset({1})), TableResult({3: 1, 4: 0}, frozenset({3})),
               TableResult({1: 1, 3: 0}, frozenset({1})), TableResult({2: 1, 4: 0}, frozenset({2}))]
    rows = standings({1: 10, 2: 20, 3: 30, 4: 40}, results, [], bye_points=1)
    assert [(r.id, r.points, r.buchholz, r.rank) for r in rows] == [
        (1, 2, 2, 1), (3, 1, 2, 2), (2, 1, 2, 3), (4, 0, 2, 4)]
