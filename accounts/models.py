from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy, pgettext

from config.i18n import DEFAULT_TIME_ZONE, LABELS, validate_time_zone
from games import rules as registry

# openskill's defaults: a new player is mu=25, sigma=25/3.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
# [DECISION] A rating is provisional (shown with "?") while its sigma is at or above 6.0,
# 72% of a newcomer's: about 11 two-player games or 4 four-player games.
PROVISIONAL_SIGMA = 6.0
# [DECISION] Uncertainty grows with inactivity: each day away adds 0.25² to sigma²
# (Glicko's "c"), capped at a newcomer's sigma. 100 days away take sigma 5.5 back to 6.04.
INACTIVITY_SIGMA_PER_DAY = 0.25


def display_number(ordinal: float) -> int:
    """The number people see: openskill's ordinal (mu - 3 sigma) scaled to a familiar range."""
    return round(1000 + 40 * ordinal)


def sigma_after_absence(sigma: float, days: float, per_day: float = INACTIVITY_SIGMA_PER_DAY,
                        cap: float = DEFAULT_SIGMA) -> float:
    """Sigma grown by `days` of inactivity (see INACTIVITY_SIGMA_PER_DAY), never past a newcomer's."""
    grown = math.sqrt(sigma * sigma + max(0.0, days) * per_day ** 2)
    return min(max(sigma, cap), grown)


def steady_until(sigma: float, last_played: datetime) -> datetime | None:
    """When inactivity makes a rating of `sigma` provisional again (None: it already is)."""
    if sigma >= PROVISIONAL_SIGMA:
        return None
    days = (PROVISIONAL_SIGMA ** 2 - sigma ** 2) / INACTIVITY_SIGMA_PER_DAY ** 2
    return last_played + timedelta(days=days)


class User(AbstractUser):
    """A registered player. E-mail is optional but lets correspondence games notify."""

    email_turn_notifications = models.BooleanField(
        default=True,
        help_text=gettext_lazy("E-mail me when a correspondence game waits for my move and I am not on the site.")
    )
    email_reminders = models.BooleanField(
        default=True,
        # xgettext:no-python-format
        help_text=gettext_lazy("E-mail me when 80% of a correspondence move's time is used.")
    )
    email_digest = models.BooleanField(
        default=False, help_text=gettext_lazy("Send me one e-mail a day listing the games waiting for me.")
    )
    # Vacation: correspondence clocks stop until then (games.clocks); days are counted per year.
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(null=True, blank=True)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    # The language and clock the player reads the site, mail and pushes in (config.i18n).
    language = models.CharField(LABELS["language"], max_length=8, blank=True, choices=settings.LANGUAGES,
                                help_text=LABELS["language_help"])
    # What their browser last asked for (config.i18n.UserLocaleMiddleware): the mail, pushes
    # and inbox lines of a player who never chose a language follow it, not the site's default.
    browser_language = models.CharField(max_length=8, blank=True, editable=False)
    time_zone = models.CharField(LABELS["time_zone"], max_length=64, default=DEFAULT_TIME_ZONE,
                                 validators=[validate_time_zone], help_text=LABELS["time_zone_help"])

    def get_absolute_url(self) -> str:
        return reverse("accounts:profile", args=[self.username])

    def on_vacation(self, now=None) -> bool:
        return bool(self.vacation_until and self.vacation_until > (now or timezone.now()))


class Rating(models.Model):
    """A player's openskill rating in one game; the leaderboard sorts by `ordinal`."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="ratings")
    game_slug = models.CharField(max_length=40, db_index=True)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    ordinal = models.FloatField(default=DEFAULT_MU - 3 * DEFAULT_SIGMA, db_index=True)
    games_played = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)
    steady_until = models.DateTimeField(
        null=True, blank=True, db_index=True,
        help_text=gettext_lazy("Until then the rating is not provisional (empty: provisional now)."))
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game_slug"], name="one_rating_per_game")]
        ordering = ["-ordinal"]

    def __str__(self) -> str:
        return f"{self.user} in {self.game_slug}: {self.display}"

    @property
    def display(self) -> int:
        return display_number(self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.steady_until is None or self.steady_until <= timezone.now()

    @property
    def display_label(self) -> str:
        """The number with the provisional mark, e.g. "1180?"."""
        return f"{self.display}{'?' if self.provisional else ''}"

    @property
    def game_title(self) -> str:
        try:
            return registry.get(self.game_slug).title
        except KeyError:
            return self.game_slug


class RatingEvent(models.Model):
    """One seat's rating change from one rated game: the inputs and outputs of openskill.

    Events are the archive `manage.py rerate` rebuilds every rating from: replayed in id
    order (the order they were applied in), with the stored model and parameters, they
    reproduce every `mu`/`sigma` exactly.
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_events")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="rating_events")
    game_slug = models.CharField(max_length=40)
    played_at = models.DateTimeField(help_text=gettext_lazy("When the game finished (inactivity is measured from it)."))
    rank = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField(
        help_text=gettext_lazy("Sigma as stored before the game, before inactivity grew it."))
    sigma_rated = models.FloatField(help_text=gettext_lazy("Sigma the game was rated with (after inactivity)."))
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    model = models.CharField(max_length=40)
    parameters = models.JSONField()
    expected_rank = models.PositiveSmallIntegerField()
    table_average = models.IntegerField(help_text=gettext_lazy("The seats' average displayed rating before the game."))

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_rating_event_per_seat")]
        indexes = [models.Index(fields=["user", "game_slug", "id"])]

    def __str__(self) -> str:
        return f"{self.user_id} in game {self.game_id}: {self.change:+d}"

    @property
    def display_before(self) -> int:
        return display_number(self.mu_before - 3 * self.sigma_before)

    @property
    def display_after(self) -> int:
        return display_number(self.mu_after - 3 * self.sigma_after)

    @property
    def change(self) -> int:
        return self.display_after - self.display_before

    @property
    def reason(self) -> str:
        """Why the rating moved, e.g. "+18: 1st of 4; table average 1612; you were expected 2nd"."""
        return _("%(change)s: %(rank)s of %(players)s; table average %(average)s; you were expected %(expected)s") % {
            "change": f"{self.change:+d}", "rank": ordinal_word(self.rank), "players": self.players,
            "average": self.table_average, "expected": ordinal_word(self.expected_rank)}


def ordinal_word(n: int) -> str:
    """1st, 2nd, 3rd, 4th... in English; each language writes its own (1e, 1., 1º)."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return pgettext("ordinal number", "%(n)sth") % {"n": n}
    if n % 10 == 1:
        return pgettext("ordinal number", "%(n)sst") % {"n": n}
    if n % 10 == 2:
        return pgettext("ordinal number", "%(n)snd") % {"n": n}
    return pgettext("ordinal number", "%(n)srd") % {"n": n}


def displayed_ratings(user, slugs: set[str]) -> dict[str, int]:
    """{game: the rating people see for `user` in it} in one query (a newcomer's is the
    starting one)."""
    ordinals = dict(Rating.objects.filter(user=user, game_slug__in=slugs).values_list("game_slug", "ordinal"))
    return {slug: display_number(ordinals.get(slug, DEFAULT_MU - 3 * DEFAULT_SIGMA)) for slug in slugs}


def displayed_rating(user, slug: str) -> int:
    return displayed_ratings(user, {slug})[slug]
