"""Whose language a line is written in: inbox lines, pushes and invitations are written once,
for one reader, so they are worded in the reader's language, not in the language of whoever
caused them (another player's request, the worker)."""
from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

from django.contrib.auth import get_user_model
from django.utils import translation

def user_languages(user_ids: set[int]) -> dict[int, str]:
    """Each user's chosen language (accounts.User.language); users without one are written
    to in the active language."""
    if not user_ids:
        return {}
    rows = get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "language")
    return {pk: code for pk, code in rows if code}


def in_language_of(user_id: int, languages: dict[int, str] | None = None) -> AbstractContextManager:
    """A block whose texts are in `user_id`'s language (`languages`: already looked up)."""
    language = (user_languages({user_id}) if languages is None else languages).get(user_id)
    return translation.override(language) if language else nullcontext()
