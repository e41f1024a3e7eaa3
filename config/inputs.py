"""The one validation layer for what a request brings in (issue 11: "no 500 from any input").

Every view input passes through here before a view or the database sees it:
- URL ids use the `<id:...>` converter: 1 to 18 digits, so no id overflows a 64-bit column
  (SQLite raises OverflowError, PostgreSQL "bigint out of range"); other paths are 404s.
- URL tokens use `<token:...>`: URL-safe characters only, at most 64 of them.
- `InputValidationMiddleware` answers 400 with a clear message when the path, a query
  parameter or a form field holds a NUL or another control character (PostgreSQL refuses
  NUL in text, and no honest client sends one), and turns Django's bare 405 answers for GET
  on POST-only URLs into a styled page.
- `parse_json` reads a JSON field with a size and a nesting-depth limit, so deeply nested
  input is refused before the parser recurses (10 kB of brackets is a RecursionError).
- `client_ip` is the one answer to "who is this client", for rate limits (django-ratelimit)
  and log-in lockouts (django-axes) alike: settings.PROXY_COUNT trusted proxies in front of
  the site each append the address they saw to X-Forwarded-For, so the client is the
  PROXY_COUNT-th entry from the right; whatever stands further left, the client wrote
  itself and is ignored (no new rate-limit bucket per made-up header). A header that
  cannot be the proxies' work (missing, too short, not an address) is a 400.
"""
from __future__ import annotations

import ipaddress
import json
import re
from typing import Any, Callable

from django.conf import settings
from django.http.multipartparser import MultiPartParserError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import register_converter
from django.utils.translation import gettext as _
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

# C0 controls and DEL; tab, newline and carriage return are fine inside form values
# (a text area sends them) but not in a path or a query parameter.
CONTROL_IN_VALUE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
CONTROL_ANYWHERE = re.compile(r"[\x00-\x1f\x7f]")
MAX_JSON_BYTES = 10_000
MAX_JSON_DEPTH = 32
TEXT_TOO_LONG = gettext_lazy("The value is too long.")
TEXT_NOT_ALLOWED = gettext_lazy("The value holds characters that are not allowed.")
BAD_CHARACTERS = gettext_lazy("The request holds characters that are not allowed (a NUL or another control character).")


class InputError(ValueError):
    """Input the site refuses; `str(exc)` is the message shown (HTTP 400)."""


class IdConverter:
    """A database id in a URL: 1 to 18 digits (fits a signed 64-bit column)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class TokenConverter:
    """An opaque URL token (invites): URL-safe characters, at most 64."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "id")
register_converter(TokenConverter, "token")


def clean_text(value: str, *, max_length: int, too_long: str | Promise = TEXT_TOO_LONG,
               not_allowed: str | Promise = TEXT_NOT_ALLOWED) -> str:
    """A short single-line string from a client (a move token, a page key), or InputError.
    Callers name the field in whole sentences (a noun glued into one could not be declined
    in German or Italian)."""
    if len(value) > max_length:
        raise InputError(str(too_long))
    if CONTROL_ANYWHERE.search(value):
        raise InputError(str(not_allowed))
    return value


def json_depth_exceeds(raw: str, limit: int) -> bool:
    """Does the JSON text nest arrays/objects deeper than `limit`? (Scans, never recurses.)"""
    depth, in_string, escaped = 0, False, False
    for char in raw:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def parse_json(raw: str, *, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """A game action's JSON from a form field, or InputError with a message a player understands."""
    if len(raw.encode("utf-8", "surrogatepass")) > max_bytes:
        raise InputError(_("That action is far too large."))
    if json_depth_exceeds(raw, max_depth):
        raise InputError(_("That action is nested too deeply."))
    try:
        value = json.loads(raw, parse_constant=_refuse_constant)
    except (TypeError, ValueError, RecursionError):
        raise InputError(_("That action could not be read (it is not valid JSON).")) from None
    if _holds_lone_surrogate(value):
        raise InputError(_("That action holds characters that are not allowed (half of a UTF-16 pair)."))
    return value


def _holds_lone_surrogate(value: Any) -> bool:
    """JSON may escape half of a UTF-16 pair ("\\ud800"), which is no character: no page or
    database can hold it, and a refusal that repeated it could not be sent (a 500)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _refuse_constant(name: str) -> Any:
    # NaN and Infinity are not JSON; PostgreSQL's jsonb refuses them too.
    raise ValueError(f"{name} is not allowed")


def bad_input_characters(request: HttpRequest) -> bool:
    """Does the path, a query parameter or a form field carry a control character?
    (A multipart body that cannot be parsed counts as bad input too.)"""
    if CONTROL_ANYWHERE.search(request.path_info):
        return True
    for key, value in request.GET.lists():
        if CONTROL_ANYWHERE.search(key) or any(CONTROL_ANYWHERE.search(v) for v in value):
            return True
    if request.method == "POST" and request.content_type in ("application/x-www-form-urlencoded",
                                                              "multipart/form-data"):
        try:
            fields = request.POST.lists()
        except MultiPartParserError:
            return True
        for key, value in fields:
            if CONTROL_ANYWHERE.search(key) or any(CONTROL_IN_VALUE.search(v) for v in value):
                return True
    return False


BAD_ADDRESS = gettext_lazy("The request's forwarding header (X-Forwarded-For) does not carry a client address "
                           "the site's proxy could have written.")
UNKNOWN_CLIENT = "0.0.0.0"
IPV4_WITH_PORT = re.compile(r"^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$")
IPV6_WITH_PORT = re.compile(r"^\[([0-9A-Fa-f:.]+)\](?::\d{1,5})?$")


def client_ip(request: HttpRequest) -> str:
    """The client's address (see the module's docstring), worked out once per request.
    InputValidationMiddleware refuses requests whose header is unusable, so this answers
    UNKNOWN_CLIENT only for requests that never went through it (django-axes also asks
    about the stand-in request of a test client's force_login, which has no address)."""
    known = getattr(request, "_client_ip", None)
    if known is None:
        try:
            known = resolve_client_ip(request.META, settings.PROXY_COUNT)
        except InputError:
            known = UNKNOWN_CLIENT
        request._client_ip = known  # type: ignore[attr-defined]
    return known


def resolve_client_ip(meta: dict, proxies: int) -> str:
    if proxies <= 0:
        return _address(meta.get("REMOTE_ADDR") or "")
    hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(hops) < proxies:
        raise InputError(str(BAD_ADDRESS))
    return _address(hops[-proxies])


def _address(text: str) -> str:
    """A normalised IP address, from an address with or without a port."""
    match = IPV4_WITH_PORT.match(text) or IPV6_WITH_PORT.match(text)
    try:
        return str(ipaddress.ip_address(match.group(1) if match else text))
    except ValueError:
        raise InputError(str(BAD_ADDRESS)) from None


def refusal(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
    """A styled refusal: the message alone for htmx requests, a full page otherwise."""
    template = "games/_message.html" if request.headers.get("HX-Request") else "400.html"
    return render(request, template, {"message": message, "status": status}, status=status)


class InputValidationMiddleware:
    """Refuse control characters anywhere in the input and forwarding headers no trusted
    proxy wrote; style bare 405 answers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if bad_input_characters(request):
            return refusal(request, str(BAD_CHARACTERS))
        try:  # here, so a bad header is one 400 and not a 500 in a rate limit
            request._client_ip = resolve_client_ip(request.META, settings.PROXY_COUNT)  # type: ignore[attr-defined]
        except InputError as exc:
            return refusal(request, str(exc))
        response = self.get_response(request)
        if response.status_code == 405 and not response.content:
            styled = refusal(request, _("This address only accepts form submissions: go back to the page "
                                        "and use its buttons."), status=405)
            styled["Allow"] = response.get("Allow", "")
            return styled
        return response
