"""What the games app tells other apps, instead of calling them (pretix's base/signals.py).

Receivers are connected in each app's `AppConfig.ready()`.
"""
from __future__ import annotations

from django.dispatch import Signal

# Sent by games.finishing inside the transaction that stores a game's result, once per game,
# for every ending (Game.ending says which: played out, resigned, timed out, aborted...).
# Keyword arguments: `game` (seats and users loaded, ranks stored). A receiver that rated the
# game returns True: the engine then marks the game rated (Game.rated), in the same
# transaction, so a rolled-back result leaves no rating behind.
game_finished = Signal()

# Sent by games.publisher, inside the change's transaction, for each seat whose clock
# (re)started, after its deadline task was enqueued. Keyword arguments: `game`, `seat`, `now`,
# `mail` (False when only the deadline moved, e.g. a vacation: no new "your turn" mail).
# games.tasks schedules the turn and reminder mails as its receiver (GamesConfig.ready), so
# the publisher never imports the mail side.
seat_clock_started = Signal()
