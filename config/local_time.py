"""Moments shown in the reader's time zone, the zone named (issue 23). A template builtin
(settings.TEMPLATES' "builtins"): every template may use these filters without a {% load %}.

    {{ game.turn_deadline|local_time }}            Nov 26, 15:40 CET   (a moment: date and time)
    {{ tournament.starts_at|local_time:"j M Y H:i" }}  with a format of Django's date filter
    {{ row.vacation_until|local_time:"M j" }}      a date alone (no zone named)
    {{ value|zone_name }}                          CET: the zone's short name at that moment
    {{ deadline|local_time_text }}                 the same text without markup (plain-text mail)

The text is rendered in the active time zone (a request activates the player's own,
config.i18n.UserLocaleMiddleware; a mail its recipient's, config.i18n.in_users_language) and
wrapped in <time datetime="...UTC ISO..." data-zone="the zone it was rendered in">. HTML
pushed over a socket is rendered without a request, in UTC: static/js/site.js rewrites every
such <time> whose zone is not the page's (<body data-time-zone>, else the browser's own)
with Intl.DateTimeFormat in the page's language (<html lang>), also after each htmx swap.
"""
from __future__ import annotations

from datetime import UTC, datetime

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils import timezone, translation
from django.utils.html import format_html

register = template.Library()

# The default short form of a moment, per language (the English one is the site's old
# "M j, H:i"); Django's date filter translates the month names.
MOMENT_FORMATS = {"en": "M j, H:i", "nl": "j M, H:i", "de": "j. M, H:i", "it": "j M, H:i"}
TIME_CHARACTERS = set("aAfgGhHiPsu")


def _moment_format() -> str:
    return MOMENT_FORMATS.get(translation.get_language() or "en", MOMENT_FORMATS["en"])


def _shows(fmt: str) -> str:
    """What the format shows, for site.js's rewrite: date, time or datetime, "-year" added."""
    has_time = bool(TIME_CHARACTERS & set(fmt))
    has_date = bool(set("dDjlMnmNFyYbEw") & set(fmt))
    shows = "datetime" if has_time and has_date else "time" if has_time else "date"
    if "s" in fmt and has_time:
        shows += "-seconds"
    return shows + ("-year" if {"Y", "y"} & set(fmt) else "")


def _text(value: datetime, fmt: str) -> tuple[datetime, str, str]:
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    text = date_filter(local, fmt)
    shows = _shows(fmt)
    if "time" in shows:
        text = f"{text} {local.tzname() or ''}".strip()
    return local, text, shows


@register.filter(expects_localtime=False)
def local_time_text(value: datetime | None, fmt: str = "") -> str:
    """`value` in the reader's zone as plain text ("Jan 15, 13:00 CET"): for text mail."""
    if not isinstance(value, datetime):
        return ""
    return _text(value, fmt or _moment_format())[1]


@register.filter(expects_localtime=False, is_safe=True)
def local_time(value: datetime | None, fmt: str = "") -> str:
    """`value` in the reader's zone, as <time>; the zone's short name follows a time of day."""
    if not isinstance(value, datetime):
        return ""
    local, text, shows = _text(value, fmt or _moment_format())
    moment = value.astimezone(UTC) if timezone.is_aware(value) else value
    return format_html('<time datetime="{}" data-zone="{}" data-shows="{}">{}</time>',
                       moment.isoformat().replace("+00:00", "Z"), getattr(local.tzinfo, "key", "UTC") or "UTC",
                       shows, text)


@register.filter(expects_localtime=False)
def zone_name(value: datetime | None) -> str:
    """The active zone's short name at `value` ("CET", "CEST", "UTC")."""
    if not isinstance(value, datetime) or not timezone.is_aware(value):
        return ""
    return timezone.localtime(value).tzname() or ""
