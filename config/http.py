"""Request types for views' annotations: what middleware and decorators guarantee beyond a
plain HttpRequest, so mypy checks the views against it (types only: nothing here runs)."""
from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails  # set on every request by django_htmx's middleware


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request that @login_required let through: its user is a real account, never
    AnonymousUser."""

    user: User  # narrows HttpRequest.user (User | AnonymousUser): login_required turned the anonymous away
