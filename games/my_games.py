"""A player's "my games" box (the lobby's first card, /me/games/'s refresh): drawn once per
change of what it shows, then kept (issue 21: pages that do not grow with the data).

Drawing it loads every game in play with its seats and players and writes a line per game;
for a correspondence regular with forty games that was a third of the lobby's cost, paid on
every visit and every live refresh although the box changes only when one of those games or
tables does. The box is kept under a stamp of everything it shows — the player's games in
play (how many, the last change of any: a move, a clock, a bot standing in all save the
game), the open tables they sit at (how many seats, the newest), the reader's language and
time zone — read in two small aggregate queries whatever the number of games.
"""
from __future__ import annotations

from django.core.cache import cache
from django.db.models import Count, Max
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils import timezone
from django.utils.translation import get_language

from lobby.models import Table, TableSeat

from .models import Game

KEPT_SECONDS = 600   # a bound on anything the stamp does not see (a player renamed)
KEPT_FORMAT = 1      # raise it when the box's markup or what it shows changes


def _my_active_games(user) -> list[Game]:
    """The user's games in progress, without their state (lists read `waiting_for`)."""
    return list(Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE).defer("state")
                .prefetch_related("seats__user").distinct())


def _waits_for(game: Game, user) -> bool:
    seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    return seat is not None and not seat.played_by_bot and seat.index in (game.waiting_for or [])


def my_games_context(user) -> dict:
    """"My games": where you must act (by time left), where others must, your open tables."""
    if not user.is_authenticated:
        return {}
    active = _my_active_games(user)
    to_act = [g for g in active if _waits_for(g, user)]
    tables = (Table.objects.filter(status=Table.Status.OPEN, seats__user=user)
              .prefetch_related("seats__user").distinct())
    return {
        "to_act": sorted(to_act, key=lambda g: (g.turn_deadline is None, g.turn_deadline or g.created)),
        "waiting": sorted((g for g in active if g not in to_act), key=lambda g: g.updated, reverse=True),
        "my_tables": list(tables),
    }


def my_games_stamp(user) -> str:
    games = (Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE)
             .aggregate(count=Count("id", distinct=True), last=Max("updated")))
    my_tables = Table.objects.filter(status=Table.Status.OPEN, seats__user=user).values("pk")
    seats = TableSeat.objects.filter(table__in=my_tables).aggregate(count=Count("id"), last=Max("id"))
    last = games["last"].timestamp() if games["last"] else 0
    return f"{games['count']}:{last}:{seats['count']}:{seats['last']}"


def my_games_html(user) -> str:
    """games/_my_games.html for `user`, from the cache while its stamp holds."""
    key = (f"my-games:{KEPT_FORMAT}:{user.pk}:{get_language()}:{timezone.get_current_timezone_name()}:"
           f"{my_games_stamp(user)}")
    html = cache.get(key)
    if html is None:
        html = render_to_string("games/_my_games.html", my_games_context(user))
        cache.set(key, html, KEPT_SECONDS)
    return mark_safe(html)  # our own template's output, escaped as it was drawn
