"""The inbox (Notification), each player's choices (Preferences), the devices that
receive Web Push (PushSubscription) and turns waiting to be pushed in one batch."""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .kinds import BY_SLUG, MAIL, SITE

KIND_CHOICES = [(slug, kind.label) for slug, kind in BY_SLUG.items()]


class Notification(models.Model):
    """One line of a player's inbox; kept NOTIFICATIONS_KEEP_DAYS (tasks.prune_notifications)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=16, choices=KIND_CHOICES)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=300, help_text="The page the line links to (a path of this site).")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    read = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["user", "read"], name="notification_unread")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.text}"


THEMES = [("auto", _("Follow my system")), ("light", _("Light")), ("dark", _("Dark"))]


class Preferences(models.Model):
    """A player's kind × channel choices that differ from the defaults (kinds.KINDS)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_preferences")
    choices = models.JSONField(default=dict, help_text="{kind: [channels]}, only for kinds the player changed.")
    sound = models.BooleanField(default=False, help_text="Play a short sound in an open tab when a game becomes yours.")
    theme = models.CharField(max_length=8, default="auto", choices=THEMES)

    def channels(self, kind: str) -> set[str]:
        return channels_for(self.user, kind, self)


def channels_for(user, kind: str, prefs: Preferences | None = None) -> set[str]:
    """Where `kind` goes for `user`: the stored choice or the default; mail for the kinds
    games.mail sends follows the user's own e-mail field."""
    spec = BY_SLUG[kind]
    if prefs is None:
        prefs = Preferences.objects.filter(user=user).first()
    stored = (prefs.choices if prefs else {}).get(kind)
    chosen = set(stored) & spec.channels if stored is not None else set(spec.defaults)
    if spec.mail_field:
        chosen.discard(MAIL)
        if getattr(user, spec.mail_field):
            chosen.add(MAIL)
    return chosen


def wants(user, kind: str, channel: str) -> bool:
    return channel in channels_for(user, kind)


def stored_choices(user_ids: set[int]) -> dict[int, dict]:
    """The grid choices of those among `user_ids` who changed any (one query)."""
    return dict(Preferences.objects.filter(user_id__in=user_ids).values_list("user_id", "choices"))


def _chose(user_ids: set[int], kind: str, channel: str, changed: dict[int, dict]) -> set[int]:
    default = channel in BY_SLUG[kind].defaults
    return {uid for uid in user_ids
            if (channel in changed[uid][kind] if uid in changed and kind in changed[uid] else default)}


def site_wanted(user_ids: set[int], kind: str, changed: dict[int, dict] | None = None) -> set[int]:
    """The users among `user_ids` who get `kind` in their inbox (one query, none with `changed`)."""
    return _chose(user_ids, kind, SITE, stored_choices(user_ids) if changed is None else changed)


def mail_wanted(user_ids: set[int], kind: str, changed: dict[int, dict] | None = None) -> set[int]:
    """The users among `user_ids` with an address who get `kind` by mail (notifications.mail);
    the kinds games.mail sends (a `mail_field`) are not asked here."""
    spec = BY_SLUG[kind]
    if MAIL not in spec.channels or spec.mail_field:
        return set()
    wanted = _chose(user_ids, kind, MAIL, stored_choices(user_ids) if changed is None else changed)
    if not wanted:
        return set()
    return set(get_user_model().objects.filter(pk__in=wanted, is_active=True).exclude(email="")
               .values_list("pk", flat=True))


def unread_count(user_id: int) -> int:
    """The bell's count (one query; config.header keeps it)."""
    return Notification.objects.filter(user_id=user_id, read=False).count()


def tab_preferences(user) -> dict:
    """What an open tab does when a game becomes the user's (blink: "your turn" in the site
    is on; sound: chosen), and the theme: one query for a player (config.header keeps it),
    the defaults for a visitor."""
    prefs = Preferences.objects.filter(user=user).first() if user.is_authenticated else None
    prefs = prefs or Preferences(user=user if user.is_authenticated else None)
    blink = user.is_authenticated and SITE in channels_for(user, "turn", prefs)
    return {"sound": prefs.sound and blink, "blink": blink, "theme": prefs.theme}


class PushSubscription(models.Model):
    """One browser or device of a player (the W3C PushSubscription it gave us)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200, help_text="The browser's public key (base64url).")
    auth = models.CharField(max_length=60, help_text="The shared auth secret (base64url).")
    device = models.CharField(max_length=120, blank=True, help_text="A name for the list in settings.")
    created = models.DateTimeField(default=timezone.now)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.device or self.endpoint[:40]}"

    def info(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class PendingTurn(models.Model):
    """A correspondence game that became a player's turn, waiting for the batch push
    (tasks.push_turns): every game that became theirs within PUSH_BATCH_SECONDS goes out
    in one push."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_pending_turn_per_game")]
