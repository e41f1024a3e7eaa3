"""Determinization for search bots: a state a seat cannot tell from the real one.

What a seat cannot see in Roll to the Top: future rolls (they come from the seed) and the
numbers the other seats have pencilled in this turn (pending until everybody is done).
`determinize` draws a fresh seed and forgets the others' pending numbers (a seat already
done then simply wrote nothing this turn, which is always legal), so two states that
differ only there give the same result under the same rng.
"""
from __future__ import annotations

import random

from games.rules.base import State


def determinize(state: State, seat: int, rng: random.Random) -> State:
    pending = [list(p) if i == seat else [] for i, p in enumerate(state["pending"])]
    return {**state, "pending": pending, "seed": rng.randrange(2**31)}
