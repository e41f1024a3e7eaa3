"""Correspondence turns on the push channel: batched, and quiet while the game is open.

When games become a player's turn, each is noted (PendingTurn) and one task is queued to
run PUSH_BATCH_SECONDS later; that task sends ONE push for every game noted meanwhile
that still waits for the player and that the player does not have open. Only players
with a registered device are noted, so a move costs nothing for everyone else.
"""
from __future__ import annotations


from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _, ngettext

from games.audiences import seat_is_watched
from games.models import Game

from .models import PendingTurn


def game_is_open(game_id: int, seat: int) -> bool:
    """A page of this game is open on the seat's socket group (games.audiences keeps the
    registry; while it is unknown, better one push too many than none)."""
    return seat_is_watched(game_id, seat)


def take_batch(user_id: int) -> list[PendingTurn]:
    """Remove and return the user's noted turns (locked, so two workers share none)."""
    with transaction.atomic():
        rows = list(PendingTurn.objects.select_for_update(skip_locked=True).filter(user_id=user_id)
                    .select_related("game"))
        PendingTurn.objects.filter(pk__in=[r.pk for r in rows]).delete()
    return rows


def still_yours(row: PendingTurn) -> bool:
    game = row.game
    return game.status == Game.Status.ACTIVE and row.seat in (game.waiting_for or [])


def turn_payload(games: list[Game]) -> dict:
    if len(games) == 1:
        game = games[0]
        return {"title": _("Your turn"), "body": _("%(game)s waits for your move.") % {"game": game},
                "url": game.get_absolute_url(), "tag": f"game-{game.pk}"}
    titles = ", ".join(str(g) for g in games[:3]) + ("…" if len(games) > 3 else "")
    return {"title": ngettext("Your turn in %(count)s game", "Your turn in %(count)s games", len(games))
            % {"count": len(games)}, "body": titles, "url": reverse("games:mine"),
            "tag": "turns"}
