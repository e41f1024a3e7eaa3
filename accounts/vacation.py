"""Vacation: a declared absence stops the player's correspondence clocks (up to
VACATION_DAYS_PER_YEAR days a calendar year; live games are not affected)."""
from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from games import engine
from games.engine import Rejected

from .models import User


def days_left(user: User, now=None) -> int:
    now = now or timezone.now()
    used = user.vacation_days_used if user.vacation_year == now.year else 0
    return max(0, settings.VACATION_DAYS_PER_YEAR - used)


def declare(user_id: int, days: int) -> User:
    """Start an absence of `days` days from now (or extend the current one by that much)."""
    now = timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if days < 1:
            raise Rejected(_("A vacation lasts at least one day."), 400)
        if days > days_left(user, now):
            left = days_left(user, now)
            raise Rejected(ngettext("You have %(days)s vacation day left this year.",
                                    "You have %(days)s vacation days left this year.", left) % {"days": left}, 400)
        if user.vacation_year != now.year:
            user.vacation_year, user.vacation_days_used = now.year, 0
        start = max(user.vacation_until or now, now)  # extends the current absence, if any
        user.vacation_until = start + timedelta(days=days)
        user.vacation_days_used += days
        user.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
    engine.vacation_changed(user)
    return user


def end(user_id: int) -> User:
    """Back early: the clocks run again now and the whole unused days are given back."""
    now = timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        until = user.vacation_until
        if until is None or not user.on_vacation(now):
            raise Rejected(_("You are not on vacation."), 409)
        unused = math.floor((until - now) / timedelta(days=1))
        if user.vacation_year == now.year:
            user.vacation_days_used = max(0, user.vacation_days_used - unused)
        user.vacation_until = now
        user.save(update_fields=["vacation_until", "vacation_days_used"])
    engine.vacation_changed(user)
    return user
