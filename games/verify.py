"""Replay verification: a game is its seed plus its moves, so replaying them under the
rules version it started with must rebuild the stored snapshot exactly. Used by
`manage.py verify_games` (and CI, on a database of bot games)."""
from __future__ import annotations

import json
from dataclasses import dataclass

from .models import Game
from .rules.base import IllegalAction


@dataclass
class Mismatch:
    game_id: int
    move: int | None  # the first move that differs (its seq); None: before any move
    detail: str

    def __str__(self) -> str:
        where = f"move {self.move}" if self.move is not None else "the start"
        return f"game {self.game_id}: first difference at {where}: {self.detail}"


def verify(game: Game) -> Mismatch | None:
    """None when seed + moves rebuild the stored state and version, else the first difference."""
    try:
        rules = game.rules
        state = rules.setup(game.players, game.options, game.seed)
    except (KeyError, IllegalAction) as exc:
        return Mismatch(game.pk, None, f"cannot set the game up ({exc})")
    expected_seq = 0
    for move in game.moves.order_by("seq"):
        expected_seq += 1
        if move.seq != expected_seq:
            return Mismatch(game.pk, expected_seq, f"move {expected_seq} is missing (next stored is {move.seq})")
        try:
            state = rules.apply(state, move.seat, move.action)
        except IllegalAction as exc:
            return Mismatch(game.pk, move.seq, f"seat {move.seat} {json.dumps(move.action)} is refused: {exc.message}")
    if expected_seq != game.version:
        return Mismatch(game.pk, min(expected_seq, game.version) + 1,
                        f"the game is at version {game.version} but has {expected_seq} moves")
    stored = game.state
    if rules.older_shape(stored):  # saved before the state's shape changed (docs/rules-versions.md)
        state, stored = rules.comparable(state), rules.comparable(stored)
    if _canonical(state) != _canonical(stored):
        return Mismatch(game.pk, game.version or None,
                        f"the replayed state differs from the snapshot at {first_difference(state, stored)}")
    return None


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def first_difference(replayed, stored, path: str = "state") -> str:
    """The path of the first value that differs between two JSON-like values."""
    if isinstance(replayed, dict) and isinstance(stored, dict):
        for key in sorted(set(replayed) | set(stored), key=str):
            if key not in replayed or key not in stored or _canonical(replayed[key]) != _canonical(stored[key]):
                return first_difference(replayed.get(key), stored.get(key), f"{path}.{key}")
    if isinstance(replayed, list) and isinstance(stored, list):
        for i, (a, b) in enumerate(zip(replayed, stored, strict=False)):
            if _canonical(a) != _canonical(b):
                return first_difference(a, b, f"{path}[{i}]")
        if len(replayed) != len(stored):
            return f"{path} (length {len(replayed)} vs {len(stored)})"
    return path
