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

from config.inputs import json_depth_exceeds

from . import rules as registry
from .finishing import ending_sentences, result_ranks
from .models import Game
from .rules.base import IllegalAction

FORMAT = "switchback-game-record"
FORMAT_VERSION = 1
# A record nests a few levels (record > actions > action > its fields); anything far deeper
# is not a record, and parsing or validating it would recurse until Python gives up.
MAX_RECORD_DEPTH = 64
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
        "seats": [_seat_entry(s) for s in seats],
        "moves_played": game.version,
    }
    if game.ending:
        record["ending"] = _ending(game)
    if full:
        record["seed"] = game.seed
        record["actions"] = _actions(game)
    else:
        record["position"] = game.rules.view(game.state, None)
    if game.status == Game.Status.FINISHED:
        # The stored ranks: a player who resigned or timed out ranks last (games.finishing).
        record["result"] = {"scores": game.rules.scores(game.state), "ranking": [s.rank for s in seats]}
    return record


def _seat_entry(seat) -> dict:
    entry: dict[str, Any] = {"seat": seat.index, "name": seat.name, "bot": seat.is_bot}
    if seat.bot_since is not None and not seat.is_bot:
        # The player left; the game's bot played the seat from that move on.
        entry["left"] = {"how": "resigned" if seat.resigned else "timeout", "move": seat.bot_since}
    return entry


def _ending(game: Game) -> dict:
    """The game's one account of how it ended (games.finishing), with who and when."""
    by = next((s for s in game.ordered_seats() if s.index == game.ended_by_seat), None)
    return {"kind": game.ending, "seat": game.ended_by_seat, "name": by.name if by is not None else None,
            "move": game.ended_on_move, "text": " ".join(ending_sentences(game))}


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
    ending: str = ""


def load_record(text: str) -> Any:
    """A record from JSON text; RecordError (never RecursionError) for text that is not
    JSON or nests deeper than any record does."""
    if json_depth_exceeds(text, MAX_RECORD_DEPTH):
        raise RecordError(f"Not a game record: the JSON nests deeper than {MAX_RECORD_DEPTH} levels.")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"Not JSON: {exc}") from None


def _nests_deeper_than(value: Any, limit: int) -> bool:
    """Does a parsed value nest lists/dicts deeper than `limit`? (Iterative: never recurses.)"""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def import_record(record: Any) -> Replayed:
    """Replay an ended game's record; RecordError unless it reaches what it states.

    A game played to the end must reach its result, with the ranks games.finishing gives
    (a player who resigned or timed out ranks last). A game that ended early, a two-player
    resignation, must be a legal position with the resigner last. An aborted game has no
    result: its actions must all be legal.
    """
    if _nests_deeper_than(record, MAX_RECORD_DEPTH):
        raise RecordError(f"Not a game record: it nests deeper than {MAX_RECORD_DEPTH} levels.")
    try:
        jsonschema.validate(record, schema())
    except jsonschema.ValidationError as exc:
        where = "/".join(map(str, exc.absolute_path)) or "the record"
        raise RecordError(f"Not a valid game record ({where}): {exc.message}") from None
    aborted = record["status"] == Game.Status.ABORTED
    if "seed" not in record or "actions" not in record or ("result" not in record and not aborted):
        raise RecordError("This record has no seed, actions or result: only a game that ended can be replayed.")
    rules, options = _rules_for(record)
    players = len(record["seats"])
    state = rules.setup(players, options, record["seed"])
    for number, entry in enumerate(record["actions"], start=1):
        if entry["seq"] != number:
            raise RecordError(f"Move {number} is numbered {entry['seq']}: the actions must be in order.")
        state = _replay_one(rules, state, entry, players)
    ending = record.get("ending", {}).get("kind", "")
    if aborted:
        return Replayed(rules.slug, len(record["actions"]), rules.scores(state), [], ending or "aborted")
    return _check_result(record, rules, state, players, ending)


def _check_result(record: dict, rules, state: dict, players: int, ending: str) -> Replayed:
    absent = {seat["seat"] for seat in record["seats"] if "left" in seat}
    if not rules.is_over(state) and not (ending == Game.Ending.RESIGNED and absent):
        raise RecordError(f"After its {len(record['actions'])} actions the game is not over "
                          "(and no player resigned to end it).")
    scores, ranking = rules.scores(state), result_ranks(rules, state, players, absent)
    if scores != record["result"]["scores"] or ranking != record["result"]["ranking"]:
        raise RecordError(f"The replayed result ({_totals(scores)}, ranks {ranking}) differs from the "
                          f"record's ({_totals(record['result']['scores'])}, ranks {record['result']['ranking']}).")
    return Replayed(rules.slug, len(record["actions"]), scores, ranking, ending or Game.Ending.NORMAL)


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
