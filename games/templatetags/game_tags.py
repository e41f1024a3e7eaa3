from __future__ import annotations

import json

from django import template
from django.utils.safestring import SafeString

from games import shell
from games.panel import action_vals as _action_vals
from games.presenters import (
    describe_action,
    ordinal as _ordinal,
    players_label,
    score_grid as _score_grid,
    shortened as _shortened,
)
from games.translations import gettext as _

register = template.Library()

@register.simple_tag
def history_items(history) -> SafeString:
    """The History's `<li>` entries, newest first (games.shell writes them)."""
    return shell.history_items(history)


@register.simple_tag(takes_context=True)
def action_vals(context, action) -> str:
    """hx-vals that submit `action` with this render's token and version."""
    return _action_vals(context.flatten(), action)


@register.filter
def describe(action) -> str:
    return describe_action(action)


@register.simple_tag(takes_context=True)
def score_card(context) -> SafeString:
    """The score card on its side and the score bars (games.shell writes them)."""
    return shell.score_card(context)


@register.filter
def shortened(text, length) -> str:
    """`truncatechars`, quick for a text that fits (a seat's name beside its score bar)."""
    return _shortened(text, int(length))


@register.filter
def get(mapping, key):
    """mapping[key] for dicts and lists in templates (None when missing)."""
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        try:
            return mapping[str(key)]
        except (KeyError, IndexError, TypeError):
            return None


@register.filter
def score_grid(rows, slug) -> list[dict]:
    """The score card by category (games.presenters.score_grid), named as the game names them."""
    return _score_grid(slug, rows or [])


@register.filter
def to_json(value) -> str:
    return json.dumps(value, sort_keys=True)


@register.filter
def chart_height(rows) -> int:
    return shell.chart_height(rows)


@register.filter
def score_labels(rows) -> list[str]:
    from games.panel import breakdown_labels

    return breakdown_labels(rows)


@register.filter
def clock(seconds) -> str:
    """A clock's time left: "1d 4h" for days, "h:mm:ss" for hours, "m:ss" below."""
    return shell.clock(seconds)


@register.simple_tag
def clock_day_format() -> str:
    """The `clock` filter's wording of days and hours, for the page's countdown script."""
    return _("%(days)sd %(hours)sh")


@register.filter
def player_count(rules) -> str:
    """"2 players" when a game takes exactly two, "1–6 players" for a range."""
    return players_label(rules)


@register.filter
def ordinal(rank) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th" (places in a result)."""
    try:
        rank = int(rank)
    except (TypeError, ValueError):
        return ""
    return _ordinal(rank)
