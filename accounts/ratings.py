"""Ratings with openskill (Plackett-Luce, pinned 6.2.0): one call per finished rated game.

Every update stores one RatingEvent per seat (the ratings before and after, the rank, the
model and its parameters), so `manage.py rerate` can rebuild every rating from those events
and show that the stored values are exactly what the model gives.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Iterable

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from openskill.models import PlackettLuce

from .models import (
    DEFAULT_MU, DEFAULT_SIGMA, INACTIVITY_SIGMA_PER_DAY, Rating, RatingEvent, User, display_number,
    sigma_after_absence, steady_until,
)

MODEL_NAME = "PlackettLuce"
# Everything that decides a rating change; stored with each event so a rebuild uses the same.
PARAMETERS: dict = {
    "mu": DEFAULT_MU, "sigma": DEFAULT_SIGMA, "beta": DEFAULT_SIGMA / 2, "kappa": 0.0001,
    "tau": DEFAULT_MU / 300, "limit_sigma": False, "balance": False,
    "inactivity_sigma_per_day": INACTIVITY_SIGMA_PER_DAY,
}
OPENSKILL_KEYS = ("mu", "sigma", "beta", "kappa", "tau", "limit_sigma", "balance")


def build_model(parameters: dict) -> PlackettLuce:
    return PlackettLuce(**{key: parameters[key] for key in OPENSKILL_KEYS})


MODEL = build_model(PARAMETERS)


@dataclass
class Standing:
    """A player's rating going into a game."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    last_played: datetime | None = None
    games_played: int = 0


@dataclass
class Change:
    sigma_rated: float
    mu_after: float
    sigma_after: float
    expected_rank: int


def rate_table(standings: list[Standing], ranks: list[int], played_at: datetime,
               parameters: dict = PARAMETERS) -> tuple[list[Change], int]:
    """The pure calculation: each seat's change, and the table's average displayed rating.

    Inactivity first widens each sigma (days since that player's last rated game of this
    game); the expected ranks are openskill's prediction from those widened ratings.
    """
    model = MODEL if parameters == PARAMETERS else build_model(parameters)
    sigmas = [_widened(s, played_at, parameters) for s in standings]
    teams = [[model.rating(mu=s.mu, sigma=sigma)] for s, sigma in zip(standings, sigmas, strict=True)]
    expected = [rank for rank, _ in model.predict_rank(teams)]
    rated = model.rate(teams, ranks=list(ranks))
    changes = [Change(sigma, new.mu, new.sigma, int(exp))
               for sigma, [new], exp in zip(sigmas, rated, expected, strict=True)]
    average = round(sum(display_number(s.mu - 3 * s.sigma) for s in standings) / len(standings))
    return changes, average


def _widened(standing: Standing, played_at: datetime, parameters: dict) -> float:
    if standing.last_played is None:
        return standing.sigma
    days = (played_at - standing.last_played).total_seconds() / 86400
    return sigma_after_absence(standing.sigma, days, parameters["inactivity_sigma_per_day"], parameters["sigma"])


def update_ratings(game_slug: str, users: list[User], ranks: list[int], *, game=None,
                   played_at: datetime | None = None) -> list[Rating]:
    """Rate a finished game between `users` (one per seat) with their ranks (1 = first).

    The caller guarantees this runs once per game (games.finishing sets Game.rated inside the
    same locked transaction; RatingEvent's unique (game, user) is the database's guarantee).
    With `game`, one RatingEvent per seat is stored for the audit trail and `rerate`.
    """
    played_at = played_at or (game.finished_at if game is not None and game.finished_at else timezone.now())
    with transaction.atomic():
        # Lock in user order so two games sharing players never deadlock.
        locked = {r.user_id: r for r in _locked_ratings(game_slug, sorted({u.pk for u in users}))}
        ratings = [locked[u.pk] for u in users]
        standings = [Standing(r.mu, r.sigma, r.last_played, r.games_played) for r in ratings]
        changes, average = rate_table(standings, ranks, played_at)
        if game is not None:
            RatingEvent.objects.bulk_create(
                _event(game.pk, game_slug, r, s, c, rank, len(users), average, played_at)
                for r, s, c, rank in zip(ratings, standings, changes, ranks, strict=True))
        for rating, change in zip(ratings, changes, strict=True):
            _apply(rating, change.mu_after, change.sigma_after, played_at, rating.games_played + 1)
            rating.save()
    return ratings


def _locked_ratings(game_slug: str, user_ids: list[int]) -> list[Rating]:
    existing = {r.user_id for r in Rating.objects.filter(game_slug=game_slug, user_id__in=user_ids)}
    for user_id in user_ids:
        if user_id not in existing:
            Rating.objects.get_or_create(user_id=user_id, game_slug=game_slug)
    return list(Rating.objects.select_for_update().filter(game_slug=game_slug, user_id__in=user_ids)
                .order_by("user_id"))


def _event(game_id: int, game_slug: str, rating: Rating, before: Standing, change: Change, rank: int,
           players: int, average: int, played_at: datetime) -> RatingEvent:
    return RatingEvent(
        game_id=game_id, user_id=rating.user_id, game_slug=game_slug, played_at=played_at, rank=rank,
        players=players, mu_before=before.mu, sigma_before=before.sigma, sigma_rated=change.sigma_rated,
        mu_after=change.mu_after, sigma_after=change.sigma_after, model=MODEL_NAME, parameters=PARAMETERS,
        expected_rank=change.expected_rank, table_average=average,
    )


def _apply(rating: Rating, mu: float, sigma: float, played_at: datetime | None, games_played: int) -> None:
    rating.mu, rating.sigma = mu, sigma
    rating.ordinal = mu - 3 * sigma
    rating.games_played = games_played
    rating.last_played = played_at
    rating.steady_until = steady_until(sigma, played_at) if played_at else None


def current_sigma(rating: Rating, now: datetime | None = None) -> float:
    """Sigma as inactivity has grown it by now (what the next game will be rated with)."""
    if rating.last_played is None:
        return rating.sigma
    days = ((now or timezone.now()) - rating.last_played).total_seconds() / 86400
    return sigma_after_absence(rating.sigma, days)


@dataclass
class RerateReport:
    events: int = 0
    changed_events: int = 0
    ratings: int = 0
    changed_ratings: int = 0


def rerate(game_slug: str | None = None, *, write: bool = True) -> RerateReport:
    """Rebuild every rating (of one game, or all) from the stored rating events.

    Events are replayed in the order they were applied, each game with the model
    parameters stored on its events. Differences are counted and, with `write`, fixed.
    """
    events = RatingEvent.objects.order_by("id")
    if game_slug:
        events = events.filter(game_slug=game_slug)
    report = RerateReport()
    standings: dict[tuple[int, str], Standing] = {}
    with transaction.atomic():
        for group in _by_game(events):
            report.events += len(group)
            report.changed_events += _replay_game(group, standings, write)
        for (user_id, slug), standing in standings.items():
            report.ratings += 1
            report.changed_ratings += _store_rating(user_id, slug, standing, write)
    return report


def _by_game(events: QuerySet[RatingEvent]) -> Iterable[list[RatingEvent]]:
    groups: dict[int, list[RatingEvent]] = {}
    for event in events.iterator():
        groups.setdefault(event.game_id, []).append(event)
    return groups.values()  # dicts keep insertion order: the order of each game's first event


def _replay_game(group: list[RatingEvent], standings: dict, write: bool) -> int:
    keys = [(e.user_id, e.game_slug) for e in group]
    befores = [standings.get(key, Standing()) for key in keys]
    played_at = group[0].played_at
    changes, average = rate_table(befores, [e.rank for e in group], played_at, group[0].parameters)
    changed = 0
    for key, event, before, change in zip(keys, group, befores, changes, strict=True):
        fresh = _event(event.game_id, event.game_slug, Rating(user_id=event.user_id), before, change, event.rank,
                       len(group), average, played_at)
        fields = ["mu_before", "sigma_before", "sigma_rated", "mu_after", "sigma_after", "expected_rank",
                  "table_average"]
        if any(getattr(fresh, f) != getattr(event, f) for f in fields):
            changed += 1
            if write:
                for f in fields:
                    setattr(event, f, getattr(fresh, f))
                event.save(update_fields=fields)
        standings[key] = Standing(change.mu_after, change.sigma_after, played_at, before.games_played + 1)
    return changed


def _store_rating(user_id: int, slug: str, standing: Standing, write: bool) -> int:
    rating, _ = Rating.objects.get_or_create(user_id=user_id, game_slug=slug)
    old = (rating.mu, rating.sigma, rating.games_played, rating.last_played)
    _apply(rating, standing.mu, standing.sigma, standing.last_played, standing.games_played)
    if old == (rating.mu, rating.sigma, rating.games_played, rating.last_played):
        return 0
    if write:
        rating.save()
    return 1


def rate_finished_game(sender, game, **kwargs) -> bool:
    """games.signals.game_finished's receiver (connected in AccountsConfig.ready): rate a
    rated game that ended with a result. The ending decides: an aborted game (by a player,
    the staff, or a no-show) has no ranks and is never rated; a resigned or timed-out
    player's seat carries the last rank games.finishing gave it. Seats whose account was
    deleted are left out. Returns True when the game was rated (the engine records it)."""
    if game.status != game.Status.FINISHED or not game.is_rated or game.rated:
        return False
    people = [(s.user, s.rank) for s in game.ordered_seats() if s.user is not None and s.rank is not None]
    if len(people) < 2:
        return False
    update_ratings(game.game_slug, [user for user, _ in people], [rank for _, rank in people], game=game)
    return True
