"""What the replay says about moves a bot made for an absent player (timed out or resigned).

The game page marks them from the seats (`Seat.bot_since`, `Seat.resigned`: "played by a
bot since move N" and the "ran out of time" line of its history). A replay shows the game
as it was at some step, so it marks only what had happened by then; a player who later took
the seat back has no `bot_since` any more, so those earlier stand-in moves are found from the
moves' own `by_bot` flag.
"""
from __future__ import annotations

from dataclasses import dataclass

from .models import Game, Move, Seat


@dataclass(frozen=True)
class StandInNote:
    """One stretch of a human seat played by the bot, as far as the replay has gone."""

    seat: int
    name: str
    since: int                 # the move after which the bot took the seat (as bot_since)
    reason: str                # "ran out of time", "resigned", or "was away" (seat taken back)
    moves: tuple[int, ...]     # the bot's moves for the seat up to the step


def _runs(own_moves: list[tuple[int, bool]]) -> list[list[int]]:
    """The seat's bot-made moves, split where the player moved again in between."""
    runs: list[list[int]] = []
    previous_by_bot = False
    for seq, by_bot in own_moves:
        if by_bot:
            if previous_by_bot:
                runs[-1].append(seq)
            else:
                runs.append([seq])
        previous_by_bot = by_bot
    return runs


def _seat_notes(seat: Seat, own_moves: list[tuple[int, bool]], upto: int) -> list[StandInNote]:
    notes = []
    current = seat.bot_since if seat.bot_since is not None and seat.bot_since <= upto else None
    for run in _runs(own_moves):
        if current is not None and run[0] > current:
            continue  # the present stretch: noted below, from the seat itself
        notes.append(StandInNote(seat.index, seat.name, run[0] - 1, "was away", tuple(run)))
    if current is not None:
        moves = tuple(seq for seq, by_bot in own_moves if by_bot and seq > current)
        reason = "resigned" if seat.resigned else "ran out of time"
        notes.append(StandInNote(seat.index, seat.name, current, reason, moves))
    return notes


def stand_in_notes(game: Game, upto: int) -> list[StandInNote]:
    """The stand-in stretches of the game's human seats up to move `upto`, in move order."""
    humans = {s.index: s for s in game.ordered_seats() if not s.is_bot}
    own: dict[int, list[tuple[int, bool]]] = {index: [] for index in humans}
    rows = Move.objects.filter(game=game, seq__lte=upto, seat__in=list(humans)).order_by("seq")
    for seat, seq, by_bot in rows.values_list("seat", "seq", "by_bot"):
        own[seat].append((seq, by_bot))
    notes = [note for index, seat in humans.items() for note in _seat_notes(seat, own[index], upto)]
    return sorted(notes, key=lambda note: (note.since, note.seat))


def made_by_stand_in(game: Game, move: Move | None) -> bool:
    """Whether the bot made this move for a human seat (not a bot seat's own move)."""
    if move is None or not move.by_bot:
        return False
    return any(s.index == move.seat and not s.is_bot for s in game.ordered_seats())
