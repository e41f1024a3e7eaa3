"""The open game record: a finished game as plain JSON anyone can replay.

A record is the game's seed plus every action (with its seat and time), the totals after
each action, and the final scores and ranking. Its schema is docs/game-record.schema.json
(versioned by `format_version`). `import_record` replays a record with the rules in
games.rules and refuses one that does not reach what it claims, naming the first move
that differs.

An unfinished game is exported without its seed and actions (they would reveal what is
hidden: future draws, simultaneous choices) to anyone but admins: only what a spectator
sees, `view(state, None)`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
from django.conf import settings

from . import rules as registry
from .models import Game
from .rules.base import IllegalAction

FORMAT = "switchback-game-record"
FORMAT_VERSION = 1
SCHEMA_PATH = Path(settings.BASE_DIR) / "docs" / "game-record.schema.json"


class RecordError(Exception):
    """A record that cannot be imported; the message says why (and which move)."""


def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


def export_record(game: Game, *, full: bool | None = None) -> dict:
    """The record of `game`. `full` (default: when the game is over) adds seed and actions."""
    full = (not game.is_active) if full is None else full
    seats = game.ordered_seats()
    record: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": {"slug": game.game_slug, "title": game.title, "rules_version": game.rules_version,
                 "options": game.options},
        "id": game.pk,
        "status": game.status,
        "rated": game.is_rated,
        "started_at": game.created.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "seats": [{"seat": s.index, "name": s.name, "bot": s.is_bot} for s in seats],
        "moves_played": game.version,
    }
    if full:
        record["seed"] = game.seed
        record["actions"] = _actions(game)
    else:
        record["position"] = game.rules.view(game.state, None)
    if not game.is_active and game.rules.is_over(game.state):
        record["result"] = {"scores": game.rules.scores(game.state), "ranking": game.rules.ranking(game.state)}
    return record


def _actions(game: Game) -> list[dict]:
    """Every action with its seat, time and the totals after it (for naming a differing move)."""
    rules = game.rules
    state = rules.setup(game.players, game.options, game.seed)
    out = []
    for move in game.moves.order_by("seq"):
        state = rules.apply(state, move.seat, move.action)
        out.append({"seq": move.seq, "seat": move.seat, "action": move.action, "at": move.created.isoformat(),
                    "by_bot": move.by_bot, "totals": _totals(rules.scores(state))})
    return out


def _totals(scores: list[dict]) -> list[int]:
    return [entry["total"] for entry in scores]


@dataclass
class Replayed:
    slug: str
    moves: int
    scores: list[dict]
    ranking: list[int]


def import_record(record: Any) -> Replayed:
    """Replay a finished game's record; RecordError unless it reaches its stated result."""
    try:
        jsonschema.validate(record, schema())
    except jsonschema.ValidationError as exc:
        where = "/".join(map(str, exc.absolute_path)) or "the record"
        raise RecordError(f"Not a valid game record ({where}): {exc.message}") from None
    if "seed" not in record or "actions" not in record or "result" not in record:
        raise RecordError("This record has no seed, actions or result: only a finished game can be replayed.")
    rules, options = _rules_for(record)
    players = len(record["seats"])
    state = rules.setup(players, options, record["seed"])
    for number, entry in enumerate(record["actions"], start=1):
        if entry["seq"] != number:
            raise RecordError(f"Move {number} is numbered {entry['seq']}: the actions must be in order.")
        state = _replay_one(rules, state, entry, players)
    if not rules.is_over(state):
        raise RecordError(f"After its {len(record['actions'])} actions the game is not over.")
    scores, ranking = rules.scores(state), rules.ranking(state)
    if scores != record["result"]["scores"] or ranking != record["result"]["ranking"]:
        raise RecordError(f"The replayed result ({_totals(scores)}, ranks {ranking}) differs from the "
                          f"record's ({_totals(record['result']['scores'])}, ranks {record['result']['ranking']}).")
    return Replayed(rules.slug, len(record["actions"]), scores, ranking)


def _rules_for(record: dict):
    game = record["game"]
    try:
        rules = registry.get(game["slug"])
    except KeyError:
        raise RecordError(f"Unknown game {game['slug']!r}.") from None
    if game["rules_version"] != rules.version:
        raise RecordError(f"The record was played under rules version {game['rules_version']!r}; "
                          f"this site has version {rules.version!r}.")
    try:
        return rules, rules.validate_options(len(record["seats"]), game["options"])
    except IllegalAction as exc:
        raise RecordError(f"Invalid options: {exc.message}") from None


def _replay_one(rules, state: dict, entry: dict, players: int) -> dict:
    seq, seat = entry["seq"], entry["seat"]
    label = f"Move {seq} (seat {seat}, {json.dumps(entry['action'], sort_keys=True)})"
    if seat >= players:
        raise RecordError(f"{label}: there is no seat {seat}.")
    try:
        state = rules.apply(state, seat, entry["action"])
    except IllegalAction as exc:
        raise RecordError(f"{label} is not legal here: {exc.message}") from None
    totals = _totals(rules.scores(state))
    if "totals" in entry and totals != entry["totals"]:
        raise RecordError(f"{label} differs: it gives totals {totals}, the record says {entry['totals']}.")
    return state
