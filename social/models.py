"""People: who follows and who blocks whom, direct challenges, quick-pairing seeks and the
lobby filters each player keeps."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy, ngettext, pgettext_lazy

from games.models import Game, Pace, PlaysAGame

CHALLENGE_LIFETIME = timedelta(days=7)


class Follow(models.Model):
    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following")
    followee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("follow")
        verbose_name_plural = gettext_lazy("follows")
        constraints = [models.UniqueConstraint(fields=["follower", "followee"], name="follow_once")]


class Block(models.Model):
    """`blocker` never meets `blocked` again: no challenge, table, pairing or chat."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("block")
        verbose_name_plural = gettext_lazy("blocks")
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once")]


class GameTerms(PlaysAGame, models.Model):
    """What a game will be: the game, its options, seats, pace, clock and rated or casual."""

    game_slug = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    seats = models.PositiveSmallIntegerField(default=2)
    pace = models.CharField(max_length=16, choices=Pace.choices, default=Pace.LIVE)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_increment = models.PositiveSmallIntegerField(default=0)
    rated = models.BooleanField(default=True)

    class Meta:
        abstract = True

    def pace_label(self) -> str:
        if self.pace == Pace.CORRESPONDENCE:
            days = self.days_per_move or 3
            return ngettext("Correspondence, %(days)s day per move", "Correspondence, %(days)s days per move",
                            days) % {"days": days}
        if self.clock_minutes:
            return _("Live, %(minutes)s+%(increment)s") % {"minutes": self.clock_minutes,
                                                           "increment": self.clock_increment}
        return _("Live, no clock")


class Challenge(GameTerms):
    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Waiting for answers")
        ACCEPTED = "accepted", gettext_lazy("Accepted: the game started")
        DECLINED = "declined", pgettext_lazy("a challenge's or seek's state", "Declined")
        EXPIRED = "expired", pgettext_lazy("a challenge's or seek's state", "Expired")
        CANCELLED = "cancelled", pgettext_lazy("a challenge's or seek's state", "Cancelled")

    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    created = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(db_index=True)
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge")
    after_game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                   help_text=gettext_lazy("Sent from this finished game's page (play again)."))
    # The sender reads this once: "declined by bob", "expired".
    outcome_seen = models.BooleanField(default=False)

    class Meta:
        verbose_name = gettext_lazy("challenge")
        verbose_name_plural = gettext_lazy("challenges")
        ordering = ["-created"]

    @property
    def bots(self) -> int:
        return self.seats - 1 - len(self.invites.all())


class Invite(models.Model):
    class Answer(models.TextChoices):
        PENDING = "pending", pgettext_lazy("an invitation's answer", "Not answered")
        ACCEPTED = "accepted", pgettext_lazy("an invitation's answer", "Accepted")
        DECLINED = "declined", pgettext_lazy("an invitation's answer", "Declined")

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="invites")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenge_invites")
    answer = models.CharField(max_length=10, choices=Answer.choices, default=Answer.PENDING)

    class Meta:
        verbose_name = gettext_lazy("invitation")
        verbose_name_plural = gettext_lazy("invitations")
        constraints = [models.UniqueConstraint(fields=["challenge", "user"], name="invite_once")]


class Seek(GameTerms):
    """A player waiting in a quick-pairing pool (live) or seeking a correspondence game."""

    class Status(models.TextChoices):
        WAITING = "waiting", gettext_lazy("Waiting")
        PAIRED = "paired", gettext_lazy("Paired")
        CANCELLED = "cancelled", pgettext_lazy("a challenge's or seek's state", "Cancelled")
        EXPIRED = "expired", pgettext_lazy("a challenge's or seek's state", "Expired")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks")
    rating = models.FloatField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True)
    created = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(default=timezone.now,
                                     help_text=gettext_lazy("Live: the waiting page last polled."))
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = gettext_lazy("seek")
        verbose_name_plural = gettext_lazy("seeks")
        ordering = ["created"]
        indexes = [models.Index(fields=["status", "game_slug", "pace", "seats"], name="seek_pool")]


class LobbyFilter(models.Model):
    """The lobby filters a player last used (game, pace, seats, rated, open for me)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lobby_filter")
    values = models.JSONField(default=dict)

    class Meta:
        verbose_name = gettext_lazy("lobby filter")
        verbose_name_plural = gettext_lazy("lobby filters")

