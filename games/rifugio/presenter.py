"""Rifugio with Rivers & Rafts: the hex map in SVG, the tile to place, the walk controls.

All geometry comes from the seat's view (pointy-top axial hexes, spec §3) and every
highlight from `panel["legal"]`; the page never works out legality itself. Multi-step
choices follow the site's one `?sel=` convention (games/selection.py): each legal action
is spelled as picks (`picks()` below), a selection is cut back to what is still legal,
and the shown rotation of the tile to place is the extra `r:<k>`:

- ``r:<k>``: the rotation shown for the tile to place (place phase);
- ``w:<q>,<r>``: a water cell that allows both `sail` and `build_raft`: its menu is open;
- ``swim``: swim mode, the reachable shores are highlighted;
- ``swim.to:<q>,<r>``: a shore was chosen and several water tiles join it: pick one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape as _html_escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games import selection
from games.rifugio.board_html import board_html  # noqa: F401 (games.presenters.board_html)
from games.rifugio.rules import data as D
from games.rules.base import _, gettext_noop, ngettext, pgettext

# --- geometry: every size and offset of the board drawing, in SVG units ---------------------
A = 36                     # hex circumradius on the map
SQ3 = math.sqrt(3)
TARGET_INSET = 3           # a highlighted cell is drawn this much inside its hex
PLACE_INSET = 2            # ... and a placement cell (with the ghost of the tile) this much
MAP_PAD = 6                # margin around the outermost hexes
MIN_VIEW_COLS, MIN_VIEW_ROWS = 7, 6   # a small map is not blown up to giant hexes
HAND_CENTRE, HAND_RADIUS = 60, 52     # the tile-to-place box (viewBox 0 0 120 120)
HIKER_ROW_DY, HIKER_GAP, HIKER_SCALE = 0.36 * A, 13, 0.9   # hikers stand in a row low on a tile
RIDER_GAP, RIDER_DY, RIDER_SCALE = 14, -3, 0.8             # riders stand on their raft
RING_RX, RING_RY, RING_DY = 14, 11, -4                     # four or more hikers on a tile: a ring
HOLDER_DX, HOLDER_DY, HOLDER_GAP = -0.62 * A, -0.5 * A, 7  # "who holds this card" dots
HUT_DX, HUT_DY = 0.42 * A, -0.2 * A                        # a Rifugio on its tile
COORD_DY = 27              # a cell's name ("4,-12", as History says "(4,-12)") low inside its hex
SWIM_SPOT = {1: -0.45, 2: 0.0, 3: 0.45}   # where a swimmer floats per stage, along the crossing
SWIM_ARROW_FROM, SWIM_ARROW_TO = 0.55 * A, 0.45 * A

LETTERS = "ABCDEF"
# Never colour alone: meadow, forest and rock also differ by a texture (_defs.html, rf-tex-*);
# mountaintops and water carry their own marks (the peak icon, ripples).
TEXTURED = frozenset("MFR")
TERRAIN_FILL = {"M": "#b5d97a", "F": "#3f8a4f", "R": "#a3a19a", "P": "#eef2f5", "W": "#4b95d6"}
ICON_KINDS = ("flower", "animal", "waterfall", "pass", "mountaintop", "bear", "start")
TERRAIN_WORD = {"M": "meadow", "F": "forest", "R": "rock", "P": "mountaintop", "W": "water"}
# Texts in tables are English (read at import); each is put into the reader's language where
# it is shown, with `_(text)`.
CATEGORY_LABEL = {"FLOWER": gettext_noop("Flowers"), "ANIMAL": gettext_noop("Animals"),
                  "WATERFALL": gettext_noop("Waterfalls"), "PASS": gettext_noop("Passes"),
                  "MOUNTAINTOP": gettext_noop("Mountaintops")}
CATEGORY_ICON = {"FLOWER": "flower", "ANIMAL": "animal", "WATERFALL": "waterfall",
                 "PASS": "pass", "MOUNTAINTOP": "mountaintop"}
RIVER_PARTS = ("waterfall_bonus", "raft_cards")    # score parts only Rivers & Rafts can give
BREAKDOWN_LABEL = {"items": gettext_noop("Items"), "waterfall_bonus": gettext_noop("Waterfall bonus"),
                   "sets": gettext_noop("Complete sets"), "bears": gettext_noop("Bears"),
                   "rifugio_cards": gettext_noop("Rifugio cards"), "raft_cards": gettext_noop("Raft cards")}


class _Shown(dict):
    """A table of English texts that answers each lookup in the active language: the platform
    reads BREAKDOWN_LABELS and OPTION_SPECS per request (score card, create-table form, how
    to play), so they read in the reader's language whether or not it translates them again
    (a translated text looked up again stays as it is)."""

    def __getitem__(self, name):
        return _shown(super().__getitem__(name))

    def get(self, name, default=None):
        return _shown(super().get(name)) if name in self else default

    def items(self):
        return [(k, self[k]) for k in self]

    def values(self):
        return [self[k] for k in self]


class Words(dict):
    """One render's translations, each looked up once (a panel shows "Edelweiss" or "(not yet)"
    dozens of times; gettext reads the active language each call). Keys are English msgids,
    marked where written with `gettext_noop` so the catalogues still list them."""

    def __missing__(self, message: str) -> str:
        self[message] = text = _(message)
        return text


def _shown(value):
    return _(value) if isinstance(value, str) and value else value


BREAKDOWN_LABELS = _Shown(BREAKDOWN_LABEL)   # the side score card names them as the final scoring does

OPTION_SPECS = {
    "rivers_and_rafts": _Shown({"label": gettext_noop("Rivers & Rafts expansion (water tiles, rafts, swimming)"),
                                "help": gettext_noop("On by default: rivers join the map, hikers build and "
                                                     "sail rafts.")}),
}

SCRIPT = "games/rifugio/board.js"    # the map box on phones (the site script does keys and ?sel=)
STYLESHEET = "games/rifugio/board.css"

ROTATION = "r"             # the ?sel= extra that turns the tile to place (display only)


def _at(c) -> str:
    return f"({c[0]},{c[1]})"


def terrain_word(terrain: str) -> str:
    """A terrain ('meadow', or a letter 'M') in the active language; 'rock/meadow' is a pass's."""
    word = _TERRAIN_WORDS.get(TERRAIN_WORD.get(terrain, terrain))
    return word() if word else terrain


# One lookup per word shown (a tile's title asks for one word, not the whole table).
_TERRAIN_WORDS = {"meadow": lambda: pgettext("terrain", "meadow"), "forest": lambda: pgettext("terrain", "forest"),
                  "rock": lambda: pgettext("terrain", "rock"),
                  "mountaintop": lambda: pgettext("terrain", "mountaintop"),
                  "water": lambda: pgettext("terrain", "water"),
                  "rock/meadow": lambda: pgettext("terrain", "rock/meadow")}
_KIND_WORDS = {"flower": lambda: pgettext("kind", "flower"), "animal": lambda: pgettext("kind", "animal"),
               "waterfall": lambda: pgettext("kind", "waterfall"), "pass": lambda: pgettext("kind", "pass"),
               "mountaintop": lambda: pgettext("kind", "mountaintop"), "bear": lambda: pgettext("kind", "bear"),
               "start": lambda: pgettext("kind", "start")}


def kind_word(kind: str) -> str:
    """A special place's kind ('flower', 'bear', ...) in the active language."""
    word = _KIND_WORDS.get(kind)
    return word() if word else kind


def tile_name(tile_id: str) -> str:
    """A named tile's name in the active language ('Edelweiss', 'Bear 2'), '' for a plain one."""
    if tile_id in D.ITEM_NAMES:
        return _(D.ITEM_NAMES[tile_id])
    t = D.TILES.get(tile_id)
    if t is None or not t["name"]:
        return ""
    if t["kind"] == "bear":
        return bear_name(tile_id)
    return pgettext("rifugio", "Start") if t["kind"] == "start" else t["name"]


def bear_name(tile_id: str) -> str:
    return _("Bear %(number)s") % {"number": tile_id[-1]}


def _terrain_tile(terrain: str) -> str:
    """'meadow tile': a plain tile by its terrain."""
    return _("%(terrain)s tile") % {"terrain": terrain_word(terrain)}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _tile_words(tile_id: str) -> str:
    t = D.TILES[tile_id]
    if t["name"] and t["kind"] != "start":
        return _("%(name)s (%(kind)s)") % {"name": tile_name(tile_id), "kind": kind_word(t["kind"])}
    return _terrain_tile(t["terrain"])


def _joined(seats, names: list[str]) -> str:
    return _and([_name(s, names) for s in seats])


def _and(words: list[str]) -> str:
    """'Ada and Bea' ('Ada and Bea and Cy' for more), in the active language."""
    out = words[0] if words else ""
    for word in words[1:]:
        out = _("%(first)s and %(second)s") % {"first": out, "second": word}
    return out


def _name(seat, names: list[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("Seat %(number)s") % {"number": seat + 1} if isinstance(seat, int) else _("Someone")


def _placed(e: dict, who: str) -> str:
    t = D.TILES[e["tile"]]
    if t["name"] and t["kind"] != "start":
        return _("%(who)s placed a %(name)s (%(kind)s) at %(at)s.") % {
            "who": who, "name": tile_name(e["tile"]), "kind": kind_word(t["kind"]), "at": _at(e["at"])}
    return _("%(who)s placed a %(terrain)s tile at %(at)s.") % {
        "who": who, "terrain": terrain_word(t["terrain"]), "at": _at(e["at"])}


def _to_bottom(e: dict, who: str) -> str:
    return _("%(who)s drew the %(tile)s %(id)s: it fits nowhere and goes to the bottom of the stack.") % {
        "who": who, "tile": _tile_words(e["tile"]), "id": e["tile"]}


def _removed(e: dict) -> str:
    count = len(e["tiles"])
    return ngettext("No tile left in the stack fits anywhere; %(count)s tile(s) are removed from the game.",
                    "No tile left in the stack fits anywhere; %(count)s tile(s) are removed from the game.",
                    count) % {"count": count}


def _sailed(e: dict, n: list[str], who: str) -> str:
    words = {"who": who, "owner": _name(e["owner"], n), "to": _at(e["to"])}
    if e["carried"]:
        return _("%(who)s sailed the raft of %(owner)s to %(to)s, carrying %(carried)s.") % {
            **words, "carried": _joined(e["carried"], n)}
    return _("%(who)s sailed the raft of %(owner)s to %(to)s.") % words


def _game_over(e: dict, n: list[str]) -> str:
    return ngettext("The game is over. %(winners)s wins.", "The game is over. %(winners)s win.",
                    len(e["winners"])) % {"winners": _joined(e["winners"], n)}


# One sentence per event type the rules emit (games/rifugio/rules/rules.py, emit()), in the
# language active where it is shown.
EVENT_WORDS = {
    "placed": lambda e, n, who: _placed(e, who),
    "tile_to_bottom": lambda e, n, who: _to_bottom(e, who),
    "tiles_removed": lambda e, n, who: _removed(e),
    "item": lambda e, n, who: _("%(who)s collected the %(item)s card.") % {
        "who": who, "item": tile_name(e["tile"]) or e["tile"]},
    "bear": lambda e, n, who: _("%(who)s met a bear at %(at)s (-3).") % {"who": who, "at": _at(e["at"])},
    "rifugio_visit": lambda e, n, who: _(
        "%(who)s visited the Rifugio of %(owner)s at %(at)s: %(owner)s gains a Rifugio card, "
        "%(who)s an extra step.") % {"who": who, "owner": _name(e["owner"], n), "at": _at(e["at"])},
    "raft_visit": lambda e, n, who: _(
        "%(who)s stepped onto the raft of %(owner)s: %(owner)s gains a raft-point card, "
        "%(who)s an extra step.") % {"who": who, "owner": _name(e["owner"], n)},
    "raft_boarded": lambda e, n, who: _("%(who)s stepped onto a raft at %(at)s.") % {"who": who, "at": _at(e["at"])},
    "sailed": _sailed,
    "rifugio_built": lambda e, n, who: _("%(who)s built a Rifugio at %(at)s.") % {"who": who, "at": _at(e["at"])},
    "raft_built": lambda e, n, who: _("%(who)s built a raft at %(at)s and stepped aboard.") % {
        "who": who, "at": _at(e["at"])},
    "extra_step": lambda e, n, who: _("%(who)s used an extra-step card.") % {"who": who},
    "swim_started": lambda e, n, who: _(
        "%(who)s started to swim across %(via)s towards %(to)s (%(stage)s/%(stages)s).") % {
        "who": who, "via": _at(e["via"]), "to": _at(e["to"]), "stage": e["stage"], "stages": e["stages"]},
    "swim_stage": lambda e, n, who: _("%(who)s keeps swimming (%(stage)s/%(stages)s).") % {
        "who": who, "stage": e["stage"], "stages": e["stages"]},
    "swam_ashore": lambda e, n, who: _("%(who)s swam ashore at %(at)s.") % {"who": who, "at": _at(e["at"])},
    "turn_ended": lambda e, n, who: _("%(who)s ended their turn.") % {"who": who},
    "game_over": lambda e, n, who: _game_over(e, n),
}


def describe(event: dict, names: list[str]) -> str:
    """One event of the game in words; names[i] is the display name of seat i."""
    words = EVENT_WORDS.get(str(event.get("type")))
    who = _name(event.get("seat"), names)
    if words is not None:
        try:
            return words(event, names, who)
        except (KeyError, TypeError, IndexError):
            pass                # a malformed event still gets the fallback below
    what = str(event.get("type") or "something").replace("_", " ")
    return f"{who}: {what}." if event.get("seat") is not None else f"{what.capitalize()}."


MOVE_WORDS = {
    "step": lambda a, who: _("%(who)s stepped to %(at)s.") % {"who": who, "at": _at(a["to"])},
    "sail": lambda a, who: _("%(who)s sailed to %(at)s.") % {"who": who, "at": _at(a["to"])},
    "swim": lambda a, who: (_("%(who)s swam towards %(at)s.") % {"who": who, "at": _at(a["to"])} if "to" in a
                            else _("%(who)s swam.") % {"who": who}),
}


def describe_move(action: dict, seat: int, names: list[str], view: dict) -> str:
    """A move that adds no event of its own (a plain step), in the History's words."""
    who = _name(seat, names)
    words = MOVE_WORDS.get(str(action.get("type")))
    try:
        return words(action, who) if words else describe({**action, "seat": seat}, names)
    except (KeyError, TypeError, IndexError):
        return _("%(who)s moved.") % {"who": who}


def centre(q: int, r: int, a: float = A) -> tuple[float, float]:
    return a * SQ3 * (q + r / 2), 1.5 * a * r


def _corner(cx: float, cy: float, deg: float, a: float) -> tuple[float, float]:
    t = math.radians(deg)
    return round(cx + a * math.cos(t), 2), round(cy - a * math.sin(t), 2)


def _pts(points) -> str:
    return " ".join(f"{x},{y}" for x, y in points)


# A cell's geometry depends on its place alone, and the same few hundred cells are drawn on
# every render: the corner arithmetic is done once per cell (the results are never changed).
@lru_cache(maxsize=4096)
def hex_points(cx: float, cy: float, a: float = A) -> str:
    return _pts(_corner(cx, cy, 30 + 60 * i, a) for i in range(6))


@lru_cache(maxsize=4096)
def _triangle_points(cx: float, cy: float, a: float) -> tuple[str, ...]:
    middle = (round(cx, 2), round(cy, 2))
    return tuple(_pts([middle, _corner(cx, cy, 60 * s - 30, a), _corner(cx, cy, 60 * s + 30, a)]) for s in range(6))


@lru_cache(maxsize=8192)
def triangles(cx: float, cy: float, sides: str, a: float = A) -> tuple[dict, ...]:
    """Six triangles, one per side, coloured by the edge letter shown there (§19)."""
    return tuple({"points": points, "fill": TERRAIN_FILL[sides[s]], "letter": sides[s], "texture": sides[s] in TEXTURED}
                 for s, points in enumerate(_triangle_points(cx, cy, a)))


@lru_cache(maxsize=8192)
def triangles_svg(cx: float, cy: float, sides: str, a: float = A) -> str:
    """The six triangles as SVG (a textured one twice: its colour, then its texture on top)."""
    return "".join(f'<polygon points="{t["points"]}" fill="{t["fill"]}" stroke="{t["fill"]}"/>'
                   + (f'<polygon class="tex" points="{t["points"]}" fill="url(#rf-tex-{t["letter"]})"/>'
                      if t["texture"] else "") for t in triangles(cx, cy, sides, a))


def rotated(edges: str, k: int) -> str:
    """The letters shown on sides 0-5 by a tile with canonical `edges` at rotation k."""
    return "".join(edges[(s - k) % 6] for s in range(6))


def pawn(seat: int, x: float, y: float, scale: float = 1.0, active: bool = False, name: str = "") -> dict:
    return {"seat": seat, "letter": LETTERS[seat], "x": round(x, 2), "y": round(y, 2), "scale": scale,
            "active": active, "name": name}


def _row(n: int, cx: float, cy: float, gap: float) -> list[tuple[float, float]]:
    """Positions for n pawns on one tile: a row for up to three, a small ring beyond."""
    if n <= 3:
        return [(cx + (i - (n - 1) / 2) * gap, cy) for i in range(n)]
    angles = [math.radians(90 + 360 * i / n) for i in range(n)]
    return [(cx + RING_RX * math.cos(t), cy + RING_DY + RING_RY * math.sin(t)) for t in angles]


DIRECTION_WORDS = [gettext_noop("east"), gettext_noop("north-east"), gettext_noop("north-west"),
                   gettext_noop("west"), gettext_noop("south-west"), gettext_noop("south-east")]
TURN_WORDS = {0: gettext_noop("not turned"), 1: gettext_noop("turned once to the left"),
              2: gettext_noop("turned twice to the left"), 3: gettext_noop("turned three times"),
              4: gettext_noop("turned twice to the right"), 5: gettext_noop("turned once to the right")}


def side_name(s: int) -> str:
    """The compass name of side s (0 = east), short, in the active language."""
    return [pgettext("side", "E"), pgettext("side", "NE"), pgettext("side", "NW"),
            pgettext("side", "W"), pgettext("side", "SW"), pgettext("side", "SE")][s]


def direction(frm, to) -> str:
    """'east' when `to` is the neighbour of `frm` on its east side (a step), else ''."""
    d = (to[0] - frm[0], to[1] - frm[1])
    return _(DIRECTION_WORDS[D.DIRS.index(d)]) if d in D.DIRS else ""


def place_words(t: dict) -> str:
    """What a tile on the map is, for a control's name: 'the meadow', 'Edelweiss (flower, 2 points)'."""
    kind = t.get("kind")
    if kind == "start":
        return _("the start tile")
    if kind in (None, "plain"):
        terrain = t.get("terrain")
        words = {"meadow": pgettext("place", "the meadow"), "forest": pgettext("place", "the forest"),
                 "rock": pgettext("place", "the rock")}
        return words.get(terrain or "", pgettext("place", "the tile"))
    if kind == "water":
        return pgettext("place", "the water")
    name = tile_name(t["tile"]) if t.get("tile") else t["name"]
    if kind == "bear":
        return _("%(name)s (a bear, −3)") % {"name": name}
    if kind == "waterfall":
        return _("%(name)s (%(kind)s, 1 point)") % {"name": name, "kind": kind_word(kind)}
    return _("%(name)s (%(kind)s, 2 points)") % {"name": name, "kind": kind_word(kind)}


def _cell_value(c) -> str:
    return f"{c[0]},{c[1]}"


def picks(action: dict) -> list[str]:
    """How a legal action is spelled as ?sel= picks: water that allows two actions and a swim
    (shore, then the water to cross) take several clicks; everything else is one."""
    kind = action["type"]
    if kind == "place_tile":
        return [f"place:{action['q']},{action['r']},{action['rotation']}"]
    if kind == "step":
        return [f"step:{_cell_value(action['to'])}"]
    if kind == "sail":
        return [f"w:{_cell_value(action['to'])}", "sail"]
    if kind == "build_raft":
        return [f"w:{_cell_value(action['at'])}", "raft"]
    if kind == "swim":
        return ["swim", f"to:{_cell_value(action['to'])}", f"via:{_cell_value(action['via'])}"]
    return [kind]


def _is_rotation(value: str) -> bool:
    return value in {"0", "1", "2", "3", "4", "5"}


def _cell_of(value: str | None) -> tuple[int, int] | None:
    q, r = (value or "").split(",")
    return int(q), int(r)


# --- what one language reads the same on every render -------------------------------------------

class LanguageTexts:
    """Texts of the board that read the same on every render in one language (issue 21: the
    map's ~70 tiles asked the catalogue for, and escaped, the same titles and names on every
    render, and the players' cards their same category boxes): each tile's title without its
    holders and hut (text and escaped), each tile's name, each category box's HTML. Kept per
    language for the process's life, as games.translations keeps its answers (the catalogues
    and the tile data do not change under a running process); bounded."""

    LIMIT = 5_000

    def __init__(self) -> None:
        self.titles: dict = {}        # (kind, terrain) or (tile, kind) -> (text, escaped text)
        self.names: dict = {}         # tile id -> tile_name()
        self.categories: dict = {}    # a category box's inputs -> its HTML
        self.card_words: dict = {}    # the cards' fixed words, escaped

    def size(self) -> int:
        return len(self.titles) + len(self.names) + len(self.categories)


_LANGUAGE_TEXTS: dict[str, LanguageTexts] = {}


def language_texts() -> LanguageTexts:
    """The active language's kept texts."""
    language = get_language() or ""
    texts = _LANGUAGE_TEXTS.get(language)
    if texts is None or texts.size() > LanguageTexts.LIMIT:
        texts = _LANGUAGE_TEXTS[language] = LanguageTexts()
    return texts


# --- the board context: one small builder per area of the board --------------------------------

@dataclass
class Page:
    """What every builder reads: the seat's view, the names, the legal actions and the selection."""

    view: dict
    names: list[str]
    legal: list[dict]
    seat: int | None
    sel: selection.Selection = field(default_factory=selection.Selection)
    tiles_by_key: dict = field(default_factory=dict)
    water: set = field(default_factory=set)
    rifugi: dict = field(default_factory=dict)
    rafts_at: dict = field(default_factory=dict)
    words: Words = field(default_factory=Words)
    texts: LanguageTexts = field(default_factory=lambda: language_texts())

    @classmethod
    def from_panel(cls, panel: dict) -> Page:
        view = panel["view"]
        names = list(panel.get("names") or [])
        while len(names) < view["players"]:
            names.append(_("Seat %(number)s") % {"number": len(names) + 1})
        legal = list(panel.get("legal") or [])
        sel = selection.select(panel.get("selection", ""), legal, picks, extras={ROTATION: _is_rotation})
        tiles_by_key = {t["key"]: t for t in view["tiles"]}
        return cls(
            view=view, names=names, legal=legal, seat=panel.get("seat"), sel=sel, tiles_by_key=tiles_by_key,
            water={k for k, t in tiles_by_key.items() if t["kind"] == "water"},
            rifugi={f"{f['at'][0]},{f['at'][1]}": f["owner"] for f in view["rifugi"]},
            rafts_at={f"{r['at'][0]},{r['at'][1]}": r for r in view["rafts"]})

    @property
    def active(self) -> int:
        return self.view["active"]

    @property
    def over(self) -> bool:
        return self.view["phase"] == "over"

    @property
    def kinds(self) -> set[str]:
        return {a["type"] for a in self.legal}

    @property
    def place_mode(self) -> bool:
        return "place_tile" in self.kinds

    @property
    def expansion(self) -> bool:
        return bool(self.view["options"].get("rivers_and_rafts"))

    def on_move(self, seat: int) -> bool:
        return seat == self.active and not self.over

    @property
    def rotation(self) -> int | None:
        """The rotation the player turned the tile to, if any."""
        chosen = self.sel.extra(ROTATION)
        return None if chosen is None else int(chosen)

    @property
    def swim_mode(self) -> bool:
        return self.sel.picks[:1] == ("swim",)

    @property
    def swim_shore(self) -> tuple[int, int] | None:
        return _cell_of(selection.value_of(self.sel.picks[1])) if self.swim_mode and len(self.sel.picks) > 1 else None

    def menu_open(self, c: tuple[int, int]) -> bool:
        return self.sel.picks == (f"w:{_cell_value(c)}",)


def board_context(panel: dict) -> dict:
    page = Page.from_panel(panel)
    tiles = map_tiles(page)
    if page.place_mode and page.view.get("hand"):
        placement = placement_controls(page)
        walk: dict = {"targets": [], "menu": None}
    else:
        placement = {"targets": [], "rotation": 0, "rotations": []}
        walk = walk_controls(page)
    players = player_cards(page, tiles)
    viewbox = map_viewbox(page)
    board = {
        "viewbox": viewbox, "columns": map_columns(viewbox), "tiles": tiles, "frontier": frontier_cells(page),
        **map_pieces(page),
        "targets": placement["targets"] + walk["targets"], "menu": walk["menu"],
        "hand": hand_box(page, placement["rotation"], placement["rotations"]),
        "buttons": _buttons(page.legal, page.view, page.seat),
        "players": players, "final": _final(players, page.view) if page.over else None,
        **turn_summary(page),
    }
    board["svg"] = map_svg(board)
    board["players_html"] = players_html(players, page.expansion)
    return {"scores": _score_rows(panel.get("scores"), page.expansion), "board": board}


def turn_summary(page: Page) -> dict:
    """The heading and the step counter: who is on the move, in which phase, with what left."""
    view, over = page.view, page.over
    actor = None if over else view["seats"][page.active]
    if over:
        phase_label = pgettext("rifugio", "Game over")
    else:
        phase_label = _("Place a tile") if view["phase"] == "place" else pgettext("rifugio", "Walk")
    return {
        "over": over, "place_mode": page.place_mode, "active": page.active,
        "active_name": "" if over else page.names[page.active], "active_letter": LETTERS[page.active],
        "phase_label": phase_label, "steps": view["turn"]["steps"],
        "pips": [{"on": True} for _ in range(view["turn"]["steps"])],
        "extra_cards": actor["extra_step_cards"] if actor else 0,
        "tiles_to_place": view["turn"]["tiles_to_place"], "tiles_left": view["tiles_left"],
        "removed": len(view["removed"]), "tried": len(view["turn"]["tried"]),
        "expansion": page.expansion, "acting": bool(page.legal),
        "swim_mode": page.swim_mode, "selection": page.sel.raw,
        "swim_sel": page.sel.start("swim") if "swim" in page.kinds else "", "cancel_sel": page.sel.cancel(),
    }


# --- the hex map ---------------------------------------------------------------------------------

def map_tiles(page: Page) -> list[dict]:
    """Every tile on the map: its six coloured triangles, outline, icon, holders and hut."""
    placed = set(page.view["turn"]["placed"])
    return [_map_tile(page, t, t["key"] in placed) for t in page.view["tiles"]]


NO_WATER = (False,) * 6


def _map_tile(page: Page, t: dict, placed: bool) -> dict:
    """A tile's drawing. What depends on its place, its sides and the water around it alone
    (geometry, outline, the frame of its SVG) comes from caches; its title and name from the
    language's kept texts."""
    key, kind, q, r = t["key"], t["kind"], t["q"], t["r"]
    water = page.water
    is_water = key in water
    water_around = tuple(k in water for k in _neighbour_keys(q, r)) if water else NO_WATER
    icon = kind if kind in ICON_KINDS else None
    x, y, hexes, tris, tris_svg, edges, outline, frame, pond = _tile_drawing(q, r, key, t["sides"], icon, is_water,
                                                                              water_around)
    owner = page.rifugi.get(key)
    title, title_html = _tile_title(t, page.names, owner, page.texts)
    names = page.texts.names
    name = names.get(t["tile"])
    if name is None:
        name = names[t["tile"]] = tile_name(t["tile"])
    return {
        "key": key, "q": q, "r": r, "cx": x, "cy": y, "hex": hexes, "tris": tris, "tris_svg": tris_svg,
        "edges": edges, "outline_svg": outline, "frame": frame, "water": is_water, "pond": pond, "icon": icon,
        "item": t["tile"] if t["category"] else None, "name": name,
        "holders": _holders(page, q, r, t["holders"]) if t["holders"] else [],
        "placed": placed, "title": title, "title_html": title_html,
        "rifugio": None if owner is None else _hut(page, q, r, owner),
        "water_neighbours": sum(water_around),
    }


def _holders(page: Page, q: int, r: int, seats: list[int]) -> list[dict]:
    """The dots on a tile for the players holding its card."""
    cx, cy = centre(q, r)
    return [{"seat": h, "letter": LETTERS[h], "name": page.names[h],
             "x": round(cx + HOLDER_DX + HOLDER_GAP * i, 2), "y": round(cy + HOLDER_DY, 2)}
            for i, h in enumerate(seats)]


def _hut(page: Page, q: int, r: int, owner: int) -> dict:
    cx, cy = centre(q, r)
    return {"owner": owner, "letter": LETTERS[owner], "name": page.names[owner],
            "x": round(cx + HUT_DX, 2), "y": round(cy + HUT_DY, 2)}


@lru_cache(maxsize=8192)
def _tile_drawing(q: int, r: int, key: str, sides: str, icon: str | None, is_water: bool,
                  water_around: tuple[bool, ...]) -> tuple:
    """What a tile's place, sides, kind and the water around it decide: its centre (rounded),
    hexagon, triangles (and their SVG), outline (and its SVG), the SVG group around its title,
    and whether it is a pond. The same on every render: one cache read per tile."""
    cx, cy = centre(q, r)
    pond = is_water and True not in water_around
    edges, outline = _tile_outline(cx, cy, is_water, water_around if is_water else NO_WATER)
    return (round(cx, 2), round(cy, 2), hex_points(cx, cy), triangles(cx, cy, sides), triangles_svg(cx, cy, sides),
            edges, outline, _tile_frame(key, cx, cy, sides, icon, is_water, pond), pond)


@lru_cache(maxsize=4096)
def _neighbour_keys(q: int, r: int) -> tuple[str, ...]:
    return tuple(f"{q + dq},{r + dr}" for dq, dr in D.DIRS)


@lru_cache(maxsize=8192)
def _tile_outline(cx: float, cy: float, is_water: bool, water_around: tuple[bool, ...]) -> tuple[tuple, str]:
    """The outline of a tile, side by side, and its SVG lines; one river is one body, so no
    line between waters."""
    edges = tuple(e for s, e in enumerate(_hex_edges(cx, cy)) if not (is_water and water_around[s]))
    shore = ' class="shore"' if is_water else ""
    return edges, "".join(f'<line x1="{e["x1"]}" y1="{e["y1"]}" x2="{e["x2"]}" y2="{e["y2"]}"{shore}/>'
                          for e in edges)


@lru_cache(maxsize=4096)
def _hex_edges(cx: float, cy: float) -> tuple[dict, ...]:
    edges = []
    for s in range(6):
        c1, c2 = _corner(cx, cy, 60 * s - 30, A), _corner(cx, cy, 60 * s + 30, A)
        edges.append({"x1": c1[0], "y1": c1[1], "x2": c2[0], "y2": c2[1]})
    return tuple(edges)


def frontier_cells(page: Page) -> list[dict]:
    """The empty cells next to the map (drawn faintly: tiles go there)."""
    return [{"key": f"{q},{r}", "hex": hex_points(*centre(q, r), A - TARGET_INSET)}
            for q, r in page.view["frontier"]]


def map_viewbox(page: Page) -> str:
    """The SVG viewBox around the map and its frontier, at least MIN_VIEW_COLS x MIN_VIEW_ROWS hexes."""
    points = [centre(t["q"], t["r"]) for t in page.view["tiles"]] + [centre(q, r) for q, r in page.view["frontier"]]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    pad = A + MAP_PAD
    min_x, max_x, min_y, max_y = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    grow_x = max(0.0, MIN_VIEW_COLS * A * SQ3 - (max_x - min_x)) / 2
    grow_y = max(0.0, MIN_VIEW_ROWS * 1.5 * A + A - (max_y - min_y)) / 2
    min_x, max_x, min_y, max_y = min_x - grow_x, max_x + grow_x, min_y - grow_y, max_y + grow_y
    return f"{round(min_x, 1)} {round(min_y, 1)} {round(max_x - min_x, 1)} {round(max_y - min_y, 1)}"


def map_columns(viewbox: str) -> float:
    """How many hexes wide the view box is: on a phone the map is drawn at least this many
    tap-sized hexes wide (board.css) and scrolls inside its box."""
    return round(float(viewbox.split()[2]) / (A * SQ3), 2)


# --- the map drawn in Python -------------------------------------------------------------------
#
# Issue 21: a mid-game panel spent most of its time in the template engine, one loop iteration
# (several variable lookups, an auto-escape, a `{% localize off %}` number each) per triangle,
# outline, icon and piece. The repeated layers of the map are therefore written here as SVG
# strings: every number is one this module computed (Python's own `str`, never localized, the
# same text `{% localize off %}` printed), every cell's triangles and outline come from the
# geometry caches above, and every text a person reads (names, titles) goes through
# `conditional_escape` exactly as the template's auto-escape did; the translated sentences are
# the same msgids the template used, with the same placeholders. _map.html keeps the controls
# (targets: URLs and hx-vals that the platform's tags write) and prints these layers as they are.
# The output is byte for byte what the template loops wrote (bench/panel_profile.py dump).
# Chosen over <symbol>/<use> and fewer elements, which would change the markup the browser
# tests, the translation tests and the players' eyes rely on, for no further server saving.

def _esc(value) -> str:
    """Django's conditional_escape (the template's auto-escape), without its lazy-text wrapper:
    already-safe text as it is, a number as Python prints it, anything else through html.escape
    (& < > " ')."""
    if type(value) is int:
        return str(value)
    return value.__html__() if hasattr(value, "__html__") else _html_escape(str(value))


def _int(value) -> int:
    """What the template's `|add:` did to a coordinate: int() first (a float is cut, not rounded)."""
    return int(value)


def map_svg(m: dict) -> dict[str, SafeString]:
    """The map's repeated layers as ready SVG (see above), one string per layer."""
    tiles = m["tiles"]
    for t in m["targets"]:
        if t.get("ghost") and "ghost_svg" not in t:
            t["ghost_svg"] = mark_safe(_tris_markup(t["ghost"]))
    layers = {
        "frontier": "".join(f'<polygon points="{f["hex"]}"/>' for f in m["frontier"]),
        "tiles": "\n  " + "".join(_tile_svg(t) for t in tiles) + "\n  ",
        "outlines": "".join(t["outline_svg"] for t in tiles),
        "placed": _placed_svg(tiles),
        "icons": "\n  " + "".join(_icon_svg(t) for t in tiles if t["icon"]) + "\n  ",
        "huts": "".join(_hut_svg(t["rifugio"]) for t in tiles if t["rifugio"]),
        "rafts": "\n  " + "".join(_raft_svg(raft) for raft in m["rafts"]) + "\n  ",
        "hikers": "".join(_pawn_svg(h) for h in m["hikers"]),
        "swimmers": "\n  " + "".join(_swimmer_svg(sw) for sw in m["swimmers"]) + "\n  ",
        "badges": "".join(_badge_svg(t) for t in m["targets"] if t.get("badge")),
        "coords": "".join([*(_coord_svg(t["key"]) for t in tiles),
                           *(_coord_svg(f["key"], True) for f in m["frontier"])]),
    }
    return {k: mark_safe(v) for k, v in layers.items()}


def _tris_markup(tris) -> str:
    return "".join(f'<polygon points="{t["points"]}" fill="{t["fill"]}" stroke="{t["fill"]}"/>'
                   + (f'<polygon class="tex" points="{t["points"]}" fill="url(#rf-tex-{t["letter"]})"/>'
                      if t["texture"] else "") for t in tris)


def _tile_svg(t: dict) -> str:
    head, tail = t["frame"]
    return head + t["title_html"] + tail


@lru_cache(maxsize=8192)
def _tile_frame(key: str, cx: float, cy: float, sides: str, icon: str | None, water: bool,
                pond: bool) -> tuple[str, str]:
    """A tile's SVG group around its title (what its place, sides and water decide)."""
    classes = f"tile kind-{icon or 'plain'}" + (" water" if water else "") + (" pond" if pond else "")
    x, y = round(cx, 2), round(cy, 2)
    ripple = (f'<path class="ripple" d="M{_int(x) - 12},{y} q4,-3 8,0 t8,0 t8,0" '
              f'transform="translate(0,6)"/>' if water else "")
    return (f'\n    <g class="{classes}" data-key="{key}">\n      <title>',
            f'</title>\n      {triangles_svg(cx, cy, sides)}\n      {ripple}\n    </g>\n  ')


def _placed_svg(tiles: list[dict]) -> str:
    placed = [t for t in tiles if t["placed"]]
    if not placed:
        return ""
    title = _esc(_("Placed this turn"))
    return "".join(f'<polygon points="{t["hex"]}"><title>{title}</title></polygon>' for t in placed)


def _icon_svg(t: dict) -> str:
    icon = t["icon"]
    start_word = _esc(pgettext("start tile", "START")) if icon == "start" else ""
    head, tail = _icon_frame(icon, t["item"], t["cx"], t["cy"], start_word)
    if not t["holders"]:
        return head + t["title_html"] + tail + "\n  "
    holds = _("%(name)s holds this card")
    holders = "".join(
        f'<g class="holder seat-{d["seat"]}"><title>{holds % {"name": _esc(d["name"])}}'
        f'</title><circle cx="{_int(d["x"])}" cy="{d["y"]}" r="4.2"/><text x="{d["x"]}" y="{_int(d["y"]) + 2}">'
        f'{_esc(d["letter"])}</text></g>' for d in t["holders"])
    return head + t["title_html"] + tail + holders + "\n  "


@lru_cache(maxsize=4096)
def _icon_frame(icon: str, item: str | None, cx: float, cy: float, start_word: str) -> tuple[str, str]:
    """A tile's icon group around its title (what its kind, item and place decide)."""
    item_class = f" item-{item.lower()}" if item else ""
    bear = (f'<text class="bear-value" x="{cx}" y="{_int(cy) + 11}">−3</text>' if icon == "bear" else "")
    start = f'<text class="start-label" x="{cx}" y="{_int(cy) - 20}">{start_word}</text>' if start_word else ""
    return (f'\n    <g class="icon icon-{icon}{_esc(item_class)}"><title>',
            f'</title>\n      <use href="#rf-{icon}" x="{_int(cx) - 12}" y="{_int(cy) - 17}" width="24" height="24"/>\n'
            f'      {bear}\n      {start}\n    </g>\n    ')


def _hut_svg(hut: dict) -> str:
    title = _("Rifugio of %(name)s") % {"name": _esc(hut["name"])}
    return (f'<g class="hut seat-{hut["owner"]}" transform="translate({hut["x"]},{hut["y"]})"><title>{title}</title>'
            f'<path d="M-9,0 L0,-9 L9,0 L7,0 L7,8 L-7,8 L-7,0 Z"/><text x="0" y="6.5">{_esc(hut["letter"])}</text></g>')


def _raft_svg(raft: dict) -> str:
    words = {"name": _esc(raft["name"]), "letter": _esc(raft["letter"])}
    if raft["unmanned"]:
        title = _("Raft of %(name)s (%(letter)s), unmanned") % words
    else:
        title = _("Raft of %(name)s (%(letter)s), carrying %(riders)s") % {**words, "riders": _esc(raft["rider_names"])}
    riders = "".join(_pawn_svg(h) for h in raft["riders"])
    return (f'\n    <g class="raft seat-{raft["owner"]}{" unmanned" if raft["unmanned"] else ""}" '
            f'transform="translate({raft["x"]},{raft["y"]})">\n      <title>{title}</title>\n'
            f'      <rect class="plank" x="-21" y="-1" width="42" height="14" rx="3"/>\n'
            f'      <path class="seams" d="M-11,0 V12 M-1,0 V12 M9,0 V12"/>\n'
            f'      <text class="raft-letter" x="-16" y="10">{_esc(raft["letter"])}</text>\n    </g>\n    {riders}\n  ')


def _pawn_svg(h: dict) -> str:
    words = {"name": _esc(h["name"]), "letter": _esc(h["letter"])}
    if h["active"]:
        title = _("Hiker of %(name)s (%(letter)s), on the move") % words
    else:
        title = _("Hiker of %(name)s (%(letter)s)") % words
    glow = '<circle class="glow" cx="0" cy="0" r="13"/>' if h["active"] else ""
    return (f'<g class="pawn seat-{h["seat"]}{" active" if h["active"] else ""}" '
            f'transform="translate({h["x"]},{h["y"]}) scale({h["scale"]})"><title>{title}</title>{glow}'
            f'<path d="M-7,9 C-7,2 -5,-1 -3,-2 A5.5,5.5 0 1 1 3,-2 C5,-1 7,2 7,9 Z"/>'
            f'<text x="0" y="7.2">{_esc(h["letter"])}</text></g>\n')


def _swimmer_svg(sw: dict) -> str:
    title = _("%(name)s (%(letter)s) is swimming: stage %(stage)s of 4") % {
        "name": _esc(sw["name"]), "letter": _esc(sw["letter"]), "stage": sw["stage"]}
    return (f'\n    <line class="swim-arrow" x1="{sw["ax1"]}" y1="{sw["ay1"]}" x2="{sw["ax2"]}" y2="{sw["ay2"]}" '
            f'marker-end="url(#rf-arrow)"/>\n'
            f'    <g class="swimmer seat-{sw["seat"]}{" active" if sw["active"] else ""}" '
            f'transform="translate({sw["x"]},{sw["y"]})"><title>{title}</title>\n'
            f'      <path class="wave" d="M-14,4 q3.5,-3 7,0 t7,0 t7,0 t7,0"/>\n'
            f'      <ellipse cx="-2" cy="1" rx="9" ry="3.6"/><circle cx="9" cy="0" r="4.2"/>'
            f'<text x="-2" y="3.2">{_esc(sw["letter"])}</text>\n'
            f'      <g class="swim-badge"><rect x="-11" y="-17" width="22" height="11" rx="5"/>'
            f'<text x="0" y="-8.6">{sw["stage"]}/4</text></g>\n    </g>\n  ')


@lru_cache(maxsize=4096)
def _coord_svg(key: str, empty: bool = False) -> str:
    """A cell's name on the map, the one History, replay captions and the controls' names use:
    cell (4,-12) reads "4,-12" (issue 19: a player matches a History line to the board)."""
    q, r = (int(v) for v in key.split(","))
    cx, cy = centre(q, r)
    faint = ' class="frontier-coord"' if empty else ""
    return f'<text{faint} x="{round(cx, 2)}" y="{round(cy + COORD_DY, 2)}">{q},{r}</text>'


def _badge_svg(t: dict) -> str:
    cx, cy = t["cx"], t["cy"]
    return (f'<g class="tbadge"><rect x="{_int(cx) - 22}" y="{_int(cy) + 16}" width="44" height="12" rx="6"/>'
            f'<text x="{cx}" y="{_int(cy) + 25}">{_esc(t["badge"])}</text></g>')


# The players' cards are drawn here for the same reason (issue 21): five cards of five item
# categories of three slots each were ~300 template nodes, most of them a blocktranslate.
# Same msgids; a blocktranslate's variables are escaped, its sentence is not (as here).

def players_html(players: list[dict], expansion: bool) -> SafeString:
    texts = language_texts()
    words = texts.card_words or _card_words(texts)
    memo = Words()
    return mark_safe("\n  " + "".join(_card_html(p, expansion, words, memo, texts) for p in players) + "\n  ")


def _card_words(texts: LanguageTexts) -> dict:
    """The cards' fixed words in the active language, escaped, kept with its texts."""
    texts.card_words = {
        "you": _esc(pgettext("rifugio", "you")), "on_move": _esc(pgettext("rifugio", "on the move")),
        "bears": _esc(_("Bear cards, −3 each")), "huts": _esc(_("Rifugio cards, 2 points each")),
        "rafts": _esc(_("Raft-point cards, 2 points each")), "steps": _esc(_("Extra-step cards, 0 points")),
        "supply": _esc(_("Still in supply"))}
    return texts.card_words


def _mini(icon: str) -> str:
    return (f'<svg class="mini" viewBox="-12 -12 24 24" aria-hidden="true"><use href="#rf-{icon}" x="-12" y="-12" '
            f'width="24" height="24"/></svg>')


MINI = {icon: _mini(icon) for icon in ("bear", "hut", "raft", "boot")}


def _card_html(p: dict, expansion: bool, words: dict, memo: Words, texts: LanguageTexts | None = None) -> str:
    info, name, seat = p["info"], _esc(p["name"]), p["seat"]
    tags = ((f' <span class="tag">{words["you"]}</span>' if p["is_you"] else "")
            + (f' <span class="tag on-move">{words["on_move"]}</span>' if p["is_active"] else ""))
    score = _("<strong>%(score)s</strong> pts") % {"score": _esc(info["score"])}
    breakdown = "".join(f"<li>{_esc(b['label'])}: {_esc(b['value'])}</li>" for b in p["breakdown"])
    bears = _("Bears %(n)s") % {"n": len(info["bears"])}
    if p["bear_names"]:
        bears += f' <small class="muted">({", ".join(_esc(b) for b in p["bear_names"])})</small>'
    raft_cards = _("Raft cards %(n)s") % {"n": _esc(info["raft_cards"])}
    rafts = f'<li title="{words["rafts"]}">{MINI["raft"]} {raft_cards}</li>' if expansion else ""
    hut_cards = _("Rifugio cards %(n)s") % {"n": _esc(info["rifugio_cards"])}
    step_cards = _("Extra steps %(n)s") % {"n": _esc(info["extra_step_cards"])}
    if expansion:
        supply = ngettext("Supply: %(rifugi)s Rifugi, %(n)s raft", "Supply: %(rifugi)s Rifugi, %(n)s rafts",
                          info["rafts_left"]) % {"n": _esc(info["rafts_left"]), "rifugi": _esc(info["rifugi_left"])}
    else:
        supply = _("Supply: %(rifugi)s Rifugi") % {"rifugi": _esc(info["rifugi_left"])}
    kept = (texts or language_texts()).categories
    cats = "".join(_kept_category_html(c, memo, kept) for c in p["categories"])
    return (
        f'\n    <article class="rf-player seat-{seat}{" is-active" if p["is_active"] else ""}'
        f'{" is-you" if p["is_you"] else ""}" aria-label="{name}">\n      <header>\n'
        f'        <span class="rf-letter seat-{seat}" aria-hidden="true">{_esc(p["letter"])}</span>\n'
        f'        <strong>{name}</strong>{tags}\n'
        f'        <details class="rf-total"><summary title="{_esc(p["breakdown_text"])}">{score}</summary>\n'
        f'          <ul class="plain">{breakdown}</ul></details>\n      </header>\n'
        f'      <div class="rf-cats">\n        {cats}\n      </div>\n'
        f'      <ul class="rf-cards plain">\n'
        f'        <li title="{words["bears"]}">{MINI["bear"]} {bears}</li>\n'
        f'        <li title="{words["huts"]}">{MINI["hut"]} '
        f'{hut_cards}</li>\n'
        f'        {rafts}\n'
        f'        <li title="{words["steps"]}">{MINI["boot"]} '
        f'{step_cards}</li>\n'
        f'        <li class="muted" title="{words["supply"]}">{supply}</li>\n      </ul>\n    </article>\n  ')


def _kept_category_html(c: dict, memo: Words, kept: dict) -> str:
    """A category box as drawn before in this language (5 categories x 8 hands of cards)."""
    key = (c["key"], c["label"], c["count"], c["complete"], tuple(s["held"] for s in c["slots"]))
    html = kept.get(key)
    if html is None:
        html = kept[key] = _category_html(c, memo)
    return html


def _category_html(c: dict, memo: Words) -> str:
    counted = {"label": _esc(c["label"]), "count": c["count"]}
    of_three = memo[gettext_noop("%(label)s: %(count)s of 3")] % counted
    title = memo[gettext_noop("%(label)s: %(count)s of 3, complete set +5")] % counted if c["complete"] else of_three
    not_yet = memo[gettext_noop("%(name)s (not yet)")]
    slots = "".join(
        f'<span class="slot held" title="{_esc(s["name"])} ✓">✓</span>' if s["held"] else
        f'<span class="slot" title="{not_yet % {"name": _esc(s["name"])}}">·</span>'
        for s in c["slots"])
    return (f'\n        <div class="rf-cat{" complete" if c["complete"] else ""}" title="{title}">\n'
            f'          <svg viewBox="-12 -12 24 24" class="cat-icon" aria-hidden="true"><use href="#rf-{c["icon"]}" '
            f'x="-12" y="-12" width="24" height="24"/></svg>\n'
            f'          {slots}\n          <span class="sr-only">{of_three}</span>\n        </div>\n        ')


# --- pieces: hikers, rafts, swimmers -------------------------------------------------------------

def map_pieces(page: Page) -> dict:
    return {"hikers": hikers_on_land(page), "rafts": raft_pieces(page), "swimmers": swimmer_pieces(page)}


def hikers_on_land(page: Page) -> list[dict]:
    """Hikers standing on land, in a row (or a ring) on their tile."""
    on_land: dict[str, list[int]] = {}
    for p in page.view["seats"]:
        h = p["hiker"]
        if not h["swim"] and h["raft"] is None:
            on_land.setdefault(f"{h['at'][0]},{h['at'][1]}", []).append(p["seat"])
    hikers = []
    for k, group in on_land.items():
        t = page.tiles_by_key.get(k)
        if t is None:
            continue
        cx, cy = centre(t["q"], t["r"])
        for (x, y), s in zip(_row(len(group), cx, cy + HIKER_ROW_DY, HIKER_GAP), group, strict=True):
            hikers.append(pawn(s, x, y, HIKER_SCALE, page.on_move(s), page.names[s]))
    return hikers


def raft_pieces(page: Page) -> list[dict]:
    rafts = []
    for raft in page.view["rafts"]:
        cx, cy = centre(*raft["at"])
        n = len(raft["riders"])
        riders = [pawn(s, cx + (i - (n - 1) / 2) * RIDER_GAP, cy + RIDER_DY, RIDER_SCALE, page.on_move(s),
                       page.names[s]) for i, s in enumerate(raft["riders"])]
        rafts.append({"id": raft["id"], "owner": raft["owner"], "letter": LETTERS[raft["owner"]],
                      "name": page.names[raft["owner"]], "x": round(cx, 2), "y": round(cy, 2),
                      "unmanned": raft["unmanned"], "riders": riders,
                      "rider_names": ", ".join(page.names[s] for s in raft["riders"])})
    return rafts


def swimmer_pieces(page: Page) -> list[dict]:
    return [_swimmer(page, p["seat"], p["hiker"]["swim"]) for p in page.view["seats"] if p["hiker"]["swim"]]


def _swimmer(page: Page, seat: int, swim: dict) -> dict:
    """A swimmer floats near the shore it left, mid-water, then near the far shore (by stage)."""
    vx, vy = centre(*swim["via"])
    tx, ty = centre(*swim["to"])
    fx, fy = centre(*swim["from"])
    dist = math.hypot(tx - vx, ty - vy) or 1
    ux, uy = (tx - vx) / dist, (ty - vy) / dist
    along = SWIM_SPOT.get(swim["stage"], 0.0)
    return {
        "seat": seat, "letter": LETTERS[seat], "name": page.names[seat],
        "x": round(vx + along * (tx - fx) / 2, 2), "y": round(vy + along * (ty - fy) / 2, 2),
        "stage": swim["stage"], "active": page.on_move(seat),
        "ax1": round(vx + ux * SWIM_ARROW_FROM, 2), "ay1": round(vy + uy * SWIM_ARROW_FROM, 2),
        "ax2": round(tx - ux * SWIM_ARROW_TO, 2), "ay2": round(ty - uy * SWIM_ARROW_TO, 2),
    }


# --- placement controls --------------------------------------------------------------------------

def placement_controls(page: Page) -> dict:
    """Cells that take the tile as it is turned now (with its ghost), and cells that take it after
    a turn (a click there turns the tile)."""
    hand = page.view["hand"]
    spots: dict[tuple[int, int], list[int]] = {}
    for a in page.legal:
        if a["type"] == "place_tile":
            spots.setdefault((a["q"], a["r"]), []).append(a["rotation"])
    rotations = sorted({k for ks in spots.values() for k in ks})
    if hand["symmetric"]:
        rotation = 0
    elif page.rotation is not None:
        rotation = page.rotation
    else:
        rotation = rotations[0] if rotations else 0
    shown = rotated(hand["edges"], rotation)
    targets = [_placement_target(page, q, r, ks, rotation, shown) for (q, r), ks in sorted(spots.items())]
    return {"targets": targets, "rotation": rotation, "rotations": rotations}


def _placement_target(page: Page, q: int, r: int, rotations: list[int], rotation: int, shown: str) -> dict:
    cx, cy = centre(q, r)
    base = {"key": f"{q},{r}", "hex": hex_points(cx, cy, A - PLACE_INSET), "cx": round(cx, 2), "cy": round(cy, 2)}
    if rotation in rotations:
        words = {"tile": _hand_word(page), "at": _at((q, r))}
        if page.view["hand"]["symmetric"]:
            label = _("Place the %(tile)s at %(at)s") % words
        else:
            label = _("Place the %(tile)s at %(at)s, %(turned)s") % {**words, "turned": _(TURN_WORDS[rotation])}
        return {**base, "kind": "place", "action": {"type": "place_tile", "q": q, "r": r, "rotation": rotation},
                "label": label,
                "ghost": triangles(cx, cy, shown, A - PLACE_INSET),
                "ghost_svg": mark_safe(triangles_svg(cx, cy, shown, A - PLACE_INSET))}
    first = min(rotations, key=lambda k: (k - rotation) % 6)
    return {**base, "kind": "place-other", "sel": page.sel.with_extra(ROTATION, str(first)),
            "label": _("Turn the tile so it fits at %(at)s (it fits there only after turning it)") % {
                "at": _at((q, r))}}


def _hand_word(page: Page) -> str:
    hand = page.view["hand"]
    return _hand_title(hand) if hand["name"] else _terrain_tile(hand["terrain"])


def hand_box(page: Page, rotation: int, rotations: list[int]) -> dict | None:
    """The tile to place, drawn as it is turned now, with its rotate links."""
    hand = page.view.get("hand")
    if not hand:
        return None
    shown = rotated(hand["edges"], rotation)
    sides = "" if hand["symmetric"] else ", ".join(
        f"{side_name(s)} {terrain_word(shown[s])}" for s in range(6))
    return {
        "tile": hand, "tris": triangles(HAND_CENTRE, HAND_CENTRE, shown, HAND_RADIUS),
        "tris_svg": mark_safe(triangles_svg(HAND_CENTRE, HAND_CENTRE, shown, HAND_RADIUS)),
        "hex": hex_points(HAND_CENTRE, HAND_CENTRE, HAND_RADIUS),
        "icon": hand["kind"] if hand["kind"] in ICON_KINDS and hand["kind"] != "start" else None,
        "title": _hand_title(hand), "rotation": rotation,
        "left": page.sel.with_extra(ROTATION, str((rotation + 1) % 6)),
        "right": page.sel.with_extra(ROTATION, str((rotation - 1) % 6)),
        "no_spot": page.place_mode and rotation not in rotations, "sides": sides,
    }


# --- walk-phase controls -------------------------------------------------------------------------

def walk_controls(page: Page) -> dict:
    """Highlighted cells of the walk phase: steps and water (sail / build a raft), or, in swim
    mode, the shores (then the water to cross when several join a shore)."""
    swims = [a for a in page.legal if a["type"] == "swim"]
    if page.swim_mode and swims:
        return {"targets": swim_targets(page, swims), "menu": None}
    water, menu = water_targets(page)
    return {"targets": step_targets(page) + water, "menu": menu}


def _cell(q: int, r: int, key: str | None = None) -> dict:
    cx, cy = centre(q, r)
    return {"key": key or f"{q},{r}", "hex": hex_points(cx, cy, A - TARGET_INSET),
            "cx": round(cx, 2), "cy": round(cy, 2)}


def swim_targets(page: Page, swims: list[dict]) -> list[dict]:
    shores: dict[tuple[int, int], list[dict]] = {}
    for a in swims:
        shores.setdefault(tuple(a["to"]), []).append(a)
    chosen = page.swim_shore
    if chosen is None:
        targets = []
        for (q, r), acts in sorted(shores.items()):
            t = {**_cell(q, r), "kind": "swim-to", "badge": _("swim here"),
                 "label": _("Swim towards the shore at %(at)s: %(place)s") % {
                     "at": _at((q, r)), "place": place_words(page.tiles_by_key.get(f"{q},{r}", {}))}}
            if len(acts) == 1:
                t["action"] = acts[0]
            else:
                t["sel"] = page.sel.add(f"to:{q},{r}")
            targets.append(t)
        return targets
    targets = [{**_cell(*chosen, key="chosen"), "kind": "chosen", "label": "", "badge": _("shore")}]
    for a in shores[chosen]:
        q, r = a["via"]
        targets.append({**_cell(q, r), "kind": "swim-via", "action": a, "badge": _("via"),
                        "label": _("Swim across the water at %(via)s to the shore at %(shore)s") % {
                            "via": _at((q, r)), "shore": _at(chosen)}})
    return targets


def step_targets(page: Page) -> list[dict]:
    """Cells a step reaches: land, or a raft to board (a visit that pays says so)."""
    targets = []
    for a in page.legal:
        if a["type"] != "step":
            continue
        q, r = a["to"]
        label, pays = _step_label(page, q, r)
        targets.append({**_cell(q, r), "kind": "step", "action": a,
                        "label": _("%(label)s (+1 step card)") % {"label": label} if pays else label,
                        "badge": _("+1 step") if pays else ""})
    return targets


def _step_label(page: Page, q: int, r: int) -> tuple[str, bool]:
    """'Walk north-east to Edelweiss (flower, 2 points) at (1,-1)', 'Board the raft of Bea ...'."""
    k = f"{q},{r}"
    visited = page.view["turn"]
    me = page.view["seats"][page.seat] if page.seat is not None and page.seat < len(page.view["seats"]) else None
    towards = direction(me["hiker"]["at"], (q, r)) if me else ""
    raft = page.rafts_at.get(k)
    at = _at((q, r))
    if raft is not None:
        pays = raft["owner"] != page.seat and raft["id"] not in visited["visited_rafts"]
        words = {"owner": page.names[raft["owner"]], "at": at, "direction": towards}
        if me and me["hiker"]["raft"] is not None:
            label = (_("Jump onto the raft of %(owner)s at %(at)s (%(direction)s of you)") if towards
                     else _("Jump onto the raft of %(owner)s at %(at)s"))
        else:
            label = (_("Board the raft of %(owner)s at %(at)s (%(direction)s of you)") if towards
                     else _("Board the raft of %(owner)s at %(at)s"))
        return label % words, pays
    owner = page.rifugi.get(k)
    pays = owner is not None and owner != page.seat and k not in visited["visited_rifugi"]
    words = {"direction": towards, "place": place_words(page.tiles_by_key.get(k, {})), "at": at}
    label = (_("Walk %(direction)s to %(place)s at %(at)s") if towards else _("Walk to %(place)s at %(at)s")) % words
    if owner is not None:
        label = _("%(label)s, the Rifugio of %(owner)s") % {"label": label, "owner": page.names[owner]}
    return label, pays


def water_targets(page: Page) -> tuple[list[dict], dict | None]:
    """Water to sail to, to build a raft on, or both (then a menu, opened by ?sel=m<q>,<r>)."""
    sails = {tuple(a["to"]): a for a in page.legal if a["type"] == "sail"}
    builds = {tuple(a["at"]): a for a in page.legal if a["type"] == "build_raft"}
    targets, menu = [], None
    for c in sorted(set(sails) | set(builds)):
        q, r = c
        if c in sails and c in builds:
            is_open = page.menu_open(c)
            targets.append({**_cell(q, r), "kind": "menu" + (" open" if is_open else ""),
                            "sel": page.sel.start(f"w:{q},{r}"),
                            "label": _("Sail to or build a raft on the water at %(at)s: choose which") % {
                                "at": _at(c)},
                            "badge": _("sail / + raft")})
            if is_open:
                menu = {"q": q, "r": r, "sail": sails[c], "build": builds[c]}
        elif c in sails:
            targets.append({**_cell(q, r), "kind": "sail", "action": sails[c], "badge": "",
                            "label": _("Sail the raft to the water at %(at)s (1 step)") % {"at": _at(c)}})
        else:
            targets.append({**_cell(q, r), "kind": "raft", "action": builds[c],
                            "label": _("Build a raft on the water at %(at)s and step aboard (2 steps)") % {
                                "at": _at(c)},
                            "badge": _("+ raft (2)")})
    return targets, menu


# --- player cards --------------------------------------------------------------------------------

def player_cards(page: Page, tiles: list[dict]) -> list[dict]:
    """One card per player: item categories, waterfalls with their bonus, score breakdown."""
    by_item = {t["item"]: t for t in tiles if t["item"]}
    return [_player_card(page, p, by_item) for p in page.view["seats"]]


def _player_card(page: Page, p: dict, by_item: dict[str, dict]) -> dict:
    i = p["seat"]
    breakdown = [{"label": page.words[BREAKDOWN_LABEL[k]] if k in BREAKDOWN_LABEL else k, "value": v}
                 for k, v in p["breakdown"].items()]
    return {
        "seat": i, "letter": LETTERS[i], "name": page.names[i], "info": p, "categories": item_categories(p, page.words),
        "breakdown": breakdown, "breakdown_text": "; ".join(f"{b['label']} {b['value']}" for b in breakdown),
        "is_active": page.on_move(i), "is_you": i == page.seat,
        "waterfalls": held_waterfalls(page, p, by_item),
        "bear_names": [bear_name(b) for b in p["bears"]],
    }


def item_categories(p: dict, words: Words | None = None) -> list[dict]:
    words = Words() if words is None else words
    cats = []
    for c in D.CATEGORIES:
        held = set(p["items_by_category"][c])
        slots = [{"tile": t, "name": words[D.ITEM_NAMES[t]], "held": t in held} for t in D.CATEGORY_TILES[c]]
        cats.append({"key": c, "label": words[CATEGORY_LABEL[c]], "icon": CATEGORY_ICON[c], "slots": slots,
                     "complete": len(held) == 3, "count": len(held)})
    return cats


def held_waterfalls(page: Page, p: dict, by_item: dict[str, dict]) -> list[dict]:
    """The waterfalls a player holds, with their bonus; `by_item`: the map's tiles by item."""
    out = []
    for t in p["items_by_category"]["WATERFALL"]:
        tile = by_item.get(t)
        bonus = tile["water_neighbours"] if tile and page.expansion else 0
        out.append({"name": _(D.ITEM_NAMES[t]), "bonus": bonus, "worth": D.ITEM_VALUE["WATERFALL"] + bonus})
    return out


def _score_rows(rows, expansion: bool = True):
    """The side score card with the final scoring's parts, under the same names (issue 19:
    live, replay and final tables name the same columns). The card has a row per part, so
    all of them fit; the base game, which has no waterfall bonus or raft cards, drops those."""
    if not rows or expansion:
        return rows
    out = []
    for row in rows:
        parts = {k: v for k, v in row.get("breakdown", {}).items() if k not in RIVER_PARTS}
        out.append({**row, "breakdown": parts, "parts": list(parts.values())})
    return out


def _tile_title(t: dict, names: list[str], owner, texts: LanguageTexts) -> tuple[str, str]:
    """A tile's title, as text and escaped ('(2,-1) Edelweiss: flower, 2 points · held by Ada')."""
    # a named tile is one of a kind; plain tiles of one terrain (and all water) read alike
    known = (t["kind"], t["terrain"]) if t["kind"] in ("plain", "water", "start") else (t["tile"], t["kind"])
    kept = texts.titles.get(known)
    if kept is None:
        text = _tile_text(t)
        kept = texts.titles[known] = (text, _html_escape(text))
    at = f"({t['q']},{t['r']}) "        # nothing in it to escape
    if not t["holders"] and owner is None:
        return at + kept[0], at + kept[1]
    text = kept[0]
    if t["holders"]:
        text = _("%(tile)s · held by %(names)s") % {"tile": text, "names": ", ".join(names[h] for h in t["holders"])}
    if owner is not None:
        text = _("%(tile)s · Rifugio of %(owner)s") % {"tile": text, "owner": names[owner]}
    return at + text, _html_escape(at + text)


def _tile_text(t: dict) -> str:
    kind = t["kind"]
    name = tile_name(t["tile"])
    if kind == "start":
        text = _("Start tile")
    elif kind == "water":
        text = pgettext("tile", "Water")
    elif kind == "plain":
        text = _capital(terrain_word(t["terrain"]))
    elif kind == "bear":
        text = _("%(name)s: bear, −3") % {"name": name}
    elif kind == "pass":
        text = _("%(name)s: pass (rock and meadow), 2 points") % {"name": name}
    elif kind == "waterfall":
        text = _("%(name)s: waterfall, 1 point + 1 per water neighbour") % {"name": name}
    else:
        text = _("%(name)s: %(kind)s, 2 points") % {"name": name, "kind": kind_word(kind)}
    return text


def _hand_title(hand: dict) -> str:
    if hand["name"]:
        return _("%(name)s (%(kind)s)") % {"name": tile_name(hand["tile"]), "kind": kind_word(hand["kind"])}
    return _capital(_terrain_tile(hand["terrain"]))


def _buttons(legal: list[dict], view: dict, seat) -> dict:
    by: dict[str, dict] = {}
    for a in legal:
        by.setdefault(a["type"], a)
    if not legal or view["phase"] != "walk":
        return {}
    me = view["seats"][seat]
    swim = me["hiker"]["swim"]
    useful = [a for a in legal if a["type"] != "end_turn"]
    steps = view["turn"]["steps"]
    confirm = ""
    if useful and steps > 0:
        confirm = ngettext("You still have %(count)s step and moves left. End your turn anyway?",
                           "You still have %(count)s steps and moves left. End your turn anyway?",
                           steps) % {"count": steps}
    elif useful and "use_extra_step" in by:
        confirm = _("You still have extra-step cards and moves left. End your turn anyway?")
    can_build_here = me["rifugi_left"] > 0 and me["hiker"]["raft"] is None and not swim
    return {
        "build_rifugio": by.get("build_rifugio"), "show_build_rifugio": can_build_here or "build_rifugio" in by,
        "use_extra_step": by.get("use_extra_step"), "extra_cards": me["extra_step_cards"],
        "swim": "swim" in by, "continue_swim": by.get("continue_swim"),
        "swim_stage": swim["stage"] if swim else 0, "end_turn": by.get("end_turn"), "end_confirm": confirm,
    }


def _final(players: list[dict], view: dict) -> dict:
    rows = sorted(players, key=lambda p: (p["info"]["rank"], p["seat"]))
    notes = []
    by_total: dict[int, list[dict]] = {}
    for p in rows:
        by_total.setdefault(p["info"]["score"], []).append(p)
    for total, group in by_total.items():
        if len(group) < 2:
            continue
        ranks = {p["info"]["rank"] for p in group}
        names = _and([p["name"] for p in group])
        if len(ranks) > 1:
            order = ", ".join(f"{p['name']} ({_raft_cards(p['info']['raft_cards'])})" for p in group)
            notes.append(_("%(names)s tie on %(total)s points; raft points break the tie: %(order)s.")
                         % {"names": names, "total": total, "order": order})
        else:
            notes.append(_("%(names)s tie on %(total)s points and on raft points, so they share the rank.")
                         % {"names": names, "total": total})
    return {"rows": rows, "notes": notes, "lines": _final_lines(rows, view)}


def _final_lines(rows: list[dict], view: dict) -> list[dict]:
    """The final table turned on its side (one column per player, in rank order), so five
    players fit a phone: one line per part of the score, each cell with its note if any."""
    expansion = view["options"].get("rivers_and_rafts")
    notes = {"waterfall_bonus": lambda p: ", ".join(f"{w['name']} +{w['bonus']}" for w in p["waterfalls"]
                                                    if w["bonus"]),
             "raft_cards": lambda p: _raft_cards(p["info"]["raft_cards"])}
    return [{"label": _(label), "cells": [{"value": p["info"]["breakdown"].get(key, 0),
                                        "note": notes[key](p) if key in notes else ""} for p in rows]}
            for key, label in BREAKDOWN_LABEL.items() if expansion or key not in RIVER_PARTS]


def _raft_cards(n: int) -> str:
    return ngettext("%(count)s raft card", "%(count)s raft cards", n) % {"count": n}


# --- "how to play": small positions drawn by the board's own builders ---------------------------

SAMPLE_NAMES = ["Ada", "Bea"]


def how_to_play_context() -> dict:
    """The diagrams of the "how to play" page: real positions, drawn like the board (the
    highlights are the rules' own legal moves), as pictures without controls."""
    return {"diagrams": {
        "setup": diagram(_sample_setup(), _("The start tile with both hikers on it; the dotted cells around "
                                            "it are where the first tiles can go.")),
        "place": diagram(_sample_placing(), _("Ada holds a pass (rock on one half, meadow on the other). "
                                              "Gold cells take it as it is turned now; dotted cells take it "
                                              "after a turn.")),
        "walk": diagram(_sample_walk(), _("Ada (A) on the start tile may walk to any ringed neighbour: the "
                                          "Edelweiss flower, a bear, or Bea's Rifugio, which gives Ada an "
                                          "extra step.")),
        "rafts": diagram(_sample_rafts(), _("Ada (A) aboard her raft on a river: she may sail to any free "
                                            "water of the same river for one step. The waterfall beside it "
                                            "scores 1 point plus 1 for each water tile next to it.")),
    }}


def diagram(state: dict, label: str) -> dict:
    """One position drawn like the board, seen by the seat on the move, every target a
    highlight only (no action, no link)."""
    from games.rifugio.rules import RULES

    seat = state["active"]
    legal = RULES.legal_actions(state, seat) if state.pop("_show_moves", True) else []
    page = Page.from_panel({"view": RULES.view(state, seat), "names": SAMPLE_NAMES[:state["players"]],
                            "legal": legal, "seat": seat})
    targets = (placement_controls(page) if page.place_mode else walk_controls(page))["targets"] if legal else []
    shown = {"label": label, "viewbox": diagram_viewbox(page), "tiles": map_tiles(page),
             "frontier": frontier_cells(page), **map_pieces(page),
             "targets": [{k: v for k, v in t.items() if k not in ("action", "sel")} for t in targets]}
    shown["svg"] = map_svg(shown)
    return shown


def diagram_viewbox(page: Page) -> str:
    """Tight around the tiles and their frontier: a diagram shows a corner of a map, large."""
    points = [centre(t["q"], t["r"]) for t in page.view["tiles"]] + [centre(q, r) for q, r in page.view["frontier"]]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    pad = A + MAP_PAD
    return f"{round(min(xs) - pad, 1)} {round(min(ys) - pad, 1)} " \
           f"{round(max(xs) - min(xs) + 2 * pad, 1)} {round(max(ys) - min(ys) + 2 * pad, 1)}"


def _sample(tiles: dict[tuple[int, int], str], *, rr: bool = True, phase: str = "walk") -> dict:
    """A 2-player position: START at (0,0) plus `tiles` ({(q, r): tile id}, unturned), Ada to move."""
    from games.rifugio.rules import RULES

    state = RULES.setup(2, {"rivers_and_rafts": rr}, 1)
    state["board"] = {"0,0": {"tile": "START", "rot": 0}}
    state["board"].update({f"{q},{r}": {"tile": t, "rot": 0} for (q, r), t in tiles.items()})
    state.update(active=0, first_seat=0, phase=phase, hand=None if phase == "walk" else state["hand"])
    state["turn"].update(tiles_to_place=0 if phase == "walk" else 2, steps=2, placed=[])
    return state


def _sample_setup() -> dict:
    state = _sample({}, phase="place")
    state["_show_moves"] = False
    return state


def _sample_placing() -> dict:
    state = _sample({(1, 0): "R01", (-1, 0): "F01"}, phase="place")
    state["hand"] = "PS1"
    return state


def _sample_walk() -> dict:
    state = _sample({(1, 0): "FL1", (0, -1): "BR1", (-1, 1): "M01", (1, -1): "F02", (0, 1): "R01"})
    state["rifugi"]["-1,1"] = 1
    state["seats"][1]["walker"]["at"] = [1, -1]
    return state


def _sample_rafts() -> dict:
    water = {(0, 1): "WA01", (1, 1): "WA02", (2, 0): "WA03", (-1, 2): "WA04"}
    state = _sample({**water, (1, 0): "WF1", (0, 2): "M01", (-1, 1): "F02"})
    state["rafts"].append({"id": 0, "owner": 0, "at": [0, 1], "riders": [0]})
    state["seats"][0]["rafts_left"] = 0       # none left to build: every blue cell is a sail
    state["seats"][0]["walker"].update(at=[0, 1], raft=0)
    return state
