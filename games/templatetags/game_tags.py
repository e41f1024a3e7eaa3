from __future__ import annotations

import json

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.panel import action_vals as _action_vals
from games.presenters import (
    describe_action,
    ordinal as _ordinal,
    players_label,
    score_grid as _score_grid,
    shortened as _shortened,
)

register = template.Library()

# The escaped form of each History sentence: the sentences are kept (games.presenters), so
# the same string objects come back render after render and their hash is already known.
_ESCAPED: dict[str, str] = {}


@register.simple_tag
def history_items(history) -> SafeString:
    """The History's `<li>` entries, newest first, numbered by move, with "Turn N" before an
    entry whose sentence does not start with it. Written here rather than as a template loop:
    a late game has several hundred entries and every audience's panel draws them on every
    move (issue 21). What a loop in games/_history.html drew, character for character."""
    if not history:
        return mark_safe('<li class="muted">%s</li>' % conditional_escape(_("Nothing has happened yet.")))
    if len(_ESCAPED) > 20000:
        _ESCAPED.clear()
    turn_label = _("Turn %(number)s")
    turns: dict = {}
    parts = []
    for entry in reversed(history):
        text = entry["text"]
        shown = _ESCAPED.get(text)
        if shown is None:
            shown = _ESCAPED[text] = str(conditional_escape(text))
        turn = entry["turn"]
        if turn is not None and not entry["says_turn"]:
            label = turns.get(turn)
            if label is None:
                words = turn_label % {"number": conditional_escape(turn)}
                label = turns[turn] = '<span class="turn">%s</span> ' % words
            parts.append('<li value="%s">%s%s</li>' % (entry["number"], label, shown))
        else:
            parts.append('<li value="%s">%s</li>' % (entry["number"], shown))
    return mark_safe("".join(parts))


@register.simple_tag(takes_context=True)
def action_vals(context, action) -> str:
    """hx-vals that submit `action` with this render's token and version."""
    return _action_vals(context.flatten(), action)


@register.filter
def describe(action) -> str:
    return describe_action(action)


def _cell(value) -> str:
    return str(conditional_escape(value))


def _person(name) -> str:
    shown = _cell(name)
    return f'<span class="name" title="{shown}">{shown}</span>'


@register.simple_tag(takes_context=True)
def score_card(context) -> SafeString:
    """The score card on its side and the score bars (what games/_scores.html drew as a
    template: a panel's every audience draws it on every move, issue 21): a column per player,
    a row per category, the total under the categories it adds up, what it does not count
    after it; the rating row on a rated game's final card. Every outside text escaped once."""
    scores, game = context.get("scores"), context.get("game")
    if not scores:
        return mark_safe('<p class="muted">%s</p>' % _cell(_("Scores appear as the game goes on.")))
    out = ['<table class="score-table score-card"><thead><tr><th scope="col"><span class="visually-hidden">',
           _cell(_("Category")), "</span></th>"]
    for row in scores:
        rank, index = row["rank"], _cell(row["index"])
        out.append(f'<th scope="col" class="seat-{index}{" winner" if rank == 1 else ""}">')
        if rank:
            star = '<span class="star" aria-hidden="true">★</span>' if rank == 1 else ""
            out.append(f'<span class="rank">{star}{_cell(rank)}.</span> ')
        out.append(f'<span class="swatch seat-{index}" aria-hidden="true"></span>{_person(row["name"])}</th>')
    out.append("</tr></thead><tbody>")
    for line in _score_grid(game.game_slug, scores):
        total = line["key"] == "total"
        cls = "total" if total else ("aside" if line["aside"] else "")
        cells = "".join(f"<td><strong>{_cell(v)}</strong></td>" if total else f"<td>{_cell(v)}</td>"
                        for v in line["values"])
        out.append(f'<tr class="{cls}"><th scope="row">{_cell(line["label"])}</th>{cells}</tr>')
    if game.rated and not game.is_active:
        out.append(f'<tr class="rating"><th scope="row">{_cell(_("Rating"))}</th>')
        for row in scores:
            change = (f'{_cell(row["rating_after"])} <small>{_cell(row["rating_reason"])}</small>'
                      if row.get("rating_reason") else "")
            out.append(f'<td class="rating-change">{change}</td>')
        out.append("</tr>")
    out.append(f'</tbody></table><svg class="score-bars" viewBox="0 0 220 {chart_height(scores)}" role="img" '
               f'aria-label="{_cell(_("Scores as bars"))}">')
    for row in scores:
        width, index = row["bar_width"], _cell(row["index"])
        out.append(f'<g transform="translate(0,{_cell(row["bar_y"])})"><text x="0" y="12" font-size="9">'
                   f'{_cell(_shortened(row["name"], 14))}</text><rect class="bar seat-{index}" x="70" y="3" '
                   f'height="11" rx="2" width="{_cell(width)}"></rect><text x="{int(width) + 74}" y="12" '
                   f'font-size="9">{_cell(row["total"])}</text></g>')
    out.append("</svg>")
    return mark_safe("".join(out))


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
    return 20 * len(rows or [])


@register.filter
def score_labels(rows) -> list[str]:
    from games.panel import breakdown_labels

    return breakdown_labels(rows)


@register.filter
def clock(seconds) -> str:
    """A clock's time left: "1d 4h" for days, "h:mm:ss" for hours, "m:ss" below."""
    if seconds is None:
        return ""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return _("%(days)sd %(hours)sh") % {"days": days, "hours": hours}
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


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
