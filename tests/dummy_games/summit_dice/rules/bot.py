"""Summit Dice's bot: keeps rolling until this turn's climb reaches 8, then banks it."""
from __future__ import annotations

from games.rules.base import Action, State

ENOUGH = 8


def choose(state: State, seat: int, rng) -> Action:
    return {"type": "stop"} if state["climb"] >= ENOUGH else {"type": "roll"}
