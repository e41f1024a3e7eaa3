"""Abuse control: rate limits on the endpoints worth hammering (django-ratelimit), and the
answers a throttled or locked-out visitor sees. Login lockout itself is django-axes
(settings: AXES_*).

Use `limited("<group>")` on any POST view that creates something or costs the server
work (the group's rate lives in settings.RATELIMITS, so tests and deployments tune it):

    @limited("chat")
    def post_message(request, game_id): ...

Each request is counted twice, by client IP and by user (or IP when anonymous), so one
account cannot spread over many addresses and one address cannot spread over many
accounts. Counters live in the default cache: Redis when REDIS_URL is set, shared by
every worker; the in-memory cache of a single `make run` process otherwise.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy, ngettext
from django_ratelimit.decorators import ratelimit

TOO_MANY = gettext_lazy("Too many attempts in a short time: wait a minute, then try again.")


def rate_for(group: str, request: HttpRequest) -> str | None:
    """The group's rate from settings.RATELIMITS (None: unlimited)."""
    return settings.RATELIMITS.get(group)


def limited(group: str, method: str | list[str] = "POST") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Rate-limit a view by IP and by user (or IP) under `group` (see module docstring)."""
    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        by_user = ratelimit(group=group, key="user_or_ip", rate=rate_for, method=method, block=True)(view)
        return ratelimit(group=f"{group}-ip", key="ip", rate=_ip_rate(group), method=method, block=True)(by_user)
    return decorate


def _ip_rate(group: str) -> Callable[[str, HttpRequest], str | None]:
    # An address may carry several people (a household, a club): its limit is a multiple.
    def rate(_group: str, request: HttpRequest) -> str | None:
        base = settings.RATELIMITS.get(group)
        if not base:
            return None
        count, period = base.split("/", 1)
        return f"{int(count) * settings.RATELIMIT_IP_FACTOR}/{period}"
    return rate


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """RATELIMIT_VIEW: 429 with a clear message (the panel's message box for htmx)."""
    template = "games/_message.html" if request.headers.get("HX-Request") else "400.html"
    return render(request, template, {"message": TOO_MANY, "status": 429}, status=429)


def locked_out(request: HttpRequest, credentials: dict | None = None, *args: Any, **kwargs: Any) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the login form again, with the reason and when to retry."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    message = ngettext(
        "Too many failed log-in attempts for this account from your address. "
        "Log-in is locked for %(minutes)s minute; you can reset your password meanwhile.",
        "Too many failed log-in attempts for this account from your address. "
        "Log-in is locked for %(minutes)s minutes; you can reset your password meanwhile.",
        minutes) % {"minutes": minutes}
    return render(request, "400.html", {"message": message, "status": 429, "locked": True}, status=429)
