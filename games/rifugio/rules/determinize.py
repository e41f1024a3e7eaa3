"""Determinization for search bots: a state a seat cannot tell from the real one.

What a seat cannot see in Rifugio: the order of the stack. Which tiles are still in it is
public (every tile is on the map, in hand, at the bottom or removed), and each draw picks
one with `rng_for(seed, "draw", n)` at the moment it happens; so a fresh seed is a fresh,
equally likely order, and nothing else needs resampling.
"""
from __future__ import annotations

import random

from games.rules.base import State


def determinize(state: State, seat: int, rng: random.Random) -> State:
    return {**state, "seed": rng.randrange(2**31)}
