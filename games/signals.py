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
