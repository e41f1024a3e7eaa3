"""Finished games made quickly (no playing): a Game row with ranked seats, rated like the engine does."""
from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from accounts.ratings import update_ratings
from games.models import Game, Seat

SLUG = "roll-to-the-top"


def finished_game(users, ranks, *, slug: str = SLUG, finished_at: datetime | None = None,
                  rated: bool = True) -> Game:
    """A finished game between `users` (seat order) with `ranks`; rated games update ratings."""
    finished_at = finished_at or timezone.now()
    game = Game.objects.create(
        game_slug=slug, rules_version="1", options={}, seed=1, players=len(users), state={},
        status=Game.Status.FINISHED, is_rated=rated, created=finished_at - timedelta(minutes=30),
        finished_at=finished_at,
    )
    Seat.objects.bulk_create(Seat(game=game, index=i, user=u, is_bot=u is None, rank=r, score=10 * (5 - r))
                             for i, (u, r) in enumerate(zip(users, ranks, strict=True)))
    if rated:
        update_ratings(slug, list(users), list(ranks), game=game)
        Game.objects.filter(pk=game.pk).update(rated=True)
    return game
