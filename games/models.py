"""Matches as rows: a Game is its seed plus its Moves; `state` is a snapshot of both.

Only games.engine writes games (see ARCHITECTURE.md); views read `state` only through
`ruleset.view()`.
"""
from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _, ngettext

from . import rules as registry
from .presenters import describe_options
from .rules.base import Ruleset

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class Pace(models.TextChoices):
    LIVE = "live", _("Live")
    CORRESPONDENCE = "correspondence", _("Correspondence")


class PlaysAGame:
    """For models with a `game_slug`: their ruleset and its title."""

    game_slug: str
    options: dict

    @property
    def rules(self) -> Ruleset:
        # A game keeps the rules version it started under (docs/rules-versions.md); a
        # table (no game yet) gets the current rules.
        return registry.get(self.game_slug, self._rules_version())

    @property
    def is_available(self) -> bool:
        """False when the game's package, or the rules version it started under, was removed
        from the site (its rows remain)."""
        return registry.has(self.game_slug, self._rules_version())

    def _rules_version(self) -> str | None:
        return getattr(self, "rules_version", None) or None

    @property
    def title(self) -> str:
        try:
            return self.rules.title
        except KeyError:
            return self.game_slug

    def option_lines(self) -> list[str]:
        return describe_options(self.game_slug, self.options)


class _SeatOfUser(TypedDict):
    """The seat that waiting_for_users() annotates on each game row."""

    seat_user: int
    seat_index: int


class GameQuerySet(models.QuerySet["Game"]):
    def waiting_for_users(self, user_ids: set[int]) -> dict[int, list[Game]]:
        """{user id: that user's active games waiting for their move}, in one query that
        loads no game state (mail and badges ask here, never a view)."""
        # cast: the stubs lose the row type of a custom queryset's annotate()
        rows = cast("models.QuerySet[WithAnnotations[Game, _SeatOfUser]]",
                    self.filter(seats__user_id__in=user_ids, status=Game.Status.ACTIVE).only("id", "waiting_for")
                    .annotate(seat_user=models.F("seats__user_id"), seat_index=models.F("seats__index")))
        waiting: dict[int, list[Game]] = {uid: [] for uid in user_ids}
        seen: set[tuple[int, int]] = set()
        for game in rows:
            if game.seat_index in (game.waiting_for or []) and (game.seat_user, game.pk) not in seen:
                seen.add((game.seat_user, game.pk))
                waiting[game.seat_user].append(game)
        return waiting


class Game(PlaysAGame, models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Ending(models.TextChoices):
        """How a game ended: one account that the result screen, ratings, the record, mails,
        the profile and the replay all read (games.finishing writes it)."""

        NONE = "", _("Not over")
        NORMAL = "normal", _("Played to the end")
        RESIGNED = "resigned", _("A player resigned")
        TIMEOUT = "timeout", _("A player ran out of time; a bot finished the seat")
        NO_SHOW = "no_show", _("A player never moved before the clock ran out (aborted, unrated)")
        ABORTED = "aborted", _("Aborted by a player")
        STAFF = "staff", _("Aborted by the staff")

    game_slug = models.CharField(max_length=40, db_index=True)
    rules_version = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    players = models.PositiveSmallIntegerField()
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0, help_text="Number of moves applied.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    pace = models.CharField(max_length=16, choices=Pace.choices, default=Pace.LIVE)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_minutes = models.PositiveSmallIntegerField(null=True, blank=True,
                                                     help_text="Live games: each seat's starting time.")
    clock_increment = models.PositiveSmallIntegerField(default=0, help_text="Live games: seconds added per move.")
    turn_deadline = models.DateTimeField(null=True, blank=True, help_text="The earliest running seat's deadline.")
    # Two flags: `is_rated` is decided when the game starts (the host chose rated, every seat a
    # different registered player, no bot); `rated` records that the result updated ratings.
    is_rated = models.BooleanField(default=False, help_text="A rated game (chosen at the table, people only).")
    waiting_for = models.JSONField(default=list, blank=True,
                                   help_text="Seats to act (kept by the engine), so lists never load `state`.")
    seats_moved = models.JSONField(
        default=list, blank=True,
        help_text="Seats whose player has moved at least once (abort is possible until all have).")
    rated = models.BooleanField(default=False, help_text="Ratings were updated for this result.")
    created = models.DateTimeField(default=timezone.now)
    updated = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # How it ended and who ended it (games.finishing): for a finished game with absent
    # seats, the first player who left; for an abort, who aborted (the seat, if a player).
    ending = models.CharField(max_length=10, choices=Ending.choices, default=Ending.NONE, blank=True)
    ended_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    ended_by_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    ended_on_move = models.PositiveIntegerField(null=True, blank=True,
                                                help_text="The move number when the ending happened.")

    objects = GameQuerySet.as_manager()

    # Set by the engine while it holds the row lock; not columns.
    _saved_values: dict[str, Any]
    _saved_clocks: dict[int, tuple]
    _rematch_offer: RematchOffer | None
    _last_move: Move | None
    _last_move_version: int
    _rating_events: dict[int, Any]    # set by games.panel: user id -> its RatingEvent for this game
    _rating_events_version: int
    _rating_words: dict[str, dict[int, tuple]]   # games.panel: per language, user id -> change, reason, after

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.title} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games:play", args=[self.pk])

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    def seat_of(self, user) -> int | None:
        """The seat index `user` plays, or None (spectators, anonymous users)."""
        if user is None or not user.is_authenticated:
            return None
        for seat in self.seats.all():
            if seat.user_id == user.pk:
                return seat.index
        return None

    def ordered_seats(self) -> list["Seat"]:
        return sorted(self.seats.all(), key=lambda s: s.index)

    def to_act(self) -> list[int]:
        return self.rules.to_act(self.state) if self.is_active and self.is_available else []

    @property
    def has_clock(self) -> bool:
        return bool(self.days_per_move if self.pace == Pace.CORRESPONDENCE else self.clock_minutes)

    def allowance(self) -> timedelta | None:
        """A seat's full time: per move (correspondence) or for the whole game (live)."""
        if self.pace == Pace.CORRESPONDENCE:
            return timedelta(days=self.days_per_move) if self.days_per_move else None
        return timedelta(minutes=self.clock_minutes) if self.clock_minutes else None

    def pace_label(self) -> str:
        if self.pace == Pace.CORRESPONDENCE and self.days_per_move:
            return ngettext("Correspondence, %(days)s day per move", "Correspondence, %(days)s days per move",
                            self.days_per_move) % {"days": self.days_per_move}
        if self.clock_minutes:
            return gettext("Live, %(minutes)s+%(increment)s") % {"minutes": self.clock_minutes,
                                                                 "increment": self.clock_increment}
        return gettext("Live, no clock")


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="seats")
    is_bot = models.BooleanField(default=False)
    bot_level = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="A bot seat's level, 1-5 (empty: the greedy level 3).")
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    # The seat's clock (games.clocks): time left, and since when it runs (None: stopped;
    # a future time: paused until then, e.g. a correspondence player's vacation).
    time_left = models.DurationField(null=True, blank=True)
    running_since = models.DateTimeField(null=True, blank=True)
    # A player who timed out or resigned: the game's bot plays the seat since move N.
    bot_since = models.PositiveIntegerField(null=True, blank=True)
    resigned = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="one_seat_per_index")]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.is_bot:
            if self.bot_level is None:
                return gettext("Bot %(number)s") % {"number": self.index + 1}
            return gettext("Bot %(number)s (level %(level)s)") % {"number": self.index + 1, "level": self.bot_level}
        return self.user.username if self.user else gettext("Seat %(number)s") % {"number": self.index + 1}

    @property
    def played_by_bot(self) -> bool:
        """A real bot, or the bot standing in for an absent or resigned player."""
        return self.is_bot or self.bot_since is not None

    @property
    def deadline(self):
        if self.running_since is None or self.time_left is None:
            return None
        return self.running_since + self.time_left

    def remaining(self, now=None) -> timedelta | None:
        """Time left now: the stored time minus what ran since the clock started."""
        if self.time_left is None:
            return None
        now = now or timezone.now()
        if self.running_since is None or self.running_since > now:
            return self.time_left
        return max(timedelta(0), self.time_left - (now - self.running_since))


class RematchOffer(models.Model):
    """A finished game's rematch: the same players and options, seats rotated by one."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for everyone to accept")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        EXPIRED = "expired", _("Expired")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch")
    accepted_by = models.JSONField(default=list, help_text="User ids who accepted.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    declined_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    new_game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Rematch of {self.game} ({self.status})"


class MailLog(models.Model):
    """One row per mail of a kind per user, game and day: the unique key is the limit. A
    plain unique key over a NULL game (the digest's) holds nothing (NULLs are distinct in
    SQL), so mails without a game have their own key without it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16)
    day = models.DateField()
    sent = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "kind", "day"], condition=models.Q(game__isnull=False),
                                    name="one_mail_per_game_per_day"),
            models.UniqueConstraint(fields=["user", "kind", "day"], condition=models.Q(game__isnull=True),
                                    name="one_gameless_mail_per_day"),
        ]


class Move(models.Model):
    """One applied action. `token` is the client's per-submission token (double clicks)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    token = models.CharField(max_length=64, blank=True, default="")
    by_bot = models.BooleanField(default=False)
    undoable = models.BooleanField(default=False, help_text="The rules let its seat take it back.")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_move_per_seq"),
            models.UniqueConstraint(fields=["game", "token"], condition=~models.Q(token=""),
                                    name="one_move_per_token"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} seat {self.seat}: {self.action.get('type', '?')}"
