"""E-mail, sent by tasks only (games.tasks), rendered from templates/emails/.

"Your turn" goes to a correspondence player who is not on the site (no open socket)
once the game has waited a quiet period, at most once per game per day; a reminder when
80% of a move's time is used; an opt-in daily digest. Every mail carries a signed
one-click unsubscribe link and the List-Unsubscribe headers.
"""
from __future__ import annotations

import logging
from email.utils import formataddr, parseaddr

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from . import presence
from .models import Game, MailLog, Pace

log = logging.getLogger(__name__)
UNSUBSCRIBE_SALT = "switchback.unsubscribe"
KINDS = {"turn": "email_turn_notifications", "reminder": "email_reminders", "digest": "email_digest"}


def unsubscribe_token(user, kind: str) -> str:
    return signing.dumps({"u": user.pk, "k": kind}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("k") not in KINDS or not isinstance(data.get("u"), int):
        return None
    return data["u"], data["k"]


def sender() -> str:
    """The site's name as the sender, whatever host the address uses."""
    _, address = parseaddr(settings.DEFAULT_FROM_EMAIL)
    return formataddr((settings.SITE_NAME, address or "noreply@switchback.local"))


def send(user, kind: str, template: str, context: dict) -> None:
    url = settings.SITE_URL + reverse("accounts:unsubscribe", args=[unsubscribe_token(user, kind)])
    context = {**context, "user": user, "site_name": settings.SITE_NAME, "site_url": settings.SITE_URL,
               "unsubscribe_url": url, "settings_url": settings.SITE_URL + reverse("accounts:settings")}
    subject = " ".join(render_to_string(f"emails/{template}_subject.txt", context).split())
    message = EmailMultiAlternatives(
        subject=subject, body=render_to_string(f"emails/{template}.txt", context), from_email=sender(),
        to=[user.email],
        headers={"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )
    message.send()


def _log_once(user, game: Game | None, kind: str) -> bool:
    """Record today's mail of this kind; False when one was already sent today. (The
    unique key settles races between workers; NULL games, the digest's, are checked.)"""
    today = timezone.now().date()
    if game is None and MailLog.objects.filter(user=user, game=None, kind=kind, day=today).exists():
        return False
    try:
        with transaction.atomic():
            MailLog.objects.create(user=user, game=game, kind=kind, day=today)
    except IntegrityError:
        return False
    return True


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
    if not _log_once(user, game, "turn"):
        return "already mailed today"
    send(user, "turn", "turn", {"game": game, "seat": seat, "deadline": seat.deadline,
                                "play_url": settings.SITE_URL + game.get_absolute_url()})
    return "sent"


def reminder_mail(game_id: int, seat_index: int, deadline: str) -> str:
    game, seat = _waiting_seat(game_id, seat_index)
    if seat is None:
        return "not waiting"
    if seat.deadline is None or seat.deadline.isoformat() != deadline:
        return "moved on"
    user = seat.user
    if not user.email or not user.email_reminders:
        return "opted out"
    if not _log_once(user, game, "reminder"):
        return "already mailed today"
    send(user, "reminder", "reminder", {"game": game, "seat": seat, "deadline": seat.deadline,
                                        "play_url": settings.SITE_URL + game.get_absolute_url()})
    return "sent"


def daily_digests() -> int:
    from django.contrib.auth import get_user_model

    from .views import games_waiting_for

    sent = 0
    for user in get_user_model().objects.filter(email_digest=True, is_active=True).exclude(email=""):
        games = games_waiting_for(user)
        if games and _log_once(user, None, "digest"):
            send(user, "digest", "digest", {"games": games, "my_games_url": settings.SITE_URL + reverse("games:mine")})
            sent += 1
    return sent
