"""What a player's page shows, each part in a fixed number of queries whatever the history.

Aggregates run in the database (games played / won / average rank, head-to-head); lists are
sliced; the rating history is one query of this player's rating events.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Avg, Count, F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from games import rules as registry
from games.finishing import ending_summary
from games.models import Game, Seat

from .models import Rating, RatingEvent, User, display_number

CHART_WIDTH, CHART_HEIGHT, CHART_POINTS = 320, 90, 200
RECENT_GAMES = 15
HEAD_TO_HEAD = 8


@dataclass
class GameStanding:
    """One game on a player's page: rating, chart, and the counts."""

    slug: str
    title: str
    rating: Rating | None = None
    played: int = 0
    won: int = 0
    average_rank: float | None = None
    history: list[int] = field(default_factory=list)

    @property
    def chart(self) -> dict | None:
        return rating_chart(self.history)


def rating_chart(values: list[int], width: int = CHART_WIDTH, height: int = CHART_HEIGHT) -> dict | None:
    """Polyline coordinates for an SVG line chart of displayed ratings (oldest first)."""
    values = values[-CHART_POINTS:]
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = width / (len(values) - 1)
    pad = 6
    points = " ".join(
        f"{i * step:.1f},{pad + (height - 2 * pad) * (high - v) / span:.1f}" for i, v in enumerate(values)
    )
    return {"points": points, "width": width, "height": height, "low": low, "high": high,
            "last": values[-1], "count": len(values)}


def finished_seats(player: User) -> QuerySet[Seat]:
    return Seat.objects.filter(user=player, game__status=Game.Status.FINISHED)


def standings(player: User) -> list[GameStanding]:
    """Per game the player has played: rating, history and counts (three queries)."""
    by_slug: dict[str, GameStanding] = {}

    def entry(slug: str) -> GameStanding:
        if slug not in by_slug:
            try:
                title = registry.get(slug).title
            except KeyError:
                title = slug
            by_slug[slug] = GameStanding(slug, title)
        return by_slug[slug]

    counts = (finished_seats(player).values("game__game_slug")
              .annotate(played=Count("id"), won=Count("id", filter=Q(rank=1)), average=Avg("rank")))
    for row in counts:
        item = entry(row["game__game_slug"])
        item.played, item.won, item.average_rank = row["played"], row["won"], row["average"]
    for rating in Rating.objects.filter(user=player):
        entry(rating.game_slug).rating = rating
    history = RatingEvent.objects.filter(user=player).order_by("id").values_list(
        "game_slug", "mu_before", "sigma_before", "mu_after", "sigma_after")
    for slug, mu_before, sigma_before, mu, sigma in history:
        item = entry(slug)
        if not item.history:   # the chart starts at the rating before the first rated game
            item.history.append(display_number(mu_before - 3 * sigma_before))
        item.history.append(display_number(mu - 3 * sigma))
    return sorted(by_slug.values(), key=lambda s: (-s.played, s.title))


def current_games(player: User) -> QuerySet[Game]:
    return (Game.objects.filter(seats__user=player, status=Game.Status.ACTIVE).defer("state")
            .prefetch_related("seats__user").order_by("-updated")[:RECENT_GAMES])


@dataclass
class Result:
    """A finished game seen by one player: their seat and their rating change (if rated)."""

    game: Game
    seat: Seat | None
    event: RatingEvent | None
    ending: str = ""  # how it ended, when not simply played out (games.finishing)


def recent_results(player: User) -> list[Result]:
    """Finished games, newest first (three queries plus one for the rating changes)."""
    # Lists never read a game's state (the largest column by far): not loaded (issue 21).
    games = list(Game.objects.filter(seats__user=player, status=Game.Status.FINISHED).defer("state")
                 .prefetch_related("seats__user").order_by("-finished_at", "-pk")[:RECENT_GAMES])
    events = {e.game_id: e for e in RatingEvent.objects.filter(user=player, game__in=[g.pk for g in games])}
    return [Result(game, next((s for s in game.seats.all() if s.user_id == player.pk), None), events.get(game.pk),
                   "" if game.ending == Game.Ending.NORMAL else ending_summary(game))
            for game in games]


def head_to_head(player: User, limit: int = HEAD_TO_HEAD) -> list[dict]:
    """The most frequent opponents with games, wins and losses against each (one query).

    A win is finishing above them, a loss below; equal ranks are draws.
    """
    my_rank = Seat.objects.filter(game=OuterRef("game"), user=player).values("rank")[:1]
    return [dict(row) for row in
        Seat.objects.filter(game__seats__user=player, game__status=Game.Status.FINISHED, user__isnull=False)
        .exclude(user=player)
        .annotate(my_rank=Subquery(my_rank))
        .values("user__username")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(my_rank__lt=F("rank"))),
                  losses=Count("id", filter=Q(my_rank__gt=F("rank"))))
        .order_by("-games", "user__username")[:limit]]


def leaderboard(slug: str) -> QuerySet[Rating]:
    """Steady (non-provisional) ratings of active players, best first."""
    return (Rating.objects.filter(game_slug=slug, user__is_active=True, steady_until__gt=timezone.now())
            .select_related("user").order_by("-ordinal", "user__username"))


def position_of(rating: Rating) -> int | None:
    """1-based place of a steady rating on its game's leaderboard; None while provisional."""
    if rating.provisional:
        return None
    return leaderboard(rating.game_slug).filter(ordinal__gt=rating.ordinal).count() + 1
