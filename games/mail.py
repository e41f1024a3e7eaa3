"""E-mail, sent by tasks only (games.tasks), rendered from games/templates/emails/.

"Your turn" goes to a correspondence player who is not on the site (no open socket)
once the game has waited a quiet period, at most once per game per day; a reminder when
80% of a move's time is used; an opt-in daily digest, at the player's local morning.
Every mail carries a signed one-click unsubscribe link and the List-Unsubscribe headers.
Every mail is rendered in its recipient's language and time zone (config.i18n), whoever
caused it.

A mail is recorded (MailLog, whose unique key is the once-a-day limit) in the same
transaction that sends it, committed only once the server accepted the mail: a refused or
interrupted send leaves no record, and a concurrent sender of the same mail waits on the
key and then finds it sent. A temporary refusal (4xx, or no server) raises MailDeferred for
the task to try again later; a permanent one (5xx) is logged and given up.
"""
from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable, Collection
from datetime import datetime, timedelta
from email.utils import formataddr, parseaddr

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from config.i18n import in_users_language, zone_named, zone_of

from . import presence
from .finishing import ending_sentences
from .models import Game, MailLog, Pace

log = logging.getLogger(__name__)
UNSUBSCRIBE_SALT = "switchback.unsubscribe"
SMTP_TIMEOUT = 30  # seconds: a silent server must not hold the sending transaction for ever
KINDS = {"turn": "email_turn_notifications", "reminder": "email_reminders", "digest": "email_digest"}


def unsubscribe_token(user, kind: str) -> str:
    return signing.dumps({"u": user.pk, "k": kind}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str, kinds: Collection[str] = KINDS) -> tuple[int, str] | None:
    """(user id, kind) of a signed one-click link, if its kind is one of `kinds` (each
    unsubscribe page takes only the kinds it can turn off)."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("k") not in kinds or not isinstance(data.get("u"), int):
        return None
    return data["u"], data["k"]


def sender() -> str:
    """The site's name as the sender, whatever host the address uses."""
    _, address = parseaddr(settings.DEFAULT_FROM_EMAIL)
    return formataddr((settings.SITE_NAME, address or "noreply@switchback.local"))


class MailDeferred(Exception):
    """The mail server refused for now (4xx) or could not be reached: try again later."""


def send(user, kind: str, template: str, context: dict, unsubscribe_url: str | None = None) -> None:
    """`unsubscribe_url`: the one-click link of a kind another app owns (notifications'
    inbox kinds); by default this module's own (accounts:unsubscribe)."""
    url = unsubscribe_url or settings.SITE_URL + reverse("accounts:unsubscribe", args=[unsubscribe_token(user, kind)])
    context = {**context, "user": user, "site_name": settings.SITE_NAME, "site_url": settings.SITE_URL,
               "unsubscribe_url": url, "settings_url": settings.SITE_URL + reverse("accounts:settings")}
    with in_users_language(user):  # the recipient's language and clock, not the sender's
        subject = " ".join(render_to_string(f"emails/{template}_subject.txt", context).split())
        body = render_to_string(f"emails/{template}.txt", context)
    message = EmailMultiAlternatives(
        subject=subject, body=body, from_email=sender(),
        to=[user.email], connection=get_connection(timeout=SMTP_TIMEOUT),
        headers={"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )
    message.send()


def refusal_code(error: Exception) -> int | None:
    """The SMTP reply code of a refusal (a refused recipient's, for RCPT); None when the
    server was not reached or hung up, which is temporary too."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return max(code for code, _ in error.recipients.values())
    if isinstance(error, smtplib.SMTPResponseException):
        return error.smtp_code
    return None


def deliver(user, game: Game | None, kind: str, template: str, context: dict,
            unsubscribe_url: str | None = None) -> str:
    """Send today's mail of this kind once: "sent", "already mailed today" or "refused".
    "Today" is the recipient's own day (their time zone). Raises MailDeferred on a
    temporary failure (nothing recorded, the caller retries)."""
    today = timezone.now().astimezone(zone_of(user)).date()
    try:
        with transaction.atomic():
            # Waits here while another worker holds the same key (sending the same mail).
            MailLog.objects.create(user=user, game=game, kind=kind, day=today)
            send(user, kind, template, context, unsubscribe_url)
    except IntegrityError:
        return "already mailed today"
    except (smtplib.SMTPException, OSError) as error:
        code = refusal_code(error)
        if code is not None and code >= 500:
            log.error("%s mail to user %s refused for good (%s): not retried", kind, user.pk, error)
            return "refused"
        raise MailDeferred(f"{kind} mail to user {user.pk}: {error}") from error
    return "sent"


def _waiting_seat(game_id: int, seat_index: int):
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).prefetch_related("seats__user").first()
    if game is None or game.pace != Pace.CORRESPONDENCE:
        return None, None
    seat = next((s for s in game.seats.all() if s.index == seat_index), None)
    if seat is None or seat.played_by_bot or seat.user is None or seat_index not in game.to_act():
        return game, None
    return game, seat


def turn_mail(game_id: int, seat_index: int, version: int) -> str:
    game, seat = _waiting_seat(game_id, seat_index)
    if seat is None:
        return "not waiting"
    if game.version != version:
        return "moved on"  # a later change scheduled its own mail
    user = seat.user
    if not user.email or not user.email_turn_notifications:
        return "opted out"
    if presence.is_online(user.pk):
        return "online"
    return deliver(user, game, "turn", "turn", {"game": game, "seat": seat, "deadline": seat.deadline,
                                                "play_url": settings.SITE_URL + game.get_absolute_url()})


def reminder_mail(game_id: int, seat_index: int, deadline: str) -> str:
    game, seat = _waiting_seat(game_id, seat_index)
    if seat is None:
        return "not waiting"
    if seat.deadline is None or seat.deadline.isoformat() != deadline:
        return "moved on"
    user = seat.user
    if not user.email or not user.email_reminders:
        return "opted out"
    return deliver(user, game, "reminder", "reminder", {"game": game, "seat": seat, "deadline": seat.deadline,
                                                        "play_url": settings.SITE_URL + game.get_absolute_url()})


def digest_mail(user_id: int) -> str:
    """One user's daily digest: the games waiting for them, and how the games they sat in
    ended since the day before (the one account of an ending, games.finishing)."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(pk=user_id, email_digest=True, is_active=True).exclude(email="").first()
    if user is None:
        return "opted out"
    games = Game.objects.waiting_for_users({user.pk})[user.pk]
    ended = ended_since(user, timezone.now() - DIGEST_LOOKBACK)
    if not games and not ended:
        return "nothing waiting"
    return deliver(user, None, "digest", "digest",
                   {"games": games, "ended": ended, "my_games_url": settings.SITE_URL + reverse("games:mine")})


DIGEST_LOOKBACK = timedelta(days=1)  # the digest goes out daily: each ending is told once


def ended_since(user, since) -> list[dict]:
    """The user's games that ended (finished or aborted) after `since`, newest first, each
    with its place and the sentences that say how it ended."""
    games = (Game.objects.filter(seats__user=user, finished_at__gt=since,
                                 status__in=[Game.Status.FINISHED, Game.Status.ABORTED])
             .prefetch_related("seats__user").order_by("-finished_at").distinct()[:20])
    return [{"game": game, "rank": next((s.rank for s in game.ordered_seats() if s.user_id == user.pk), None),
             "players": game.players, "sentences": ending_sentences(game)} for game in games]


def zones_at_hour(zones: list[str], at: datetime, hour: int) -> list[str]:
    """The zones among `zones` whose local time at `at` is `hour` o'clock."""
    return [zone for zone in zones if at.astimezone(zone_named(zone)).hour == hour]


def daily_digests(on_deferred: Callable[[int], object] | None = None, *, at: datetime | None = None) -> int:
    """The opted-in users' digests; returns how many went out. With `at` (the hourly run),
    only those whose local time at `at` is the digest hour (settings.DIGEST_HOUR): each gets
    theirs at their own morning, once per local day (MailLog's key). A digest the server
    defers is handed to `on_deferred(user_id)` (the task retries it later; without one it raises)."""
    from django.contrib.auth import get_user_model

    sent = 0
    users = get_user_model().objects.filter(email_digest=True, is_active=True).exclude(email="")
    if at is not None:
        zones = list(users.order_by().values_list("time_zone", flat=True).distinct())
        users = users.filter(time_zone__in=zones_at_hour(zones, at, settings.DIGEST_HOUR))
    for user_id in users.values_list("pk", flat=True):
        try:
            sent += digest_mail(user_id) == "sent"
        except MailDeferred:
            if on_deferred is None:
                raise
            on_deferred(user_id)
    return sent
