"""The channel-layer group names: who listens where. Below both the notifier, which sends
to them, and games.audiences, which counts their listeners."""
from __future__ import annotations


def seat_group(game_id: int, seat: int) -> str:
    return f"game-{game_id}-seat-{seat}"


def spectator_group(game_id: int) -> str:
    return f"game-{game_id}-spectators"


def audience_group(game_id: int, seat: int | None) -> str:
    """The group a page of `game_id` listens to: its seat's, or the spectators'."""
    return spectator_group(game_id) if seat is None else seat_group(game_id, seat)


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"
