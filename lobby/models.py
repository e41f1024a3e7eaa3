"""Tables: a game waiting for players. Starting a table creates its Game."""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Pace, PlaysAGame

DAYS_PER_MOVE_CHOICES = [(1, "1 day"), (2, "2 days"), (3, "3 days"), (7, "7 days")]
# Live clocks: "minutes+increment seconds" presets; "custom" lets the host type both.
CLOCK_PRESETS = [("3+2", "3+2 (blitz)"), ("10+1", "10+1"), ("15+10", "15+10"), ("none", "No clock"),
                 ("custom", "Custom")]


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class Table(PlaysAGame, models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        STARTED = "started", "Started"
        CANCELLED = "cancelled", "Cancelled"
        EXPIRED = "expired", "Expired"

    game_slug = models.CharField(max_length=40)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables")
    seats_count = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    is_private = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True)
    pace = models.CharField(max_length=16, choices=Pace.choices, default=Pace.LIVE)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True, choices=DAYS_PER_MOVE_CHOICES)
    is_rated = models.BooleanField(default=True, help_text="The host chose a rated game (not casual).")
    chat_public = models.BooleanField(default=False, help_text="Spectators may read the players' chat.")
    clock_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_increment = models.PositiveSmallIntegerField(default=0)
    min_rating = models.PositiveSmallIntegerField(null=True, blank=True,
                                                  help_text="Only players rated at least this may join.")
    max_rating = models.PositiveSmallIntegerField(null=True, blank=True,
                                                  help_text="Only players rated at most this may join.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="table")
    created = models.DateTimeField(default=timezone.now)
    last_activity = models.DateTimeField(default=timezone.now, help_text="Open tables idle too long expire.")

    class Meta:
        ordering = ["-created"]

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
            return f"ratings {self.min_rating}–{self.max_rating}"
        if self.min_rating is not None:
            return f"ratings {self.min_rating}+"
        return f"ratings up to {self.max_rating}" if self.max_rating is not None else ""

    def pace_label(self) -> str:
        if self.pace == Pace.CORRESPONDENCE and self.days_per_move:
            return f"Correspondence, {self.days_per_move} day{'s' if self.days_per_move > 1 else ''} per move"
        if self.clock_minutes:
            return f"Live, {self.clock_minutes}+{self.clock_increment}"
        return "Live"

    def rated_label(self) -> str:
        return "Rated" if self.is_rated else "Casual"


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

    @property
    def name(self) -> str:
        if self.is_bot:
            return "Bot" if self.bot_level is None else f"Bot (level {self.bot_level})"
        return self.user.username if self.user else "?"
