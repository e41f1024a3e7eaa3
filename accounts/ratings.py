"""Rating updates with openskill (Plackett-Luce): one call per finished game."""
from __future__ import annotations

from openskill.models import PlackettLuce

from .models import Rating, User

MODEL = PlackettLuce()


def update_ratings(game_slug: str, users: list[User], ranks: list[int]) -> list[Rating]:
    """Rate a finished game between `users` (one per seat, humans only) with their ranks.

    Ties (equal ranks) are handled by openskill. The caller guarantees this runs once per
    game (games.engine sets Game.rated inside the same locked transaction).
    """
    ratings = []
    for user in users:
        rating, _ = Rating.objects.select_for_update().get_or_create(user=user, game_slug=game_slug)
        ratings.append(rating)
    teams = [[MODEL.create_rating([r.mu, r.sigma], name=str(r.user_id))] for r in ratings]
    new_teams = MODEL.rate(teams, ranks=ranks)
    for rating, [new] in zip(ratings, new_teams):
        rating.mu, rating.sigma = new.mu, new.sigma
        rating.ordinal = new.ordinal()
        rating.games_played += 1
        rating.save()
    return ratings
