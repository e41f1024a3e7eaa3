"""Half-made moves: one `?sel=` convention for every game.

A move that takes several clicks (choose a mode, then a square; a first Stop, a second
Stop, then a route) is a list of **picks** kept in the panel URL as `?sel=`. The server
draws the board for the picks made so far; the browser keeps nothing but that string.

Syntax of a `?sel=` value
-------------------------
Picks joined by ".", each pick `key` or `key:value`:

    key    a lower-case word: [a-z][a-z0-9_]*, at most 16 characters
    value  [A-Za-z0-9_,-]+ (at most 40 characters), e.g. a cell "3-4" or a die "d6"

e.g. `?sel=m:stop.c:3-4` or `?sel=a:0-3.b:2-5`. Every character is URL-safe, so a value
goes into an `href` or `hx-get` unescaped. Anything else (a NUL, spaces, an overlong
string, an unknown character) makes the whole value empty: a garbled selection is no
selection.

How a game uses it
------------------
The game says how each legal action decomposes into picks, e.g. in its presenter:

    def picks(action: dict) -> list[str]:           # {"type": "stop", "cell": [3, 4]}
        return ["m:stop", f"c:{r}-{c}"]

(or a list of such lists when an action may be spelled several ways, e.g. a Trail
started from either end), and calls

    sel = selection.select(panel["selection"], panel["legal"], picks)

`sel.picks` is the longest prefix of the requested picks that is a prefix of some legal
action's picks: a forged, stale or half-garbled selection is cut back to what is still
possible, never trusted. `sel.candidates` are the picks that may come next (what to
highlight), `sel.action` is the action the picks name exactly (offer "Confirm"),
`sel.completes(pick)` the action that one more pick would finish (a route to click),
and `sel.add(pick)`, `sel.back()`, `sel.cancel()` are the `?sel=` strings of links and
buttons. Picks that only change what is *shown* (which map to look at) and are no part
of any action are "extras": `select(..., extras={"v": is_map_index})` keeps them apart,
each validated by its own function (`sel.extra("v")`, `sel.with_extra("v", "2")`).
Spectators and seats with no legal action get no action picks, but keep their extras.

The client convention (static/js/site.js, nothing per game)
-----------------------------------------------------------
The board's root element carries:

    data-sel-root          marks it (one per page)
    data-sel="..."         the selection this board was drawn with (`sel.raw`)
    data-sel-key="..."     what the selection belongs to (the seat's `seat_turn` key,
                           or the turn): a selection is only kept while it is unchanged
    data-panel-url="..."   the panel URL; the selection is re-asked for with ?sel=

A live update over the WebSocket is drawn without any selection (the server does not
know it). When one arrives and the board it brings has an empty `data-sel` but the same
`data-sel-key` as the selection this page last drew, site.js fetches the panel again
with `?sel=` (the server cuts it back if another move made part of it impossible).

Inside the root:

    .sel-target            a highlighted target (a legal square, a Stop to start from,
                           a route); give it role="button" and tabindex="0" when it is
                           not a native <button> / <a>
    [data-sel-cancel]      the control Esc presses (Cancel / "back to the map you hold")

Keyboard (one delegated handler in site.js): Enter or Space on a focused role=button
element inside the root clicks it; Esc clicks `[data-sel-cancel]`; the arrow keys, pressed on
anything focused inside the root, move focus to the nearest `.sel-target` in that direction
(with nothing focused they still scroll the page). After a swap, focus goes back to
the target with the same `data-sel-focus` value (give targets a stable one, e.g. the
pick they add), or to the first `.sel-target`, so a keyboard player keeps their place.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

SEPARATOR = "."
MAX_RAW = 400
MAX_PICKS = 16
PICK = re.compile(r"[a-z][a-z0-9_]{0,15}(?::[A-Za-z0-9_,-]{1,40})?")

Action = dict
Spelling = tuple[str, ...]
PicksOf = Callable[[Action], Sequence[str] | Sequence[Sequence[str]]]


def is_pick(text: object) -> bool:
    return isinstance(text, str) and PICK.fullmatch(text) is not None


def pick(key: str, value: object = None) -> str:
    """`key` or `key:value`; ValueError for a pick the syntax does not allow (a game bug)."""
    text = key if value is None else f"{key}:{value}"
    if not is_pick(text):
        raise ValueError(f"Not a valid pick: {text!r}")
    return text


def key_of(p: str) -> str:
    return p.split(":", 1)[0]


def value_of(p: str) -> str | None:
    parts = p.split(":", 1)
    return parts[1] if len(parts) == 2 else None


def parse(raw: object) -> list[str]:
    """The picks of a `?sel=` value; [] for anything that is not one (garbage, NUL, overlong)."""
    if not isinstance(raw, str) or not raw or len(raw) > MAX_RAW:
        return []
    picks = raw.split(SEPARATOR)
    if len(picks) > MAX_PICKS or not all(is_pick(p) for p in picks):
        return []
    return picks


def encode(picks: Iterable[str]) -> str:
    """The `?sel=` value of these picks (each must be a valid pick)."""
    out = list(picks)
    for p in out:
        pick(p)   # validates
    return SEPARATOR.join(out)


def spellings(action: Action, picks_of: PicksOf) -> list[Spelling]:
    """Every way the game spells `action` as picks (one list, or a list of lists)."""
    result = picks_of(action)
    if result and not isinstance(result[0], str):
        return [tuple(s) for s in result]
    return [tuple(result)]   # type: ignore[arg-type]


@dataclass(frozen=True)
class Selection:
    """A half-made move, checked against the legal actions (see the module docstring)."""

    picks: Spelling = ()
    extras: Mapping[str, str] = field(default_factory=dict)
    table: Mapping[Spelling, Action] = field(default_factory=dict, repr=False)
    prefixes: frozenset = field(default_factory=frozenset, repr=False)

    @property
    def raw(self) -> str:
        """This selection as a `?sel=` value (extras first, then the action picks)."""
        return self._encode(self.picks, self.extras)

    @property
    def active(self) -> bool:
        """Has the player picked anything towards an action?"""
        return bool(self.picks)

    @property
    def action(self) -> Action | None:
        """The legal action the picks name exactly, else None."""
        return self.table.get(self.picks)

    @property
    def candidates(self) -> list[str]:
        """The picks that may come next, in the order of the legal actions."""
        depth = len(self.picks)
        seen: dict[str, None] = {}
        for spelling in self.table:
            if len(spelling) > depth and spelling[:depth] == self.picks:
                seen.setdefault(spelling[depth], None)
        return list(seen)

    def values(self, key: str) -> list[str]:
        """The values of the candidate picks with this key (e.g. every cell offered)."""
        return [value_of(p) or "" for p in self.candidates if key_of(p) == key]

    def completes(self, next_pick: str) -> Action | None:
        """The action that `next_pick` would finish, if it names one exactly."""
        return self.table.get((*self.picks, next_pick))

    def add(self, next_pick: str) -> str:
        """`?sel=` with one more pick."""
        return self._encode((*self.picks, pick(next_pick)), self.extras)

    def back(self) -> str:
        """`?sel=` with the last pick taken back."""
        return self._encode(self.picks[:-1], self.extras)

    def cancel(self) -> str:
        """`?sel=` with every action pick dropped (extras stay)."""
        return self._encode((), self.extras)

    def start(self, *picks: str) -> str:
        """`?sel=` for a fresh start at these picks (extras stay)."""
        return self._encode(tuple(pick(p) for p in picks), self.extras)

    def extra(self, key: str) -> str | None:
        return self.extras.get(key)

    def with_extra(self, key: str, value: str | None) -> str:
        """`?sel=` with an extra set (None: removed), and no action picks."""
        extras = {k: v for k, v in self.extras.items() if k != key}
        if value is not None:
            extras[key] = value
        return self._encode((), extras)

    @staticmethod
    def _encode(picks: Iterable[str], extras: Mapping[str, str]) -> str:
        return encode([*(pick(k, v) for k, v in extras.items()), *picks])


def select(raw: object, legal: Sequence[Action], picks_of: PicksOf, *,
           extras: Mapping[str, Callable[[str], bool]] | None = None) -> Selection:
    """The selection `raw` asks for, cut back to what the legal actions allow."""
    extras = extras or {}
    table: dict[Spelling, Action] = {}
    for action in legal:
        for spelling in spellings(action, picks_of):
            if spelling in table and table[spelling] != action:
                raise ValueError(f"Two legal actions are spelled {spelling!r}")
            if not spelling or any(key_of(p) in extras for p in spelling):
                raise ValueError(f"Bad spelling {spelling!r} for {action!r}")
            table[spelling] = action
    prefixes = frozenset(s[:i] for s in table for i in range(len(s) + 1))
    chosen: dict[str, str] = {}
    wanted: list[str] = []
    for p in parse(raw):
        check = extras.get(key_of(p))
        if check is None:
            wanted.append(p)
        elif value_of(p) is not None and check(value_of(p) or ""):
            chosen[key_of(p)] = value_of(p) or ""
    picks = longest_prefix(wanted, prefixes)
    return Selection(picks=picks, extras={k: chosen[k] for k in extras if k in chosen},
                     table=table, prefixes=prefixes)


def longest_prefix(wanted: Sequence[str], prefixes: frozenset) -> Spelling:
    """The longest start of `wanted` that is a prefix of some legal spelling."""
    for size in range(len(wanted), 0, -1):
        if tuple(wanted[:size]) in prefixes:
            return tuple(wanted[:size])
    return ()
