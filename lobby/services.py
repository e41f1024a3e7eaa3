"""Table changes, each in one transaction with the table row locked, then a lobby push."""
from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from accounts.models import displayed_rating
from games import engine, notify
from games.engine import Rejected, SeatPlan
from games.rules import levels
from social import blocks

from .models import Table, TableSeat


@contextmanager
def _changing(table_id: int):
    """One table change: a transaction with the table row locked, then a lobby push."""
    with transaction.atomic():
        table = _locked(table_id)
        yield table
        if table.is_open:
            Table.objects.filter(pk=table.pk).update(last_activity=timezone.now())
        transaction.on_commit(lambda: lobby_changed(table_id))


def _locked(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise Rejected(_("There is no such table."), 404) from None


def _require_open(table: Table) -> None:
    if not table.is_open:
        raise Rejected(_("This table is no longer open."), 409)


def _next_position(table: Table) -> int:
    taken = {s.position for s in table.seats.all()}
    return next(i for i in range(table.seats_count + 1) if i not in taken)


def create_table(host, *, game_slug: str, seats_count: int, options: dict, is_private: bool,
                 pace: str, days_per_move: int | None, is_rated: bool = True,
                 chat_public: bool = False, clock_minutes: int | None = None, clock_increment: int = 0,
                 min_rating: int | None = None, max_rating: int | None = None) -> Table:
    with transaction.atomic():
        table = Table.objects.create(game_slug=game_slug, host=host, seats_count=seats_count, options=options,
                                     is_private=is_private, pace=pace, days_per_move=days_per_move,
                                     is_rated=is_rated, chat_public=chat_public, clock_minutes=clock_minutes,
                                     clock_increment=clock_increment, min_rating=min_rating, max_rating=max_rating)
        TableSeat.objects.create(table=table, user=host, position=0)
        table = _start_if_full(table)
        transaction.on_commit(lobby_changed)
    return table


def join(table_id: int, user, token: str | None = None) -> Table:
    """Take a free seat; a private table needs its invite token."""
    with _changing(table_id) as table:
        _require_open(table)
        if table.has_user(user):
            return table
        if table.is_private and token != table.invite_token:
            raise Rejected(_("This table is private: join it through its invite link."), 403)
        if table.free <= 0:
            raise Rejected(_("This table is full."), 409)
        if blocks.blocked_among(user, [seat.user_id for seat in table.seats.all() if seat.user_id]):
            raise Rejected(_("You cannot join this table: a player there blocked you, or you them."), 403)
        _require_rating_in_range(table, user)
        try:
            with transaction.atomic():
                TableSeat.objects.create(table=table, user=user, position=_next_position(table))
        except IntegrityError:
            raise Rejected(_("You are already at this table."), 409) from None
        table = _start_if_full(table)
    return table


def _require_rating_in_range(table: Table, user) -> None:
    """The host's rating range (an invite link passes it: the host chose whom to invite)."""
    if not table.has_rating_range:
        return
    rating = displayed_rating(user, table.game_slug)
    if not table.admits_rating(rating):
        raise Rejected(_("This table is for %(range)s; your rating in this game is %(rating)s.")
                       % {"range": table.rating_range_label(), "rating": rating}, 403)


def leave(table_id: int, user) -> Table:
    """A guest leaves; the host leaving cancels the table."""
    with _changing(table_id) as table:
        _require_open(table)
        if table.host_id == user.pk:
            _close(table, Table.Status.CANCELLED)
        else:
            deleted, _kinds = table.seats.filter(user=user).delete()
            if not deleted:
                raise Rejected(_("You are not at this table."), 409)
    return table


def add_bot(table_id: int, user, level: int = levels.GREEDY) -> Table:
    """The host seats a bot of `level` (1-5: games.rules.levels; 4-5 think in the worker)."""
    if level not in levels.LEVELS:
        raise Rejected(_("Choose a bot level from 1 to 5."), 400)
    with _changing(table_id) as table:
        _require_host(table, user)
        _require_open(table)
        if table.free <= 0:
            raise Rejected(_("There is no empty seat for a bot."), 409)
        TableSeat.objects.create(table=table, is_bot=True, bot_level=level, position=_next_position(table))
        table = _start_if_full(table)
    return table


def remove_bot(table_id: int, user) -> Table:
    with _changing(table_id) as table:
        _require_host(table, user)
        _require_open(table)
        bot = table.seats.filter(is_bot=True).order_by("-position").first()
        if bot is None:
            raise Rejected(_("There is no bot at this table."), 409)
        bot.delete()
    return table


def start(table_id: int, user) -> Table:
    with _changing(table_id) as table:
        _require_host(table, user)
        _require_open(table)
        if table.taken < table.rules.min_players:
            low = table.rules.min_players
            raise Rejected(ngettext("%(game)s needs at least %(count)s player.",
                                    "%(game)s needs at least %(count)s players.", low)
                           % {"game": table.title, "count": low}, 409)
        table = _start(table)
    return table


def _require_host(table: Table, user) -> None:
    if table.host_id != user.pk:
        raise Rejected(_("Only the host can do that."), 403)


def _start_if_full(table: Table) -> Table:
    return _start(table) if table.free <= 0 else table


def _start(table: Table) -> Table:
    """Seats go in a random order; bots fill the seats the host gave them."""
    plans = [SeatPlan(user=s.user, is_bot=s.is_bot, bot_level=s.bot_level) for s in table.ordered_seats()]
    game = engine.start_game(table.game_slug, plans, table.options, pace=table.pace,
                             days_per_move=table.days_per_move, rated=table.is_rated,
                             clock_minutes=table.clock_minutes, clock_increment=table.clock_increment)
    table.game = game
    table.status = Table.Status.STARTED
    table.save(update_fields=["game", "status"])
    return table


def lobby_changed(table_id: int | None = None) -> None:
    """The lobby list always; the table's own page when one table changed."""
    messages = [(notify.LOBBY_GROUP, {"type": "lobby.update"})]
    if table_id is not None:
        messages.append((notify.table_group(table_id), {"type": "table.update"}))
    notify.send_many(messages)


def _close(table: Table, status: str) -> None:
    """A closed table lists nobody as seated any more."""
    table.status = status
    table.save(update_fields=["status"])
    table.seats.all().delete()


def expire_idle_tables(now=None) -> int:
    """Close open tables with no activity for OPEN_TABLE_IDLE_HOURS (a periodic task)."""
    cutoff = (now or timezone.now()) - timedelta(hours=settings.OPEN_TABLE_IDLE_HOURS)
    closed: list[int] = []
    idle = Table.objects.filter(status=Table.Status.OPEN, last_activity__lt=cutoff)
    for table_id in idle.values_list("pk", flat=True):
        with transaction.atomic():
            table = _locked(table_id)
            if table.is_open and table.last_activity < cutoff:
                _close(table, Table.Status.EXPIRED)
                closed.append(table_id)
    if closed:   # the lobby list, and each closed table's own page (its card says so)
        transaction.on_commit(lambda: notify.send_many(
            [(notify.LOBBY_GROUP, {"type": "lobby.update"})]
            + [(notify.table_group(pk), {"type": "table.update"}) for pk in closed]))
    return len(closed)
