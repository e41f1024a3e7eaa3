"""Replay verification: a game is its seed plus its moves, so replaying them under the
rules version it started with must rebuild the stored snapshot exactly. Used by
`manage.py verify_games` (and CI, on a database of bot games).

The replay also rebuilds what feeds ratings and bot marks:
- each seat's rank and score: the engine's own result (`engine.final_ranks` of the rules'
  ranking, absent seats last; the rules' score totals) for a finished game, none before;
- each move's `by_bot`: a bot seat's moves, and a seat's moves after a bot took it over
  (`bot_since`), are the bot's; a seat's own moves make it one of `seats_moved`; a move
  marked as the bot's in a seat its player holds (a timeout the player came back from) is
  the bot's choice there, replayed as the engine seeds it. (Only those: bots improve
  without a new rules version, so the many bot moves of an old bot game need not be what
  today's bot would play, while a player's move relabelled as the bot's almost never is.);
- each move's `created`: in move order, within the game's lifetime (not before it was
  created, not after it finished).
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass

from .models import Game, Move
from .rules import bot_for
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
    """None when seed + moves rebuild the stored state, version, results and move marks,
    else the first difference."""
    try:
        rules = game.rules
        state = rules.setup(game.players, game.options, game.seed)
    except (KeyError, IllegalAction) as exc:
        return Mismatch(game.pk, None, f"cannot set the game up ({exc})")
    seats = {seat.index: seat for seat in game.seats.all()}
    expected_seq = 0
    previous: Move | None = None
    for move in game.moves.order_by("seq"):
        expected_seq += 1
        if move.seq != expected_seq:
            return Mismatch(game.pk, expected_seq, f"move {expected_seq} is missing (next stored is {move.seq})")
        problem = _bad_marks(game, seats, move, previous) or _not_the_bots(game, seats, state, move)
        if problem:
            return Mismatch(game.pk, move.seq, problem)
        try:
            state = rules.apply(state, move.seat, move.action)
        except IllegalAction as exc:
            return Mismatch(game.pk, move.seq, f"seat {move.seat} {json.dumps(move.action)} is refused: {exc.message}")
        previous = move
    if expected_seq != game.version:
        return Mismatch(game.pk, min(expected_seq, game.version) + 1,
                        f"the game is at version {game.version} but has {expected_seq} moves")
    stored = game.state
    if rules.older_shape(stored):  # saved before the state's shape changed (docs/rules-versions.md)
        state, stored = rules.comparable(state), rules.comparable(stored)
    if _canonical(state) != _canonical(stored):
        return Mismatch(game.pk, game.version or None,
                        f"the replayed state differs from the snapshot at {first_difference(state, stored)}")
    problem = _bad_results(game, seats, state) or _bad_seats_moved(game)
    return Mismatch(game.pk, game.version or None, problem) if problem else None


def _bad_marks(game: Game, seats: dict, move: Move, previous: Move | None) -> str | None:
    """What the move's by_bot and created contradict, from the seat's controller and the
    game's lifetime (None: consistent)."""
    seat = seats.get(move.seat)
    if seat is not None and not move.by_bot:
        if seat.is_bot:
            return f"seat {move.seat} is a bot, but its move is marked as a player's"
        if seat.bot_since is not None and move.seq > seat.bot_since:
            return (f"seat {move.seat} is played by the bot since move {seat.bot_since}, "
                    "but this move is marked as a player's")
    if move.created < game.created:
        return "the move is dated before the game was created"
    if previous is not None and move.created < previous.created:
        return f"the move is dated before move {previous.seq}"
    if game.finished_at is not None and move.created > game.finished_at:
        return "the move is dated after the game ended"
    return None


def _not_the_bots(game: Game, seats: dict, state: dict, move: Move) -> str | None:
    """A bot move in a seat its player holds now: the bot's seeded choice (engine._play_bots)."""
    seat = seats.get(move.seat)
    if not move.by_bot or seat is None or seat.is_bot or (seat.bot_since is not None and move.seq > seat.bot_since):
        return None
    bot = bot_for(game.game_slug, game.rules_version or None)
    choice = bot.choose(state, move.seat, random.Random(f"{game.seed}:bot:{move.seq - 1}"))
    if _canonical(choice) != _canonical(move.action):
        return f"seat {move.seat}'s move is marked as the bot's, but the bot plays {json.dumps(choice)} there"
    return None


def _bad_results(game: Game, seats: dict, state: dict) -> str | None:
    """Ranks and scores as the engine stores them at the end (games.engine._store_result)."""
    from .engine import final_ranks

    if game.status != Game.Status.FINISHED:
        stored = [i for i, s in sorted(seats.items()) if s.rank is not None or s.score is not None]
        return f"seat {stored[0]} has a result in a game without one" if stored else None
    rules = game.rules
    absent = {i for i, s in seats.items() if s.bot_since is not None}
    ranks = final_ranks(rules.ranking(state), absent)
    totals = [row["total"] for row in rules.scores(state)]
    for i, seat in sorted(seats.items()):
        if seat.rank != ranks[i]:
            return f"seat {i}'s rank is {seat.rank}, the replay ranks it {ranks[i]}"
        if seat.score != totals[i]:
            return f"seat {i}'s score is {seat.score}, the replay scores it {totals[i]}"
    return None


def _bad_seats_moved(game: Game) -> str | None:
    """A seat with a move of its player's own is one of the seats that moved."""
    by_hand = set(game.moves.filter(by_bot=False).values_list("seat", flat=True))
    missing = sorted(by_hand - set(game.seats_moved or []))
    if missing:
        return f"seat {missing[0]} has a move marked as its player's, but never moved by hand"
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
