"""Nanga Parbat rules version "1": games started before the mountain was dealt by the shared
`rng_for(seed, "setup")` keep the deal they started with (docs/rules-versions.md).

Only the deal differs: version "1" drew it from `random.Random(seed)`; legality, scoring and
the state's shape are those of the current rules, so the current bot plays it too.
"""
from __future__ import annotations

import random

from .rules import NangaParbat


class NangaParbatV1(NangaParbat):
    version = "1"

    def deal_rng(self, seed: int) -> random.Random:
        return random.Random(seed)


RULES = NangaParbatV1()
