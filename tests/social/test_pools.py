"""Quick pairing's promises (social/pools.py) on random pools, with hypothesis."""
from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from social.pools import BASE_RANGE, Seeker, match, rating_range


@st.composite
def pools(draw):
    n = draw(st.integers(0, 12))
    seekers = [Seeker(i, draw(st.integers(0, 8)), draw(st.integers(800, 1600)), draw(st.integers(0, 120)))
               for i in range(n)]
    users = sorted({s.user_id for s in seekers})
    pairs = list(itertools.combinations(users, 2))
    blocked = {frozenset(p) for p in draw(st.lists(st.sampled_from(pairs), max_size=6))} if pairs else set()
    return seekers, draw(st.integers(2, 4)), blocked, draw(st.booleans())


@settings(max_examples=300, deadline=None)
@given(pools())
def test_tables_are_full_disjoint_in_range_and_never_blocked(pool):
    seekers, size, blocked, live = pool
    by_id = {s.id: s for s in seekers}
    tables = match(seekers, size, blocked, live=live)
    seated = [pk for t in tables for pk in t]
    assert len(seated) == len(set(seated))
    for table in tables:
        assert len(table) == size
        for a, b in itertools.combinations([by_id[pk] for pk in table], 2):
            assert a.user_id != b.user_id
            assert frozenset((a.user_id, b.user_id)) not in blocked
            assert abs(a.rating - b.rating) <= min(rating_range(a, live), rating_range(b, live))


def test_the_range_widens_as_you_wait():
    far_apart = [Seeker(1, 1, 1000, 0), Seeker(2, 2, 1300, 0)]
    assert match(far_apart, 2, set(), live=True) == []
    waited = [Seeker(1, 1, 1000, 20), Seeker(2, 2, 1300, 20)]
    assert rating_range(waited[0], True) > BASE_RANGE + 200
    assert match(waited, 2, set(), live=True) == [[1, 2]]
    # correspondence widens per hour, not per second
    assert match([Seeker(1, 1, 1000, 20), Seeker(2, 2, 1300, 20)], 2, set(), live=False) == []


def test_closest_rating_first_and_blocked_never():
    pool = [Seeker(1, 1, 1000, 10), Seeker(2, 2, 1090, 0), Seeker(3, 3, 1010, 0)]
    assert match(pool, 2, set(), live=True) == [[1, 3]]
    assert match(pool, 2, {frozenset((1, 3))}, live=True) == [[1, 2]]
