"""E-mail for the inbox's kinds (game over, rematch, invitation, seat): the mail column of
the settings grid. Sent by the task worker only (tasks.mail_notification) through
games.mail.deliver, so it shares everything the turn mails have: the recipient's language
and time zone, the record written only once the mail server accepted the mail (at most one
mail of a kind per game and day), a temporary refusal tried again later, and a signed
one-click unsubscribe link with the List-Unsubscribe headers.

The quiet rule of the turn mails holds here too: no mail to a player who is on the site
(games.presence), who sees the inbox line and the bell instead.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import mail as games_mail
from games import presence
from games.models import Game

from .kinds import BY_SLUG, MAIL
from .models import Preferences, channels_for

MAIL_KINDS = frozenset(kind.slug for kind in BY_SLUG.values() if MAIL in kind.channels and not kind.mail_field)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    """The signed links are games.mail's; this page turns off only the inbox kinds' mails."""
    return games_mail.read_unsubscribe_token(token, kinds=MAIL_KINDS)


def unsubscribe_url(user, kind: str) -> str:
    return settings.SITE_URL + reverse("notifications:unsubscribe", args=[games_mail.unsubscribe_token(user, kind)])


def stop_mail(user, kind: str) -> None:
    """Take mail off `kind` for `user`, keeping their other channels for it."""
    prefs, _ = Preferences.objects.get_or_create(user=user)
    prefs.choices = {**prefs.choices, kind: sorted(channels_for(user, kind, prefs) - {MAIL})}
    prefs.save(update_fields=["choices"])


def notification_mail(user_id: int, kind: str, text: str, url: str, game_id: int | None) -> str:
    """The inbox line `text` (already in the player's language) by mail, linking to `url`
    (a path of this site); decided when the task runs."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).exclude(email="").first()
    if user is None or kind not in MAIL_KINDS or MAIL not in channels_for(user, kind):
        return "opted out"
    if presence.is_online(user.pk):
        return "online"
    game = Game.objects.filter(pk=game_id).first() if game_id else None
    return games_mail.deliver(user, game, kind, "notification",
                              {"kind": kind, "text": text, "game": game, "page_url": settings.SITE_URL + url},
                              unsubscribe_url=unsubscribe_url(user, kind))
