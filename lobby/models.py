"""Tables: a game waiting for players. Starting a table creates its Game."""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _, gettext_lazy, ngettext

from games.models import Game, Pace, PlaysAGame



def _days(n: int) -> str:
    return ngettext("%(days)s day", "%(days)s days", n) % {"days": n}


_days_lazy = lazy(_days, str)   # evaluated where shown, in the reader's language
DAYS_PER_MOVE_CHOICES = [(n, _days_lazy(n)) for n in (1, 2, 3, 7)]
# Live clocks: "minutes+increment seconds" presets; "custom" lets the host type both.
CLOCK_PRESETS = [("3+2", gettext_lazy("3+2 (blitz)")), ("10+1", "10+1"), ("15+10", "15+10"),
                 ("none", gettext_lazy("No clock")), ("custom", gettext_lazy("Custom"))]


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class Table(PlaysAGame, models.Model):
    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Waiting for players")
        STARTED = "started", gettext_lazy("Started")
        CANCELLED = "cancelled", gettext_lazy("Cancelled")
        EXPIRED = "expired", gettext_lazy("Expired")

    game_slug = models.CharField(max_length=40)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables")
    seats_count = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    is_private = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True)
    pace = models.CharField(max_length=16, choices=Pace.choices, default=Pace.LIVE)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True, choices=DAYS_PER_MOVE_CHOICES)
    is_rated = models.BooleanField(default=True, help_text=gettext_lazy("The host chose a rated game (not casual)."))
    chat_public = models.BooleanField(default=False, help_text=gettext_lazy("Spectators may read the players' chat."))
    clock_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_increment = models.PositiveSmallIntegerField(default=0)
    min_rating = models.PositiveSmallIntegerField(null=True, blank=True,
                                                  help_text="Only players rated at least this may join.")
    max_rating = models.PositiveSmallIntegerField(null=True, blank=True,
                                                  help_text="Only players rated at most this may join.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="table")
    created = models.DateTimeField(default=timezone.now)
    last_activity = models.DateTimeField(default=timezone.now,
                                         help_text=gettext_lazy("Open tables idle too long expire."))

    class Meta:
        ordering = ["-created"]
        verbose_name = gettext_lazy("table")
        verbose_name_plural = gettext_lazy("tables")

    def __str__(self) -> str:
        return f"{self.title} table #{self.pk} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("lobby:table", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    def ordered_seats(self) -> list["TableSeat"]:
        return sorted(self.seats.all(), key=lambda s: s.position)

    @property
    def taken(self) -> int:
        return len(self.seats.all())

    @property
    def free(self) -> int:
        return self.seats_count - self.taken

    @property
    def can_start(self) -> bool:
        return self.is_open and self.taken >= self.rules.min_players

    def has_user(self, user) -> bool:
        return user.is_authenticated and any(s.user_id == user.pk for s in self.seats.all())

    @property
    def has_rating_range(self) -> bool:
        return self.min_rating is not None or self.max_rating is not None

    def admits_rating(self, rating: int) -> bool:
        return (self.min_rating is None or rating >= self.min_rating) and \
            (self.max_rating is None or rating <= self.max_rating)

    def rating_range_label(self) -> str:
        if self.min_rating is not None and self.max_rating is not None:
            return _("ratings %(low)s–%(high)s") % {"low": self.min_rating, "high": self.max_rating}
        if self.min_rating is not None:
            return _("ratings %(low)s+") % {"low": self.min_rating}
        return _("ratings up to %(high)s") % {"high": self.max_rating} if self.max_rating is not None else ""

    def pace_label(self) -> str:
        if self.pace == Pace.CORRESPONDENCE and self.days_per_move:
            return ngettext("Correspondence, %(days)s day per move", "Correspondence, %(days)s days per move",
                            self.days_per_move) % {"days": self.days_per_move}
        if self.clock_minutes:
            return _("Live, %(minutes)s+%(increment)s") % {"minutes": self.clock_minutes,
                                                           "increment": self.clock_increment}
        return _("Live")

    def rated_label(self) -> str:
        return _("Rated") if self.is_rated else _("Casual")


class TableSeat(models.Model):
    """Someone (or a bot) sitting at an open table; the order is only the join order."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    is_bot = models.BooleanField(default=False)
    bot_level = models.PositiveSmallIntegerField(null=True, blank=True, help_text="A bot's level, 1-5.")
    position = models.PositiveSmallIntegerField()
    joined = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_table_seat_per_position"),
            models.UniqueConstraint(fields=["table", "user"], condition=models.Q(user__isnull=False),
                                    name="one_table_seat_per_user"),
        ]
        verbose_name = gettext_lazy("table seat")
        verbose_name_plural = gettext_lazy("table seats")

    @property
    def name(self) -> str:
        if self.is_bot:
            return _("Bot") if self.bot_level is None else _("Bot (level %(level)s)") % {"level": self.bot_level}
        return self.user.username if self.user else "?"
