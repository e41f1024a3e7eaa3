"""A page drawn once for every visitor, with only the visitor's own parts drawn per visit
(issue 21: a finished game's replay page seen again was 5-7x a bare request, nearly all of
it the site's page around a cached step).

templates/base.html, given `shell` (MARKS) and a CSRF mark instead of the visitor's, draws
the page with marks where the visitor's parts go: the turn badge's count in the title, the
head's tab preferences (notifications/_head.html), the account corner (_account.html) and
the CSRF token. The page is kept as its pieces between the marks; a visit draws its own
parts (templates/_visitor.html, one render) and joins. The cache key is the caller's and
must carry everything else the page shows (the reader's language and time zone, whether
they are logged in: base.html's data-time-zone).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

# HTML comments: nothing a visitor typed can produce one (it is escaped), so a mark in the
# page can only be the template's.
MARKS = {name: mark_safe(f"<!--shell:{name}-->") for name in ("title", "head", "account")}
CSRF_MARK = mark_safe("<!--shell:csrf-->")
_MARK = re.compile(r"<!--shell:(title|head|account|csrf)-->")
_SPLIT = "<!--shell:split-->"  # between the visitor's parts in _visitor.html


def shell_page(request: HttpRequest, template: str, context: Callable[[], dict], key: str,
               seconds: int) -> HttpResponse:
    """`template` drawn with `context()` for this visitor: from the cached shell under `key`
    when there is one (`context` is then not called), else drawn as a shell and kept for
    `seconds`. A visitor with messages waiting gets the page drawn in full (the shell has
    none, and reading them here would use them up)."""
    if _messages_waiting(request):
        return render(request, template, context())
    pieces = cache.get(key)
    if pieces is None:
        page = render_to_string(template, {**context(), "shell": MARKS, "csrf_token": CSRF_MARK, "messages": ()},
                                request)
        pieces = _MARK.split(page)  # text, mark name, text, mark name, ..., text
        cache.set(key, pieces, seconds)
    return HttpResponse(filled(request, pieces))


def filled(request: HttpRequest, pieces: list[str]) -> str:
    """The shell's pieces joined with this visitor's parts in place of the marks."""
    token = get_token(request)  # one token for the page, as a page drawn in full has
    title, head, account = render_to_string("_visitor.html", {"csrf_token": token}, request).split(_SPLIT)
    own = {"title": title, "head": head, "account": account, "csrf": token}
    return "".join(own[piece] if i % 2 else piece for i, piece in enumerate(pieces))


def _messages_waiting(request: HttpRequest) -> bool:
    return bool(len(get_messages(request)))
