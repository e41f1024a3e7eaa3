"""Playout helpers shared by the contract suite, the games' own tests and the benchmarks."""
from __future__ import annotations

import json
import random

from games.rules.base import Ruleset

MAX_STEPS = 5000


def random_playout(rules: Ruleset, players: int, seed: int, options: dict | None = None,
                   chooser=None, on_step=None):
    """Play random legal actions (or `chooser(state, seat, rng)`) until the game ends.

    Returns (final_state, [(seat, action), ...]). In a simultaneous phase a random seat
    among those to act moves, so every interleaving gets exercised over many seeds.
    """
    rng = random.Random(seed)
    opts = rules.validate_options(players, options or rules.default_options())
    state = rules.setup(players, opts, seed)
    moves = []
    for _ in range(MAX_STEPS):
        if rules.is_over(state):
            return state, moves
        seat = rng.choice(rules.to_act(state))
        if chooser is not None:
            action = chooser(state, seat, rng)
        else:
            action = rng.choice(rules.legal_actions(state, seat))
        if on_step is not None:
            on_step(state, seat, action, rng)
        state = rules.apply(state, seat, action)
        moves.append((seat, action))
    raise AssertionError(f"{rules.slug}: {players} players, seed {seed} did not end in {MAX_STEPS} steps")


def replay(rules: Ruleset, players: int, options: dict, seed: int, moves) -> dict:
    state = rules.setup(players, rules.validate_options(players, options), seed)
    for seat, action in moves:
        state = rules.apply(state, seat, json.loads(json.dumps(action)))
    return state


def find_keys(obj, names: set[str], path="view") -> list[str]:
    """Paths of any dict key in `names`, anywhere inside a JSON-like value."""
    hits = []
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key in names:
                hits.append(f"{path}.{key}")
            hits.extend(find_keys(value, names, f"{path}.{key}"))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            hits.extend(find_keys(value, names, f"{path}[{i}]"))
    return hits
