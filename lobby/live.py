"""Pages that poll for what their socket cannot bring (issue 17, build 4).

Without REDIS_URL the channel layer is in memory, one per process, and `make run` runs
two: the web server and the worker. What the worker changes (a clock runs out and a bot
takes the seat, a rematch offer expires, idle tables close) is pushed into the worker's
own memory and never reaches a page. We chose cheap polling over a second, database-backed
channel layer: a shared layer would also need the worker's notifier to know who listens
(games.notify counts listeners in the default cache, in memory per process too), while a
page can ask about the one thing it shows. So with the in-memory layer only, each live page
asks every LIVE_POLL_SECONDS for a fingerprint of what it shows (a few small queries, no
rendering); when the fingerprint changes, it fetches its fragment once, through the same
URL a click would. With Redis, pushes cross processes and pages never poll.
"""
from __future__ import annotations

import hashlib

from django.conf import settings

LIVE_POLL_SECONDS = 4


def polling_interval_ms() -> int:
    """How often pages poll, in ms: 0 (never) unless the channel layer is in memory."""
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    return LIVE_POLL_SECONDS * 1000 if backend.endswith("InMemoryChannelLayer") else 0


def _digest(*parts) -> str:
    return hashlib.blake2s(repr(parts).encode(), digest_size=12).hexdigest()


def game_fingerprint(game_id: int) -> str | None:
    """Changes with every save of the game (moves, endings), of its seats (clocks, a bot
    taking over or handing back a seat) and of its rematch offer. None: no such game."""
    from games.models import Game, RematchOffer, Seat

    game = list(Game.objects.filter(pk=game_id).values_list("updated", "status", "version"))
    if not game:
        return None
    seats = list(Seat.objects.filter(game_id=game_id).order_by("index").values())
    rematch = list(RematchOffer.objects.filter(game_id=game_id).values())
    return _digest(game, seats, rematch)


def table_fingerprint(table_id: int) -> str | None:
    """Changes when the table's status, options or seats change. None: no such table."""
    from .models import Table, TableSeat

    table = list(Table.objects.filter(pk=table_id).values())
    if not table:
        return None
    seats = list(TableSeat.objects.filter(table_id=table_id).order_by("position").values())
    return _digest(table, seats)


def lobby_fingerprint() -> str:
    """Changes when an open table appears, fills, empties or closes."""
    from .models import Table, TableSeat

    open_tables = Table.objects.filter(status=Table.Status.OPEN)
    tables = list(open_tables.order_by("pk").values_list("pk", "seats_count", "is_private"))
    seats = list(TableSeat.objects.filter(table__in=open_tables).order_by("pk").values_list("table_id", "user_id",
                                                                                            "is_bot"))
    return _digest(tables, seats)


def badge_fingerprint(user) -> str:
    """Changes when the games waiting for the user's move change (the "your turn" badge):
    e.g. a bot the worker put in an opponent's timed-out seat moved, and it is your turn."""
    from games.notify import games_waiting_for_users

    waiting = games_waiting_for_users({user.pk})[user.pk]
    return _digest(sorted(game.pk for game in waiting))
