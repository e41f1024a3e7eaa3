"""How games end (lila's Finisher): one account of every ending, written in one place.

Every way out of a game goes through `finish` or `end_without_result`: played to the end,
a resignation, a timeout handed to a bot, a no-show, an abort by a player, an abort by the
staff. Each records `Game.ending`, who ended it (`ended_by`, `ended_by_seat`) and on which
move, and sends `games.signals.game_finished` inside the transaction, so ratings
(accounts) and everything else read the same account. `ending_sentences` turns it into
the words the result screen, mails, the profile and the replay show.

The functions here run inside the transaction games.publisher opens and return an
Outcome; they never send anything themselves.
"""
from __future__ import annotations

import logging
from collections.abc import Set as AbstractSet
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from .core import Outcome, Rejected, locked, play_bots, save_changes, seated_in_running_game, sync_clocks
from .models import Game, Seat
from .signals import game_finished

log = logging.getLogger(__name__)
Ending = Game.Ending


def after_change(game: Game, started: dict[int, Seat], moved: AbstractSet[int] = frozenset()) -> None:
    """The result once the game is over (ratings exactly once), then the clocks."""
    if game.is_active and game.rules.is_over(game.state):
        finish(game)
    sync_clocks(game, started, moved)


def finish(game: Game, ending: str | None = None, by: Seat | None = None) -> None:
    """The game is over with a result: ranks, scores, the ending, then `game_finished`.

    Without `ending`, the game was played to its end: the account is the first player who
    left it (resigned or timed out, the bot finishing the seat), or a normal end.
    """
    if ending is None:
        ending, by = _how_it_was_played_out(game)
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    _note_ending(game, ending, by)
    _store_result(game)
    _tell_listeners(game)


def _how_it_was_played_out(game: Game) -> tuple[str, Seat | None]:
    gone = sorted((s for s in game.seats.all() if s.bot_since is not None and not s.is_bot),
                  key=lambda s: (s.bot_since, s.index))
    if not gone:
        return Ending.NORMAL, None
    return (Ending.RESIGNED if gone[0].resigned else Ending.TIMEOUT), gone[0]


def _note_ending(game: Game, ending: str, by: Seat | None, *, by_user=None) -> None:
    game.ending = ending
    game.ended_by_seat = by.index if by is not None else None
    game.ended_by = by.user if by is not None else by_user
    game.ended_on_move = by.bot_since if by is not None and by.bot_since is not None else game.version


def end_without_result(game: Game, ending: str, *, by: Seat | None = None, by_user=None, reason: str = "") -> None:
    """Aborted (by a player, the staff, or a no-show): no ranks, no ratings; the clocks
    stop, and with them every deadline."""
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    _note_ending(game, ending, by, by_user=by_user)
    sync_clocks(game, {})
    who = by.user if by is not None else by_user
    log.warning("game %s aborted (%s) by %s%s", game.pk, ending, getattr(who, "username", who),
                f": {reason}" if reason else "")
    _tell_listeners(game)


def _tell_listeners(game: Game) -> None:
    """`game_finished`, inside the result's transaction; a receiver that rated the game
    says so, and the game is marked rated in the same transaction (exactly once: a game
    finishes once, under its row lock)."""
    responses = game_finished.send(sender=Game, game=game)
    if any(response is True for _, response in responses):
        game.rated = True


def final_ranks(game_ranks: list[int], absent: set[int]) -> list[int]:
    """Ranks once absent seats (timed out and not back, or resigned) are put last.

    The rule players read on the help page: the seats still played by their player are
    ranked by the game's own ranking among themselves (ties share a rank, the next is
    skipped: 1, 1, 3); every absent seat shares the rank after them, whatever the bot
    playing it scored.
    """
    present = [i for i in range(len(game_ranks)) if i not in absent]
    ranks = [0] * len(game_ranks)
    for i in present:
        ranks[i] = 1 + sum(1 for j in present if game_ranks[j] < game_ranks[i])
    for i in absent:
        ranks[i] = len(present) + 1
    return ranks


def result_ranks(rules, state: dict, players: int, absent: set[int]) -> list[int]:
    """The final ranks of a game: its own ranking when it was played out; a game that
    ended early (a resignation between two) has no ranking yet, so everyone still
    present shares first place."""
    own = rules.ranking(state) if rules.is_over(state) else [1] * players
    return final_ranks(own, absent)


def absent_seats(game: Game) -> set[int]:
    """Seats whose player left (resigned, or timed out and not back): ranked last."""
    return {s.index for s in game.seats.all() if s.bot_since is not None and not s.is_bot}


def _store_result(game: Game) -> None:
    rules = game.rules
    scores = rules.scores(game.state)
    ranks = result_ranks(rules, game.state, game.players, absent_seats(game))
    for seat in game.ordered_seats():
        seat.rank, seat.score = ranks[seat.index], scores[seat.index]["total"]
        seat.save(update_fields=["rank", "score"])


# --- The endings a player or the clock causes -----------------------------------------

def resign(game_id: int, user) -> Outcome:
    """You rank last. Two players (or one): the game ends; more: a bot plays your seat."""
    game, seat = seated_in_running_game(game_id, user)
    if seat.resigned:
        return Outcome(game, seat.index, applied=False, message=_("You already resigned."))
    seat.resigned = True
    if seat.bot_since is None:
        seat.bot_since = game.version
    seat.save(update_fields=["resigned", "bot_since"])
    started: dict[int, Seat] = {}
    waiting_before = set(game.to_act())
    if game.players <= 2:
        finish(game, Ending.RESIGNED, seat)
    else:
        play_bots(game, started)
    after_change(game, started)
    save_changes(game)
    return Outcome(game, seat.index, applied=True, changed=True, message=_("You resigned."),
                   newly_waiting=set(game.to_act()) - waiting_before, clocks_started=started)


def can_abort(game: Game) -> bool:
    """Abort is for games that have not really started: some seat has not moved yet."""
    humans = {s.index for s in game.seats.all() if not s.is_bot}
    return game.is_active and not humans <= set(game.seats_moved)


def abort(game_id: int, by_user, reason: str = "") -> Outcome:
    """A player ends the game with no result, allowed until every player has moved once."""
    game, seat = seated_in_running_game(game_id, by_user)
    if not can_abort(game):
        raise Rejected(_("Every player has moved: the game can no longer be aborted (resign instead)."), 409)
    end_without_result(game, Ending.ABORTED, by=seat, reason=reason)
    save_changes(game)
    return Outcome(game, seat.index, applied=True, changed=True, message=_("The game was aborted."))


def abort_by_staff(game_id: int, *, by=None, reason: str = "") -> Outcome:
    """The admin's "abort", at any time: no ranks, no ratings, no deadline. The moves stay,
    so the game can still be verified; `by` (the staff member) is recorded and logged."""
    game = locked(game_id)
    if not game.is_active:
        raise Rejected(_("This game is not running."), 409)
    end_without_result(game, Ending.STAFF, by_user=by, reason=reason)
    save_changes(game)
    return Outcome(game, None, applied=True, changed=True, message=_("The game was aborted."))


def expire(game_id: int, seat_index: int) -> Outcome:
    """A deadline: if the seat's time is really up, the bot takes the seat.

    The game row is locked, so when several workers run the same expiry only the first
    finds the seat still waiting; a game that moved on (the seat played, a vacation moved
    the deadline) is left alone (`applied` False). Rejected (404) when the game is gone.
    """
    game = locked(game_id)
    seat = next((s for s in game.ordered_seats() if s.index == seat_index), None)
    if seat is None or not is_past_deadline(game, seat):
        return Outcome(game, seat_index, applied=False)
    return time_out(game, seat)


def is_past_deadline(game: Game, seat: Seat) -> bool:
    deadline = seat.deadline
    return (game.is_active and not seat.played_by_bot and deadline is not None and deadline <= timezone.now()
            and seat.index in game.to_act())


def time_out(game: Game, seat: Seat) -> Outcome:
    """The seat's flag fell (its locked game in hand). A player who never moved is a
    no-show: the game is aborted, unrated (lichess's rule for a missed first move).
    Otherwise the game's bot plays the seat from now on, and its player ranks last unless
    they take it back."""
    waiting_before = set(game.to_act())
    seat.time_left, seat.running_since = timedelta(0), None
    if seat.index not in game.seats_moved:
        seat.bot_since = game.version
        seat.save(update_fields=["bot_since"])
        end_without_result(game, Ending.NO_SHOW, by=seat)
        save_changes(game)
        log.info("game %s: seat %s never moved before its time ran out: aborted", game.pk, seat.index)
        return Outcome(game, seat.index, applied=True, changed=True)
    seat.bot_since = game.version
    seat.save(update_fields=["bot_since"])
    started: dict[int, Seat] = {}
    sync_clocks(game, started)
    play_bots(game, started)
    after_change(game, started)
    save_changes(game)
    log.info("game %s: seat %s timed out, the bot plays it", game.pk, seat.index)
    return Outcome(game, seat.index, applied=True, changed=True, clocks_started=started,
                   newly_waiting=set(game.to_act()) - waiting_before)


# --- The account in words -------------------------------------------------------------

def ending_sentences(game: Game) -> list[str]:
    """How the game ended, as the result screen, mails, the profile and the replay say it:
    "Bob resigned on move 14.", "Carol ran out of time on move 20; a bot finished her seat."
    """
    seats = game.ordered_seats()
    if game.status == Game.Status.ABORTED:
        return [_abort_sentence(game, seats)]
    if game.status != Game.Status.FINISHED:
        return []
    gone = sorted((s for s in seats if s.bot_since is not None and not s.is_bot), key=lambda s: (s.bot_since, s.index))
    sentences = [_departure_sentence(game, s) for s in gone]
    return sentences or [_("The game was played to the end.")]


def _departure_sentence(game: Game, seat: Seat) -> str:
    words = {"name": seat.name, "move": seat.bot_since}
    if seat.resigned:
        if game.players <= 2 and game.ending == Ending.RESIGNED and game.ended_by_seat == seat.index:
            return _("%(name)s resigned on move %(move)s.") % words
        return _("%(name)s resigned on move %(move)s; a bot finished the seat.") % words
    return _("%(name)s ran out of time on move %(move)s; a bot finished the seat.") % words


def _abort_sentence(game: Game, seats: list[Seat]) -> str:
    by = next((s for s in seats if s.index == game.ended_by_seat), None)
    if game.ending == Ending.NO_SHOW:
        if by is None:
            return _("A player never moved before the clock ran out: the game was aborted, unrated "
                     "(a game nobody has really started counts for nobody).")
        return _("%(name)s never moved before the clock ran out: the game was aborted, unrated "
                 "(a game nobody has really started counts for nobody).") % {"name": by.name}
    if game.ending == Ending.STAFF:
        return _("The game was aborted by the site's staff; it counts for nobody.")
    if game.ending == Ending.ABORTED:
        if by is None:
            return _("A player aborted the game on move %(move)s; it counts for nobody.") % {
                "move": game.ended_on_move}
        return _("%(name)s aborted the game on move %(move)s; it counts for nobody.") % {
            "name": by.name, "move": game.ended_on_move}
    return _("This game was aborted; it counts for nobody.")


def ending_summary(game: Game) -> str:
    """One line: the ending sentences joined (lists, mails)."""
    return " ".join(ending_sentences(game))
