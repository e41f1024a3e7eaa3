"""A finished game step by step: states rebuilt from seed + moves, the steps a viewer pages
through, and each step's caption in the words of the game's History.

The states (`replay_state`, `replay_states`) were engine.py's; the engine re-exports them
(its `undo` rebuilds the state before a move the same way).

A replay step is a move, except for in-turn corrections (Roll to the Top's "Undo last
number" and "Start over"): those stay in the move log, for audit and for an exact rebuild,
but the replay folds them away with the moves they cancel, so a player pages through what
was played, not every change of mind. A game's presenter names them with
`in_turn_corrections(moves)` (see games.presenters.folded_moves).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from django.core.cache import cache
from django.utils.translation import gettext as _

from . import presenters
from .models import Game, Move

REPLAY_CHECKPOINT = 25
CHECKPOINT_SECONDS = 7 * 24 * 3600  # an older replay's first visit writes them again


def replay_state(game: Game, upto: int | None = None) -> dict:
    """The state rebuilt from seed + the first `upto` moves (all when None). A finished
    game never changes, so its replay starts from the nearest checkpoint (a cached state
    every REPLAY_CHECKPOINT moves): any step costs at most that many applies."""
    upto = game.version if upto is None else max(0, min(upto, game.version))
    if game.is_active:  # moves may still be taken back: no checkpoints to go stale
        return _replayed(game, game.rules.setup(game.players, game.options, game.seed), 0, upto)
    checkpoints = range(REPLAY_CHECKPOINT, upto + 1, REPLAY_CHECKPOINT)
    cached = cache.get_many([_checkpoint_key(game, seq) for seq in checkpoints])
    start = max((seq for seq in checkpoints if _checkpoint_key(game, seq) in cached), default=0)
    state = cached[_checkpoint_key(game, start)] if start else game.rules.setup(game.players, game.options,
                                                                                  game.seed)
    return _replayed(game, state, start, upto, keep_checkpoints=True)


def _checkpoint_key(game: Game, seq: int) -> str:
    # The seed and creation time too: a database restored or reset may reuse a game's id.
    return f"replay:{game.pk}:{game.seed}:{game.created.timestamp()}:{game.rules_version}:{seq}"


def _replayed(game: Game, state: dict, after: int, upto: int, *, keep_checkpoints: bool = False) -> dict:
    """`state` (the state after move `after`) brought forward to move `upto`."""
    rules = game.rules
    for move in _moves(game, after, upto):
        state = rules.apply(state, move.seat, move.action)
        if keep_checkpoints and move.seq % REPLAY_CHECKPOINT == 0:
            cache.add(_checkpoint_key(game, move.seq), state, timeout=CHECKPOINT_SECONDS)
    return state


def _moves(game: Game, after: int, upto: int) -> Iterable[Move]:
    """Moves `after` < seq <= `upto`, in order, with only what replaying needs. The game's id
    is read too: the related manager checks each row's `game_id` against `game`, and a
    deferred one cost a query per move (up to 650 on a long game's first replay)."""
    return game.moves.filter(seq__gt=after, seq__lte=upto).order_by("seq").only("game", "seq", "seat", "action")


def write_checkpoints(game: Game) -> int:
    """A finished game's checkpoints and steps, written once (games.replay_page.
    write_replay_checkpoints, enqueued when the game ends): its replay's first visit then
    applies fewer than REPLAY_CHECKPOINT moves instead of replaying the whole game (issue 21).

    Idempotent: only the checkpoints not kept yet are written, from the last kept one before
    the first missing, and `cache.add` never replaces one another worker wrote meanwhile (a
    state is the same whoever computes it). Returns how many it wrote."""
    if game.is_active:  # moves may still be taken back
        return 0
    step_seqs(game)
    seqs = range(REPLAY_CHECKPOINT, game.version + 1, REPLAY_CHECKPOINT)
    keys = {seq: _checkpoint_key(game, seq) for seq in seqs}
    kept = cache.get_many(list(keys.values()))
    missing = {seq for seq in seqs if keys[seq] not in kept}
    if not missing:
        return 0
    start = min(missing) - REPLAY_CHECKPOINT  # every checkpoint before the first missing is kept
    state = kept[keys[start]] if start else game.rules.setup(game.players, game.options, game.seed)
    rules, written = game.rules, 0
    for move in _moves(game, start, max(missing)):
        state = rules.apply(state, move.seat, move.action)
        if move.seq in missing:
            written += bool(cache.add(keys[move.seq], state, timeout=CHECKPOINT_SECONDS))
    return written


def replay_states(game: Game) -> Iterable[tuple[Move | None, dict]]:
    """(move, state after it) for the start position and every move, in order."""
    rules = game.rules
    state = rules.setup(game.players, game.options, game.seed)
    yield None, state
    for move in game.moves.order_by("seq"):
        state = rules.apply(state, move.seat, move.action)
        yield move, state


# --- steps --------------------------------------------------------------------------------

def step_seqs(game: Game) -> list[int]:
    """The move numbers a viewer pages through, in order: every move but the in-turn
    corrections and the moves they cancel. Index k-1 holds step k's move. A finished game's
    are kept in the cache (they never change): each replay request read every move to fold
    them (issue 21)."""
    if not presenters.folds_moves(game.game_slug):
        return list(range(1, game.version + 1))
    key = f"{_checkpoint_key(game, game.version)}:steps" if not game.is_active else None
    if key is not None:
        kept = cache.get(key)
        if kept is not None:
            return kept
    rows = list(game.moves.order_by("seq").values_list("seq", "seat", "action"))
    folded = presenters.folded_moves(game.game_slug, [(seat, action) for _, seat, action in rows])
    seqs = [seq for i, (seq, _, _) in enumerate(rows) if i not in folded]
    if key is not None:
        cache.set(key, seqs, timeout=CHECKPOINT_SECONDS)
    return seqs


@dataclass(frozen=True)
class Step:
    """One replay step: the move shown (None at the start), the state after it, and its
    caption (the History's sentences for what the move did)."""

    move: Move | None
    state: dict
    caption: str


def replay_step(game: Game, seq: int, names: list[str]) -> Step:
    """The step whose move is number `seq` (0: the start of the game)."""
    if seq == 0:
        return Step(None, replay_state(game, upto=0), _("Start of the game"))
    before = replay_state(game, upto=seq - 1)
    move = game.moves.get(seq=seq)
    after = game.rules.apply(before, move.seat, move.action)
    return Step(move, after, caption(game, before, after, move, names))


def caption(game: Game, before: dict, after: dict, move: Move, names: list[str]) -> str:
    """What the move did, as the History words it: the events it added to its player's
    view, or, for a move whose effect shows only later (a simultaneous turn's draws are
    revealed together), the presenter's sentence for the move itself."""
    rules, slug = game.rules, game.game_slug
    view_before, view_after = rules.view(before, move.seat), rules.view(after, move.seat)
    added = new_events(view_before.get("events", []), view_after.get("events", []))
    # Others' draws this move revealed were captioned at their own steps; what happens to
    # everyone (a round begins, the game ends) follows the mover's own sentence.
    own = [event for event in added if event.get("seat") == move.seat]
    general = [event for event in added if event.get("seat") is None]
    lines = [presenters.describe(slug, event, names, view_after) for event in own]
    if not lines:
        lines = [presenters.describe_move(slug, move.action, move.seat, names, view_before)]
    return " ".join(lines + [presenters.describe(slug, event, names, view_after) for event in general])


def new_events(before: list[dict], after: list[dict]) -> list[dict]:
    """The events in `after` that `before` does not hold, in order. Counted, not matched
    by position: a game keeps only its latest events, so both lists may be windows."""
    left = Counter(_key(event) for event in before)
    added = []
    for event in after:
        key = _key(event)
        if left[key]:
            left[key] -= 1
        else:
            added.append(event)
    return added


def _key(event: dict) -> str:
    return repr(sorted(event.items())) if isinstance(event, dict) else repr(event)
