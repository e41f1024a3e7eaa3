"""After-commit messages: channel groups for live pages, e-mail for correspondence turns."""
from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse

log = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


LOBBY_GROUP = "lobby"


def send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a missing Redis must not undo a committed move
        log.exception("channel layer send to %s failed", group)


def game_changed(game_id: int, newly_waiting: set[int] = frozenset()) -> None:
    """Push the new board to every page of the game; mail seats whose turn just began."""
    from .models import Game

    game = Game.objects.prefetch_related("seats__user").get(pk=game_id)
    send(game_group(game_id), {"type": "game.update", "version": game.version})
    for seat in game.seats.all():
        if seat.user_id:
            send(user_group(seat.user_id), {"type": "badge.update"})
    if game.pace == "correspondence" and newly_waiting:
        _mail_turns(game, newly_waiting)


def _mail_turns(game, to_act: set[int]) -> None:
    """Tell correspondence players by e-mail that a game waits for them."""
    for seat in game.seats.all():
        user = seat.user
        if seat.index not in to_act or not user or not user.email or not user.email_turn_notifications:
            continue
        send_mail(
            subject=f"Your move in {game.title} #{game.pk}",
            message=(f"Hello {user.username},\n\n{game.title} #{game.pk} is waiting for your move"
                     f"{' until ' + game.turn_deadline.strftime('%Y-%m-%d %H:%M UTC') if game.turn_deadline else ''}.\n"
                     f"Play it at {settings.SITE_URL}{reverse('games:play', args=[game.pk])}\n\n-- Switchback"),
            from_email=None,
            recipient_list=[user.email],
            fail_silently=True,
        )
