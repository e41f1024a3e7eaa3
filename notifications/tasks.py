"""The worker's side (django-tasks; `manage.py db_worker` runs them): pushes and the
inbox kinds' mails are sent here only, never inside a request; the inbox is pruned daily.

Every task re-reads what it needs and decides then (the player may have moved, opened the
game, changed their settings or removed their device since it was queued).
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks import task

from config.i18n import in_users_language
from games.models import Game

from . import push, turns
from .kinds import PUSH
from .models import Notification, PendingTurn, PushSubscription, wants

PRUNE_EVERY = timedelta(days=1)


def _user(user_id: int):
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()


@task()
def push_turns(user_id: int) -> str:
    """One push for every game that became the user's turn in the batch window and that
    still waits for them, leaving out the games they have open."""
    rows = turns.take_batch(user_id)
    user = _user(user_id)
    if user is None or not wants(user, "turn", PUSH):
        return "opted out"
    games = [row.game for row in rows if turns.still_yours(row) and not turns.game_is_open(row.game_id, row.seat)]
    if not games:
        return "nothing to push"
    with in_users_language(user):  # the player's language, whoever moved
        payload = turns.turn_payload(games)
    sent = push.send_to_user(user_id, payload)
    return f"pushed {len(games)} game(s) to {sent} device(s)"


@task()
def push_reminder(game_id: int, seat_index: int, deadline: str) -> str:
    """80 % of a correspondence move's time is used (settings.REMINDER_FRACTION)."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).prefetch_related("seats__user").first()
    if game is None:
        return "not waiting"
    seat = next((s for s in game.seats.all() if s.index == seat_index), None)
    if seat is None or seat.user is None or seat.played_by_bot or seat_index not in (game.waiting_for or []):
        return "not waiting"
    if seat.deadline is None or seat.deadline.isoformat() != deadline:
        return "moved on"
    if not wants(seat.user, "reminder", PUSH):
        return "opted out"
    if turns.game_is_open(game_id, seat_index):
        return "game open"
    left = round(100 * (1 - settings.REMINDER_FRACTION))
    with in_users_language(seat.user):  # the player's language and clock
        payload = {"title": _("Reminder: %(percent)s %% of your time left") % {"percent": left},
                   "body": _("%(game)s waits for your move.") % {"game": game},
                   "url": game.get_absolute_url(), "tag": f"game-{game.pk}"}
    return f"pushed to {push.send_to_user(seat.user.id, payload)} device(s)"


@task()
def push_notification(user_id: int, kind: str, text: str, url: str, game_id: int | None) -> str:
    """An inbox event (rematch, game over, seat, invitation) on the push channel."""
    user = _user(user_id)
    if user is None or not wants(user, kind, PUSH):
        return "opted out"
    if game_id and _has_game_open(user_id, game_id):
        return "game open"
    with in_users_language(user):  # the player's language (the text itself is the inbox line's)
        payload = {"title": settings.SITE_NAME, "body": text, "url": url, "tag": f"{kind}-{game_id or url}"}
    return f"pushed to {push.send_to_user(user_id, payload)} device(s)"


@task()
def mail_notification(user_id: int, kind: str, text: str, url: str, game_id: int | None, attempt: int = 0) -> str:
    """An inbox event (rematch, game over, seat, invitation) on the mail channel
    (notifications.mail); a server that defers is tried again later, as the turn mails are."""
    from games.tasks import _mail_or_retry

    from . import mail

    return _mail_or_retry(mail_notification, attempt, mail.notification_mail, user_id, kind, text, url, game_id)


def _has_game_open(user_id: int, game_id: int) -> bool:
    seats = Game.objects.filter(pk=game_id, seats__user_id=user_id).values_list("seats__index", flat=True)
    return any(turns.game_is_open(game_id, seat) for seat in seats)


def prune_before(now: datetime) -> datetime:
    return now - timedelta(days=settings.NOTIFICATIONS_KEEP_DAYS)


@task()
def prune_notifications() -> int:
    """Inbox lines older than NOTIFICATIONS_KEEP_DAYS go; the next run is a day later."""
    deleted, _rows = Notification.objects.filter(created__lt=prune_before(timezone.now())).delete()
    prune_notifications.using(run_after=timezone.now() + PRUNE_EVERY).enqueue()
    return deleted


PERIODIC_TASKS = [prune_notifications]


def became_yours(game: Game, seat_indexes: set[int]) -> None:
    """Note games that became a player's turn (turns.py says how they are batched). Called in
    the engine's transaction (a game_post_save receiver in signals.py)."""
    players = [(s.user_id, s) for s in game.seats.all()
               if s.index in seat_indexes and s.user_id and not s.played_by_bot]
    if not players:
        return
    with_devices = set(PushSubscription.objects.filter(user_id__in={uid for uid, _ in players})
                       .values_list("user_id", flat=True))
    now = timezone.now()
    for user_id, seat in ((uid, s) for uid, s in players if uid in with_devices):
        try:
            with transaction.atomic():
                first = not PendingTurn.objects.filter(user_id=user_id).exists()
                PendingTurn.objects.create(user_id=user_id, game=game, seat=seat.index, created=now)
        except IntegrityError:  # already noted (the same game twice within the batch)
            continue
        if first:
            push_turns.using(run_after=now + timedelta(seconds=settings.PUSH_BATCH_SECONDS)).enqueue(user_id)
        if seat.running_since is not None and seat.time_left:
            reminder_at = seat.running_since + seat.time_left * settings.REMINDER_FRACTION
            push_reminder.using(run_after=reminder_at).enqueue(game.pk, seat.index, seat.deadline.isoformat())
