"""What a player can be told, and through which channels (the settings page's grid).

Each kind lists the channels it can use and those on by default. "mail" for turn,
reminder and digest is the user's existing e-mail switches (games.mail reads them), so
the settings page writes those fields and the mail tasks honour the grid unchanged; mail
for the inbox kinds (game over, rematch, invitation, seat) is stored with the other
choices (Preferences) and sent by notifications.mail.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

PUSH, MAIL, SITE = "push", "mail", "site"
CHANNELS = [(PUSH, _("Push")), (MAIL, _("E-mail")), (SITE, _("In the site"))]


@dataclass(frozen=True)
class Kind:
    slug: str
    label: str | Promise  # translated when shown
    channels: frozenset[str]  # where this kind can go
    defaults: frozenset[str]  # where it goes unless the player changed it
    mail_field: str | None = None  # the User field games.mail reads for this kind


KINDS = [
    # In the site, "your turn" is the badge, the tab title and the optional sound and blink.
    Kind("turn", _("Your turn (correspondence)"), frozenset({PUSH, MAIL, SITE}), frozenset({PUSH, MAIL, SITE}),
         mail_field="email_turn_notifications"),
    # xgettext:no-python-format
    Kind("reminder", _("Reminder: 20 % of your move's time left"), frozenset({PUSH, MAIL}), frozenset({PUSH, MAIL}),
         mail_field="email_reminders"),
    # Mail for these goes out from notifications.mail (the worker, quiet while the player is
    # on the site). Game endings are off by mail unless chosen: the daily digest tells them.
    Kind("game_over", _("A game ended (with the result)"), frozenset({PUSH, MAIL, SITE}), frozenset({PUSH, SITE})),
    Kind("rematch", _("Rematch offered or started"), frozenset({PUSH, MAIL, SITE}), frozenset({PUSH, MAIL, SITE})),
    Kind("invitation", _("Invitation to a table"), frozenset({PUSH, MAIL, SITE}), frozenset({PUSH, MAIL, SITE})),
    Kind("seat", _("A bot took over a seat, or handed it back"), frozenset({PUSH, MAIL, SITE}),
         frozenset({PUSH, MAIL, SITE})),
    Kind("table", _("A table expired or was closed"), frozenset({SITE}), frozenset({SITE})),
    Kind("digest", _("Daily digest of games waiting for you"), frozenset({MAIL}), frozenset(),
         mail_field="email_digest"),
]
BY_SLUG = {kind.slug: kind for kind in KINDS}
# The kinds that appear in the inbox (turns have the badge; the digest is mail only).
INBOX_KINDS = [kind.slug for kind in KINDS if SITE in kind.channels and kind.slug != "turn"]
