"""Rift Valley Reserve: one map as SVG markup, written in Python (issue 21, item 1).

Why not a template: a 5-player panel draws six or seven maps (the large one, the phone's
half, a thumbnail per map), about 700 squares and their Stops, Tents and Trails. Through
Django's template engine that was 75-91 % of a 48 ms panel render: some 15,000 variable
lookups and auto-escapes per panel, for numbers and class names that need neither. Here
each element is one f-string:

* numbers (coordinates, seat numbers) are written with `str()`, as `{% localize off %}`
  did: never a locale's decimal comma;
* every text that comes from outside this module (translated sentences, player names,
  map names, `?sel=` values, the hx-vals JSON) goes through `escape` exactly once, as
  the template's auto-escape did; class names, colours and ids are this game's own
  constants;
* the thumbnails, the same for every seat and every render of one position (no
  controls, no pending draw, no tooltips), are kept in a small cache keyed by the map's
  contents, so the seats + 1 renders after a move draw each thumbnail once.

The markup is the template's, element for element and attribute for attribute, less the
template's indentation (`bench/panel_profile.py dump` before and after, compared with the
whitespace between tags squeezed out: identical).
"""
from __future__ import annotations

from collections import OrderedDict
from html import escape
from threading import Lock
from typing import Any, Callable

from django.utils.safestring import SafeString, mark_safe

from games.rift_valley_reserve.geometry import COORD_FONT, COORD_GUTTER, PAD
from games.rules.base import _

COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"   # a square's name: its column's letter, its row's number

ICONS = {"animal": "rvr-paw", "tree": "rvr-tree", "water": "rvr-wave"}
HX = 'hx-target="#live" hx-swap="innerHTML"'


def _attr(value: Any) -> str:
    """A text from elsewhere, escaped as the template's auto-escape did (a number's digits
    have nothing to escape)."""
    if type(value) is int:
        return str(value)
    return escape(str(value))


def _name(names: list[str], seat: Any) -> str:
    """`names|get:seat` (None when there is no such seat), from the names escaped (map_svg)."""
    try:
        return names[seat]
    except (IndexError, TypeError):
        return "None"


class Hx:
    """The URLs and the hx-vals a map's controls post with (one per panel render)."""

    def __init__(self, act_url: str = "", panel_url: str = "", vals: Callable[[dict], str] | None = None):
        self.act_url, self.panel_url = _attr(act_url), _attr(panel_url)
        self._vals = vals or (lambda action: "")

    def post(self, action: dict) -> str:
        return f'hx-post="{self.act_url}" hx-vals="{_attr(self._vals(action))}" {HX}'

    def get(self, sel: Any) -> str:
        """A link to `?sel=`, whose value comes from games.selection: its syntax ([a-z0-9_:,.-]
        and letters, checked on every encode) has nothing to escape, so it goes in as it is."""
        return f'hx-get="{self.panel_url}?sel={sel if type(sel) is str else _attr(sel)}" {HX}'


def cell_parts(cell: dict, size: float, big: bool) -> tuple[str, str, str]:
    """What a square draws whatever its controls: its whole markup when it has none, the
    `data-r`/`data-c` attributes (large maps) and everything after the opening tag's `>`.
    The same render after render for one map, size and language: kept in the cell's `parts`
    (shared with every copy of the cell, see presenter.cell_items)."""
    parts = cell["parts"]
    found = parts.get(big)
    if found is not None:
        return found
    r, c, t, x, y = cell["r"], cell["c"], cell["t"], cell["x"], cell["y"]
    wh = f'width="{size}" height="{size}"'
    body = [f'><rect class="bg" x="{x}" y="{y}" {wh}></rect>']
    icon = ICONS.get(t) or ("rvr-canyon" if t == "rift" and big else "")
    if icon:
        body.append(f'<use href="#{icon}" x="{x}" y="{y}" {wh}></use>')
    arrow = cell["arrow"]
    if arrow:
        body.append(f'<use class="cross" href="#rvr-arrow-{arrow}" x="{x}" y="{y}" {wh}></use>')
    if big:
        body.append(f'<title>{_attr(cell["title"])}</title>')
    body.append("</g>")
    rc = f' data-r="{r}" data-c="{c}"' if big else ""
    tail = "".join(body)
    found = parts[big] = (f'<g class="cell t-{t}"{rc}{tail}', rc, tail)
    return found


def _cells(out: list[str], geo: dict, big: bool, hx: Hx) -> None:
    size = geo["size"]
    out.append('<g class="cells">')
    cancels: dict[Any, str] = {}     # while something is chosen every other square cancels it: one link
    for cell in geo["cells"]:
        inert, rc, tail = cell_parts(cell, size, big)
        legal, post, get, cancel = cell["legal"], cell["post"], cell["get"], cell["cancel"]
        if not legal and not post and get is None and cancel is None:
            out.append(inert)
            continue
        cls = f"cell t-{cell['t']}"
        if legal:
            cls += " legal clickable sel-target"
        if post:
            cls += " ghosted"
        head = f'<g class="{cls}"'
        if big:
            head += rc
            if legal:
                head += f' data-sel-focus="c{cell["r"]}-{cell["c"]}"'
        if post or get is not None:
            aria = cell.get("aria")     # the label escaped (presenter.mark_cells)
            if aria is None:
                aria = _attr(cell["label"])
            head += f' role="button" tabindex="0" aria-label="{aria}" {hx.post(post) if post else hx.get(get)}'
        elif cancel is not None:
            link = cancels.get(cancel)
            if link is None:
                link = cancels[cancel] = hx.get(cancel)
            head += f" {link}"
        out.append(head)
        out.append(tail)
    out.append("</g>")


def lines_svg(lines: list[tuple]) -> str:
    return "".join(f'<line x1="{a}" y1="{b}" x2="{c}" y2="{d}"></line>' for a, b, c, d in lines)


def _trails(out: list[str], geo: dict, big: bool, names: list[str], seat: Any) -> None:
    out.append('<g class="trails">')
    width = 7 if big else 2.5
    for t in geo["trails"]:
        colour = t["colour"]
        out.append(f'<g class="trail{" recent" if t["recent"] else ""}" data-seat="{t["seat"]}" data-kind="trail">')
        out.extend(f'<rect class="plank" x="{p["x"]}" y="{p["y"]}" width="{p["w"]}" height="{p["h"]}" '
                   f'fill="{colour}"></rect>' for p in t["planks"])
        out.append(f'<path d="{t["d"]}" stroke="{colour}" style="stroke-width: {width}"></path>')
        if big:
            out.append(f'<title>{_name(names, t["seat"])}: {_attr(t["label"])}</title>')
        out.append("</g>")
    mine = geo["mine"]
    if mine:
        kind = mine["kind"]
        out.append(f'<g class="mine pending" data-seat="{seat}" data-kind="pending-{kind}">')
        if kind == "trail":
            out.append(f'<path d="{mine["d"]}" stroke="{mine["colour"]}"></path>')
        elif kind == "tent":
            out.append(f'<polygon points="{mine["points"]}" stroke="{mine["colour"]}"></polygon>')
        else:
            out.append(f'<circle cx="{mine["cx"]}" cy="{mine["cy"]}" r="{geo["r_stop"]}" '
                       f'stroke="{mine["colour"]}"></circle>')
        # Not inside the f-string: xgettext does not look in there.
        title = _attr(_("Your draw this turn (waiting for the others)"))
        out.append(f"<title>{title}</title></g>")
    out.append("</g>")


def _routes(out: list[str], routes: list[dict], colour: str, hx: Hx) -> None:
    out.append('<g class="routes">')
    for route in routes:
        label = _attr(route["label"])
        out.append(f'<g class="route clickable sel-target" data-sel-focus="{_attr(route["focus"])}" role="button" '
                   f'tabindex="0" data-corner="{route["corner"]}" aria-label="{label}" {hx.post(route["action"])}>'
                   f'<path class="hit" d="{route["d"]}"></path>'
                   f'<path class="dash" d="{route["d"]}" stroke="{colour}"></path>')
        if route["kx"]:
            out.append(f'<circle class="corner" cx="{route["kx"]}" cy="{route["ky"]}" r="6"></circle>')
        out.append(f"<title>{label}</title></g>")
    out.append("</g>")


def _tents(out: list[str], geo: dict, big: bool, names: list[str]) -> None:
    out.append('<g class="tents">')
    for t in geo["tents"]:
        rc = f' data-r="{t["r"]}" data-c="{t["c"]}"' if big else ""
        out.append(f'<g class="tent{" recent" if t["recent"] else ""}" data-seat="{t["seat"]}" data-kind="tent"{rc}>'
                   f'<polygon points="{t["points"]}" fill="{t["colour"]}"></polygon>')
        if big:
            out.append(f'<text x="{t["cx"]}" y="{t["ty"]}">{t["num"]}</text>'
                       f'<title>{_name(names, t["seat"])}: {_attr(t["title"])}</title>')
        out.append("</g>")
    out.append("</g>")


def _stop_class(s: dict, big: bool) -> str:
    cls = "stop connected" if s["connected"] else "stop unconnected"
    if s["recent"]:
        cls += " recent"
    if s["get"] is not None:
        cls += " clickable sel-target" if big else " clickable"
    if s["role"]:
        cls += f" role-{s['role']}"
    return cls


def _stops(out: list[str], geo: dict, big: bool, names: list[str], hx: Hx) -> None:
    size, r_stop, r_halo = geo["size"], geo["r_stop"], geo["r_halo"]
    out.append('<g class="stops">')
    for s in geo["stops"]:
        connected, get, post, role = s["connected"], s["get"], s.get("post"), s["role"]
        head = f'<g class="{_stop_class(s, big)}" data-seat="{s["seat"]}" data-kind="stop"'
        if big:
            r, c = s["r"], s["c"]
            head += f' data-r="{r}" data-c="{c}"'
            if post:
                head += (f' data-sel-focus="s{r}-{c}" role="button" tabindex="0" {hx.post(post)} '
                         f'aria-label="{_attr(s["label"])}"')
            elif get is not None:
                head += (f' data-sel-focus="s{r}-{c}" role="button" tabindex="0" {hx.get(get)} '
                         f'aria-label="{_attr(s["label"])}"')
        out.append(head + ">")
        if big and get is not None:
            out.append(f'<rect class="hit" x="{s["x"]}" y="{s["y"]}" width="{size}" height="{size}"></rect>')
        cx, cy, colour = s["cx"], s["cy"], s["colour"]
        if role:
            out.append(f'<circle class="halo" cx="{cx}" cy="{cy}" r="{r_halo}"></circle>')
        out.append(f'<circle class="dot" cx="{cx}" cy="{cy}" r="{r_stop}" stroke="{colour}" '
                   f'fill="{colour if connected else "#fffdf8"}"></circle>')
        if big:
            if get is None:
                out.append(f'<text x="{cx}" y="{s["ty"]}" fill="{"#fff" if connected else colour}">{s["num"]}</text>')
            out.append(f'<title>{_name(names, s["seat"])}: {_attr(s["title"])}</title>')
        out.append("</g>")
    out.append("</g>")
    if big:
        # A button's name says what it does; the seat number drawn on a Stop that is a
        # button stays out of it (axe: label-content-name-mismatch), drawn on top here.
        out.append('<g class="stop-nums" aria-hidden="true">')
        out.extend(f'<text x="{s["cx"]}" y="{s["ty"]}" fill="{"#fff" if s["connected"] else s["colour"]}">'
                   f'{s["num"]}</text>' for s in geo["stops"] if s["get"] is not None)
        out.append("</g>")


def _ghost(out: list[str], ghost: dict, r_stop: float) -> None:
    out.append(f'<g class="ghost" data-kind="ghost-{ghost["kind"]}" pointer-events="none">')
    if ghost["kind"] == "tent":
        out.append(f'<polygon points="{ghost["points"]}" fill="{ghost["colour"]}"></polygon>')
    else:
        out.append(f'<circle cx="{ghost["cx"]}" cy="{ghost["cy"]}" r="{r_stop}" stroke="{ghost["colour"]}"></circle>')
    out.append("</g>")


def gutter(size: float) -> float:
    """The margin left of and above a map that holds its row numbers and column letters."""
    return round(max(size * COORD_GUTTER, 10), 1)


def _coords(out: list[str], geo: dict) -> None:
    """Column letters above the grid and row numbers left of it, as on a chess board (the
    names every sentence of the game gives squares: "C7" is column C, row 7, counted
    from the top). Only the columns in view (a phone's half map shows six)."""
    size, x0 = geo["size"], geo.get("view_x") or 0
    g = gutter(size)
    first = round(x0 / size)
    shown = round((geo["width"] - 2 * PAD) / size)
    mid = round(size / 2, 1)
    edge = round(PAD / 2 - g / 2, 1)
    out.append(f'<g class="coords" aria-hidden="true" font-size="{round(max(size * COORD_FONT, 8), 1)}" '
               f'text-anchor="middle" dominant-baseline="central"><g class="cols">')
    out.extend(f'<text x="{PAD + c * size + mid}" y="{edge}">{COLUMN_LETTERS[c]}</text>'
               for c in range(first, first + shown))
    out.append('</g><g class="rows">')
    out.extend(f'<text x="{round(x0 + edge, 1)}" y="{PAD + r * size + mid}">{r + 1}</text>'
               for r in range(geo["rows"]))
    out.append("</g></g>")


def map_svg(geo: dict, *, label: str, big: bool = False, zoom: bool = False, coords: bool | None = None,
            map_index: Any = "", map_owner: Any = "", seat: Any = None, names: list[str] | None = None,
            routes: list[dict] | None = None, ghost: dict | None = None, my_colour: str = "",
            hx: Hx | None = None) -> SafeString:
    """The SVG of one map: `big` the large map with its tooltips and controls (`zoom` the
    phone's half of it), else a thumbnail; `label` its accessible name; `coords` (a large
    map's default) its row and column labels, in a margin the viewBox adds left and above."""
    names, hx = [_attr(name) for name in names or ()], hx or Hx()   # escaped once, not per Stop
    kind = "zoom" if zoom else "big" if big else "thumb"
    coords = big if coords is None else coords
    y: float = 0
    x, width, height = geo.get("view_x") or 0, geo["width"], geo["height"]
    if coords:
        g = gutter(geo["size"])
        x, y, width, height = round(x - g, 1), -g, round(width + g, 1), round(height + g, 1)
    out = [f'<svg class="rvr-map {kind}" viewBox="{x} {y} {width} {height}" '
           f'role="{"group" if big else "img"}" aria-label="{_attr(label)}"']
    if big:
        out.append(f' data-map="{map_index}" data-owner="{map_owner}"')
    out.append(">")
    if coords:
        _coords(out, geo)
    _cells(out, geo, big, hx)
    pad = geo["pad"]
    # The lines' markup as the presenter's layout keeps it (the same for every render of a map).
    borders, rift = geo.get("borders_svg"), geo.get("rift_svg")
    if borders is None or rift is None:
        borders, rift = lines_svg(geo["borders"]), lines_svg(geo["rift"])
    out.append(f'<g class="area-borders">{borders}<rect x="{pad}" y="{pad}" width="{geo["inner_w"]}" '
               f'height="{geo["inner_h"]}" fill="none"></rect></g>'
               f'<g class="rift-outline" stroke="{geo["owner_colour"]}">{rift}</g>')
    if big:
        out.append('<g class="area-labels">')
        out.extend(f'<text x="{lab["x"]}" y="{lab["y"]}">{lab["area"]}</text>' for lab in geo["labels"])
        out.append("</g>")
    _trails(out, geo, big, names, seat)
    if big:
        _routes(out, routes or [], my_colour, hx)
    _tents(out, geo, big, names)
    _stops(out, geo, big, names, hx)
    if big and ghost:
        _ghost(out, ghost, geo["r_stop"])
    out.append("</svg>")
    return mark_safe("".join(out))  # every outside text escaped above  # noqa: S308


class ThumbCache:
    """Thumbnails by what they show (the map's drawings, its name and the seats' colours):
    the same for every seat, so a move's seats + 1 renders draw each one once. A thumbnail
    shows nothing hidden (no pending draw: those live in the view's `my_pending` only)."""

    def __init__(self, size: int = 256):
        self.size, self.items, self.lock = size, OrderedDict[tuple, SafeString](), Lock()

    def get(self, key: tuple, draw: Callable[[], SafeString]) -> SafeString:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
                return found
        found = draw()
        with self.lock:
            self.items[key] = found
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return found


THUMBS = ThumbCache()
