"""Writing the inbox and telling the player: rows in the caller's transaction, the bell
over the user's socket and the push task once it commits.

Called by the model-signal receivers (notifications.signals) and the invitation view;
nothing in games/ or lobby/ calls this module.
"""
from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from config.header import forget as forget_headers

from .models import Notification, PushSubscription, mail_wanted, site_wanted, stored_choices, unread_count
from .wording import in_language_of, user_languages

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Message:
    user_id: int
    text: str
    url: str


def worded(user_ids: Iterable[int], words: Callable[[int], str], url: str) -> list[Message]:
    """A Message per user, `words(user_id)` said in that user's language."""
    user_ids = [uid for uid in user_ids if uid]
    languages = user_languages(set(user_ids))
    messages = []
    for uid in user_ids:
        with in_language_of(uid, languages):
            messages.append(Message(uid, str(words(uid)), url))
    return messages


def tell(kind: str, messages: list[Message], *, game_id: int | None = None) -> None:
    """Put each message in its user's inbox (if they keep this kind there), update their
    bell once the transaction commits, and queue a push for those with a device and a mail
    for those who want this kind by mail."""
    messages = [m for m in messages if m.user_id]
    if not messages:
        return
    try:
        with transaction.atomic():  # a savepoint: a failure here never undoes the game's change
            _store_and_queue(kind, messages, game_id)
    except Exception:
        log.exception("notifications of kind %s were not stored", kind)


def _store_and_queue(kind: str, messages: list[Message], game_id: int | None) -> None:
    from .tasks import mail_notification, push_notification

    user_ids = {m.user_id for m in messages}
    changed = stored_choices(user_ids)
    inbox = site_wanted(user_ids, kind, changed)
    Notification.objects.bulk_create(
        Notification(user_id=m.user_id, kind=kind, text=m.text[:300], url=m.url, game_id=game_id)
        for m in messages if m.user_id in inbox)
    forget_headers(inbox)  # bulk_create sends no signal: the bell's count changed
    with_devices = set(PushSubscription.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True))
    for m in messages:
        if m.user_id in with_devices:
            push_notification.enqueue(m.user_id, kind, m.text, m.url, game_id)
    by_mail = mail_wanted(user_ids, kind, changed)  # the task decides again when it runs
    for m in messages:
        if m.user_id in by_mail:
            mail_notification.enqueue(m.user_id, kind, m.text, m.url, game_id)
    if inbox:
        transaction.on_commit(lambda: send_bells(inbox))


def bell_html(user_id: int, *, oob: bool = False, language: str | None = None) -> str:
    """The bell; `language`: the reader's, when rendered outside their request (a push)."""
    unread = unread_count(user_id)
    with translation.override(language) if language else contextlib.nullcontext():
        return render_to_string("notifications/_bell.html", {"unread": unread, "oob": oob})


def send_bells(user_ids: set[int]) -> None:
    """The bell with its new count, over each user's own socket group (the group every page
    joins, games.notify.user_group). The user consumer forwards any `badge.update` HTML
    as it is, and htmx swaps the bell out of band by its id. Called after every change of
    the count (lines created, read, unread): their header records are forgotten here too
    (config.header), the inbox views' queryset updates sending no signal."""
    from games.notify import user_group, users_languages

    forget_headers(user_ids)
    layer = get_channel_layer()
    if layer is None:
        return
    languages = users_languages(set(user_ids))  # each bell in its reader's language
    messages = [(user_group(uid), {"type": "badge.update", "html": bell_html(uid, oob=True, language=languages[uid])})
                for uid in user_ids]

    async def send_all():
        for group, message in messages:
            await layer.group_send(group, message)

    try:
        async_to_sync(send_all)()
    except Exception:  # a missing Redis must not fail a committed change
        log.exception("bell update failed")


