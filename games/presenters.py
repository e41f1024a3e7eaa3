"""Per-game presentation: option labels and the board partial's extra context.

A game package may add `presenter.py` with `OPTION_SPECS` (labels, choices and
bounds for the create-table form) and `board_context(panel) -> dict` (geometry for its
SVG board, computed from the seat's view), plus `templates/games/<slug>/board.html` in its own folder.
Games without them get a generic board that lists the legal actions as buttons, so every
registered game is playable from the day its rules land.
"""
from __future__ import annotations

import importlib
import re
import sys
import unicodedata
from types import ModuleType

from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.text import Truncator
from django.utils.translation import get_language

from . import rules as registry
from .translations import gettext as _, ngettext, pgettext


def _module(slug: str) -> ModuleType | None:
    """The game package's presenter.py, or None for a game without one."""
    name = f"{registry.package_of(slug)}.presenter"
    loaded = sys.modules.get(name)     # asked several times per panel: the import machinery once
    if loaded is not None:
        return loaded
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def option_specs(slug: str) -> dict:
    module = _module(slug)
    return getattr(module, "OPTION_SPECS", {}) if module else {}


def option_specs_shown(slug: str) -> dict:
    """The option specs with their label and help in the active language (the "how to
    play" page's variants)."""
    shown = {}
    for name, spec in option_specs(slug).items():
        spec = dict(spec)
        for key in ("label", "help"):
            if spec.get(key):
                spec[key] = translated(spec[key])
        shown[name] = spec
    return shown


def board_context(slug: str, panel: dict) -> dict:
    """The game's extra context, plus its own static files (SCRIPT, STYLESHEET)."""
    module = _module(slug)
    if module is None:
        return {}
    extra = module.board_context(panel) if hasattr(module, "board_context") else {}
    return {**board_assets(slug), **extra}


def board_html(slug: str, panel: dict) -> str | None:
    """The live panel's board written by the game's presenter (`board_html(panel)`, the same
    markup as its template), or None: the template draws it (games.shell.board)."""
    module = _module(slug)
    writer = getattr(module, "board_html", None) if module else None
    return writer(panel) if writer is not None else None


def board_assets(slug: str) -> dict:
    """The game's own static files (SCRIPT, STYLESHEET), for a page drawn around a cached board."""
    module = _module(slug)
    return {"board_script": getattr(module, "SCRIPT", ""), "board_style": getattr(module, "STYLESHEET", "")}


def _own_or_generic(slug: str, page: str) -> str:
    """The game package's own `games/<slug>/<page>`, or the generic one every game has."""
    name = f"games/{slug}/{page}"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return f"games/generic/{page}"
    return name


def board_template(slug: str) -> str:
    return _own_or_generic(slug, "board.html")


def players_label(rules) -> str:
    """"2 players" when a game takes exactly two (never "2-2"), "1–6 players" for a range."""
    low, high = rules.min_players, rules.max_players
    if low == high:
        return ngettext("%(count)s player", "%(count)s players", low) % {"count": low}
    return _("%(low)s–%(high)s players") % {"low": low, "high": high}


def ordinal(rank: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th" (a place in a result), in the active language."""
    words = {"number": rank}
    if 10 <= rank % 100 <= 20:
        return pgettext("a place in a result", "%(number)sth") % words
    suffix = rank % 10
    if suffix == 1:
        return pgettext("a place in a result", "%(number)sst") % words
    if suffix == 2:
        return pgettext("a place in a result", "%(number)snd") % words
    if suffix == 3:
        return pgettext("a place in a result", "%(number)srd") % words
    return pgettext("a place in a result", "%(number)sth") % words


def how_to_play_template(slug: str) -> str:
    """The game's own "how to play" page, or the generic one built from its rules."""
    return _own_or_generic(slug, "how_to_play.html")


def how_to_play_context(slug: str) -> dict:
    """What the game's presenter adds to its "how to play" page (e.g. SVG diagrams drawn
    by the same builders as the board), from its optional `how_to_play_context()`."""
    module = _module(slug)
    if module is None or not hasattr(module, "how_to_play_context"):
        return {}
    return module.how_to_play_context()


def describe_action(action: dict) -> str:
    """A readable label for an action, for generic boards and replays (the action's own
    keys in words: a game with a presenter words its moves itself)."""
    kind = str(action.get("type", "?")).replace("_", " ").capitalize()
    details = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in action.items() if k != "type")
    if not details:
        return kind
    return pgettext("an action and its details", "%(action)s: %(details)s") % {"action": kind, "details": details}


def translated(text) -> str:
    """A presenter's label (OPTION_SPECS, BREAKDOWN_LABELS: module-level tables, marked with
    gettext_noop or gettext_lazy) in the active language; "" stays "" (never the catalogue's
    header)."""
    text = str(text)
    return _(text) if text else text


def describe_options(slug: str, options: dict) -> list[str]:
    """Options in words for table and game pages ("Board: Giza", "Rivers & Rafts: on")."""
    specs = option_specs(slug)
    lines = []
    for name, value in options.items():
        spec = specs.get(name, {})
        label = translated(spec["label"]) if "label" in spec else name.replace("_", " ").capitalize()
        choices = dict((str(k), v) for k, v in spec.get("choices", []))
        if isinstance(value, bool):
            shown = pgettext("an option", "on") if value else pgettext("an option", "off")
        else:
            shown = translated(choices[str(value)]) if str(value) in choices else str(value)
        lines.append(pgettext("an option and its value", "%(option)s: %(value)s") % {"option": label, "value": shown})
    return lines


def shortened(text, length: int) -> str:
    """`text|truncatechars:length`, without building a Truncator for the (usual) text that
    already fits: what the filter returns for it, the text in Unicode's composed form."""
    text = unicodedata.normalize("NFC", str(text))
    return text if len(text) <= length else Truncator(text).chars(length)


SEAT_MENTION = re.compile(r"\bSeat (\d+)\b")


def name_seats(text: str, names: list[str]) -> str:
    """Legacy log lines say "Seat N" (N = index + 1); pages show names. Only for games whose
    view still has a prose `log` instead of `events`."""
    def swap(match):
        index = int(match.group(1)) - 1
        return names[index] if 0 <= index < len(names) else match.group(0)
    return SEAT_MENTION.sub(swap, text)


def seat_name(names: list[str], seat) -> str:
    """A seat's display name; "Seat N" for a seat beyond the names, "Someone" for none."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("Seat %(number)s") % {"number": seat + 1} if isinstance(seat, int) else _("Someone")


def describe_from(table: dict, event: dict, names: list[str]) -> str:
    """An event in words by a game's table of describers (type -> fn(event, names)). An
    unknown or malformed event (e.g. one from an older rules version) gets a plain line
    rather than an error: the history must always read."""
    words = table.get(event.get("type"))
    if words is not None:
        try:
            return words(event, names)
        except (KeyError, TypeError, IndexError, ValueError):
            pass
    kind = str(event.get("type", "event")).replace("_", " ")
    if isinstance(event.get("seat"), int):
        return _("%(name)s: %(event)s.") % {"name": seat_name(names, event["seat"]), "event": kind.capitalize()}
    return _("%(event)s.") % {"event": kind.capitalize()}


def describe(slug: str, event: dict, names: list[str], view: dict | None = None) -> str:
    """One event in words, by the game's own `describe(event, names)`; with the `view` it
    is shown beside, by its `describe_in_view(event, names, view)` when it has one (to name
    a place as the board on the page names it)."""
    module = _module(slug)
    if view is not None and module is not None and hasattr(module, "describe_in_view"):
        return module.describe_in_view(event, names, view)
    if module is not None and hasattr(module, "describe"):
        return module.describe(event, names)
    return describe_action(event)


# Each event's sentence, kept once it has been written (issue 21): a panel shows the whole
# History, and re-describing a few hundred events on every render of every audience was most
# of a late game's panel. Kept in this process only, not in the shared cache: a lookup here
# costs less than describing, a Redis round trip would cost more, and a deploy (new presenter
# code, new catalogues) starts afresh by itself.
#
# The key is everything a sentence is made of: the game, the language, the seats' names,
# what `describe_in_view` reads of the view (the presenter's `describe_context(view)`), and
# the event itself as the audience's view holds it (its `repr`: JSON data, so equal text
# means equal data). A sentence is therefore only ever reused for an audience whose own view
# holds that very event: a seat's hidden draw, filtered out of the others' events or shown
# to them with less in it, is a different key, and no audience can receive words made from
# data its view did not carry. A presenter's `describe` must read nothing but its arguments
# and the active language (they all do; tests/games/test_history_kept.py compares kept and
# fresh sentences for each game, audience and language). Bounded by SENTENCES_KEPT in all.
_SENTENCES: dict[tuple, dict[str, str]] = {}
SENTENCES_KEPT = 50_000           # in all (a late game holds a few hundred): some 20 MB at most
_kept_count = [0]


def sentence_writer(slug: str, view: dict, names: list[str]):
    """`event -> sentence` for this view's events, as `describe` words them, from the
    kept sentences when the same event was worded before under the same key."""
    module = _module(slug)
    if module is not None and hasattr(module, "describe_in_view"):
        if not hasattr(module, "describe_context"):   # cannot tell what it reads: no keeping
            return lambda event: module.describe_in_view(event, names, view)
        context = module.describe_context(view)
    else:
        context = None
    key = (slug, get_language(), tuple(names), context)
    kept = _SENTENCES.setdefault(key, {})

    def sentence(event: dict) -> str:
        data = repr(event)
        text = kept.get(data)
        if text is None:
            if _kept_count[0] >= SENTENCES_KEPT:   # full: start afresh (the sets in use refill)
                forget_sentences()
                kept.clear()
            text = kept[data] = describe(slug, event, names, view)
            _kept_count[0] += 1
        return text
    return sentence


def forget_sentences() -> None:
    """Drop every kept sentence (tests; a process picks up new catalogues by restarting)."""
    _SENTENCES.clear()
    _kept_count[0] = 0


def history(slug: str, view: dict, names: list[str]) -> list[dict]:
    """What happened so far, oldest first: `{"turn", "seat", "text", "event"}` per entry.

    Drawn from the view's `events` (data, filtered per seat like the rest of the view) and
    put into words by the game's presenter, so pages, replays and e-mails read the same
    data and nothing parses sentences; each event's sentence is written once (see
    `sentence_writer`). A game whose view still carries a prose `log` gets its lines with
    seat numbers swapped for names.
    """
    events = view.get("events")
    if events is not None:
        sentence = sentence_writer(slug, view, names)
        return [{"turn": event.get("turn"), "seat": event.get("seat"), "event": event,
                 "text": sentence(event)} for event in events]
    return [{"turn": None, "seat": None, "event": None, "text": name_seats(str(line), names)}
            for line in view.get("log", [])]


def describe_move(slug: str, action: dict, seat: int, names: list[str], view: dict) -> str:
    """A move in words when it adds no event of its own yet (a simultaneous turn's draw,
    a number written before the turn is resolved): the presenter's `describe_move(action,
    seat, names, view)` with `view` the mover's view before it, in the History's wording.
    Never the raw action: a game without one says who moved."""
    module = _module(slug)
    if module is not None and hasattr(module, "describe_move"):
        return module.describe_move(action, seat, names, view)
    return _("%(name)s moved.") % {"name": seat_name(names, seat)}


def folds_moves(slug: str) -> bool:
    """Whether the game has in-turn corrections its replay folds away (games.replay)."""
    module = _module(slug)
    return module is not None and hasattr(module, "in_turn_corrections")


def folded_moves(slug: str, moves: list[tuple[int, dict]]) -> set[int]:
    """Indexes into `moves` ((seat, action) in order) of the in-turn corrections and the
    moves they cancel: the replay skips them (they stay in the move log)."""
    module = _module(slug)
    if module is None or not hasattr(module, "in_turn_corrections"):
        return set()
    return module.in_turn_corrections(moves)


def breakdown_label(slug: str, key: str) -> str:
    """A score category's name, the same in the live, replay and final tables: the
    presenter's `BREAKDOWN_LABELS[key]` when it names it, else the key in words."""
    module = _module(slug)
    labels = getattr(module, "BREAKDOWN_LABELS", {}) if module else {}
    label = labels.get(key)
    return translated(label) if label else key.replace("_", " ").capitalize()


def score_grid(slug: str, rows: list[dict]) -> list[dict]:
    """The score card turned on its side: one row per category (`label`, one value per
    player in `rows`' order), then the total. A column per player keeps the card as
    narrow as the number of players, so every category and its name stay in view on a
    phone and in the side column, and the categories above the total add up to it."""
    module = _module(slug)
    keys = list(rows[0].get("breakdown", {})) if rows else []
    aside = module.not_in_total(keys) if module is not None and hasattr(module, "not_in_total") else set()

    def line(key: str) -> dict:
        return {"label": breakdown_label(slug, key), "key": key, "aside": key in aside,
                "values": [row.get("breakdown", {}).get(key, "") for row in rows]}
    total = {"label": _("Total"), "key": "total", "aside": False, "values": [row.get("total", 0) for row in rows]}
    # What the total does not count (Roll to the Top's empty boxes) comes after it.
    return [line(k) for k in keys if k not in aside] + [total] + [line(k) for k in keys if k in aside]
