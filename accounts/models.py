from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse

from games import rules as registry

# openskill's defaults: a new player is mu=25, sigma=25/3.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


class User(AbstractUser):
    """A registered player. E-mail is optional but lets correspondence games notify."""

    email_turn_notifications = models.BooleanField(
        default=True, help_text="E-mail me when a correspondence game waits for my move."
    )

    def get_absolute_url(self) -> str:
        return reverse("accounts:profile", args=[self.username])


class Rating(models.Model):
    """A player's openskill rating in one game; the leaderboard sorts by `ordinal`."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="ratings")
    game_slug = models.CharField(max_length=40, db_index=True)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    ordinal = models.FloatField(default=DEFAULT_MU - 3 * DEFAULT_SIGMA, db_index=True)
    games_played = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game_slug"], name="one_rating_per_game")]
        ordering = ["-ordinal"]

    def __str__(self) -> str:
        return f"{self.user} in {self.game_slug}: {self.display}"

    @property
    def display(self) -> int:
        """The number people see: openskill's ordinal scaled to a familiar range."""
        return round(1000 + 40 * self.ordinal)

    @property
    def game_title(self) -> str:
        try:
            return registry.get(self.game_slug).title
        except KeyError:
            return self.game_slug
