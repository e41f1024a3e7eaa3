"""Tournaments: Swiss and round robin for correspondence, arena for live play.

Rows only; tournaments/services.py runs them (the worker's tasks call it) and every game
is started through games.engine.start_game.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.models import Game, Pace, PlaysAGame


class Tournament(PlaysAGame, models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", pgettext_lazy("a tournament format", "Swiss")
        ROUND_ROBIN = "round_robin", gettext_lazy("Round robin")
        ARENA = "arena", gettext_lazy("Arena (live)")

    class Status(models.TextChoices):
        SIGNUP = "signup", gettext_lazy("Open for sign-up")
        RUNNING = "running", pgettext_lazy("a tournament's state", "Running")
        FINISHED = "finished", pgettext_lazy("a tournament's state", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("a tournament's state", "Cancelled")

    name = models.CharField(gettext_lazy("name"), max_length=80)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised")
    official = models.BooleanField(gettext_lazy("official"), default=False,
                                   help_text=gettext_lazy("Organised by the site's staff."))
    format = models.CharField(gettext_lazy("format"), max_length=12, choices=Format.choices, default=Format.SWISS)
    game_slug = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    players_per_game = models.PositiveSmallIntegerField(gettext_lazy("players per game"), default=2)
    pace = models.CharField(gettext_lazy("pace"), max_length=16, choices=Pace.choices, default=Pace.CORRESPONDENCE)
    days_per_move = models.PositiveSmallIntegerField(gettext_lazy("days per move"), null=True, blank=True)
    clock_minutes = models.PositiveSmallIntegerField(gettext_lazy("clock minutes"), null=True, blank=True)
    clock_increment = models.PositiveSmallIntegerField(default=0)
    rated = models.BooleanField(pgettext_lazy("a tournament", "rated"), default=True)
    rounds = models.PositiveSmallIntegerField(gettext_lazy("rounds"), default=3,
                                              help_text=gettext_lazy("Swiss: rounds to play (round robin: all)."))
    starts_at = models.DateTimeField(gettext_lazy("starts at"),
                                     help_text=gettext_lazy("Sign-up closes and the first round starts."))
    ends_at = models.DateTimeField(gettext_lazy("ends at"), null=True, blank=True,
                                   help_text=gettext_lazy("Arena: no new games after this."))
    status = models.CharField(gettext_lazy("status"), max_length=10, choices=Status.choices, default=Status.SIGNUP,
                              db_index=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("tournament")
        verbose_name_plural = gettext_lazy("tournaments")
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def is_arena(self) -> bool:
        return self.format == self.Format.ARENA

    @property
    def bye_points(self) -> float:
        """A bye counts as a won game: first place at a table, N-1 points."""
        return float(self.players_per_game - 1)


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    rating = models.FloatField(default=0, help_text=gettext_lazy("The rating the pairing uses (taken at the start)."))
    # Arena only: the running score and the current streak of wins (two in a row: on fire).
    arena_points = models.PositiveIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    joined = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(null=True, blank=True,
                                     help_text=gettext_lazy("Arena: the player's page last polled."))

    class Meta:
        verbose_name = gettext_lazy("entry")
        verbose_name_plural = gettext_lazy("entries")
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    byes = models.ManyToManyField(Entry, blank=True, related_name="byes")

    class Meta:
        verbose_name = gettext_lazy("round")
        verbose_name_plural = gettext_lazy("rounds")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")]


class Pairing(models.Model):
    """One table of a tournament: its game, and once the game ended the points each user
    scored there (`points`: {user id: points}; `winners`: user ids ranked first)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE, related_name="pairings")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="tournament_pairing")
    points = models.JSONField(default=dict, blank=True)
    winners = models.JSONField(default=list, blank=True)
    recorded = models.BooleanField(default=False, db_index=True)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("pairing")
        verbose_name_plural = gettext_lazy("pairings")
        ordering = ["created"]
