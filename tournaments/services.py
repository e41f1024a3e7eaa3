"""Running tournaments: sign-up, start, rounds, results, standings, arena pairing.

The worker calls `tick` (tournaments/tasks.py); each tournament is advanced under its row
lock, so two workers never pair the same round twice. Every game starts through
games.engine.start_game and is read back (status, seat ranks) once it ended.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.models import Game, Seat

from . import pairing
from .models import Entry, Pairing, Round, Tournament

log = logging.getLogger(__name__)
# An arena player counts as present (pairable) this long after their arena page last polled.
ARENA_PRESENCE = timedelta(seconds=30)


class TournamentError(Exception):
    """A refused action, with a message a player understands."""


def sign_up(tournament: Tournament, user) -> Entry:
    if tournament.status == Tournament.Status.SIGNUP or (tournament.is_arena and _arena_open(tournament)):
        entry, _created = Entry.objects.get_or_create(tournament=tournament, user=user,
                                                      defaults={"rating": _ratings(tournament, [user.pk])[user.pk]})
        return entry
    raise TournamentError(_("Sign-up for this tournament is closed."))


def withdraw(tournament: Tournament, user) -> None:
    if tournament.status != Tournament.Status.SIGNUP:
        raise TournamentError(_("The tournament has started: you can no longer withdraw."))
    Entry.objects.filter(tournament=tournament, user=user).delete()


def _arena_open(tournament: Tournament, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return tournament.status == Tournament.Status.RUNNING and bool(tournament.ends_at and now < tournament.ends_at)


def _ratings(tournament: Tournament, user_ids: list[int]) -> dict[int, float]:
    """Each player's displayed rating in the tournament's game (a newcomer's when unrated)."""
    from accounts.models import DEFAULT_MU, DEFAULT_SIGMA, Rating, display_number

    found = dict(Rating.objects.filter(game_slug=tournament.game_slug, user_id__in=user_ids)
                 .values_list("user_id", "ordinal"))
    newcomer = DEFAULT_MU - 3 * DEFAULT_SIGMA
    return {uid: float(display_number(found.get(uid, newcomer))) for uid in user_ids}


# --- The worker's tick ------------------------------------------------------------------

def tick(now: datetime | None = None) -> int:
    """Start the tournaments whose time came and advance the running ones; returns how many
    were looked at."""
    now = now or timezone.now()
    due = Tournament.objects.filter(status=Tournament.Status.SIGNUP, starts_at__lte=now)
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    ids = list(due.values_list("pk", flat=True)) + list(running.values_list("pk", flat=True))
    for pk in ids:
        try:
            advance(pk, now)
        except Exception:  # one broken tournament must not stop the others (nor the tick chain)
            log.exception("tournament %s could not advance", pk)
    return len(ids)


def any_arena_running() -> bool:
    return Tournament.objects.filter(status=Tournament.Status.RUNNING, format=Tournament.Format.ARENA).exists()


def advance(tournament_id: int, now: datetime | None = None) -> None:
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status == Tournament.Status.SIGNUP and tournament.starts_at <= now:
            _start(tournament, now)
        elif tournament.status == Tournament.Status.RUNNING:
            record_results(tournament)
            if tournament.is_arena:
                _advance_arena(tournament, now)
            else:
                _advance_rounds(tournament, now)


def _start(tournament: Tournament, now: datetime) -> None:
    entries = list(tournament.entries.all())
    if len(entries) < tournament.players_per_game:
        tournament.status = Tournament.Status.CANCELLED
        tournament.save(update_fields=["status"])
        log.info("tournament %s cancelled: %d players", tournament.pk, len(entries))
        return
    ratings = _ratings(tournament, [e.user_id for e in entries])
    for entry in entries:
        entry.rating = ratings[entry.user_id]
    Entry.objects.bulk_update(entries, ["rating"])
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    if tournament.is_arena:
        _advance_arena(tournament, now)
    else:
        _start_round(tournament, 1, now)


def total_rounds(tournament: Tournament, players: int) -> int:
    if tournament.format == Tournament.Format.ROUND_ROBIN and tournament.players_per_game == 2:
        return players - 1 if players % 2 == 0 else players
    return tournament.rounds


def _advance_rounds(tournament: Tournament, now: datetime) -> None:
    current = tournament.round_set.filter(number=tournament.current_round).first()
    if current is None or current.pairings.filter(recorded=False).exists():
        return
    current.finished_at = now
    current.save(update_fields=["finished_at"])
    players = tournament.entries.count()
    if tournament.current_round >= total_rounds(tournament, players):
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        return
    _start_round(tournament, tournament.current_round + 1, now)


def _start_round(tournament: Tournament, number: int, now: datetime) -> Round:
    entries = list(tournament.entries.all())
    planned = _plan_round(tournament, entries, number)
    by_user = {e.user_id: e for e in entries}
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=by_user)}
    round_ = Round.objects.create(tournament=tournament, number=number, started_at=now)
    round_.byes.set([by_user[uid] for uid in planned.byes])
    for table in planned.tables:
        game = _start_game(tournament, [users[uid] for uid in table])
        Pairing.objects.create(tournament=tournament, round=round_, game=game, created=now)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    return round_


def _plan_round(tournament: Tournament, entries: list[Entry], number: int) -> pairing.Round:
    ids = [e.user_id for e in entries]
    if tournament.format == Tournament.Format.ROUND_ROBIN and tournament.players_per_game == 2:
        seeded = [e.user_id for e in sorted(entries, key=lambda e: (-e.rating, e.user_id))]
        return pairing.round_robin(seeded)[number - 1]
    rows = {row.id: row for row in standings_rows(tournament, entries)}
    swiss = tournament.format == Tournament.Format.SWISS
    entrants = [pairing.Entrant(id=e.user_id, score=rows[e.user_id].points if swiss else 0.0,
                                rating=e.rating, byes=rows[e.user_id].byes) for e in entries]
    avoid = _met_so_far(tournament) | _blocked_pairs(ids)
    return pairing.pair_round(entrants, tournament.players_per_game, avoid)


def _met_so_far(tournament: Tournament) -> pairing.Met:
    tables = [[s.user_id for s in p.game.seats.all() if s.user_id is not None]
              for p in tournament.pairings.select_related("game").prefetch_related("game__seats")]
    return pairing.met_pairs(tables)


def _blocked_pairs(user_ids: list[int]) -> pairing.Met:
    """Pairs the pairer treats as already met: one blocked the other (social.blocks)."""
    from social.blocks import blocked_pairs

    return blocked_pairs(user_ids)


def _start_game(tournament: Tournament, users: list) -> Game:
    plans = [engine.SeatPlan(user=user) for user in users]
    return engine.start_game(tournament.game_slug, plans, tournament.options, pace=tournament.pace,
                             days_per_move=tournament.days_per_move, clock_minutes=tournament.clock_minutes,
                             clock_increment=tournament.clock_increment, rated=tournament.rated)


# --- Results ----------------------------------------------------------------------------

def record_results(tournament: Tournament) -> int:
    """Points for every table whose game ended since the last tick (ranks by engine's rule)."""
    ended = list(tournament.pairings.filter(recorded=False).exclude(game__status=Game.Status.ACTIVE)
                 .select_related("game").prefetch_related(Prefetch("game__seats", Seat.objects.order_by("index"))))
    entries = {e.user_id: e for e in tournament.entries.all()} if tournament.is_arena else {}
    for table in ended:
        seats = [s for s in table.game.seats.all() if s.user_id is not None]
        finished = table.game.status == Game.Status.FINISHED and all(s.rank for s in seats)
        points = pairing.table_points([s.rank or 0 for s in seats]) if finished else [0.0] * len(seats)
        table.winners = [s.user_id for s in seats if finished and s.rank == 1]
        table.points = {str(s.user_id): p for s, p in zip(seats, points, strict=True)}
        if tournament.is_arena:
            table.points = _arena_scores(tournament, entries, table, seats)
        table.recorded = True
        table.save(update_fields=["points", "winners", "recorded"])
    return len(ended)


def _arena_scores(tournament: Tournament, entries: dict[int, Entry], table: Pairing, seats: list[Seat]) -> dict:
    scored = {}
    for seat in seats:
        entry = entries.get(seat.user_id) if seat.user_id is not None else None
        if entry is None or seat.user_id is None:
            continue
        points, entry.streak = pairing.arena_points(table.points[str(seat.user_id)], len(seats),
                                                    seat.user_id in table.winners, entry.streak)
        entry.arena_points += points
        entry.save(update_fields=["arena_points", "streak"])
        scored[str(seat.user_id)] = points
    return scored


@dataclass
class StandingRow:
    user: object
    row: pairing.Standing


def standings_rows(tournament: Tournament, entries: list[Entry] | None = None) -> list[pairing.Standing]:
    """Swiss and round robin standings, in a constant number of queries."""
    entries = list(tournament.entries.all()) if entries is None else entries
    results = [pairing.TableResult({int(uid): pts for uid, pts in points.items()}, frozenset(winners))
               for points, winners in tournament.pairings.filter(recorded=True).values_list("points", "winners")]
    through = Round.byes.through
    byes = through.objects.filter(round__tournament=tournament).values_list("entry__user_id", flat=True)
    return pairing.standings({e.user_id: e.rating for e in entries}, results, list(byes), tournament.bye_points)


def standings(tournament: Tournament) -> list[StandingRow]:
    entries = list(tournament.entries.select_related("user"))
    users = {e.user_id: e.user for e in entries}
    return [StandingRow(users[row.id], row) for row in standings_rows(tournament, entries)]


# --- Arena -----------------------------------------------------------------------------

def arena_seen(tournament: Tournament, user, now: datetime | None = None) -> None:
    """The player's arena page polled: they are present and may be paired."""
    Entry.objects.filter(tournament=tournament, user=user).update(last_seen=now or timezone.now())


def _advance_arena(tournament: Tournament, now: datetime) -> None:
    if tournament.ends_at and now >= tournament.ends_at:
        if not tournament.pairings.filter(recorded=False).exists():
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
        return
    pair_arena(tournament, now)


def pair_arena(tournament: Tournament, now: datetime) -> int:
    """Seat every present arena player who is not in a game; returns the tables started."""
    playing = Seat.objects.filter(game__tournament_pairing__tournament=tournament, game__status=Game.Status.ACTIVE)
    busy = set(playing.values_list("user_id", flat=True))
    waiting = [e for e in tournament.entries.filter(last_seen__gte=now - ARENA_PRESENCE) if e.user_id not in busy]
    if len(waiting) < tournament.players_per_game:
        return 0
    entrants = [pairing.Entrant(id=e.user_id, score=e.arena_points, rating=e.rating) for e in waiting]
    avoid = _last_tables(tournament, [e.user_id for e in waiting]) | _blocked_pairs([e.user_id for e in waiting])
    tables = pairing.arena_tables(entrants, tournament.players_per_game, avoid)
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=[e.user_id for e in waiting])}
    for table in tables:
        game = _start_game(tournament, [users[uid] for uid in table])
        Pairing.objects.create(tournament=tournament, game=game, created=now)
    return len(tables)


def _last_tables(tournament: Tournament, user_ids: list[int]) -> pairing.Met:
    """Who each waiting player just played (not again at once, when avoidable)."""
    last: dict[int, list[int]] = {}
    recent = (tournament.pairings.order_by("-created").prefetch_related("game__seats")[:200])
    for table in recent:
        seated = [s.user_id for s in table.game.seats.all() if s.user_id is not None]
        for uid in seated:
            if uid in user_ids and uid not in last:
                last[uid] = seated
    return pairing.met_pairs(last.values())


def arena_leaderboard(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.select_related("user").order_by("-arena_points", "-rating", "user__username"))
