"""Alpine Trails: every map as a square grid of SVG tiles, the hand tray and the score pad.

Everything is drawn from the seat's view (spec §14). The multi-step choice (which drawn
tile, which side, which rotation; or a campsite swap, or a held animal) is a server-side
selection carried by `?sel=` in the shared `games.selection` syntax, as extras (picks that
choose what is shown, each checked against the hand and the legal actions):

    tile:<tile>.side:<trail|terrain>.rot:<rotation>   a drawn tile, side and rotation
    camp:<tile>                                       a campsite, giving up that drawn tile
    animal:<animal>                                   a held animal

site.js keeps it across live updates (data-sel-root) and moves among the highlighted squares
with the arrow keys; the game's own script only adds the letter shortcuts.

Legal cells come from `panel["legal"]` filtered by the selection, so no rules logic runs
here or in the browser; the server checks every action again.
"""
from __future__ import annotations

import functools
import random
from html import escape as _html_escape
from urllib.parse import quote as _url_quote
from collections.abc import Iterator, Mapping

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games import selection
from games.presenters import describe_from
from games.alpine_trails.board_html import board_html  # noqa: F401 (games.presenters.board_html)
from games.alpine_trails.rules import board as B
from games.alpine_trails.rules import solo_title
from games.alpine_trails.rules.data import (
    ANIMAL_OF, SOLO_TITLES, TERRAIN_OF_ANIMAL, TERRAINS, TILES,
)
from games.rules.base import _, gettext_noop, ngettext, pgettext

OPTION_SPECS: dict = {}
SCRIPT = "games/alpine-trails/board.js"
STYLESHEET = "games/alpine-trails/board.css"

# Board geometry, in SVG units: every map is a grid of S x S cells with a one-cell margin.
S = 72                      # cell side
H = S / 2                   # half a cell: where a trail meets an edge
EDGE = {0: (H, 0), 1: (S, H), 2: (H, S), 3: (0, H)}    # midpoint of the N, E, S, W edges

# The English words of the board (the state and the view hold only keys). Every text a
# person reads is put into the active language where it is shown, by the functions below:
# short words carry the "Alpine Trails" context, so they never meet another game's.
LETTER = {"forest": "F", "rock": "R", "meadow": "M", "wetland": "W"}
ANIMAL_LETTER = {"bear": "B", "goat": "G", "wolf": "Wo", "moose": "Mo"}
PAD_ROWS = [("habitat_forest", "Forest"), ("habitat_rock", "Rock"), ("habitat_meadow", "Meadow"),
            ("habitat_wetland", "Wetland"), ("waterfalls", "Waterfalls"), ("lakes", "Lakes"),
            ("tents", "Tents"), ("animals", "Animals"), ("longest_path", "Longest path"), ("goal", "Goal")]


def terrain_word(terrain: str) -> str:
    """A terrain's name, as it reads inside a sentence ("forest")."""
    return {"forest": pgettext("Alpine Trails terrain", "forest"),
            "rock": pgettext("Alpine Trails terrain", "rock"),
            "meadow": pgettext("Alpine Trails terrain", "meadow"),
            "wetland": pgettext("Alpine Trails terrain", "wetland")}.get(terrain, terrain)


def animal_word(animal: str) -> str:
    """An animal's name on its own ("bear"), for chips and lists."""
    return {"bear": pgettext("Alpine Trails animal", "bear"),
            "goat": pgettext("Alpine Trails animal", "goat"),
            "wolf": pgettext("Alpine Trails animal", "wolf"),
            "moose": pgettext("Alpine Trails animal", "moose")}.get(animal, animal)


def shape_word(shape: str) -> str:
    """A trail shape's name ("straight", "curve", "fork") by its code (I, L, T)."""
    return {"I": pgettext("Alpine Trails trail shape", "straight"),
            "L": pgettext("Alpine Trails trail shape", "curve"),
            "T": pgettext("Alpine Trails trail shape", "fork")}.get(shape, shape)


def direction_word(d: int) -> str:
    return (pgettext("Alpine Trails direction", "north"), pgettext("Alpine Trails direction", "east"),
            pgettext("Alpine Trails direction", "south"), pgettext("Alpine Trails direction", "west"))[d]


def terrain_letter(terrain: str) -> str:
    """The letter a terrain is marked with on tiles and the score pad (beside its colour)."""
    return {"forest": pgettext("Alpine Trails letter for forest", "F"),
            "rock": pgettext("Alpine Trails letter for rock", "R"),
            "meadow": pgettext("Alpine Trails letter for meadow", "M"),
            "wetland": pgettext("Alpine Trails letter for wetland", "W")}.get(terrain, "")


def animal_letter(animal: str) -> str:
    """The letter(s) on an animal token."""
    return {"bear": pgettext("Alpine Trails letter for bear", "B"),
            "goat": pgettext("Alpine Trails letter for goat", "G"),
            "wolf": pgettext("Alpine Trails letter for wolf", "Wo"),
            "moose": pgettext("Alpine Trails letter for moose", "Mo")}.get(animal, "")


def pad_label(key: str) -> str:
    """A score pad row's name (the same on the side score card)."""
    return _pad_labels(get_language()).get(key, key)


@functools.lru_cache(maxsize=64)
def _pad_labels(language: str | None) -> dict[str, str]:
    """Every score pad row's name in one language (asked of the catalogue once, not ten
    texts per row asked)."""
    return {
        "habitat_forest": pgettext("Alpine Trails score pad", "Forest"),
        "habitat_rock": pgettext("Alpine Trails score pad", "Rock"),
        "habitat_meadow": pgettext("Alpine Trails score pad", "Meadow"),
        "habitat_wetland": pgettext("Alpine Trails score pad", "Wetland"),
        "waterfalls": pgettext("Alpine Trails score pad", "Waterfalls"),
        "lakes": pgettext("Alpine Trails score pad", "Lakes"),
        "tents": pgettext("Alpine Trails score pad", "Tents"),
        "animals": pgettext("Alpine Trails score pad", "Animals"),
        "longest_path": pgettext("Alpine Trails score pad", "Longest path"),
        "goal": pgettext("Alpine Trails score pad", "Goal"),
    }


def pad_rows() -> list[tuple[str, str]]:
    """PAD_ROWS with each label in the active language."""
    return [(key, pad_label(key)) for key, _english in PAD_ROWS]


class _PadLabels(Mapping[str, str]):
    """BREAKDOWN_LABELS: the score pad's names, read in the language active when read."""

    def __getitem__(self, key: str) -> str:
        if key not in dict(PAD_ROWS):
            raise KeyError(key)
        return pad_label(key)

    def __iter__(self) -> Iterator[str]:
        return iter(dict(PAD_ROWS))

    def __len__(self) -> int:
        return len(PAD_ROWS)


BREAKDOWN_LABELS: Mapping[str, str] = _PadLabels()   # the side score card names them as the score pad does


def _capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


def tile_words(terrain: str, shape: str) -> str:
    """A tile's name inside a sentence ("forest curve")."""
    return pgettext("Alpine Trails tile name: terrain, then trail shape", "%(terrain)s %(shape)s") % {
        "terrain": terrain_word(terrain), "shape": shape_word(shape)}


def _and_list(words: list[str]) -> str:
    """Two or three words joined as "a and b (and c)" (a trail has two or three exits)."""
    if len(words) == 2:
        return pgettext("Alpine Trails", "%(first)s and %(second)s") % {"first": words[0], "second": words[1]}
    if len(words) == 3:
        return pgettext("Alpine Trails", "%(first)s and %(second)s and %(third)s") % {
            "first": words[0], "second": words[1], "third": words[2]}
    return ", ".join(words)


# One sentence per terrain where its animal is named too (each terrain has one animal), so
# every language gives the animal its own article and case. Marked here, shown with _(...).
TERRAIN_TILE_TITLE = {
    "forest": gettext_noop("Forest habitat, 2 icons"), "rock": gettext_noop("Rock habitat, 2 icons"),
    "meadow": gettext_noop("Meadow habitat, 2 icons"), "wetland": gettext_noop("Wetland habitat, 2 icons"),
}
TERRAIN_TILE_TITLE_ANIMAL = {
    "forest": gettext_noop("Forest habitat, 2 icons, with a bear"),
    "rock": gettext_noop("Rock habitat, 2 icons, with a goat"),
    "meadow": gettext_noop("Meadow habitat, 2 icons, with a wolf"),
    "wetland": gettext_noop("Wetland habitat, 2 icons, with a moose"),
}
PUT_ANIMAL_AT = {
    "bear": gettext_noop("Put the bear at %(x)s,%(y)s"), "goat": gettext_noop("Put the goat at %(x)s,%(y)s"),
    "wolf": gettext_noop("Put the wolf at %(x)s,%(y)s"), "moose": gettext_noop("Put the moose at %(x)s,%(y)s"),
}
PUT_ANIMAL_HINT = {
    "bear": gettext_noop("Put your bear on a forest tile placed terrain side up."),
    "goat": gettext_noop("Put your goat on a rock tile placed terrain side up."),
    "wolf": gettext_noop("Put your wolf on a meadow tile placed terrain side up."),
    "moose": gettext_noop("Put your moose on a wetland tile placed terrain side up."),
}
TRADE_FOR = {
    "bear": gettext_noop("Trade for a bear"), "goat": gettext_noop("Trade for a goat"),
    "wolf": gettext_noop("Trade for a wolf"), "moose": gettext_noop("Trade for a moose"),
}
NO_FREE_TILE = {
    "forest": gettext_noop("No free forest tile placed terrain side up yet"),
    "rock": gettext_noop("No free rock tile placed terrain side up yet"),
    "meadow": gettext_noop("No free meadow tile placed terrain side up yet"),
    "wetland": gettext_noop("No free wetland tile placed terrain side up yet"),
}
ON_TERRAIN = {
    "forest": gettext_noop("on forest"), "rock": gettext_noop("on rock"),
    "meadow": gettext_noop("on meadow"), "wetland": gettext_noop("on wetland"),
}
GIFT_NOTICE = {
    "forest": gettext_noop("%(name)s placed a forest fork: you receive a bear."),
    "rock": gettext_noop("%(name)s placed a rock fork: you receive a goat."),
    "meadow": gettext_noop("%(name)s placed a meadow fork: you receive a wolf."),
    "wetland": gettext_noop("%(name)s placed a wetland fork: you receive a moose."),
}
GIFT_EVENT = {
    "forest": gettext_noop("%(who)s placed a forest fork: %(to)s receives a bear."),
    "rock": gettext_noop("%(who)s placed a rock fork: %(to)s receives a goat."),
    "meadow": gettext_noop("%(who)s placed a meadow fork: %(to)s receives a wolf."),
    "wetland": gettext_noop("%(who)s placed a wetland fork: %(to)s receives a moose."),
}
ANIMAL_EVENT = {
    "bear": gettext_noop("%(who)s put a bear on its map at (%(x)s,%(y)s)."),
    "goat": gettext_noop("%(who)s put a goat on its map at (%(x)s,%(y)s)."),
    "wolf": gettext_noop("%(who)s put a wolf on its map at (%(x)s,%(y)s)."),
    "moose": gettext_noop("%(who)s put a moose on its map at (%(x)s,%(y)s)."),
}
TRADE_EVENT = {
    "forest": gettext_noop("%(who)s traded %(tile)s, a forest fork, for a bear."),
    "rock": gettext_noop("%(who)s traded %(tile)s, a rock fork, for a goat."),
    "meadow": gettext_noop("%(who)s traded %(tile)s, a meadow fork, for a wolf."),
    "wetland": gettext_noop("%(who)s traded %(tile)s, a wetland fork, for a moose."),
}
TILE_CAPTION = {
    "forest": gettext_noop("Forest (letter %(letter)s): trail side and terrain side. Its animal: the bear."),
    "rock": gettext_noop("Rock (letter %(letter)s): trail side and terrain side. Its animal: the goat."),
    "meadow": gettext_noop("Meadow (letter %(letter)s): trail side and terrain side. Its animal: the wolf."),
    "wetland": gettext_noop("Wetland (letter %(letter)s): trail side and terrain side. Its animal: the moose."),
}


# --- drawing one piece -----------------------------------------------------------------------

def _num(v: float) -> str:
    return f"{v:g}"


def trail_path(exits) -> str:
    """An SVG path for the trail band: a curve for two exits, three spokes for a fork."""
    return _trail_path(tuple(sorted(exits)))


@functools.lru_cache(maxsize=64)
def _trail_path(exits: tuple) -> str:
    pts = [EDGE[d] for d in exits]
    if len(pts) == 2:
        (ax, ay), (bx, by) = pts
        return f"M{_num(ax)} {_num(ay)} Q{_num(H)} {_num(H)} {_num(bx)} {_num(by)}"
    return " ".join(f"M{_num(H)} {_num(H)} L{_num(x)} {_num(y)}" for x, y in pts)


def tile_face(tile_id: str, side: str, rotation: int = 0) -> dict:
    """Drawing data for a drawn tile shown at a side and rotation (the tray and ghosts)."""
    tile = TILES[tile_id]
    if side == "trail":
        exits = sorted(B.EXITS[(tile["shape"], rotation)])
        return piece_face({"kind": "trail", "terrain": tile["terrain"], "shape": tile["shape"],
                           "miles": tile["miles"], "exits": exits, "sign": tile["shape"] == "T"})
    return piece_face({"kind": "terrain", "terrain": tile["terrain"], "animal": None})


# Each piece's title and letters, kept per language (issue 21): a map of 40 pieces asked the
# catalogue some 15 times per piece on every render of every seat's map.
_TITLES: dict[tuple, str] = {}


def cell_title(cell: dict, language: str | None = None) -> str:
    """A piece in words, for its tooltip and screen readers (kept per language and piece;
    `language`: the active one, when the caller has read it already)."""
    key = (language or get_language(), cell["kind"], cell.get("terrain"), cell.get("shape"), cell.get("miles"),
           tuple(cell.get("exits") or ()), bool(cell.get("animal")), cell.get("camp"), cell.get("square"))
    title = _TITLES.get(key)
    if title is None:
        if len(_TITLES) > 20000:
            _TITLES.clear()
        title = _TITLES[key] = _cell_title(cell)
    return title


@functools.lru_cache(maxsize=64)
def _letters(language: str | None) -> tuple[dict, dict]:
    """The terrain and animal letters in one language."""
    return ({t: terrain_letter(t) for t in ("forest", "rock", "meadow", "wetland")},
            {a: animal_letter(a) for a in ("bear", "goat", "wolf", "moose")})


def _cell_title(cell: dict) -> str:
    kind = cell["kind"]
    if kind == "trail":
        return ngettext("%(tile)s, %(miles)s mile, exits %(exits)s", "%(tile)s, %(miles)s miles, exits %(exits)s",
                        cell["miles"]) % {"tile": _capfirst(tile_words(cell["terrain"], cell["shape"])),
                                          "miles": cell["miles"],
                                          "exits": _and_list([direction_word(d) for d in cell["exits"]])}
    if kind == "terrain":
        table = TERRAIN_TILE_TITLE_ANIMAL if cell.get("animal") else TERRAIN_TILE_TITLE
        return _(table[cell["terrain"]])
    if kind == "basecamp":
        return _("Base camp %(camp)s square %(square)s, %(terrain)s") % {
            "camp": cell["camp"], "square": cell["square"], "terrain": terrain_word(cell["terrain"])}
    if kind == "campsite":
        return pgettext("Alpine Trails piece", "Campsite with a tent")
    if kind == "waterfall":
        return pgettext("Alpine Trails piece", "Waterfall")
    if kind == "lake":
        return pgettext("Alpine Trails piece", "Lake")
    return kind.capitalize()


# Each piece's face and its markup, kept per language and piece (issue 21): a finished game's
# five maps hold some 170 pieces, each built and escaped field by field on every first render.
_FACES: dict[tuple, dict] = {}
_PIECE_SVGS: dict[tuple, str] = {}


def piece_face(cell: dict, language: str | None = None) -> dict:
    """What the _tile partial needs for one piece (cell dict from the view's map_drawing);
    `piece` names it (the key its face and markup are kept under)."""
    return dict(_kept_face(cell, language or get_language()))


def _kept_face(cell: dict, language: str) -> dict:
    """piece_face, shared by every caller: copy it before changing it."""
    key = (language, cell["kind"], cell.get("terrain"), cell.get("shape"), cell.get("miles"),
           tuple(cell.get("exits") or ()), cell.get("animal"), cell.get("camp"), cell.get("square"),
           cell.get("sign"), cell.get("points"))
    face = _FACES.get(key)
    if face is None:
        if len(_FACES) > 20000:
            _FACES.clear()
            _PIECE_SVGS.clear()
        face = _FACES[key] = _piece_face(cell, language)
        face["piece"] = key
    return face


def _piece_face(cell: dict, language: str) -> dict:
    kind = cell["kind"]
    terrain_letters, animal_letters = _letters(language)
    face = {"kind": kind, "terrain": cell.get("terrain"), "letter": terrain_letters.get(cell.get("terrain") or "", ""),
            "title": cell_title(cell, language)}
    if kind == "trail":
        face.update(path=trail_path(cell["exits"]), miles=cell["miles"], sign=cell.get("sign"),
                    shape=cell.get("shape"))
    elif kind == "terrain":
        face.update(animal=cell.get("animal"), animal_letter=animal_letters.get(cell.get("animal") or "", ""))
    elif kind == "basecamp":
        face.update(square=cell.get("square"), camp=cell.get("camp"))
    elif kind == "waterfall":
        face.update(points=cell.get("points"))
    return face


# --- one map -----------------------------------------------------------------------------------

def _outline(cells: list) -> str:
    """An SVG path tracing the outer edges of a group of cells (in cell units)."""
    group = set(map(tuple, cells))
    parts = []
    for x, y in group:
        if (x, y - 1) not in group:
            parts.append(f"M{x} {y}h1")
        if (x + 1, y) not in group:
            parts.append(f"M{x + 1} {y}v1")
        if (x, y + 1) not in group:
            parts.append(f"M{x} {y + 1}h1")
        if (x - 1, y) not in group:
            parts.append(f"M{x} {y}v1")
    return "".join(sorted(parts))


def map_geometry(entry: dict, *, highlights=(), over: bool = False, map_repr: str | None = None) -> dict:
    """Cells placed at ((x - minx + 1) * S, (y - miny + 1) * S) with a one-cell margin
    (`map_repr`: repr(entry["map"]), when the caller has it already)."""
    b = entry["bounds"]
    minx, maxx, miny, maxy = b["minx"], b["maxx"], b["miny"], b["maxy"]
    for h in highlights:
        minx, maxx = min(minx, h["x"]), max(maxx, h["x"])
        miny, maxy = min(miny, h["y"]), max(maxy, h["y"])

    def at(x, y):
        return (x - minx + 1) * S, (y - miny + 1) * S

    cells = []
    camp = []
    language = get_language()
    for key, cell in entry["map"].items():
        px, py = at(cell["x"], cell["y"])
        face = dict(_kept_face(cell, language))
        face.update(x=cell["x"], y=cell["y"], px=px, py=py, key=key, new_lake=over and cell["kind"] == "lake")
        cells.append(face)
        if cell["kind"] == "basecamp":
            camp.append((px, py))
    base = None
    if camp:
        base = {"px": min(p[0] for p in camp), "py": min(p[1] for p in camp),
                "w": (max(p[0] for p in camp) - min(p[0] for p in camp)) + S, "h": S}
        base["cx"] = base["px"] + base["w"] / 2
    open_ends = [{"x": x, "y": y, "px": at(x, y)[0], "py": at(x, y)[1]} for x, y in entry.get("open_ends", [])]
    for h in highlights:
        h["px"], h["py"] = at(h["x"], h["y"])
    extras = {}
    if over:
        extras = _kept_end_marks(entry, minx, miny, map_repr)
    return {"cells": cells, "base": base, "open_ends": open_ends, "highlights": list(highlights),
            "width": (maxx - minx + 3) * S, "height": (maxy - miny + 3) * S, "S": S, **extras}


# Every audience of a game draws the same maps: in play the other seats' maps as of the last
# resolved round, at the end every seat's map (small, or as "Your map"). A map with nothing to
# tap is made of its cells, bounds and open ends, the language and how it is shown, so its
# geometry and SVG are kept under those (issue 21: a push to six audiences drew 30 maps where 10
# differ; a seat's own map waiting for the others is drawn again on every move of the round).
_KEPT_MAPS: dict[tuple, dict] = {}
_KEPT_SVGS: dict[tuple, SafeString] = {}


def kept_map_geometry(entry: dict, *, over: bool = False) -> dict:
    """map_geometry of a map without highlights, shared by every caller: read it, never change
    it (copy it first, as board_context does for the main map)."""
    map_repr = repr(entry["map"])
    key = (get_language(), over, map_repr, repr(entry["bounds"]), repr(entry.get("open_ends", [])))
    geo = _KEPT_MAPS.get(key)
    if geo is None:
        if len(_KEPT_MAPS) > 300:             # a map's key, geometry and SVGs: some 50 kB
            _KEPT_MAPS.clear()
            _KEPT_SVGS.clear()
        geo = _KEPT_MAPS[key] = map_geometry(entry, over=over, map_repr=map_repr)
        geo["kept_as"] = key
    return geo


# A finished map never changes, yet every render of every audience searched each map's longest
# path and habitats again (issue 21): kept per (language, map, its offset), bounded.
_END_MARKS: dict[tuple, dict] = {}


def _kept_end_marks(entry: dict, minx: int, miny: int, map_repr: str | None = None) -> dict:
    key = (get_language(), map_repr or repr(entry["map"]), minx, miny)
    marks = _END_MARKS.get(key)
    if marks is None:
        if len(_END_MARKS) > 500:             # a map's key and marks: some 10 kB
            _END_MARKS.clear()
        marks = _END_MARKS[key] = _end_marks(entry, minx, miny)
    return {k: [dict(v) for v in value] if isinstance(value, list) else dict(value) if isinstance(value, dict)
            else value for k, value in marks.items()}                 # the caller's own copies


def _end_marks(entry: dict, minx: int, miny: int) -> dict:
    """At the end: the longest path's tiles and the largest habitat of each terrain."""
    board = B.parse({k: {kk: vv for kk, vv in v.items()} for k, v in entry["map"].items()})
    paths = B.out_and_back_paths(board)
    best = max(paths, key=lambda p: p["miles"], default=None)
    shift = lambda c: (c[0] - minx + 1, c[1] - miny + 1)  # noqa: E731
    path_cells, path_miles, lake = [], 0, None
    if best and best["miles"]:
        path_cells = [{"px": shift(c)[0] * S, "py": shift(c)[1] * S} for c in best["tiles"]]
        path_miles = best["miles"]
        lx, ly = shift(best["lake"])
        lake = {"px": lx * S, "py": ly * S}
    habitats = []
    for terrain, (icons, group) in B.habitats(board).items():
        if icons:
            habitats.append({"terrain": terrain, "icons": icons, "letter": terrain_letter(terrain),
                             "d": _outline([shift(c) for c in group]),
                             "title": ngettext("Largest %(terrain)s habitat: %(icons)s icon",
                                               "Largest %(terrain)s habitat: %(icons)s icons", icons)
                             % {"terrain": terrain_word(terrain), "icons": icons}})
    return {"path_cells": path_cells, "path_miles": path_miles, "path_lake": lake, "habitats": habitats}


# --- the selection ---------------------------------------------------------------------------

def action_picks(action: dict) -> list[str]:
    """Each legal action spelled as `games.selection` picks (one spelling per action)."""
    kind = action["type"]
    cell = f"at:{action['x']},{action['y']}" if "x" in action else None
    if kind == "place":
        return [f"put:{action['tile']}", f"up:{action['side']}", f"turn:{action.get('rotation', 0)}", str(cell)]
    if kind == "campsite":
        return [f"tent:{action['discard']}", str(cell)]
    if kind == "animal":
        return [f"put:{action['animal']}", str(cell)]
    if kind == "waterfall":
        return ["falls", str(cell)]
    if kind in ("discard", "trade_fork"):
        return [kind, f"of:{action['tile']}"]
    return [kind]


def _extras(by: dict, hand: list[str]) -> dict:
    """What the drawn page may show, each checked against the hand and the legal actions:
    the tile in hand with its side and rotation, a campsite's tile, a held animal."""
    camps = {a["discard"] for a in by.get("campsite", [])}
    animals = {a["animal"] for a in by.get("animal", [])}
    return {"tile": lambda v: v in hand, "side": lambda v: v in ("trail", "terrain"),
            "rot": lambda v: v in ("0", "1", "2", "3"), "camp": lambda v: v in camps,
            "animal": lambda v: v in animals}


def parse_selection(raw: str, legal: list[dict], hand: list[str]) -> dict:
    """The board mode a `?sel=` asks for (e.g. `tile:T001.side:trail.rot:2`, `camp:T001`,
    `animal:bear`), a value the hand and the legal actions do not allow dropped;
    {"mode": None} for none."""
    extras = _extras(_by_type(legal), hand)
    chosen = dict(selection.select(raw, legal, action_picks, extras=extras).extras)
    if {"tile", "side", "rot"} <= chosen.keys():
        return {"mode": "tile", "tile": chosen["tile"], "side": chosen["side"], "rotation": int(chosen["rot"])}
    if "camp" in chosen:
        return {"mode": "campsite", "tile": chosen["camp"]}
    if "animal" in chosen:
        return {"mode": "animal", "animal": chosen["animal"]}
    return {"mode": None}


def tile_sel(tile: str, side: str, rotation: int) -> str:
    return selection.encode([f"tile:{tile}", f"side:{side}", f"rot:{rotation}"])


def camp_sel(tile: str) -> str:
    return selection.encode([f"camp:{tile}"])


def animal_sel(animal: str) -> str:
    return selection.encode([f"animal:{animal}"])


def _default_tile_sel(tile: str, places: list) -> dict:
    trail = sorted({a["rotation"] for a in places if a["tile"] == tile and a["side"] == "trail"})
    if trail:
        return {"mode": "tile", "tile": tile, "side": "trail", "rotation": trail[0]}
    terrain = any(a["tile"] == tile and a["side"] == "terrain" for a in places)
    return {"mode": "tile", "tile": tile, "side": "terrain" if terrain else "trail", "rotation": 0}


def _by_type(legal: list[dict]) -> dict[str, list[dict]]:
    by: dict[str, list[dict]] = {}
    for a in legal:
        by.setdefault(a["type"], []).append(a)
    return by


def resolve_selection(raw: str, legal: list[dict], hand: list[str]) -> tuple[dict, bool]:
    """The selection in force and whether the player chose it: a pending waterfall wins,
    a stale or forged `?sel=` falls back to the first drawn tile."""
    sel = parse_selection(raw, legal, hand)
    by = _by_type(legal)
    places = by.get("place", [])
    if by.get("waterfall"):
        return {"mode": "waterfall"}, sel["mode"] is not None
    stale = ((sel["mode"] == "animal" and not any(a["animal"] == sel["animal"] for a in by.get("animal", [])))
             or (sel["mode"] == "campsite" and not any(a["discard"] == sel["tile"] for a in by.get("campsite", [])))
             or (sel["mode"] == "tile" and sel["tile"] not in hand))
    if sel["mode"] is None or stale:
        return (_default_tile_sel(hand[0], places) if hand else {"mode": "none"}), False
    if sel["mode"] == "tile" and sel["side"] == "terrain":
        sel["rotation"] = 0
    return sel, True


def waterfall_targets(by: dict, me: dict) -> tuple[list[dict], str]:
    points = {(o["x"], o["y"]): o["points"] for o in me.get("waterfall_options", [])}
    highlights = []
    for a in by["waterfall"]:
        p = points.get((a["x"], a["y"]), 0)
        highlights.append({"x": a["x"], "y": a["y"], "action": a, "label": f"+{p}",
                           "aria": ngettext("Place the waterfall at %(x)s,%(y)s: %(points)s point now",
                                            "Place the waterfall at %(x)s,%(y)s: %(points)s points now", p)
                           % {"x": a["x"], "y": a["y"], "points": p}})
    n = me.get("waterfalls_pending", 0)
    return highlights, _("Loop closed: place your waterfall (%(count)s to place). "
                         "Each shows the points it scores now.") % {"count": n}


def _tile_message(sel: dict, here: list, other: dict, places: list) -> str:
    tile, side = sel["tile"], sel["side"]
    if here:
        if side == "trail":
            text = ngettext("%(count)s spot for this tile trail side up. Click a highlighted square.",
                            "%(count)s spots for this tile trail side up. Click a highlighted square.", len(here))
        else:
            text = ngettext("%(count)s spot for this tile terrain side up. Click a highlighted square.",
                            "%(count)s spots for this tile terrain side up. Click a highlighted square.", len(here))
        return text % {"count": len(here)}
    if other:
        return _("No spot in this rotation: rotate (R), or click an outlined square.")
    if any(a["tile"] == tile for a in places):
        if side == "trail":
            return _("The trail side fits nowhere: flip to the terrain side (F).")
        return _("The terrain side fits nowhere: flip to the trail side (F).")
    return _("This tile fits nowhere on your map: discard it.")


def tile_targets(sel: dict, by: dict) -> tuple[list[dict], str]:
    """Squares where the selected tile fits as shown, and (outlined) where another rotation fits."""
    places = by.get("place", [])
    tile, side, rot = sel["tile"], sel["side"], sel["rotation"]
    mine = [a for a in places if a["tile"] == tile and a["side"] == side]
    here = [a for a in mine if side == "terrain" or a["rotation"] == rot]
    name = tile_words(TILES[tile]["terrain"], TILES[tile]["shape"])
    aria = (_("Place %(tile)s trail side up at %(x)s,%(y)s") if side == "trail"
            else _("Place %(tile)s terrain side up at %(x)s,%(y)s"))
    highlights = [{"x": a["x"], "y": a["y"], "action": a, "label": "",
                   "aria": aria % {"tile": name, "x": a["x"], "y": a["y"]}} for a in here]
    seen = {(a["x"], a["y"]) for a in here}
    other: dict = {}
    for a in mine:
        if (a["x"], a["y"]) not in seen:
            other.setdefault((a["x"], a["y"]), a["rotation"])
    for (x, y), r in sorted(other.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        highlights.append({"x": x, "y": y, "faint": True, "sel": tile_sel(tile, "trail", r), "label": "",
                           "aria": _("Fits at %(x)s,%(y)s when rotated: choose that rotation") % {"x": x, "y": y}})
    return highlights, _tile_message(sel, here, other, places)


def campsite_targets(sel: dict, by: dict, me: dict) -> tuple[list[dict], str]:
    miles = {(o["x"], o["y"]): o["miles"] for o in me.get("campsite_options", [])}
    highlights = []
    for a in by.get("campsite", []):
        if a["discard"] == sel["tile"]:
            m = miles.get((a["x"], a["y"]))
            where = {"x": a["x"], "y": a["y"], "miles": m}
            highlights.append({
                "x": a["x"], "y": a["y"], "action": a,
                "label": pgettext("Alpine Trails: miles, short", "%(miles)s mi") % where if m is not None else "",
                "aria": (ngettext("Make a campsite at %(x)s,%(y)s, %(miles)s mile from the nearest camp",
                                  "Make a campsite at %(x)s,%(y)s, %(miles)s miles from the nearest camp", m) % where
                         if m is not None else _("Make a campsite at %(x)s,%(y)s") % where)})
    return highlights, _("Campsite: the marked tile returns to the box. Each spot shows its trail distance.")


def animal_targets(sel: dict, by: dict) -> tuple[list[dict], str]:
    animal = sel["animal"]
    highlights = [{"x": a["x"], "y": a["y"], "action": a, "label": animal_letter(animal),
                   "aria": _(PUT_ANIMAL_AT[animal]) % {"x": a["x"], "y": a["y"]}}
                  for a in by.get("animal", []) if a["animal"] == animal]
    return highlights, _(PUT_ANIMAL_HINT[animal])


def targets(sel: dict, by: dict, me: dict) -> tuple[list[dict], str]:
    """The squares to highlight on the player's map, and the hint line, for the selection."""
    mode = sel["mode"]
    if mode == "waterfall":
        return waterfall_targets(by, me)
    if mode == "tile":
        return tile_targets(sel, by)
    if mode == "campsite":
        return campsite_targets(sel, by, me)
    if mode == "animal":
        return animal_targets(sel, by)
    return [], ""


def hand_tray(sel: dict, hand: list[str], places: list[dict]) -> list[dict]:
    """The drawn tiles, each shown at the side and rotation it would be placed with."""
    tray = []
    for i, tile in enumerate(hand):
        t = TILES[tile]
        chosen = sel.get("tile") == tile and sel["mode"] in ("tile", "campsite")
        shown = sel if chosen and sel["mode"] == "tile" else _default_tile_sel(tile, places)
        side, rot = shown["side"], shown["rotation"]
        tray.append({
            "id": tile, "key": str(i + 1), "terrain": t["terrain"], "shape": shape_word(t["shape"]),
            "miles": t["miles"], "fork": t["shape"] == "T", "side": side, "rotation": rot,
            "face": tile_face(tile, side, rot), "selected": chosen,
            "boxed": chosen and sel["mode"] == "campsite",
            "sel": camp_sel(tile) if sel["mode"] == "campsite" else tile_sel(tile, side, rot),
            "label": pgettext("Alpine Trails: a drawn tile", "%(tile)s, %(miles)s mi") % {
                "tile": _capfirst(tile_words(t["terrain"], t["shape"])), "miles": t["miles"]},
        })
    return tray


def tile_buttons(sel: dict, by: dict) -> dict:
    """Flip, rotate, campsite, cancel, discard and trade, for the selected tile."""
    places = by.get("place", [])
    if sel["mode"] == "campsite":
        default = _default_tile_sel(sel["tile"], places)
        return {"cancel": tile_sel(sel["tile"], default["side"], default["rotation"])}
    if sel["mode"] != "tile":
        return {}
    tile, side, rot = sel["tile"], sel["side"], sel["rotation"]
    buttons: dict = {"flip": tile_sel(tile, "terrain" if side == "trail" else "trail", rot)}
    if side == "trail":
        buttons["rotate"] = tile_sel(tile, "trail", (rot + 1) % 4)
        buttons["rotate_back"] = tile_sel(tile, "trail", (rot + 3) % 4)
    buttons["campsite"] = camp_sel(tile) if any(a["discard"] == tile for a in by.get("campsite", [])) else ""
    buttons["discard"] = next((a for a in by.get("discard", []) if a["tile"] == tile), None)
    trade = next((a for a in by.get("trade_fork", []) if a["tile"] == tile), None)
    if trade:
        buttons["trade"] = trade
        buttons["trade_animal"] = ANIMAL_OF[TILES[tile]["terrain"]]
        buttons["trade_label"] = _(TRADE_FOR[buttons["trade_animal"]])
    return buttons


def held_animals(sel: dict, me: dict, by: dict) -> list[dict]:
    counts: dict[str, int] = {}
    for animal in me.get("animals", []):
        counts[animal] = counts.get(animal, 0) + 1
    placeable = {a["animal"] for a in by.get("animal", [])}
    return [{"animal": animal, "count": count, "letter": animal_letter(animal), "name": animal_word(animal),
             "terrain": TERRAIN_OF_ANIMAL[animal], "on": _(ON_TERRAIN[TERRAIN_OF_ANIMAL[animal]]),
             "no_tile": _(NO_FREE_TILE[TERRAIN_OF_ANIMAL[animal]]),
             "sel": animal_sel(animal) if animal in placeable else "",
             "selected": sel["mode"] == "animal" and sel["animal"] == animal}
            for animal, count in sorted(counts.items())]


def selection_key(sel: dict) -> str:
    """The `?sel=` value of a selection ("" for none or a waterfall)."""
    if sel["mode"] == "tile":
        return tile_sel(sel["tile"], sel["side"], sel["rotation"])
    if sel["mode"] == "campsite":
        return camp_sel(sel["tile"])
    if sel["mode"] == "animal":
        return animal_sel(sel["animal"])
    return ""


def ghost_of(sel: dict) -> dict | None:
    """The piece drawn under the pointer on the player's map."""
    if sel["mode"] == "tile":
        return tile_face(sel["tile"], sel["side"], sel["rotation"])
    if sel["mode"] in ("campsite", "waterfall"):
        return piece_face({"kind": sel["mode"]})
    return None


def controls(panel: dict, me: dict) -> dict:
    """The acting seat's controls: mode, highlights, tray and buttons."""
    by = _by_type(panel["legal"])
    hand = list(me.get("hand", []))
    sel, explicit = resolve_selection(panel.get("selection", ""), panel["legal"], hand)
    highlights, message = targets(sel, by, me)
    done = by.get("done", [None])[0]
    done_reason = "" if done is not None else (_("Place your waterfall first.") if sel["mode"] == "waterfall"
                                               else _("Place or give up both drawn tiles first."))
    return {"sel": sel, "current": selection_key(sel), "ghost": ghost_of(sel), "explicit": explicit,
            "highlights": highlights, "message": message, "tray": hand_tray(sel, hand, by.get("place", [])),
            "buttons": tile_buttons(sel, by), "held": held_animals(sel, me, by), "done": done,
            "done_reason": done_reason, "hand_ids": " ".join(hand), "camp_possible": bool(by.get("campsite"))}


# --- the score pad -----------------------------------------------------------------------------

def score_pad(view: dict, names: list, viewer) -> dict:
    over = view["phase"] == "over"
    result = view.get("result") or {}
    seats = view["seats"]
    final = result.get("scores") if over else None
    cols = []
    for i, entry in enumerate(seats):
        score = final[i] if final else entry["score"]
        shown_goal = over or entry.get("live")
        cols.append({"seat": i, "name": names[i] if i < len(names) else _("Seat %(number)s") % {"number": i + 1},
                     "breakdown": score["breakdown"], "total": score["total"], "goal_shown": shown_goal,
                     "goal_name": _goal_name(entry.get("goal_card")) if shown_goal else "",
                     "rank": (result.get("ranking") or [None] * len(seats))[i] if over else None,
                     "me": viewer == i})
    rows = []
    for key, label in pad_rows():
        cells = []
        for c in cols:
            if key == "goal" and not c["goal_shown"]:
                cells.append("?")
            else:
                cells.append(c["breakdown"].get(key, 0))
        rows.append({"key": key, "label": label, "cells": cells,
                     "terrain": key.split("_", 1)[1] if key.startswith("habitat_") else "",
                     "letter": terrain_letter(key.split("_", 1)[1]) if key.startswith("habitat_") else ""})
    title = result.get("title")
    return {"cols": cols, "rows": rows, "over": over, "title": _(title) if title else title,
            "has_title": over and view.get("solo")}


# --- the board ---------------------------------------------------------------------------------

def _padded_names(panel: dict, players: int) -> list[str]:
    names = list(panel.get("names") or [])
    while len(names) < players:
        names.append(_("Seat %(number)s") % {"number": len(names) + 1})
    return names


def other_maps(view: dict, seat, names: list[str]) -> list[dict]:
    """Every other seat's map (as of the last resolved round during play), small."""
    over = view["phase"] == "over"
    maps = []
    for entry in view["seats"]:
        i = entry["seat"]
        if i == seat:
            continue
        as_of = entry["as_of_round"]
        maps.append({"seat": i, "name": names[i], "number": i + 1, "geo": kept_map_geometry(entry, over=over),
                     "status": entry["status"],
                     "as_of": _("final map") if over else (_("start of the game") if as_of < 1
                                                            else _("as of round %(round)s") % {"round": as_of}),
                     "animals": [animal_word(a) for a in entry["animals"]], "total": entry["score"]["total"],
                     "goal_card": goal_card_shown(entry.get("goal_card")) if over else None})
    return maps


def gift_notices(view: dict, seat, names: list[str]) -> list[str]:
    """Animals the seat received from other seats' forks when the last round resolved."""
    last = view.get("last_round")
    if seat is None or not last or view["phase"] == "over" or last.get("round") != view["round"] - 1:
        return []
    return [_(GIFT_NOTICE[TERRAIN_OF_ANIMAL[g["animal"]]]) % {"name": names[g["from"]]}
            for g in last.get("gifts", []) if g["to"] == seat]


def _goal_name(card: dict | None) -> str:
    return _(card["name"]) if card and card.get("name") else ""


def goal_card_shown(card: dict | None) -> dict | None:
    """The view's goal card (English name and text, as data) with its words translated."""
    if not card:
        return card
    return {**card, "name": _goal_name(card), "text": _(card["text"]) if card.get("text") else ""}


def seat_status(view: dict, names: list[str]) -> list[dict]:
    to_act = view.get("to_act", [])
    return [{"seat": e["seat"], "name": names[e["seat"]], "number": e["seat"] + 1,
             "done": e["seat"] not in to_act} for e in view["seats"]]


def board_context(panel: dict) -> dict:
    view = panel["view"]
    seat = panel.get("seat")
    names = _padded_names(panel, view["players"])
    over = view["phase"] == "over"
    replay = bool(panel.get("replay"))
    me = view["seats"][seat] if seat is not None and 0 <= seat < len(view["seats"]) else None
    ctl = controls(panel, me) if me is not None and panel.get("legal") and not over and not replay else None
    main = None
    if me is not None and seat is not None:  # me is only set for a seat
        if ctl and ctl["highlights"]:
            main = map_geometry(me, highlights=ctl["highlights"], over=over)
        else:
            main = dict(kept_map_geometry(me, over=over))
        main.update(seat=seat, name=names[seat])
    board = {
        "S": S, "main": main, "maps": other_maps(view, seat if me is not None else None, names), "ctl": ctl,
        "me": me, "over": over, "replay": replay, "pad": score_pad(view, names, seat),
        "notices": gift_notices(view, seat if me is not None else None, names), "status": seat_status(view, names),
        "waiting": [names[i] for i in view.get("to_act", [])], "acting": ctl is not None,
        "finished_round": me is not None and not over and seat not in view.get("to_act", []),
        "goal": goal_card_shown((me or {}).get("goal_card")),
        "held": [animal_word(a) for a in (me or {}).get("animals", [])],
        "terrains": [{"id": t, "letter": terrain_letter(t), "animal": ANIMAL_OF[t]} for t in TERRAINS],
        "spectator": seat is None,
    }
    draw_maps(panel, board)
    board.update(status_html=status_html(board), pad_html=pad_html(board), maps_html=other_maps_html(board))
    return {"board": board, "done_action": {"type": "done"}}


# --- events in words ---------------------------------------------------------------------------

def _who(names: list[str], seat) -> str:
    """A seat's display name ("Seat N" beyond the names, "Someone" for none), in words."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    if isinstance(seat, int):
        return _("Seat %(number)s") % {"number": seat + 1}
    return _("Someone")


def _tile_words(tile_id: str) -> str:
    tile = TILES[tile_id]
    return pgettext("Alpine Trails: a tile with its miles", "%(terrain)s %(shape)s (%(miles)s mi)") % {
        "terrain": terrain_word(tile["terrain"]), "shape": shape_word(tile["shape"]), "miles": tile["miles"]}


def _loops(n: int) -> str:
    return ngettext("%(count)s loop", "%(count)s loops", n) % {"count": n}


def _place(e: dict, names: list[str]) -> str:
    who = _who(names, e["seat"])
    if e["side"] == "trail":
        exits = ", ".join(direction_word(d) for d in sorted(B.EXITS[(TILES[e["tile"]]["shape"], e["rotation"])]))
        words = {"who": who, "tile": _tile_words(e["tile"]), "x": e["x"], "y": e["y"], "exits": exits}
        if e.get("loops"):
            return _("%(who)s placed a %(tile)s trail side up at (%(x)s,%(y)s), exits %(exits)s, "
                     "closing %(loops)s.") % {**words, "loops": _loops(e["loops"])}
        return _("%(who)s placed a %(tile)s trail side up at (%(x)s,%(y)s), exits %(exits)s.") % words
    return _("%(who)s placed a %(terrain)s tile terrain side up at (%(x)s,%(y)s).") % {
        "who": who, "terrain": terrain_word(TILES[e["tile"]]["terrain"]), "x": e["x"], "y": e["y"]}


def _campsite(e: dict, n: list[str]) -> str:
    words = {"who": _who(n, e["seat"]), "x": e["x"], "y": e["y"], "tile": e["tile"],
             "distance": ngettext("%(miles)s mile", "%(miles)s miles", e["miles"]) % {"miles": e["miles"]}}
    if e.get("loops"):
        return _("%(who)s made a campsite at (%(x)s,%(y)s), %(distance)s out, giving up %(tile)s, "
                 "closing %(loops)s.") % {**words, "loops": _loops(e["loops"])}
    return _("%(who)s made a campsite at (%(x)s,%(y)s), %(distance)s out, giving up %(tile)s.") % words


def _game_over(e: dict, names: list[str]) -> str:
    winners = e["winners"]
    if e.get("solo"):
        title = B.solo_title(e["points"])
        words = {"who": _who(names, 0), "points": e["points"]}
        if title:
            return _("Game over: %(who)s scores %(points)s — %(title)s.") % {**words, "title": _(title)}
        return _("Game over: %(who)s scores %(points)s (no title).") % words
    words = {"who": ", ".join(_who(names, w) for w in winners), "points": e["points"]}
    if len(winners) == 1:
        return ngettext("Game over: %(who)s wins with %(points)s point.",
                        "Game over: %(who)s wins with %(points)s points.", e["points"]) % words
    return ngettext("Game over: %(who)s tie with %(points)s point.",
                    "Game over: %(who)s tie with %(points)s points.", e["points"]) % words


DESCRIBE = {
    "round_start": lambda e, n: _("Round %(round)s of %(rounds)s begins.") % {
        "round": e["turn"], "rounds": e["rounds"]},
    "place": _place,
    "campsite": _campsite,
    "waterfall": lambda e, n: _("%(who)s placed a waterfall at (%(x)s,%(y)s).") % {
        "who": _who(n, e["seat"]), "x": e["x"], "y": e["y"]},
    "waterfall_lost": lambda e, n: ngettext("%(who)s had no room for %(count)s waterfall.",
                                            "%(who)s had no room for %(count)s waterfalls.", e["count"]) % {
        "who": _who(n, e["seat"]), "count": e["count"]},
    "animal": lambda e, n: _(ANIMAL_EVENT[e["animal"]]) % {"who": _who(n, e["seat"]), "x": e["x"], "y": e["y"]},
    "discard": lambda e, n: _("%(who)s discarded %(tile_id)s, a %(tile)s that fit nowhere.") % {
        "who": _who(n, e["seat"]), "tile_id": e["tile"], "tile": _tile_words(e["tile"])},
    "trade_fork": lambda e, n: _(TRADE_EVENT[TILES[e["tile"]]["terrain"]]) % {
        "who": _who(n, e["seat"]), "tile": e["tile"]},
    "gift": lambda e, n: _(GIFT_EVENT[e["terrain"]]) % {"who": _who(n, e["seat"]), "to": _who(n, e["to"])},
    "end_animals": lambda e, n: ngettext("%(who)s placed %(count)s held animal at the end.",
                                         "%(who)s placed %(count)s held animals at the end.", e["count"]) % {
        "who": _who(n, e["seat"]), "count": e["count"]},
    "lakes": lambda e, n: ngettext("%(who)s gets %(count)s lake.", "%(who)s gets %(count)s lakes.", e["count"]) % {
        "who": _who(n, e["seat"]), "count": e["count"]},
    "game_over": _game_over,
}


def describe(event: dict, names: list[str]) -> str:
    """One event of the view in words; names[i] is the display name of seat i."""
    return describe_from(DESCRIBE, event, names)


def describe_move(action: dict, seat: int, names: list[str], view: dict) -> str:
    """A move that adds no event of its own: "done" ends the seat's part of the round."""
    if action.get("type") == "done":
        return _("%(who)s finished round %(round)s.") % {"who": _who(names, seat), "round": view["round"]}
    return describe({**action, "seat": seat}, names)


# --- how to play -------------------------------------------------------------------------------

HOW_TO_PLAY_SEED = 7        # the solo game whose maps illustrate the "how to play" page


@functools.lru_cache(maxsize=1)
def _example_solo_game() -> tuple[dict, dict, dict]:
    """The view of seat 0 in a solo game played by the bot: after setup, after 3 rounds
    and at the end. Deterministic (fixed seed), so worked out once per process."""
    from games.alpine_trails.rules import RULES
    from games.alpine_trails.rules import bot

    state = RULES.setup(1, RULES.default_options(), HOW_TO_PLAY_SEED)
    start = RULES.view(state, 0)
    rng, early = random.Random(HOW_TO_PLAY_SEED), None
    while not RULES.is_over(state):
        state = RULES.apply(state, 0, bot.choose(state, 0, rng))
        if early is None and state["round"] == 4:
            early = RULES.view(state, 0)
    if early is None:
        raise RuntimeError("The how-to-play example game ended before round 4.")
    return start, early, RULES.view(state, 0)


def _tile_faces() -> list[dict]:
    """One straight trail of each terrain, on both sides, as the tray draws tiles."""
    shown = {}
    for tile_id, tile in TILES.items():
        if tile["terrain"] not in shown and tile["shape"] == "I":
            terrain = tile["terrain"]
            shown[terrain] = {"terrain": terrain, "animal": ANIMAL_OF[terrain],
                              "trail": tile_face(tile_id, "trail", 1), "side": tile_face(tile_id, "terrain"),
                              "trail_label": _capfirst(_("%(terrain)s tile, trail side")
                                                       % {"terrain": terrain_word(terrain)}),
                              "side_label": _capfirst(_("%(terrain)s tile, terrain side")
                                                      % {"terrain": terrain_word(terrain)}),
                              "caption": _(TILE_CAPTION[terrain]) % {"letter": terrain_letter(terrain)}}
    return [shown[t] for t in TERRAINS if t in shown]


def title_ranges() -> list[dict]:
    """The solo rank titles as point ranges, lowest first: "below 85", "85 to 94", ... "125 or more"."""
    steps = sorted(SOLO_TITLES)
    ranges = [{"points": _("below %(points)s") % {"points": steps[0][0]}, "title": _("no title")}]
    for (low, title), after in zip(steps, steps[1:] + [None], strict=True):
        points = (_("%(low)s to %(high)s") % {"low": low, "high": after[0] - 1} if after
                  else _("%(low)s or more") % {"low": low})
        ranges.append({"points": points, "title": _(title)})
    return ranges


def how_to_play_context() -> dict:
    """Maps of one solo game (the start, round 4, the end with its scoring marks) and the
    tiles, drawn by the board's own builders; the solo rank titles from the rules."""
    start, early, end = _example_solo_game()
    final = end["seats"][0]
    scores = final.get("score") or {}
    return {
        "start_map": map_geometry(start["seats"][0]),
        "early_map": map_geometry(early["seats"][0]),
        "final_map": map_geometry(final, over=True),
        "final_total": scores.get("total"),
        "final_breakdown": [{"label": label, "points": scores.get("breakdown", {}).get(key, 0)}
                            for key, label in pad_rows()],
        "final_title": _(title) if (title := solo_title(scores.get("total", 0))) else None,
        "tiles": _tile_faces(),
        "titles": title_ranges(),
        "pad_rows": pad_rows(),
        "board_style": STYLESHEET,
    }


# --- the maps as SVG, written here (issue 21) ------------------------------------------------
# A panel draws every seat's map, each cell a tile: as template includes that was most of an
# Alpine Trails panel. These write the markup _map.html and _tile.html draw (the how-to-play
# page still includes them): every outside text escaped exactly once, numbers as Python prints
# them (never a decimal comma), `|add` coordinates truncated to integers as the filter did.

def _esc(value) -> str:
    return _html_escape(str(value))


@functools.lru_cache(maxsize=64)
def _tile_texts(language: str | None) -> dict[str, str]:
    """The words drawn on tiles, in one language (asked of the catalogue once, not per tile)."""
    return {"miles": pgettext("Alpine Trails: miles, short", "%(miles)s mi"),
            "tent": _esc(pgettext("Alpine Trails", "tent +8")), "lake": _esc(pgettext("Alpine Trails", "lake +2"))}


def tile_svg(f: dict, texts: dict[str, str] | None = None) -> str:
    """One piece in a 72x72 cell at the origin (`f` from piece_face): _tile.html's markup.
    `texts`: _tile_texts of the active language, when the caller has them already."""
    kind = f.get("kind")
    texts = texts or _tile_texts(get_language())
    if kind == "trail":
        terrain, path = _esc(f["terrain"]), _esc(f["path"])
        sign = '<use href="#at-sign" x="25" y="18" width="22" height="24"></use>' if f.get("sign") else ""
        miles = texts["miles"] % {"miles": _esc(f["miles"])}
        return (f'<rect class="bg t-{terrain}" width="72" height="72"></rect>'
                f'<path class="trail-edge" d="{path}"></path><path class="trail" d="{path}"></path>'
                f'<use href="#at-i-{terrain}" x="3" y="3" width="20" height="20"></use>'
                f'<text class="letter" x="64" y="15">{_esc(f["letter"])}</text>{sign}'
                f'<g class="miles"><rect x="43" y="51" width="26" height="16" rx="8"></rect>'
                f'<text x="56" y="63">{miles}</text></g>')
    if kind == "terrain":
        terrain = _esc(f["terrain"])
        animal = (f'<g class="animal a-{_esc(f["animal"])}"><circle cx="19" cy="52" r="14"></circle>'
                  f'<text x="19" y="57">{_esc(f["animal_letter"])}</text></g>') if f.get("animal") else ""
        return (f'<rect class="bg t-{terrain}" width="72" height="72"></rect>'
                '<rect class="terrain-side" x="3" y="3" width="66" height="66" rx="4"></rect>'
                f'<use href="#at-i-{terrain}" x="6" y="8" width="28" height="28"></use>'
                f'<use href="#at-i-{terrain}" x="38" y="36" width="28" height="28"></use>'
                f'<text class="letter" x="63" y="17">{_esc(f["letter"])}</text>{animal}')
    if kind == "basecamp":
        a = f.get("square") == "A"
        return (f'<rect class="bg t-{_esc(f["terrain"])}" width="72" height="72"></rect>'
                f'<use href="#at-i-{_esc(f["terrain"])}" x="{4 if a else 48}" y="48" width="20" height="20"></use>'
                f'<text class="letter" x="{10 if a else 62}" y="17">{_esc(f["letter"])}</text>')
    if kind == "campsite":
        return ('<rect class="bg neutral" width="72" height="72"></rect>'
                '<use href="#at-tent" x="14" y="12" width="44" height="40"></use>'
                f'<text class="caption" x="36" y="65">{texts["tent"]}</text>')
    if kind == "waterfall":
        points = (f'<text class="caption light" x="36" y="66">+{_esc(f["points"])}</text>'
                  if f.get("points") is not None else "")
        return ('<rect class="bg falls" width="72" height="72"></rect>'
                f'<use href="#at-falls" x="16" y="6" width="40" height="50"></use>{points}')
    if kind == "lake":
        return ('<rect class="bg lake" x="2" y="2" width="68" height="68" rx="22"></rect>'
                '<use href="#at-waves" x="14" y="14" width="44" height="28"></use>'
                f'<text class="caption light" x="36" y="60">{texts["lake"]}</text>')
    return ""


def map_svg(geo: dict, *, small: bool, seat_index, label: str, ghost: dict | None = None, hx=None) -> SafeString:
    """One player's map (`geo` from map_geometry): _map.html's markup. `hx` gives the
    highlighted squares' attributes: `hx.post(action)` and `hx.get(sel)`."""
    width, height = geo["width"], geo["height"]
    out = [f'<svg class="at-map{" small" if small else ""}" viewBox="0 0 {width} {height}" '
           f'role="{"group" if geo.get("highlights") else "img"}" aria-label="{_esc(label)}" '
           f'data-seat="{_esc(seat_index)}" style="--w: {width}px">'
           f'<rect class="map-bg" width="{width}" height="{height}" rx="8"></rect>']
    if geo.get("open_ends"):
        title = _esc(_("Open trail end: a lake goes here at the end (+2)"))
        lake_word = _esc(pgettext("Alpine Trails open trail end", "lake?"))
        lake = "" if small else '<text x="36" y="41">' + lake_word + '</text>'
        out.extend(f'<g class="open-end" transform="translate({o["px"]},{o["py"]})"><title>{title}</title>'
                   f'<rect x="6" y="6" width="60" height="60" rx="20"></rect>{lake}</g>' for o in geo["open_ends"])
    texts = _tile_texts(get_language())
    for c in geo.get("cells") or ():
        piece = c.get("piece")
        inner = _PIECE_SVGS.get(piece) if piece else None
        if inner is None:
            inner = f'<title>{_esc(c["title"])}</title>{tile_svg(c, texts)}'
            if piece:
                _PIECE_SVGS[piece] = inner
        out.append(f'<g class="cell k-{_esc(c["kind"])}{" new-lake" if c.get("new_lake") else ""}" '
                   f'data-xy="{_esc(c["key"])}" transform="translate({c["px"]},{c["py"]})">{inner}</g>')
    base = geo.get("base")
    if base:
        out.append(f'<g class="basecamp-frame" transform="translate({base["px"]},{base["py"]})">'
                   f'<title>' + _esc(pgettext("Alpine Trails piece", "Base camp")) + f'</title>'
                   f'<rect width="{base["w"]}" height="72" rx="6"></rect></g>'
                   f'<use class="lodge" href="#at-lodge" x="{int(base["px"]) + 44}" y="{int(base["py"]) + 12}" '
                   'width="56" height="44"></use>')
    out.extend(f'<path class="habitat h-{_esc(h["terrain"])}" d="{_esc(h["d"])}" transform="scale(72)">'
               f'<title>{_esc(h["title"])}</title></path>' for h in geo.get("habitats") or ())
    if geo.get("path_cells"):
        longest = _esc(pgettext("Alpine Trails score pad", "Longest path"))
        out.extend(f'<rect class="longest" x="{int(p["px"]) + 4}" y="{int(p["py"]) + 4}" width="64" height="64" '
                   f'rx="6"><title>{longest}</title></rect>' for p in geo["path_cells"])
    badge = geo.get("path_lake")
    if badge:
        miles = pgettext("Alpine Trails", "%(miles)s mi path") % {"miles": _esc(geo.get("path_miles", ""))}
        out.append(f'<g class="path-badge" transform="translate({badge["px"]},{badge["py"]})">'
                   f'<rect x="4" y="-10" width="64" height="20" rx="10"></rect><text x="36" y="5">{miles}</text></g>')
    for h in geo.get("highlights") or ():
        faint = h.get("faint")
        aria = _esc(h["aria"])
        where = f'{_esc(h["x"])},{_esc(h["y"])}'
        act = hx.post(h["action"]) if h.get("action") else hx.get(h.get("sel", ""))
        out.append(f'<g class="hl{" faint" if faint else ""} sel-target" data-xy="{where}" data-sel-focus="{where}" '
                   f'transform="translate({h["px"]},{h["py"]})" role="button" tabindex="0" aria-label="{aria}" '
                   f'{act} hx-target="#live" hx-swap="innerHTML"><title>{aria}</title>'
                   '<rect class="hl-bg" x="2" y="2" width="68" height="68" rx="6"></rect>')
        if ghost and not faint:
            out.append(f'<g class="ghost">{tile_svg(ghost, texts)}</g>')
        if h.get("label"):
            out.append('<g class="hl-label" aria-hidden="true"><rect x="14" y="24" width="44" height="24" rx="12">'
                       f'</rect><text x="36" y="41">{_esc(h["label"])}</text></g>')
        out.append("</g>")
    out.append("</svg>")
    return mark_safe("".join(out))


class _Hx:
    """The hx attributes of a map's highlighted squares (one URL pair per render)."""

    def __init__(self, panel: dict):
        from django.urls import reverse

        from games.panel import action_vals

        pk = panel["game"].pk
        self._panel, self._vals = panel, action_vals
        self.act_url, self.panel_url = _esc(reverse("games:act", args=[pk])), _esc(reverse("games:panel", args=[pk]))

    def post(self, action: dict) -> str:
        return f'hx-post="{self.act_url}" hx-vals="{_esc(self._vals(self._panel, action))}"'

    def get(self, sel) -> str:
        return f'hx-get="{self.panel_url}?sel={_esc(_url_quote(str(sel), safe="/"))}"'


def draw_maps(panel: dict, board: dict) -> None:
    """Each map's SVG: `svg` on the main map and on every other map's entry; none for a
    context built without its game (a presenter's test of the context alone)."""
    if panel.get("game") is None:
        return
    main = board["main"]
    if main is not None and main["highlights"]:
        ghost = (board.get("ctl") or {}).get("ghost")
        main["svg"] = map_svg(main, small=False, seat_index=main["seat"], label=_("Your map"), ghost=ghost or None,
                              hx=_Hx(panel))
    elif main is not None:
        main["svg"] = kept_map_svg(main, small=False, seat_index=main["seat"], label=_("Your map"))
    for m in board["maps"]:
        m["svg"] = kept_map_svg(m["geo"], small=True, seat_index=m["seat"], label=m["name"])


def kept_map_svg(geo: dict, *, small: bool, seat_index, label: str) -> SafeString:
    """map_svg of a kept map (kept_map_geometry): drawn once per way it is shown."""
    if "kept_as" not in geo or geo["highlights"]:
        return map_svg(geo, small=small, seat_index=seat_index, label=label)
    key = (geo["kept_as"], small, seat_index, label)
    svg = _KEPT_SVGS.get(key)
    if svg is None:
        svg = _KEPT_SVGS[key] = map_svg(geo, small=small, seat_index=seat_index, label=label)
    return svg


# --- board.html's loops written here (issue 21) ---------------------------------------------------
# The score pad (a template loop per cell), the other seats' map captions and the seat chips were
# most of the board's render after the maps moved to map_svg. The markup is the loops' own,
# character for character (tests/games/test_boards_in_python.py holds it to them, kept in
# tests/games/reference): outside texts escaped once, translated words as the template printed them.

def _safe_or_esc(value) -> str:
    return value if isinstance(value, SafeString) else _esc(value)


def _seat_word(status_done: bool) -> str:
    if status_done:
        return "✓ " + pgettext("Alpine Trails seat status", "done")
    return "… " + pgettext("Alpine Trails seat status", "placing")


def status_html(board: dict) -> SafeString:
    """The chips of who is done and who is still placing this round."""
    seat_words = _("(seat %(number)s)")
    out = []
    for p in board["status"]:
        state = "" if board["over"] else _seat_word(p["done"])
        out.append(f'<span class="chip seat-chip {"is-done" if p["done"] else "is-placing"}"><span class="swatch '
                   f'seat-{_esc(p["seat"])}" aria-hidden="true"></span>{_esc(p["name"])} <small>'
                   f'{seat_words % {"number": _esc(p["number"])}}</small> {state}</span>')
    return mark_safe("".join(out))


def pad_html(board: dict) -> SafeString:
    """The score pad: a column per seat, a row per scoring line, the totals (and at the end
    the goal cards and ranks)."""
    pad = board["pad"]
    you = _("(you)")
    heads = "".join(f'<th scope="col" class="seat-{_esc(c["seat"])}{" me" if c["me"] else ""}"><span class="swatch '
                    f'seat-{_esc(c["seat"])}" aria-hidden="true"></span>{_esc(c["name"])}'
                    f'{" " + you if c["me"] else ""}</th>' for c in pad["cols"])
    rows = []
    for r in pad["rows"]:
        swatch = (f'<span class="pad-swatch t-{_esc(r["terrain"])}">{_esc(r["letter"])}</span> '
                  if r["letter"] else "")
        cells = "".join(f"<td>{_esc(v)}</td>" for v in r["cells"])
        rows.append(f'\n        <tr class="row-{_esc(r["key"])}"><th scope="row">{swatch}{_esc(r["label"])}</th>'
                    f'{cells}</tr>\n        ')
    goals = ranks = ""
    if pad["over"]:
        goals = ('<tr class="row-goalname"><th scope="row">' + _("Goal card") + '</th>'
                 + "".join(f'<td class="goal-name">{_esc(c["goal_name"])}</td>' for c in pad["cols"]) + "</tr>")
        ranks = ('<tr class="row-rank"><th scope="row">' + pgettext("Alpine Trails score pad", "Rank") + '</th>'
                 + "".join(f'<td>{"★ " if c["rank"] == 1 else ""}{_esc(c["rank"])}</td>' for c in pad["cols"])
                 + "</tr>")
    totals = "".join(f"<td><strong>{_esc(c['total'])}</strong></td>" for c in pad["cols"])
    return mark_safe(f'<table class="at-pad">\n      <thead><tr><th scope="col"></th>{heads}</tr></thead>\n'
                     f'      <tbody>\n        {"".join(rows)}\n        {goals}\n      </tbody>\n      <tfoot>\n'
                     '        <tr class="row-total"><th scope="row">' + pgettext("Alpine Trails score pad", "Total")
                     + f'</th>{totals}</tr>\n        {ranks}\n      </tfoot>\n    </table>')


def other_maps_html(board: dict) -> SafeString:
    """Every other seat's map, small, with who plays it, as of when, and what it holds."""
    seat_words = _("(seat %(number)s)")
    out = []
    for m in board["maps"]:
        seat = _esc(m["seat"])
        state = "" if board["over"] else (f'<span class="chip status-{_esc(m["status"])}">'
                                          f'{_seat_word(m["status"] == "done")}</span>')
        animals = ("<br><small>" + _("Holds: %(animals)s") % {"animals": ", ".join(_esc(a) for a in m["animals"])}
                   + "</small>") if m["animals"] else ""
        goal = ""
        if m["goal_card"]:
            goal = ("<br><small>" + _("Goal: <strong>%(name)s</strong> (%(value)s)")
                    % {"name": _esc(m["goal_card"]["name"]), "value": _esc(m["goal_card"]["value"])} + "</small>")
        out.append(f'\n    <figure class="at-other seat-{seat}" id="at-map-{seat}">\n      <figcaption><span '
                   f'class="swatch seat-{seat}" aria-hidden="true"></span><strong>{_esc(m["name"])}</strong> <small>'
                   f'{seat_words % {"number": _esc(m["number"])}}</small> · {_esc(m["as_of"])}\n        {state}\n'
                   f'        {animals}\n        {goal}</figcaption>\n      {_safe_or_esc(m.get("svg", ""))}\n'
                   f'    </figure>\n    ')
    return mark_safe("".join(out))
