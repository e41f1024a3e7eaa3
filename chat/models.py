"""A short chat per game, and per table before its game starts."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy, pgettext_lazy

# [DECISION] A chat line is at most 200 characters: a table chat, not a forum.
MAX_LENGTH = 200
# Offered in the reader's language; a phrase is posted (and stored) as the text it shows.
CANNED_PHRASES = [pgettext_lazy("chat phrase", "Good game"), pgettext_lazy("chat phrase", "Thanks"),
                  pgettext_lazy("chat phrase", "Sorry, misclick"), pgettext_lazy("chat phrase", "Hello!"),
                  pgettext_lazy("chat phrase", "Your turn")]


IN_A_GAME = models.Q(game__isnull=False, table__isnull=True)
AT_A_TABLE = models.Q(game__isnull=True, table__isnull=False)


class ChatMessage(models.Model):
    """One line, in a game's chat or (before it starts) a table's."""

    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="chat_messages")
    table = models.ForeignKey("lobby.Table", null=True, blank=True, on_delete=models.CASCADE,
                              related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField(default=timezone.now)
    hidden = models.BooleanField(default=False,
                                 help_text=gettext_lazy("Hidden by a moderator: nobody but admins sees it."))

    class Meta:
        ordering = ["id"]
        constraints = [models.CheckConstraint(condition=IN_A_GAME | AT_A_TABLE, name="chat_message_in_one_room")]
        verbose_name = gettext_lazy("chat line")
        verbose_name_plural = gettext_lazy("chat lines")

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class ChatMute(models.Model):
    """`reader` no longer sees `muted`'s lines, anywhere."""

    reader = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["reader", "muted"], name="one_mute_per_pair")]
        verbose_name = gettext_lazy("chat mute")
        verbose_name_plural = gettext_lazy("chat mutes")


class ChatReport(models.Model):
    """A reader flags a line for the moderators."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(default=timezone.now)
    resolved = models.BooleanField(default=False)

    class Meta:
        ordering = ["resolved", "-created"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="one_report_per_reader")]
        verbose_name = gettext_lazy("chat report")
        verbose_name_plural = gettext_lazy("chat reports")
