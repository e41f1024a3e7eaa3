"""The engine's public names: the only way the rest of the site changes a game.

`start_game`, `submit`, `undo`, `resign`, `abort`, `abort_game`, `expire`, `take_back`,
`play_bots`, `accept_rematch`, `decline_rematch`, `expire_rematch` and `vacation_changed`
each run one change in one transaction (lock the game row, check, apply, let bots answer,
keep the clocks, store the result) and publish it: deadlines scheduled in the transaction,
every listened page redrawn after the commit. Errors are `Rejected` with an HTTP status and
a message a player understands; nothing is written when a change is rejected.

The work is split as lila splits its round module (docs/architecture.md):
- games.core: primitives (lock, record a move, bots, clocks, save, replay);
- games.finishing: every ending and its account (Finisher);
- games.moves: start, submit, undo, take back, vacations (MovePlayer);
- games.rematch: rematch offers (Rematcher);
- games.publisher: runs each of those in its transaction and sends what changed.
Those return an Outcome and never send anything; only the publisher does.
"""
from __future__ import annotations

from .core import (
    REPLAY_CHECKPOINT, STALE_MESSAGE, Outcome, Rejected, SeatPlan, replay_state, replay_states,
)
from .finishing import can_abort, ending_sentences, final_ranks
from .moves import LATE_MESSAGE
from .publisher import (
    abort, abort_game, accept_rematch, decline_rematch, expire, play_bots, resign, start_game, submit,
    take_back, undo, vacation_changed,
)
from .publisher import expire_rematch_offer as expire_rematch
from .rematch import rematch_offer

__all__ = [
    "LATE_MESSAGE", "REPLAY_CHECKPOINT", "STALE_MESSAGE", "Outcome", "Rejected", "SeatPlan", "abort", "abort_game",
    "accept_rematch", "can_abort", "decline_rematch", "ending_sentences", "expire", "expire_rematch",
    "final_ranks", "play_bots", "rematch_offer", "replay_state", "replay_states", "resign", "start_game",
    "submit", "take_back", "undo", "vacation_changed",
]
