"""The lobby's filters (game, pace, player count, rated, and "open seats for me": a free
seat, no block between you and anyone seated, your rating inside the host's range),
remembered per player: the lobby
page saves them when its filter form is submitted, and every later list (the page, the
htmx refresh and the live WebSocket push, which all go through lobby_context) applies them."""
from __future__ import annotations

from games import rules as registry
from games.models import Pace

from . import blocks
from .models import LobbyFilter

RATED = {"rated": True, "casual": False}


def _clean(params) -> dict:
    values: dict = {}
    if params.get("game") in registry.slugs():
        values["game"] = params["game"]
    if params.get("pace") in Pace.values:
        values["pace"] = params["pace"]
    if str(params.get("seats", "")).isdigit() and 1 <= int(params["seats"]) <= 8:
        values["seats"] = int(params["seats"])
    if params.get("rated") in RATED:
        values["rated"] = params["rated"]
    if params.get("for_me") in ("1", "on", True):
        values["for_me"] = True
    return values


def remember(request) -> None:
    """Save the submitted filters (the form sends `filter=1`) for the logged-in player."""
    if not request.user.is_authenticated or "filter" not in request.GET:
        return
    LobbyFilter.objects.update_or_create(user=request.user, defaults={"values": _clean(request.GET)})


def current(user) -> dict:
    if not user.is_authenticated:
        return {}
    stored = LobbyFilter.objects.filter(user=user).values_list("values", flat=True).first()
    return _clean(stored or {})


def apply(user, tables: list) -> list:
    values = current(user)
    if not values:
        return tables
    seats_for_me = _seats_for(user, tables) if values.get("for_me") else None
    return [t for t in tables
            if t.has_user(user) or (_matches(t, values) and (seats_for_me is None or t.pk in seats_for_me))]


def _seats_for(user, tables: list) -> set[int]:
    """The tables with a seat `user` may take: two queries, whatever the number of tables."""
    from accounts.models import displayed_ratings

    seated = {seat.user_id for t in tables for seat in t.seats.all() if seat.user_id}
    blocked = blocks.blocked_among(user, seated)
    ratings = displayed_ratings(user, {t.game_slug for t in tables if t.has_rating_range})
    return {t.pk for t in tables
            if t.free > 0 and not any(seat.user_id in blocked for seat in t.seats.all())
            and (not t.has_rating_range or t.admits_rating(ratings[t.game_slug]))}


def _matches(table, values: dict) -> bool:
    return (values.get("game", table.game_slug) == table.game_slug
            and values.get("pace", table.pace) == table.pace
            and values.get("seats", table.seats_count) == table.seats_count
            and RATED.get(values.get("rated", ""), table.is_rated) == table.is_rated)
