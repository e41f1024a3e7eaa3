"""A page drawn once for every visitor, with only the visitor's own parts drawn per visit
(issue 21: a finished game's replay page seen again was 5-7x a bare request, nearly all of
it the site's page around a cached step).

templates/base.html, given `shell` (MARKS) and a CSRF mark instead of the visitor's, draws
the page with marks where the visitor's parts go: the turn badge's count in the title, the
head's tab preferences (notifications/_head.html), the account corner (_account.html) and
the CSRF token, and the page's own parts that change more often (a replay's step). The
page is kept as its pieces between the marks; a visit draws its own parts (templates/
_visitor.html, one render, itself kept under what it shows) and joins. The cache key is
the caller's and must carry everything else the page shows (the reader's language and
time zone, whether they are logged in: base.html's data-time-zone).
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from .header import header_of

# HTML comments: nothing a visitor typed can produce one (it is escaped), so a mark in the
# page can only be the template's.
VISITOR_PARTS = ("title", "head", "account")
MARKS = {name: mark_safe(f"<!--shell:{name}-->") for name in VISITOR_PARTS}
CSRF_MARK = mark_safe("<!--shell:csrf-->")
_MARK = re.compile(r"<!--shell:([a-z_]+)-->")
_SPLIT = "<!--shell:split-->"  # between the visitor's parts in _visitor.html
VISITOR_SECONDS = 600


def shell_page(request: HttpRequest, template: str, context: Callable[[], dict], key: str, seconds: int,
               parts: dict[str, str] | None = None) -> HttpResponse:
    """`template` drawn with `context()` for this visitor: from the cached shell under `key`
    when there is one (`context` is then not called), else drawn as a shell and kept for
    `seconds`. `parts`: context variables of the page that change more often than the
    shell (a replay's step), marks in the shell filled on every visit. A visitor with
    messages waiting gets the page drawn in full (the shell has none, and reading them here
    would use them up)."""
    parts = parts or {}
    if _messages_waiting(request):
        return render(request, template, {**context(), **parts})
    pieces = cache.get(key)
    if pieces is None:
        pieces = keep_shell(key, template, context(), list(parts), authenticated=request.user.is_authenticated,
                            seconds=seconds)
    return HttpResponse(filled(request, pieces, parts))


class _SomeoneLoggedIn:
    """The reader a logged-in shell is drawn for: logged in, and nobody in particular."""

    is_authenticated = True
    is_anonymous = False


def keep_shell(key: str, template: str, context: dict, part_names: list[str], *, authenticated: bool,
               seconds: int) -> list[str]:
    """Draw `template` as a shell (the page's `part_names` as marks too) and keep it under
    `key`: the same whether a visit or a worker (a page drawn ahead) draws it, since it is
    drawn without a request, for a reader who is only logged in or not (base.html's
    data-time-zone)."""
    user = _SomeoneLoggedIn() if authenticated else AnonymousUser()
    marks = {name: mark_safe(f"<!--shell:{name}-->") for name in part_names}
    page = render_to_string(template, {**context, **marks, "user": user, "shell": MARKS, "csrf_token": CSRF_MARK,
                                       "messages": ()})
    pieces = _MARK.split(page)  # text, mark name, text, mark name, ..., text
    cache.set(key, pieces, seconds)
    return pieces


def filled(request: HttpRequest, pieces: list[str], parts: dict[str, str]) -> str:
    """The shell's pieces joined with the page's parts and this visitor's in place of the marks."""
    token = get_token(request)  # one token for the page, as a page drawn in full has
    own = dict(zip(VISITOR_PARTS, visitor_parts(request, token), strict=True), csrf=token, **parts)
    return "".join(own[piece] if i % 2 else piece for i, piece in enumerate(pieces))


def visitor_parts(request: HttpRequest, token: str) -> list[str]:
    """The visitor's title prefix, head links and account corner (templates/_visitor.html),
    kept under everything they show (visitor_state), the CSRF token a mark: the header's
    values are read on every visit (one cache read, config.header), and the parts drawn
    again only when one changed."""
    state, values = visitor_state(request)
    key = "shell-visitor:" + hashlib.sha256(repr(state).encode()).hexdigest()
    parts = cache.get(key)
    if parts is None:  # drawn with the values read for the key: no query twice
        parts = render_to_string("_visitor.html", {"csrf_token": CSRF_MARK, **values}, request).split(_SPLIT)
        cache.set(key, parts, VISITOR_SECONDS)
    return [part.replace(CSRF_MARK, token) if CSRF_MARK in part else part for part in parts]


def visitor_state(request: HttpRequest) -> tuple[tuple, dict]:
    """Everything _visitor.html (notifications/_head.html, _account.html, the badge and the
    bell) shows: who, in which words, clock and address, and the badge's, bell's and tab
    preferences' values (config.header: one cache read for a player, the three queries on a
    miss; nothing for a visitor); and those values, for the template. A new thing shown in
    the header must be added here, or a kept header would miss it."""
    user = request.user
    where = (get_language(), timezone.get_current_timezone_name(), request.get_full_path())
    if not user.is_authenticated:
        return ("visitor", *where), {}
    header = header_of(user)
    return (user.pk, user.get_username(), user.is_staff, *where, *header.state()), {"header": header}


def _messages_waiting(request: HttpRequest) -> bool:
    return bool(len(get_messages(request)))
