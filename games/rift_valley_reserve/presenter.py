"""Rift Valley Reserve: the maps as SVG grids, the flow of maps round the table, and the
Stop / Tent / Trail controls.

Everything is computed from the seat's view (which never holds another seat's pending
draw) and the seat's legal actions. A half-made draw is a `games.selection` list of
picks (see `picks`): `m:stop` / `m:tent` then `c:<r>-<c>` for a Stop or Tent (a ghost
waiting for confirmation), `a:<r>-<c>`, `b:<r>-<c>`, `k:<r>-<c>|none` for a Trail (first
Stop, second Stop, route), `pass`; and the extra `v:<map>` to enlarge another map.
Each board area has its own builder; `board_context` puts them together.
"""
from __future__ import annotations

from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games import selection
from games.rift_valley_reserve.geometry import (
    CELL,
    FONT,
    HALO_EXTRA,
    PAD,
    STOP_RADIUS,
    THUMB,
    area_borders,
    centre,
    origin,
    planks,
    rift_outline,
    trail_d,
    triangle,
)
from games.rift_valley_reserve.board_html import board_html  # noqa: F401 (games.presenters.board_html)
from games.rift_valley_reserve.rules.board import trail_path
from games.rift_valley_reserve.svg import COLUMN_LETTERS, THUMBS, Hx, lines_svg, map_svg
from games.rules.base import _, gettext_noop, ngettext, pgettext

# Module-level texts are marked (gettext_noop) and translated where they are shown: the
# platform translates an option's label and choices when it builds the form or names them.
OPTION_SPECS: dict[str, dict[str, Any]] = {
    "boards": {"label": gettext_noop("Maps"), "choices": [
        ("identical", gettext_noop("Identical: everyone gets the same 9×9 Open Plain")),
        ("asymmetrical", gettext_noop("Asymmetrical: five different 10×10 maps with trees and water")),
    ]},
}

SCRIPT = ""
STYLESHEET = "games/rift-valley-reserve/board.css"

SHAPES = ["●", "■", "▲", "◆", "★"]   # a per-seat mark next to names (colour is never the only cue)
CATEGORY_LABELS = [("trails", gettext_noop("Trails")), ("animals", gettext_noop("Animals")),
                   ("tents", gettext_noop("Tents")), ("stop_penalty", gettext_noop("Unconnected Stops"))]
BREAKDOWN_LABELS = dict(CATEGORY_LABELS)      # the side score card names them as the board does
TIE_BREAK_LABELS = {"trails": gettext_noop("Trail points"), "stop_penalty": gettext_noop("fewer unconnected Stops")}
TERRAIN_CLASS = {".": "ground", "A": "animal", "T": "tree", "W": "water", "|": "rift", "-": "rift", "#": "rift"}
# What a square's tooltip calls its terrain (ground says nothing), by its class.
TERRAIN_WORDS = {"animal": gettext_noop("animal"), "tree": gettext_noop("tree"), "water": gettext_noop("water"),
                 "rift": gettext_noop("rift")}
Cell = tuple[int, int]


# --- Selection: how a draw decomposes into picks --------------------------------------

def cell_value(cell) -> str:
    return f"{cell[0]}-{cell[1]}"


def picks(action: dict) -> list:
    """The picks that make `action` (a Trail may be started from either of its Stops)."""
    kind = action["type"]
    if kind in ("stop", "tent"):
        return [f"m:{kind}", f"c:{cell_value(action['cell'])}"]
    if kind == "trail":
        corner = "k:none" if action["corner"] is None else f"k:{cell_value(action['corner'])}"
        a, b = cell_value(action["from"]), cell_value(action["to"])
        return [[f"a:{a}", f"b:{b}", corner], [f"a:{b}", f"b:{a}", corner]]
    return [kind]


def select(panel: dict, n: int) -> selection.Selection:
    def is_map(value: str) -> bool:
        return value.isdigit() and int(value) < n
    extras = {"v": is_map, "z": lambda value: value in HALVES}
    raw = panel.get("selection", "")
    legal = (panel.get("legal") or []) if towards_a_draw(raw, extras) else []
    return selection.select(raw, legal, picks, extras=extras)


def towards_a_draw(raw: str, extras: dict) -> bool:
    """Does the `?sel=` value hold a pick towards a draw (not only extras)? Without one, the
    selection has no picks, names no action and offers no route whatever is legal, so the
    legal actions need not be spelled out (issue 21: a tenth of a panel, a hundred-odd
    actions at 40 moves, on every push, which never has a selection)."""
    return bool(raw) and any(selection.key_of(p) not in extras for p in selection.parse(raw))


def _cell_of(value: str | None) -> Cell | None:
    if value is None or value == "none":
        return None
    r, c = value.split("-")
    return int(r), int(c)


def choice(sel: selection.Selection, legal: list[dict]) -> dict:
    """What the picks made so far mean: the mode, a ghost cell, the Trail's Stops."""
    stops_ok = {tuple(a["cell"]) for a in legal if a["type"] == "stop"}
    tents_ok = {tuple(a["cell"]) for a in legal if a["type"] == "tent"}
    chosen = {selection.key_of(p): selection.value_of(p) for p in sel.picks}
    default = "stop" if stops_ok or not tents_ok else "tent"
    mode = chosen.get("m") or default
    return {"mode": mode, "default_mode": mode == default, "cells": stops_ok if mode == "stop" else tents_ok,
            "can_stop": bool(stops_ok), "can_tent": bool(tents_ok),
            "ghost": _cell_of(chosen.get("c")), "first": _cell_of(chosen.get("a")),
            "second": _cell_of(chosen.get("b"))}


def trail_partners(legal: list[dict]) -> dict[Cell, set[Cell]]:
    partners: dict[Cell, set[Cell]] = {}
    for a in legal:
        if a["type"] == "trail":
            f, t = tuple(a["from"]), tuple(a["to"])
            partners.setdefault(f, set()).add(t)
            partners.setdefault(t, set()).add(f)
    return partners


# --- One map ----------------------------------------------------------------------------

def _path(action: dict) -> list:
    """The cells of a Trail action, as the rules compute them."""
    corner = tuple(action["corner"]) if action["corner"] is not None else None
    return trail_path(tuple(action["from"]), tuple(action["to"]), corner)


def map_words() -> dict[str, Any]:
    """The tooltips' sentences of a large map, translated once per map (never per square:
    the map template is drawn many times a page, a hot spot)."""
    return {"square": _("%(square)s, area %(area)s"),
            "square_terrain": _("%(square)s, area %(area)s, %(terrain)s"),
            "terrain": {k: _(v) for k, v in TERRAIN_WORDS.items()},
            "connected": _("connected Stop at %(square)s"),
            "unconnected": _("unconnected Stop at %(square)s"),
            "tent": _("Tent at %(square)s"),
            "trail": _("Trail from %(start)s to %(end)s")}


def square_title(words: dict | None, r: int, c: int, area: str, t: str) -> str:
    if words is None:
        return ""
    if t == "ground":
        return words["square"] % {"square": square((r, c)), "area": area}
    return words["square_terrain"] % {"square": square((r, c)), "area": area, "terrain": words["terrain"][t]}


# A map's squares and lines by layout, size, arrows and tooltips' words (see layout); bounded.
_LAYOUTS: dict[tuple, dict] = {}


def layout(m: dict, size: float, arrows: bool, words: dict | None = None) -> dict:
    """What a map draws whatever is drawn on it: its cells and area labels (cell_items), its
    area borders and Rift outline, as lines and as SVG. Built once per layout, size and
    language and shared by every render (issue 21: a fifth of the board's time went into
    them). Read-only: mark_cells copies the cells it changes."""
    key = (tuple(m["terrain"]), tuple(m["areas"]), size, arrows,
           None if words is None else (words["square"], words["square_terrain"], tuple(words["terrain"].items())))
    found = _LAYOUTS.get(key)
    if found is None:
        if len(_LAYOUTS) > 256:
            _LAYOUTS.clear()
        cells, labels = _cell_items(m, size, arrows, words)
        borders, rift = area_borders(m["areas"], size), rift_outline(m["terrain"], size)
        found = _LAYOUTS[key] = {"cells": cells, "labels": labels, "borders": borders, "rift": rift,
                                 "borders_svg": lines_svg(borders), "rift_svg": lines_svg(rift)}
    return found


def cell_items(m: dict, size: float, arrows: bool, words: dict | None = None) -> tuple[list[dict], list[dict]]:
    """Every cell of a map (inert; the controls builder makes some clickable) and the
    number of each area, drawn in its first cell; with `words`, each square's tooltip.
    The dicts are shared (see layout), each with `parts`, where svg.cell_parts keeps its markup."""
    found = layout(m, size, arrows, words)
    return list(found["cells"]), list(found["labels"])


def _cell_items(m: dict, size: float, arrows: bool, words: dict | None) -> tuple[list[dict], list[dict]]:
    cells, labels, seen = [], [], set()
    for r, line in enumerate(m["terrain"]):
        for c, ch in enumerate(line):
            x, y = origin(r, c, size)
            area = m["areas"][r][c]
            t = TERRAIN_CLASS.get(ch, "ground")
            cells.append({"r": r, "c": c, "x": x, "y": y, "t": t, "area": area,
                          "arrow": ("h" if ch == "|" else "v" if ch == "-" else "") if arrows else "",
                          "title": square_title(words, r, c, area, t),
                          # The keys must exist: in a template a missing "get" finds dict.get.
                          "legal": False, "get": None, "post": None, "cancel": None, "label": "",
                          "parts": {}})
            if area not in seen:
                seen.add(area)
                labels.append({"x": x + 3, "y": y + size * 0.28, "area": area})
    return cells, labels


def drawn_items(m: dict, size: float, colours: list[str], words: dict | None = None) -> tuple[list[dict], list[dict]]:
    """The Stops and Tents drawn on a map (with `words`, each one's tooltip)."""
    recent = {tuple(rc) for rc in m.get("recent", [])}
    stops, tents = [], []
    for k, drawn in m["cells"].items():
        r, c = (int(v) for v in k.split(","))
        cx, cy = centre(r, c, size)
        tent = drawn["kind"] == "tent"
        x, y = origin(r, c, size)
        item = {"r": r, "c": c, "cx": cx, "cy": cy, "x": x, "y": y, "seat": drawn["seat"],
                "colour": colours[drawn["seat"]],
                "get": None, "role": "", "label": "", "title": "", "num": drawn["seat"] + 1, "recent": (r, c) in recent,
                "ty": round(cy + size * (0.2 if tent else 0.12), 1)}
        if words is not None:
            which = "tent" if tent else "connected" if drawn.get("connected", False) else "unconnected"
            item["title"] = words[which] % {"square": square((r, c))}
        if tent:
            tents.append(dict(item, points=triangle(r, c, size)))
        elif drawn["kind"] == "stop":
            stops.append(dict(item, connected=drawn.get("connected", False)))
    return stops, tents


def trail_items(m: dict, size: float, colours: list[str], words: dict | None = None) -> list[dict]:
    recent = {tuple(rc) for rc in m.get("recent", [])}
    out = []
    for t in m["trails"]:
        path = t["path"]
        out.append({"id": t["id"], "seat": t["seat"], "colour": colours[t["seat"]], "d": trail_d(path, size),
                    "planks": planks(path, m["terrain"], size),
                    "recent": all(tuple(rc) in recent for rc in path),
                    "label": words["trail"] % {"start": square(path[0]), "end": square(path[-1])} if words else ""})
    return out


def pending_item(pending: dict | None, seat: int | None, size: float, colours: list[str]) -> dict | None:
    """The seat's own pending draw, drawn faintly on the map it holds."""
    if not pending or pending.get("type") not in ("stop", "tent", "trail") or seat is None:
        return None
    colour = colours[seat]
    if pending["type"] == "trail":
        return {"kind": "trail", "d": trail_d(_path(pending), size), "colour": colour}
    r, c = pending["cell"]
    cx, cy = centre(r, c, size)
    return {"kind": pending["type"], "cx": cx, "cy": cy, "colour": colour, "num": seat + 1,
            "points": triangle(r, c, size)}


def map_geometry(m: dict, size: float, colours: list[str], *, pending: dict | None = None,
                 pending_seat: int | None = None, arrows: bool = False, titles: bool = False) -> dict:
    """Everything the SVG of one map needs, at `size` px per cell; `titles` for a large
    map (drawn with `big`), whose squares, Stops, Tents and Trails have tooltips."""
    words = map_words() if titles else None
    fixed = layout(m, size, arrows, words)
    stops, tents = drawn_items(m, size, colours, words)
    return {
        "size": size, "rows": m["rows"], "cols": m["cols"],
        "width": m["cols"] * size + 2 * PAD, "height": m["rows"] * size + 2 * PAD,
        "inner_w": m["cols"] * size, "inner_h": m["rows"] * size, "pad": PAD,
        "cells": list(fixed["cells"]), "borders": fixed["borders"], "rift": fixed["rift"],
        "borders_svg": fixed["borders_svg"], "rift_svg": fixed["rift_svg"],
        "labels": list(fixed["labels"]), "owner_colour": colours[m["owner"]],
        "stops": stops, "tents": tents, "trails": trail_items(m, size, colours, words),
        "mine": pending_item(pending, pending_seat, size, colours),
        "r_stop": size * STOP_RADIUS, "r_halo": size * STOP_RADIUS + HALO_EXTRA, "font": size * FONT,
    }


# --- The controls on the held map ------------------------------------------------------

def column_name(c: int) -> str:
    return COLUMN_LETTERS[c]


def square(cell) -> str:
    """A square's one name (issue 19, row 8), as the map's edges label it: the column's
    letter then the row's number counted from 1 at the top, "D3" for row 3, column 4 (the
    cell (2, 3)). Every sentence of the game names squares so: the History, the replay's
    captions, the buttons' and squares' accessible names, the tooltips. The same in every
    language, like a chess board's."""
    return f"{COLUMN_LETTERS[cell[1]]}{cell[0] + 1}"


CELL_LABELS = {
    ("stop", False): gettext_noop("Place a Stop on %(square)s of the %(map)s map"),
    ("tent", False): gettext_noop("Place a Tent on %(square)s of the %(map)s map"),
    ("stop", True): gettext_noop("Confirm the Stop on %(square)s of the %(map)s map"),
    ("tent", True): gettext_noop("Confirm the Tent on %(square)s of the %(map)s map"),
}


def cell_label(kind: str, cell, map_name: str, confirm: bool, words: dict | None = None) -> str:
    """What clicking a highlighted square does, said in full (its accessible name);
    `words`: the sentences already translated (see mark_cells)."""
    if words is None:
        words = {confirm: _(CELL_LABELS[kind, confirm])}
    return words[confirm] % {"square": square(cell), "map": map_name}


def stop_label(role: str, cell) -> str:
    if role == "first":
        return _("Cancel the Trail from your Stop on %(square)s") % {"square": square(cell)}
    if role == "start":
        return _("Start a Trail at your Stop on %(square)s") % {"square": square(cell)}
    return _("End the Trail at your Stop on %(square)s") % {"square": square(cell)}


def route_label(action: dict) -> str:
    a, b, k = action["from"], action["to"], action["corner"]
    if k is None:
        return _("Draw the straight Trail, from %(start)s to %(end)s") % {"start": square(a), "end": square(b)}
    return (_("Draw the L-shaped Trail turning on %(corner)s, from %(start)s to %(end)s")
            % {"corner": square(k), "start": square(a), "end": square(b)})


def cancel_sel(sel: selection.Selection, ch: dict) -> str:
    """Cancelling a ghost keeps a mode the player chose; cancelling a Trail starts over."""
    if ch["ghost"] is not None and not ch["default_mode"]:
        return sel.back()
    return sel.cancel()


def mark_cells(geo: dict, sel: selection.Selection, ch: dict, map_name: str = "") -> None:
    """Legal squares of the current mode become links (a ghost, then its confirmation);
    while something is chosen, any other square cancels it. The cells changed are copies
    (cell_items' are shared), each with its accessible name escaped once (`aria`)."""
    ghost, first = ch["ghost"], ch["first"]
    kind = "tent" if ch["mode"] == "tent" else "stop"
    words = {False: _(CELL_LABELS[kind, False]), True: _(CELL_LABELS[kind, True])}
    # The label escaped: escaping the sentence then filling in the escaped map name and
    # the square (letters and digits) gives what escaping the filled-in sentence gave.
    shown = {confirm: escape(text) for confirm, text in words.items()}
    escaped_name = escape(map_name)
    legal_cells = ch["cells"] if first is None else ()
    cancel = cancel_sel(sel, ch) if ghost is not None or first is not None else None
    # sel.start(mode, cell) for every square: the mode's `?sel=` then the cell's pick
    # (a cell's value, digits and "-", is always a valid pick).
    start = sel.start(f"m:{ch['mode']}")
    marked = []
    for cell in geo["cells"]:
        rc = (cell["r"], cell["c"])
        if rc in legal_cells:
            confirm = rc == ghost
            name = square(rc)
            cell = dict(cell, legal=True, label=words[confirm] % {"square": name, "map": map_name},
                        aria=shown[confirm] % {"square": name, "map": escaped_name})
            if confirm:
                cell["post"] = sel.action
            else:
                cell["get"] = f"{start}.c:{cell_value(rc)}"
        elif cancel is not None:
            cell = dict(cell, cancel=cancel)
        marked.append(cell)
    geo["cells"] = marked


def only_routes(legal: list[dict]) -> dict[frozenset, dict]:
    """The Trail of each pair of Stops that only one route joins, by the pair."""
    found: dict[frozenset, list[dict]] = {}
    for a in legal:
        if a["type"] == "trail":
            found.setdefault(frozenset((tuple(a["from"]), tuple(a["to"]))), []).append(a)
    return {pair: actions[0] for pair, actions in found.items() if len(actions) == 1}


def mark_stops(geo: dict, sel: selection.Selection, ch: dict, partners: dict, seat: int,
               only: dict[frozenset, dict] | None = None) -> None:
    """The seat's own Stops that can end a Trail: start one, or end the one begun. When
    one route alone joins the two Stops, the second tap draws it (issue 19: a finger
    need not find a thin route between two big Stops)."""
    first, second = ch["first"], ch["second"]
    for stop in geo["stops"]:
        rc = (stop["r"], stop["c"])
        if stop["seat"] != seat or rc not in partners:
            continue
        if first is None:
            stop["get"], stop["role"] = sel.start(f"a:{cell_value(rc)}"), "start"
        elif rc == first:
            stop["get"], stop["role"] = sel.cancel(), "first"
        elif rc in partners[first]:
            stop["get"] = sel.start(f"a:{cell_value(first)}", f"b:{cell_value(rc)}")
            stop["role"] = "second" if rc == second else "partner"
            trail = (only or {}).get(frozenset((first, rc)))
            if trail is not None:
                stop["post"], stop["label"] = trail, route_label(trail)
                continue
        stop["label"] = stop_label(stop["role"], rc)


def routes(sel: selection.Selection, ch: dict) -> list[dict]:
    """Every legal route between the two chosen Stops, each submitting its Trail."""
    if ch["second"] is None:
        return []
    out = []
    for next_pick in sel.candidates:
        action = sel.completes(next_pick)
        k = action["corner"] if action else None
        if action is None:
            continue
        kx, ky = centre(k[0], k[1], CELL) if k else (None, None)
        out.append({"action": action, "d": trail_d(_path(action), CELL), "focus": next_pick,
                    "corner": "none" if k is None else f"{k[0]},{k[1]}", "kx": kx, "ky": ky,
                    "label": route_label(action)})
    return out


def ghost_item(ch: dict, seat: int, colours: list[str]) -> dict | None:
    if ch["ghost"] is None:
        return None
    r, c = ch["ghost"]
    cx, cy = centre(r, c, CELL)
    return {"kind": ch["mode"], "cx": cx, "cy": cy, "colour": colours[seat], "num": seat + 1,
            "points": triangle(r, c, CELL), "r": r, "c": c}


def controls(sel: selection.Selection, legal: list[dict], geo: dict, seat: int, colours: list[str],
             map_name: str = "") -> dict:
    """The toolbar and the clickable parts of the held map, for the picks made so far."""
    ch = choice(sel, legal)
    partners = trail_partners(legal)
    mark_cells(geo, sel, ch, map_name)
    mark_stops(geo, sel, ch, partners, seat, only_routes(legal))
    selecting = ch["ghost"] is not None or ch["first"] is not None
    return {
        "mode": ch["mode"], "can_stop": ch["can_stop"], "can_tent": ch["can_tent"], "has_trails": bool(partners),
        "mode_stop_sel": sel.start("m:stop"), "mode_tent_sel": sel.start("m:tent"),
        "ghost": ch["ghost"], "ghost_action": sel.action if ch["ghost"] is not None else None,
        "ghost_square": square(ch["ghost"]) if ch["ghost"] is not None else "",
        "ghost_geo": ghost_item(ch, seat, colours), "first": ch["first"], "second": ch["second"],
        "routes": routes(sel, ch), "selecting": selecting,
        "cancel_sel": cancel_sel(sel, ch),
        "pass_action": next((a for a in legal if a["type"] == "pass"), None),
    }


NO_CONTROLS = {"mode": "stop", "can_stop": False, "can_tent": False, "has_trails": False, "ghost": None,
               "ghost_square": "",
               "ghost_action": None, "ghost_geo": None, "first": None, "second": None, "routes": [],
               "selecting": False, "cancel_sel": "", "pass_action": None}


# --- The phone view: half a map at a time ------------------------------------------------
# A whole map on a 360 px phone gives a square about 32 px: too small for a finger. Below
# the width where it fits at 44 px (board.css), the page shows instead one half of the held
# map (the "z" extra: "w" west, the default, or "e" east), at least 6 columns wide and
# overlapping in the middle, so a square is 50 px or more and every target can be tapped.

HALVES = {"w": "West", "e": "East"}
# The bar above a half, the button showing the other one, and the half's accessible name.
HALF_WORDS = {
    "w": {"bar": gettext_noop("West half, columns %(lo)s–%(hi)s"),
          "switch": gettext_noop("Show the west half"),
          "label": gettext_noop("Map %(name)s, West half")},
    "e": {"bar": gettext_noop("East half, columns %(lo)s–%(hi)s"),
          "switch": gettext_noop("Show the east half"),
          "label": gettext_noop("Map %(name)s, East half")},
}


def half_columns(cols: int, half: str) -> tuple[int, int]:
    """The first and last column of a half (they overlap, so no column is only an edge)."""
    width = (cols + 1) // 2 + 1
    return (0, width - 1) if half == "w" else (cols - width, cols - 1)


def default_half(ch: dict | None, cols: int) -> str:
    """The half holding the square or Stop being chosen, else the west."""
    cell = (ch or {}).get("ghost") or (ch or {}).get("first")
    return "e" if cell and cell[1] > half_columns(cols, "w")[1] else "w"


def _in(cell_c: int, lo: int, hi: int) -> bool:
    return lo <= cell_c <= hi


def half_geometry(geo: dict, routes_: list[dict], cols: int, half: str) -> dict:
    """The held map cut to one half: the SVG's viewBox frames it, and only the controls
    inside it are drawn (so none is focusable out of sight)."""
    lo, hi = half_columns(cols, half)
    size = geo["size"]
    x0 = lo * size
    return dict(geo, view_x=x0, width=(hi - lo + 1) * size + 2 * PAD,
                cells=[cell for cell in geo["cells"] if _in(cell["c"], lo, hi)],
                stops=[st for st in geo["stops"] if _in(st["c"], lo, hi)],
                tents=[t for t in geo["tents"] if _in(t["c"], lo, hi)],
                labels=[lab for lab in geo["labels"] if lo * size <= lab["x"] - PAD - 3 < (hi + 1) * size],
                routes=[rt for rt in routes_ if any(_in(c, lo, hi) for _, c in _path(rt["action"]))])


def switch_half(sel: selection.Selection, half: str) -> str:
    """`?sel=` showing the other half and keeping the draw half made (unlike with_extra):
    a Trail may start in one half and end in the other."""
    extras = [selection.pick(k, v) for k, v in sel.extras.items() if k != "z"]
    return selection.encode([*extras, selection.pick("z", half), *sel.picks])


def zoom(sel: selection.Selection, board: dict, cols: int, map_name: str = "") -> dict:
    """The phone's half-map view of the held map and the links that switch halves."""
    half = sel.extra("z") or default_half(board, cols)
    lo, hi = half_columns(cols, half)
    other = "e" if half == "w" else "w"
    return {"half": half, "name": HALVES[half], "lo": lo + 1, "hi": hi + 1,
            "bar": _(HALF_WORDS[half]["bar"]) % {"lo": column_name(lo), "hi": column_name(hi)},
            "switch": _(HALF_WORDS[other]["switch"]),
            "label": _(HALF_WORDS[half]["label"]) % {"name": map_name},
            "other_name": HALVES[other], "other_sel": switch_half(sel, other),
            "geo": half_geometry(board["geo"], board["routes"], cols, half)}


# --- The other board areas ---------------------------------------------------------------

def shown_map(view: dict, seat: int | None, sel: selection.Selection) -> int:
    """The map drawn large: the one asked for, else the one the seat holds."""
    if sel.extra("v") is not None:
        return int(sel.extra("v") or 0)
    if view.get("held_map") is not None:
        return view["held_map"]
    return seat if seat is not None and 0 <= seat < view["players"] else 0


def map_name(m: dict) -> str:
    """A map's name in the reader's language (the state keeps it in English)."""
    return _(m["name"])


def map_card(view: dict, b: int, names: list[str], colours: list[str], geo: dict) -> dict:
    """A map with its owner, holder and next holder, in names and colours (the map's
    name translated: `map` is the view's map with its name in the reader's language)."""
    m = view["maps"][b]
    m = dict(m, name=map_name(m))
    holder_seat, next_seat = m["holder"], m["next_holder"]
    return {"index": b, "map": m, "geo": geo, "owner": m["owner"], "owner_name": names[m["owner"]],
            "owner_colour": colours[m["owner"]], "owner_num": m["owner"] + 1,
            "holder_name": names[holder_seat] if holder_seat is not None else "",
            "next_name": names[next_seat] if next_seat is not None else "",
            "next_colour": colours[next_seat] if next_seat is not None else ""}


def thumb_svg(m: dict, colours: list[str]) -> Any:
    """A thumbnail's SVG, drawn once per position and language (svg.THUMBS): it shows no
    controls, tooltips or pending draw, so every seat sees the same one."""
    name = map_name(m)
    key = (name, m["id"], m["owner"], tuple(colours), repr(m["cells"]), repr(m["trails"]), repr(m["recent"]),
           tuple(m["terrain"]), tuple(m["areas"]))
    return THUMBS.get(key, lambda: map_svg(map_geometry(m, THUMB, colours), label=name))


def thumbs(view: dict, names: list[str], colours: list[str], sel: selection.Selection, shown: int) -> list[dict]:
    held = view.get("held_map")
    out = []
    for b in range(view["players"]):
        card = map_card(view, b, names, colours, {})
        # Sentences with a name are put together here, not by {% blocktranslate %} (a hot
        # spot: 3 a thumbnail); as there, the name is escaped and the sentence is not.
        card.update(show_map=mark_safe(_("Show %(name)s's map") % {"name": escape(card["owner_name"])}),
                    held_by=mark_safe(_("held by %(name)s") % {"name": escape(card["holder_name"])}),
                    shown=b == shown, held=b == held, svg=thumb_svg(view["maps"][b], colours),
                    get=sel.with_extra("v", None) if b == held else sel.with_extra("v", str(b)))
        out.append(card)
    return out


def replay_maps(view: dict, names: list[str], colours: list[str]) -> list[dict]:
    """Every map drawn full size, for the replay (which has no selection to enlarge one)."""
    cards = [map_card(view, b, names, colours, map_geometry(view["maps"][b], CELL, colours, titles=True))
             for b in range(view["players"])]
    for card in cards:
        card["label"] = _("Map %(name)s of %(owner)s") % {"name": card["map"]["name"], "owner": card["owner_name"]}
        card["svg"] = map_svg(card["geo"], label=card["label"], big=True, map_index=card["index"],
                              map_owner=card["owner"], names=names)
    return cards


def panel_hx(panel: dict) -> Hx:
    """The URLs and hx-vals the held map's controls use, for this render's token (the URLs
    reversed once per Game instance: a move's push draws every audience from one)."""
    from games.panel import action_vals
    from games.shell import game_url

    game = panel.get("game")
    if game is None:
        return Hx()
    return Hx(game_url(game, "games:act"), game_url(game, "games:panel"), lambda action: action_vals(panel, action))


def draw_maps(panel: dict, board: dict, hx: Hx) -> None:
    """The large map and the phone's half of it as SVG (svg.map_svg), with their controls."""
    names = panel["names"]
    common = {"big": True, "map_index": board["map"]["index"], "map_owner": board["map"]["owner"],
              "seat": panel.get("seat"), "names": names, "ghost": board["ghost_geo"],
              "my_colour": board["my_colour"], "hx": hx}
    board["svg"] = map_svg(board["geo"], label=board["map_label"], routes=board["routes"], **common)
    if board["zoom"]:
        board["zoom"]["svg"] = map_svg(board["zoom"]["geo"], label=board["zoom"]["label"], zoom=True,
                                       routes=board["zoom"]["geo"]["routes"], **common)


def seat_rows(view: dict, names: list[str]) -> list[dict]:
    rows = []
    for s in view["seats"]:
        i = s["seat"]
        status = (pgettext("seat status", "drawn") if s["submitted"]
                  else pgettext("seat status", "drawing…") if s["waiting_for"]
                  else pgettext("seat status", "over") if view["over"]
                  else pgettext("seat status", "nothing to draw"))
        rows.append({"seat": i, "name": names[i], "colour": s["colour"], "num": i + 1, "shape": SHAPES[i % 5],
                     "colour_name": s["colour_name"], "status": status, "done": s["submitted"],
                     "holds": s["holds"]})
    return rows


def score_rows(view: dict, names: list[str]) -> list[dict]:
    """One row per seat, best first, each with its numbers per map."""
    rows = []
    for e in view["scores"]:
        i = e["seat"]
        rows.append({"seat": i, "name": names[i], "colour": view["seat_colours"][i], "num": i + 1,
                     "rank": e["rank"], "total": e["total"],
                     "cells": [e["breakdown"][k] for k, _label in CATEGORY_LABELS],
                     "per_map": [{"map": b, "owner_name": names[view["maps"][b]["owner"]],
                                  "cells": [pm[k] for k, _label in CATEGORY_LABELS], "total": pm["total"]}
                                 for b, pm in enumerate(e["per_map"])]})
    rows.sort(key=lambda row: (row["rank"], row["seat"]))
    labels = line_labels()
    for row in rows:
        row["map_lines"] = _lines([pm["cells"] for pm in row["per_map"]], [pm["total"] for pm in row["per_map"]],
                                  labels)
    return rows


def line_labels() -> list[str]:
    """The score rows' names: the categories, then "Total" (translated)."""
    return [*(_(label) for _key, label in CATEGORY_LABELS), _("Total")]


def _lines(columns: list[list[int]], totals: list[int], labels: list[str] | None = None) -> list[dict]:
    """Score columns turned into rows: one per category (Unconnected Stops included), then
    the total they add up to. A table with a column per player or map instead of per
    category stays narrow enough for a phone, every category named in full (issue 19).
    `labels`: line_labels(), when the caller has them (a panel draws six such tables)."""
    *names, total_name = labels or line_labels()
    lines: list[dict[str, Any]] = [{"label": label, "cells": [column[i] for column in columns], "total": False}
                                   for i, label in enumerate(names)]
    lines.append({"label": total_name, "cells": totals, "total": True})
    for line in lines:   # the numbers' cells written here: a template loop per cell was a hot spot
        numbers = tuple(map(int, line["cells"]))
        line["tds"] = SafeString(("<td>%d</td>" * len(numbers)) % numbers)
        line["strong_tds"] = (SafeString(("<td><strong>%d</strong></td>" * len(numbers)) % numbers)
                              if line["total"] else line["tds"])
    return lines


def map_headings(view: dict, names: list[str]) -> SafeString:
    """The per-map score tables' column headings ("on <name>'s map"), the same in every
    player's table: written once (as {% blocktranslate %} with `|person` did)."""
    words = _("on %(name)s's map")
    return mark_safe("".join('<th scope="col">%s</th>' % (words % {"name": _person(names[m["owner"]])})
                             for m in view["maps"]))


def score_lines(rows: list[dict]) -> list[dict]:
    """The score table by category, a column per player in `rows`' order."""
    return _lines([row["cells"] for row in rows], [row["total"] for row in rows])


def stage_text(view: dict, acting: bool) -> str:
    stage = view["stage"]
    if stage == "opening":
        return _("First turn: Stops only")
    if stage == "main":
        return _("Main game")
    if stage == "final":
        left = view.get("turns_left") or 0
        if acting:
            return ngettext("Final stage: %(left)s turn left — you may pass",
                            "Final stage: %(left)s turns left — you may pass", left) % {"left": left}
        return ngettext("Final stage: %(left)s turn left", "Final stage: %(left)s turns left", left) % {"left": left}
    return _("Game over")


def describe_action(action: dict) -> str:
    """The seat's own draw waiting for the others, in the squares' one name (see _at): a
    phrase that fills "You drew %(draw)s …" on the board."""
    if action["type"] == "trail":
        ends = {"start": _at(action["from"]), "end": _at(action["to"])}
        if action["corner"] is None:
            return _("a Trail from %(start)s to %(end)s") % ends
        return _("a Trail from %(start)s to %(end)s via %(corner)s") % dict(ends, corner=_at(action["corner"]))
    if action["type"] == "pass":
        return _("a pass")
    if action["type"] == "tent":
        return _("a Tent at %(square)s") % {"square": _at(action["cell"])}
    return _("a Stop at %(square)s") % {"square": _at(action["cell"])}


# --- The whole board ------------------------------------------------------------------------

def held_map_board(panel: dict, view: dict, sel: selection.Selection, shown: int) -> dict:
    """The large map with the seat's controls when it can draw on it now."""
    seat, legal = panel.get("seat"), panel.get("legal") or []
    held = view.get("held_map")
    colours = list(view["seat_colours"])
    acting = bool(legal) and held is not None and shown == held and not panel.get("replay")
    m = view["maps"][shown]
    geo = map_geometry(m, CELL, colours, pending=view.get("my_pending") if shown == held else None,
                       pending_seat=seat, arrows=seat is not None and m["owner"] == seat and shown == held,
                       titles=True)
    name = map_name(m)
    parts = controls(sel, legal, geo, seat, colours, name) if acting and seat is not None else dict(NO_CONTROLS)
    parts = dict(parts, geo=geo, acting=acting)
    parts["zoom"] = zoom(sel, parts, m["cols"], name) if acting else None
    return parts


def board_context(panel: dict) -> dict[str, Any]:
    view, seat, names = panel["view"], panel.get("seat"), panel["names"]
    colours = list(view["seat_colours"])
    sel = select(panel, view["players"])
    shown = shown_map(view, seat, sel)
    held = view.get("held_map")
    board = held_map_board(panel, view, sel, shown)
    viewing_other = held is not None and shown != held
    card = map_card(view, shown, names, colours, board["geo"])
    replay = bool(panel.get("replay"))
    scores = score_rows(view, names)
    board.update({
        "map": card["map"], "shown": shown, "held": held, "viewing_other": viewing_other,
        "map_label": _("Map %(name)s") % {"name": card["map"]["name"]},
        "own_map": seat is not None and card["owner"] == seat,
        **{k: card[k] for k in ("owner_name", "owner_colour", "owner_num", "holder_name", "next_name",
                                "next_colour")},
        "my_colour": colours[seat] if seat is not None and 0 <= seat < len(colours) else "#333",
        "my_pending": board["geo"]["mine"],
        "my_pending_text": describe_action(view["my_pending"]) if view.get("my_pending") else "",
        "stage_text": stage_text(view, board["acting"]), "thumbs": thumbs(view, names, colours, sel, shown),
        "replay_maps": replay_maps(view, names, colours) if replay else [],
        "seats": seat_rows(view, names), "scores": scores, "score_lines": score_lines(scores),
        "map_headings": map_headings(view, names),
        "categories": [_(label) for _key, label in CATEGORY_LABELS],
        "tie_breaks": tie_break_notes(view, names),
        "history": history_rows(view, names, panel.get("history")),
        "waiting": [names[i] for i in view["to_act"]],
        # The page's choice, for site.js to ask for again after a live update: a half-made
        # draw while acting, or the map being viewed instead of the held one.
        "selection": "" if replay or not (board["acting"] or viewing_other) else sel.raw,
        "back_sel": sel.with_extra("v", None),
    })
    board.update(seat_chips_html=seat_chips_html(board, seat), per_map_html=per_map_html(board),
                 history_html=history_html(board["history"]))
    if not replay:
        # The URLs reversed once a render: the maps, the thumbnails and board_html use them.
        board["hx"] = hx = panel_hx(panel)
        draw_maps(panel, board, hx)
        board["thumbs_html"] = thumbs_html(board, hx.panel_url)   # escaped by Hx
    return {"board": board}


def tie_break_notes(view: dict, names: list[str]) -> list[str]:
    """Each tie on the total, once the game is over, and what settled it."""
    if not view["over"]:
        return []
    notes = []
    for tie in view.get("tie_breaks", []):
        who = ", ".join(names[s] for s in tie["seats"])
        if tie["decided_by"]:
            used = [_(TIE_BREAK_LABELS[k]) if k in TIE_BREAK_LABELS else k for k in tie["decided_by"]]
            text = used[0]
            for then in used[1:]:
                text = _("%(first)s then %(next)s") % {"first": text, "next": then}
            notes.append(_("%(players)s tie on %(points)s points; decided by %(tie_breaks)s.")
                         % {"players": who, "points": tie["total"], "tie_breaks": text})
        else:
            notes.append(_("%(players)s tie on %(points)s points and share their rank.")
                         % {"players": who, "points": tie["total"]})
    return notes


def history_rows(view: dict, names: list[str], written: list[dict] | None = None) -> list[dict]:
    """The resolved turns, newest first, each with its events in words: the sentences the
    page's History already wrote (`written`, the panel's `history`: one entry per event of
    the same view), or written here when there are none."""
    turns: dict[int, list[str]] = {}
    events = view.get("events", [])
    if written is not None and len(written) == len(events):
        for event, entry in zip(events, written, strict=True):
            turns.setdefault(event["turn"], []).append(entry["text"])
    else:
        for event in events:
            turns.setdefault(event["turn"], []).append(describe(event, names))
    heading = _("Turn %(turn)s")
    return [{"turn": turn, "title": heading % {"turn": turn}, "lines": lines}
            for turn, lines in reversed(turns.items())]


# --- Events in words ----------------------------------------------------------------------

def _at(cell) -> str:
    """A square as every line of the game names it (History, replay, buttons, tooltips),
    and the map's edges label it: "D7" (issue 19, row 8: it was "(6,3)" here, "row 7,
    column 4" on the buttons, "cell [6, 3]" elsewhere). See `square`."""
    return square(cell)


def _name(names: list[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("Seat %(number)s") % {"number": seat + 1} if isinstance(seat, int) else _("Someone")


# A draw in words: (kind, with a corner, on whose map) -> the sentence. Whole sentences,
# so each language words every case its own way.
DRAW_SENTENCES = {
    ("stop", False, False): gettext_noop("%(name)s drew a Stop at %(square)s."),
    ("stop", False, True): gettext_noop("%(name)s drew a Stop at %(square)s on %(owner)s's map."),
    ("tent", False, False): gettext_noop("%(name)s drew a Tent at %(square)s."),
    ("tent", False, True): gettext_noop("%(name)s drew a Tent at %(square)s on %(owner)s's map."),
    ("trail", False, False): gettext_noop("%(name)s drew a Trail from %(start)s to %(end)s."),
    ("trail", False, True): gettext_noop("%(name)s drew a Trail from %(start)s to %(end)s on %(owner)s's map."),
    ("trail", True, False): gettext_noop("%(name)s drew a Trail from %(start)s to %(end)s via %(corner)s."),
    ("trail", True, True): gettext_noop(
        "%(name)s drew a Trail from %(start)s to %(end)s via %(corner)s on %(owner)s's map."),
}


_TRANSLATED: dict[str | None, dict] = {}


def draw_sentences() -> dict:
    """DRAW_SENTENCES in the active language, translated once per language: a finished
    game's History describes some 350 draws twice a panel (the board's and the platform's),
    and a catalogue look-up per sentence was a third of the time it took."""
    language = get_language()
    table = _TRANSLATED.get(language)
    if table is None:
        table = _TRANSLATED[language] = {key: _(text) for key, text in DRAW_SENTENCES.items()}
    return table


def _describe_draw(event: dict, names: list[str]) -> str:
    who, kind = _name(names, event.get("seat")), event["type"]
    if kind == "pass":
        if event.get("auto"):
            return _("%(name)s had nothing to draw and passed.") % {"name": who}
        return _("%(name)s passed.") % {"name": who}
    words = {"name": who}
    if "map" in event:
        words["owner"] = _name(names, event["map"])
    if kind == "trail":
        words.update(start=_at(event["from"]), end=_at(event["to"]))
        if event.get("corner") is not None:
            words["corner"] = _at(event["corner"])
    else:
        words["square"] = _at(event["cell"])
    return draw_sentences()[kind, "corner" in words, "owner" in words] % words


def describe(event: dict, names: list[str]) -> str:
    """Any event of the game in words (names[i] is seat i's display name)."""
    kind = event.get("type")
    try:
        if kind in ("stop", "tent", "trail", "pass"):
            return _describe_draw(event, names)
        if kind == "end_triggered":
            need = event["full_maps"]
            return ngettext("%(count)s full map: the end is triggered; the last turn is turn %(turn)s, "
                            "and anyone may pass.",
                            "%(count)s full maps: the end is triggered; the last turn is turn %(turn)s, "
                            "and anyone may pass.", need) % {"count": need, "turn": event["final_turn"]}
        if kind == "game_over":
            first, *others = [_name(names, s) for s in event["winners"]]
            winners = first
            for other in others:
                winners = _("%(names)s and %(name)s") % {"names": winners, "name": other}
            return ngettext("The game is over: %(winners)s wins with %(points)s points.",
                            "The game is over: %(winners)s share first place with %(points)s points.",
                            len(event["winners"])) % {"winners": winners, "points": event["points"]}
    except (KeyError, TypeError, IndexError, ValueError):
        pass
    return _("Turn %(turn)s: %(what)s.") % {"turn": event.get("turn", "?"),
                                             "what": str(kind or _("something")).replace("_", " ")}


def describe_move(action: dict, seat: int, names: list[str], view: dict) -> str:
    """A draw, told before the turn resolves and reveals it (simultaneous turns)."""
    return describe({**action, "seat": seat}, names)


# --- How to play: small maps drawn by the same builders as the board ------------------------

HOW_TO_CELL = 26          # px per square in the rules' diagrams
EXAMPLE_NAMES = [gettext_noop("Red"), gettext_noop("Blue")]

# A two-player opening on the Open Plain, as (seat 0's draw, seat 1's draw) per turn; Red
# (seat 0) owns map 0 and holds it on turns 1, 3, 5 and 7. None: the first legal Tent.
EXAMPLE_TURNS = [
    ({"type": "stop", "cell": [2, 3]}, {"type": "stop", "cell": [8, 4]}),
    (None, {"type": "stop", "cell": [5, 1]}),
    ({"type": "stop", "cell": [4, 6]}, None),
    (None, None),
    ({"type": "trail", "from": [2, 3], "to": [4, 6], "corner": [2, 6]}, None),
    (None, None),
    ({"type": "tent", "cell": [3, 2]}, None),
]


def _example_state() -> dict:
    """The position after EXAMPLE_TURNS, played by the rules themselves."""
    from games.rift_valley_reserve.rules import RULES

    state = RULES.setup(2, {"boards": "identical"}, 0)
    for moves in EXAMPLE_TURNS:
        for seat, move in enumerate(moves):
            if move is None:
                move = next(a for a in RULES.legal_actions(state, seat) if a["type"] == "tent")
            state = RULES.apply(state, seat, move)
    return state


def _example_map(view: dict, b: int, label: str = "", coords: bool = False) -> dict:
    colours = list(view["seat_colours"])
    m = dict(view["maps"][b], recent=[])
    geo = map_geometry(m, HOW_TO_CELL, colours)
    name = map_name(m)
    return {"map": dict(m, name=name), "geo": geo, "svg": map_svg(geo, label=label or name, coords=coords)}


def animal_values_text(values: dict[int, int]) -> str:
    """What an animal pays by how many players share it, e.g. "3 each when 1 player is there,
    2 each when 2 players are there, 1 each when 3 or more players are there"."""
    most = max(values)
    parts = []
    for n, points in values.items():
        if n == 1:
            parts.append(_("%(points)s each when 1 player is there") % {"points": points})
        elif n == most:
            parts.append(_("%(points)s each when %(n)s or more players are there") % {"points": points, "n": n})
        else:
            parts.append(_("%(points)s each when %(n)s players are there") % {"points": points, "n": n})
    return ", ".join(parts)


def end_trigger_text(counts: dict[int, int]) -> str:
    """How many full maps end the game at each table size: "1 with 2, 2 with 3, ..."."""
    return ", ".join(_("%(full)s with %(players)s") % {"full": full, "players": n} for n, full in counts.items())


def how_to_play_context() -> dict:
    """Diagrams for the how-to-play page: an empty Open Plain, Red's map after seven turns
    (a Trail bridging Red's Rift, a Tent, Blue's lone Stop) with its scores as the rules
    count them, and the five asymmetrical maps."""
    from games.rift_valley_reserve.rules import RULES, data

    blank = RULES.view(RULES.setup(2, {"boards": "identical"}, 0), None)
    state = _example_state()
    view = RULES.view(state, None)
    scores = [dict(RULES.map_scores(state)[0][s], name=_(EXAMPLE_NAMES[s]), colour=view["seat_colours"][s])
              for s in range(2)]
    for row in scores:
        row["total"] = sum(row[k] for k, _label in CATEGORY_LABELS)
    pool = RULES.view(RULES.setup(5, {"boards": "asymmetrical"}, 0), None)
    asymmetrical = sorted((_example_map(pool, b) for b in range(5)), key=lambda e: e["map"]["id"])
    return {
        "board_style": STYLESHEET,
        "empty_map": _example_map(blank, 0, _("An empty Open Plain: nine areas with thick borders, seven animals and "
                                              "a Rift down the middle column, outlined in red"), coords=True),
        "example": _example_map(view, 0, _("Red's map after seven turns: Red's Trail from D3 bridges the Rift and "
                                           "turns down to G5; a red Tent beside the first Stop; Blue's unconnected "
                                           "Stop and two blue Tents"), coords=True),
        "example_scores": scores,
        "categories": [(k, _(label)) for k, label in CATEGORY_LABELS],
        "animal_values": data.ANIMAL_VALUES,
        "animal_values_text": animal_values_text(data.ANIMAL_VALUES),
        "end_trigger": data.END_TRIGGER_FULL_MAPS,
        "end_trigger_text": end_trigger_text(data.END_TRIGGER_FULL_MAPS),
        "asymmetrical": asymmetrical,
        "option_specs": {name: dict(spec, label=_(spec["label"]),
                                    choices=[(value, _(text)) for value, text in spec["choices"]])
                         for name, spec in OPTION_SPECS.items()},
    }


# --- board.html's loops written here (issue 21) ---------------------------------------------------
# The seat chips, the thumbnails' cards, the per-map score tables and the turn-by-turn list were
# template loops drawn by every audience on every move: after the maps moved to svg.py they were
# most of the board's render (the list alone grows to ~70 turns). The markup is the loops' own,
# character for character (tests/games/test_boards_in_python.py holds it to them, kept in
# tests/games/reference): outside texts escaped once, translated words as the template printed them.

def _esc(value) -> str:
    if type(value) is int:    # seat numbers, ranks, points: digits have nothing to escape
        return str(value)
    return value if isinstance(value, SafeString) else escape(str(value))


def _person(name) -> str:
    shown = _esc(name)
    return f'<span class="name" title="{shown}">{shown}</span>'


def seat_chips_html(board: dict, seat: int | None) -> SafeString:
    """Who draws this turn: a chip per seat with its mark, number, name and status."""
    you = _("(you)")
    out = []
    for s in board["seats"]:
        colour, done = _esc(s["colour"]), s["done"]
        out.append(f'\n        <li class="seat-chip{" done" if done else ""}" data-seat="{_esc(s["seat"])}">\n'
                   f'          <span class="mark" style="color: {colour}" aria-hidden="true">{_esc(s["shape"])}</span>'
                   f'<span class="num" style="background: {colour}">{_esc(s["num"])}</span>\n'
                   f'          {_esc(s["name"])}{" " + you if s["seat"] == seat else ""}\n'
                   f'          <span class="chip">{"✓ " if done else ""}{_esc(s["status"])}</span>\n'
                   '        </li>\n      ')
    return mark_safe("".join(out))


def _seat_colour(seats: list[dict], owner) -> str:
    """`board.seats|get:t.owner|get:'colour'`: the owner's colour (None printed as the filter did)."""
    try:
        return _esc(seats[owner]["colour"])
    except (IndexError, KeyError, TypeError):
        return "None"


def thumbs_html(board: dict, panel_url: str) -> SafeString:
    """The strip of every map: a thumbnail that shows that map, its owner, holder and next."""
    rift_of = _('<span class="muted">Rift of</span> <span class="num" style="background: %(colour)s">%(num)s</span> '
                '%(name)s')
    full = '<span class="tag">' + pgettext("a map with no empty square", "full") + '</span>'
    you = _("(you)")
    out = []
    for t in board["thumbs"]:
        owner = rift_of % {"colour": _esc(t["owner_colour"]), "num": _esc(t["owner_num"]),
                           "name": _esc(t["owner_name"])}
        held = f'{_esc(t["held_by"])}{" " + you if t["held"] else ""}' if t["holder_name"] else ""
        after = f'<span class="flow"> → {_esc(t["next_name"])}</span>' if t["next_name"] else ""
        classes = f'thumb-card{" shown" if t["shown"] else ""}{" held" if t["held"] else ""}'
        out.append(f'\n        <figure class="{classes}" data-map="{_esc(t["index"])}" '
                   f'style="border-color: {_seat_colour(board["seats"], t["owner"])}">\n'
                   f'          <a href="#" class="thumb-link" hx-get="{panel_url}?sel={_esc(t["get"])}" '
                   f'hx-target="#live" hx-swap="innerHTML" aria-label="{_esc(t["show_map"])}">\n'
                   f'            {_esc(t["svg"])}\n          </a>\n          <figcaption>\n'
                   f'            <strong>{_esc(t["map"]["name"])}</strong> {owner}\n'
                   f'            {full if t["map"]["full"] else ""}<br>\n            {held}\n            {after}\n'
                   f'          </figcaption>\n        </figure>\n      ')
    return mark_safe("".join(out))


TOTAL_CLASS = ' class="total"'


def per_map_html(board: dict) -> SafeString:
    """Each player's score on every map, a table per player (the "Scores per map" details)."""
    head = ('<thead><tr><th scope="col"><span class="visually-hidden">' + _("Category") + f'</span></th>'
            f'{board["map_headings"]}</tr></thead>')
    out = []
    labels: dict[str, str] = {}      # every table has the same rows: each label escaped once
    for row in board["scores"]:
        lines = "".join(f'\n          <tr{TOTAL_CLASS if line["total"] else ""}><th scope="row">'
                        f'{labels.get(line["label"]) or labels.setdefault(line["label"], _esc(line["label"]))}'
                        f'</th>{line["tds"]}</tr>\n        ' for line in row["map_lines"])
        out.append(f'\n      <table class="score-table rvr-score-table rvr-per-map">\n        <caption>'
                   f'<span class="num" style="background: {_esc(row["colour"])}">{_esc(row["num"])}</span> '
                   f'{_person(row["name"])}</caption>\n        {head}\n        <tbody>\n        {lines}\n'
                   f'        </tbody>\n      </table>\n      ')
    return mark_safe("".join(out))


# The escaped form of each History sentence: the sentences are kept (games.presenters), so the
# same strings come back render after render.
_ESCAPED: dict[str, str] = {}


def history_html(rows: list[dict]) -> SafeString:
    """The turn-by-turn list's entries, newest turn first."""
    if len(_ESCAPED) > 20000:
        _ESCAPED.clear()
    out = []
    for h in rows:
        items = []
        for line in h["lines"]:
            shown = _ESCAPED.get(line)
            if shown is None:
                shown = _ESCAPED[line] = escape(line)
            items.append(f"<li>{shown}</li>")
        out.append(f'<li><strong>{_esc(h["title"])}</strong><ul>{"".join(items)}</ul></li>')
    return mark_safe("".join(out))
