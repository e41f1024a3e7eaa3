"""Whose language a line is written in: inbox lines, pushes and invitations are written once,
for one reader, so they are worded in the reader's language, not in the language of whoever
caused them (another player's request, the worker)."""
from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

from django.contrib.auth import get_user_model
from django.utils import translation

# The User field that keeps a player's language, once the user model has one (issue 23).
LANGUAGE_FIELD: str = "language"


def user_languages(user_ids: set[int]) -> dict[int, str]:
    """Each user's chosen language, when the user model keeps one; users without one are
    written to in the active language."""
    model = get_user_model()
    if not user_ids or LANGUAGE_FIELD not in {f.name for f in model._meta.get_fields()}:
        return {}
    rows = model.objects.filter(pk__in=user_ids).values_list("pk", LANGUAGE_FIELD)
    return {pk: code for pk, code in rows if code}


def in_language_of(user_id: int, languages: dict[int, str] | None = None) -> AbstractContextManager:
    """A block whose texts are in `user_id`'s language (`languages`: already looked up)."""
    language = (user_languages({user_id}) if languages is None else languages).get(user_id)
    return translation.override(language) if language else nullcontext()
