"""Determinization for search bots: a state a seat cannot tell from the real one.

The only thing hidden in Rift Valley Reserve is what the other seats drew this turn: their
draws stay pending (public only as "has submitted") until the last asked seat draws.
`determinize` replaces each of them with a draw sampled among that seat's legal draws on
the map it holds, so two states that differ only there give the same result under the
same rng. The seed only dealt the maps, which are public.
"""
from __future__ import annotations

import random

from games.rules.base import State

from .board import held_map, legal_draws


def determinize(state: State, seat: int, rng: random.Random) -> State:
    pending = dict(state["pending"])
    n, turn = state["players"], state["turn"]
    for key in sorted(pending, key=int):
        other = int(key)
        if other == seat:
            continue
        draws = legal_draws(state["maps"][held_map(other, turn, n)], other, turn)
        if state["trigger_turn"] is not None:
            draws.append({"type": "pass"})
        pending[key] = rng.choice(draws) if draws else {"type": "pass"}
    return {**state, "pending": pending}
