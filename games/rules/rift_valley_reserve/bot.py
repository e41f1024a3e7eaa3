"""Placeholder bot: first legal action (replaced by the real bot below)."""
from __future__ import annotations

from . import RULES


def choose(state, seat, rng):
    return RULES.legal_actions(state, seat)[0]
