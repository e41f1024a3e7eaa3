"""The reader's language and time zone, in one place (issue 23).

A signed-in player's `language` (blank: follow the browser) and `time_zone` (an IANA name)
live on accounts.User. In a request, UserLocaleMiddleware activates both; outside one (a
mail, a push, a panel pushed over a socket) `in_users_language(user)` does, so every text is
rendered in the language and the clock of whoever reads it, never of whoever caused it.

This module knows users only by those two attributes (it imports no app): anything with
`language` and `time_zone` works, and None means "the site's defaults".
"""
from __future__ import annotations

import contextlib
import zoneinfo
from collections.abc import Iterator
from datetime import tzinfo
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

DEFAULT_TIME_ZONE = "UTC"

# The words of the account's language and time zone settings (accounts.models, accounts.forms),
# kept here with the machinery so the site's catalogue (./locale) holds them.
LABELS = {
    "language": gettext_lazy("Language"),
    "language_help": gettext_lazy("Blank: the language your browser asks for."),
    "browser_language": gettext_lazy("The language of my browser"),
    "time_zone": gettext_lazy("Time zone"),
    "time_zone_help": gettext_lazy("Deadlines, times and the daily digest follow it."),
}


@lru_cache(maxsize=1)
def _known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones()) | {DEFAULT_TIME_ZONE}


def time_zones() -> list[str]:
    """Every zone a player may choose, sorted (the settings page's list)."""
    return sorted(_known_zones())


def is_time_zone(name: object) -> bool:
    """Whether `name` is an IANA zone this machine's zoneinfo knows ("Europe/Amsterdam")."""
    return isinstance(name, str) and name in _known_zones()


def validate_time_zone(name: str) -> None:
    """The model field's validator: only names zoneinfo knows."""
    if not is_time_zone(name):
        raise ValidationError(translation.gettext("Unknown time zone: %(name)s") % {"name": name},
                              code="invalid_time_zone")


def time_zone_or_default(name: object) -> str:
    """A submitted zone (the browser's guess on sign-up) when it is known, else UTC."""
    return name if is_time_zone(name) and isinstance(name, str) else DEFAULT_TIME_ZONE


def zone_named(name: object) -> tzinfo:
    """The zone of that name (UTC for an unknown one)."""
    return zoneinfo.ZoneInfo(time_zone_or_default(name))


def zone_of(user) -> tzinfo:
    """The user's zone (UTC for anybody without one, or with one this machine lost)."""
    return zone_named(getattr(user, "time_zone", None))


def supported_language(code: str | None) -> str | None:
    """`code` as one of settings.LANGUAGES ("de-AT" -> "de"), or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def language_of(user) -> str:
    """The language a user reads (for mail, pushes, inbox lines): their setting, else what
    their browser last asked for, else the site's default."""
    return (supported_language(getattr(user, "language", ""))
            or supported_language(getattr(user, "browser_language", "")) or settings.LANGUAGE_CODE)


@contextlib.contextmanager
def in_users_language(user) -> Iterator[None]:
    """Render for `user` (None: the site's defaults): their language and their time zone.
    Every mail and push is rendered inside one of these, at the point it is sent."""
    with translation.override(language_of(user)), timezone.override(zone_of(user)):
        yield


def language_from_headers(headers: dict[bytes, bytes] | list[tuple[bytes, bytes]]) -> str:
    """The language of a socket that has no user setting: the django_language cookie, else
    Accept-Language (as LocaleMiddleware decides for a page), else the site's default."""
    from http.cookies import SimpleCookie

    from django.utils.translation.trans_real import parse_accept_lang_header

    found = dict(headers) if not isinstance(headers, dict) else headers
    cookie = SimpleCookie()
    with contextlib.suppress(Exception):
        cookie.load(found.get(b"cookie", b"").decode("latin-1"))
    if settings.LANGUAGE_COOKIE_NAME in cookie:
        chosen = supported_language(cookie[settings.LANGUAGE_COOKIE_NAME].value)
        if chosen:
            return chosen
    for code, _quality in parse_accept_lang_header(found.get(b"accept-language", b"").decode("latin-1")):
        if code == "*":
            break
        chosen = supported_language(code)
        if chosen:
            return chosen
    return settings.LANGUAGE_CODE


def language_of_scope(scope: dict) -> str:
    """A socket's language: its user's setting, else what its browser asks for."""
    return supported_language(getattr(scope.get("user"), "language", "")) or language_from_headers(
        scope.get("headers", []))


@contextlib.contextmanager
def in_scope_language(scope: dict) -> Iterator[None]:
    """Render for a socket's reader (lobby cards, a game's board on reconnect): its language
    (config.i18n.language_of_scope) and its user's time zone."""
    with translation.override(language_of_scope(scope)), timezone.override(zone_of(scope.get("user"))):
        yield


def render_in_every_language(render) -> dict[str, str]:
    """{language: render()} for every language of the site: for HTML sent once to sockets
    of any language (a chat line), each socket forwarding its own (games.consumers)."""
    renders = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            renders[code] = render()
    return renders


class UserLocaleMiddleware:
    """After AuthenticationMiddleware: a signed-in player's own language (when they chose
    one; blank follows LocaleMiddleware's pick from the cookie or Accept-Language) and time
    zone for the whole request."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            chosen = supported_language(getattr(user, "language", ""))
            if chosen:
                translation.activate(chosen)
                request.LANGUAGE_CODE = chosen
            else:
                remember_browser_language(user, translation.get_language())
            timezone.activate(zone_of(user))
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def remember_browser_language(user, language: str | None) -> None:
    """Keep the language a player's browser reads when it changes (one UPDATE then, none on
    the other requests), so what is written for them away from a request follows it."""
    language = supported_language(language)
    if language and language != language_of(user):
        user.browser_language = language
        get_user_model().objects.filter(pk=user.pk).update(browser_language=language)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language (the cookie, the redirect back), and for a signed-in player the
    choice stored on their account too, so their mail and pushes follow it."""
    response = django_set_language(request)
    chosen = supported_language(request.POST.get("language"))
    user = getattr(request, "user", None)
    if chosen and user is not None and user.is_authenticated and getattr(user, "language", chosen) != chosen:
        user.language = chosen
        user.save(update_fields=["language"])
    return response
