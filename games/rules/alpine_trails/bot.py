"""Placeholder bot: replaced below."""
from __future__ import annotations

from . import RULES


def choose(state, seat, rng):
    return rng.choice(RULES.legal_actions(state, seat))
