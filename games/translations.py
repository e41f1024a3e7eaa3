"""Catalogue reads answered from a per-language table while a panel is drawn (issue 21).

A panel asks for several hundred translations (the shell, the score card, the History's
labels, every board's presenter through games.rules.base's translator). Each Django
`gettext` first reads the active language from an asgiref `Local` and then searches the
merged catalogues: about 3 µs a call, a millisecond or more per panel. Inside `one_language()`
the language is read once and every answer is kept per language, so a repeated message
costs two dictionary reads.

The answers are Django's own (the first read of a message asks Django), and the table is
only consulted inside a scope opened on the thread or task that draws the panel (a
ContextVar), so code outside a render, and a `translation.override()` around a render,
behave as before. Messages that are not plain `str` (lazy or safe strings) always go to Django:
their type is part of the answer.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils import translation

_django_gettext, _django_ngettext, _django_pgettext = translation.gettext, translation.ngettext, translation.pgettext

# language -> {message key: translated text}; bounded (counts in ngettext keys vary).
_TABLES: dict[str, dict] = {}
_LIMIT = 20_000
_active: ContextVar[dict | None] = ContextVar("games_panel_translations", default=None)


@contextmanager
def one_language() -> Iterator[None]:
    """Within it, gettext/ngettext/pgettext below answer from the active language's table."""
    language = translation.get_language() or ""
    table = _TABLES.get(language)
    if table is None or len(table) > _LIMIT:
        table = _TABLES[language] = {}
    token = _active.set(table)
    try:
        yield
    finally:
        _active.reset(token)


def gettext(message: str) -> str:
    table = _active.get()
    if table is None or type(message) is not str:
        return _django_gettext(message)
    text = table.get(message)
    if text is None:
        text = table[message] = _django_gettext(message)
    return text


def pgettext(context: str, message: str) -> str:
    table = _active.get()
    if table is None or type(message) is not str:
        return _django_pgettext(context, message)
    key = (context, message)
    text = table.get(key)
    if text is None:
        text = table[key] = _django_pgettext(context, message)
    return text


def ngettext(singular: str, plural: str, number: int) -> str:
    table = _active.get()
    if table is None or type(singular) is not str or type(plural) is not str:
        return _django_ngettext(singular, plural, number)
    key = (singular, plural, number)
    text = table.get(key)
    if text is None:
        text = table[key] = _django_ngettext(singular, plural, number)
    return text
