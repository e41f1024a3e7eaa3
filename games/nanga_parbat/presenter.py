"""Nanga Parbat: the mountain, the points chart and the scoring path as three server-drawn
SVGs (partials _mountain, _chart and _path, also used by the how-to-play diagrams), the
player cards and both animal boards as HTML that reflows (spec §14). A phone stacks them and
shows the mountain through one of MOUNTAIN_VIEWS (CSS only), so every square stays a
44 px tap target; every control's aria-label says what pressing it does.

Multi-step choices (an activation, a claim) follow the site's one `?sel=` convention
(games/selection.py; `picks` spells each legal action):
  "a:<species>.s:<sid>.s:<sid>"   activating a swapping animal; "a:yak.r:<region>" for the yak
  "i:<items>.c:<row>-<col>"       claiming spot row/col; the items (sections for camps, animal
                                  indices for trades) are gathered in any order
Every highlight comes from the seat's `legal` list, so the page never decides legality; a
selection that no longer fits a legal action is cut back. static/js/site.js keeps the
selection across live updates and gives the board its keyboard.

`board_context` reads the panel once (`read_panel`) and joins one builder per board area:
`mountain`, `points_chart`, `scoring_path`, `player_cards`, `animal_boards`, `controls` and
`end_summary`. Last turn's squares and the score pills come from the view's `events`;
`describe(event, names)` puts any event into words.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from html import escape as _html_escape
from typing import Any, NamedTuple, TypedDict
from urllib.parse import quote as _url_quote

from django.utils.safestring import SafeString, mark_safe

from games import selection
from games.nanga_parbat.board_html import board_html  # noqa: F401 (games.presenters.board_html)
from games.nanga_parbat.board_html import game_urls
from games.presenters import shortened
from games.rules.base import _, gettext_noop, ngettext, pgettext

from .rules.data import SPECIES_INFO


class Translated(dict):
    """A module-level table of texts marked with `gettext_noop` (English at import), read in
    the language active where it is shown: `table[key]`, `.get`, `.values()` and `.items()`
    translate, so the platform's pages (option labels) need not know it."""

    def __getitem__(self, key):
        return _(super().__getitem__(key))

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def values(self):
        return [self[key] for key in self]

    def items(self):
        return [(key, self[key]) for key in self]


class Built(dict):
    """A table whose texts need a context (`pgettext`, short words other games translate
    otherwise): `build()` makes it in the active language at each read."""

    def __init__(self, build):
        super().__init__(build())
        self._build = build

    def __getitem__(self, key):
        return self._build()[key]

    def get(self, key, default=None):
        return self._build().get(key, default)

    def values(self):
        return list(self._build().values())

    def items(self):
        return list(self._build().items())


OPTION_SPECS = {
    "area_scoring": Translated({
        "label": gettext_noop("Area scoring variant"),
        "help": gettext_noop("At the end, each region scores 1/2/3 points for 4/5/6 of a player's hikers and camps."),
    }),
}

SCRIPT = ""                # the site's script keeps focus and the selection across swaps
STYLESHEET = "games/nanga-parbat/board.css"

# Three drawings, each its own SVG so a phone can stack them: the mountain (9 × 9 squares),
# the points chart and the scoring path. The animal boards are HTML (they reflow).
S = 60                      # one mountain square
MX, MY = 0, 0               # mountain origin: px = MX + (x + 4)·S, py = MY + row·S
MOUNTAIN = 9 * S
CELL = 25                   # one scoring-path space
PATH_X, PATH_Y = 4, 4
PATH_W, PATH_H = 16 * CELL + 8, 11 * CELL + 8
# Chart spots are 64 units: drawn 310 px wide (a 360 px phone) they stay over 44 px.
CHART_X, CHART_Y = 92, 40
SPOT_W, SPOT_H, SPOT_DX, SPOT_DY = 64, 64, 67, 68
CHART_W, CHART_H = 440, CHART_Y + 22 + 3 * SPOT_DY + 30

# A phone shows the mountain in three 6 × 6 windows (each a region pyramid and the two
# beneath it, with the dotted paths between them), or whole for an overview: the squares
# stay over 44 px. Each window: (its regions, its top-left square as (x, row)).
class MountainView(TypedDict):
    regions: tuple[int, ...]
    label: str


MOUNTAIN_VIEWS: dict[str, MountainView] = {   # labels shown with _()
    "top": {"regions": (1, 2, 3), "label": gettext_noop("Regions 1, 2, 3 (top)")},
    "left": {"regions": (2, 4, 5), "label": gettext_noop("Regions 2, 4, 5 (lower left)")},
    "right": {"regions": (3, 5, 6), "label": gettext_noop("Regions 3, 5, 6 (lower right)")},
    "whole": {"regions": (1, 2, 3, 4, 5, 6), "label": gettext_noop("Whole mountain")},
}

SEAT_HEX = {"orange": "#e8891c", "green": "#3c9a48"}
SPECIES_HEX = {"snow_leopard": "#fbfbf7", "tahr": "#8b5a2b", "musk_deer": "#9aa0a6",
               "yak": "#24221f", "bharal": "#3565c8", "red_panda": "#c7372b"}
REGION_TINT = {1: "#eef3f7", 2: "#e8f0ea", 3: "#f3eee4", 4: "#ecebf4", 5: "#f4ecec", 6: "#e9f1f2"}
REGION_LINE = {1: "#5b7fa3", 2: "#4f8a5b", 3: "#a07a3c", 4: "#6f62a8", 5: "#a85a5a", 6: "#3f8c8f"}
ROW_TITLES = Translated({"camps": gettext_noop("Camps: turn adjacent hikers into camps"),
                         "different": gettext_noop("Trade animals of different species (bharal is wild)"),
                         "same": gettext_noop("Trade animals of one species (bharal is wild)")})


def _breakdown_labels() -> dict[str, str]:
    return {"camps": pgettext("nanga parbat score", "Camps"), "different": pgettext("nanga parbat score", "Different"),
            "same": pgettext("nanga parbat score", "Same"), "red_panda": pgettext("nanga parbat score", "Red panda"),
            "area": pgettext("nanga parbat score", "Area"), "bump": pgettext("nanga parbat score", "Bump")}


BREAKDOWN_LABELS = Built(_breakdown_labels)
SYMMETRIC = {"snow_leopard", "musk_deer"}
SPECIES_NAMES = Translated({key: info["name"] for key, info in SPECIES_INFO.items()})
SPECIES_POWERS = Translated({key: info["power"] for key, info in SPECIES_INFO.items()})
# Whole sentences for each species, so every language gives the animal its own article and case.
TRAPPED = {
    "snow_leopard": gettext_noop("%(name)s trapped a snow leopard in section %(section)s."),
    "tahr": gettext_noop("%(name)s trapped a tahr in section %(section)s."),
    "musk_deer": gettext_noop("%(name)s trapped a musk deer in section %(section)s."),
    "yak": gettext_noop("%(name)s trapped a yak in section %(section)s."),
    "bharal": gettext_noop("%(name)s trapped a bharal in section %(section)s."),
    "red_panda": gettext_noop("%(name)s trapped a red panda in section %(section)s."),
}
SWAPPED = {
    "snow_leopard": gettext_noop("%(name)s used a snow leopard to swap sections %(a)s and %(b)s."),
    "tahr": gettext_noop("%(name)s used a tahr to swap sections %(a)s and %(b)s."),
    "musk_deer": gettext_noop("%(name)s used a musk deer to swap sections %(a)s and %(b)s."),
}
# The current choice: (first pick, second pick, confirm) for each species.
MODE_HELP = {
    "snow_leopard": (gettext_noop("Snow leopard: pick a hiker."),
                     gettext_noop("Snow leopard: now pick a neighbouring hiker of the other colour."),
                     gettext_noop("Snow leopard: swap these two hikers?")),
    "tahr": (gettext_noop("Tahr: pick a hiker."), gettext_noop("Tahr: now pick a neighbouring animal."),
             gettext_noop("Tahr: swap the hiker and the animal?")),
    "musk_deer": (gettext_noop("Musk deer: pick an animal."),
                  gettext_noop("Musk deer: now pick an animal of another species, anywhere."),
                  gettext_noop("Musk deer: swap these two animals?")),
    "yak": (gettext_noop("Yak: pick a region for the guide."), "", ""),
}


# A chart spot's control (Claim …) and its description, per row.
CLAIM_SPOT = {"camps": gettext_noop("Claim the %(points)s-point camps spot (%(n)s needed)"),
              "different": gettext_noop("Claim the %(points)s-point different-animals spot (%(n)s needed)"),
              "same": gettext_noop("Claim the %(points)s-point same-animals spot (%(n)s needed)")}
SPOT = {"camps": gettext_noop("%(points)s-point camps spot, %(n)s needed"),
        "different": gettext_noop("%(points)s-point different-animals spot, %(n)s needed"),
        "same": gettext_noop("%(points)s-point same-animals spot, %(n)s needed")}


def _claim_text(row: str, points: int, need: int) -> str:
    """The current claim's instruction (`Claim the 4-point camps spot: choose 3 …`)."""
    values = {"points": points, "n": need}
    if row == "camps":
        return ngettext("Claim the %(points)s-point camps spot: choose %(n)s connected hiker to turn into a camp.",
                        "Claim the %(points)s-point camps spot: choose %(n)s connected hikers to turn into camps.",
                        need) % values
    if row == "different":
        return ngettext("Claim the %(points)s-point different spot: choose %(n)s animal of different species.",
                        "Claim the %(points)s-point different spot: choose %(n)s animals of different species.",
                        need) % values
    return ngettext("Claim the %(points)s-point same spot: choose %(n)s animal of one species.",
                    "Claim the %(points)s-point same spot: choose %(n)s animals of one species.", need) % values


def _score_labels() -> dict[str, str]:
    """What a score was for, as it reads after "scored 3 for …"."""
    return {"camps": pgettext("nanga parbat scored for", "camps"),
            "different": pgettext("nanga parbat scored for", "a trade of different animals"),
            "same": pgettext("nanga parbat scored for", "a trade of matching animals"),
            "red_panda": pgettext("nanga parbat scored for", "the red panda"),
            "area": pgettext("nanga parbat scored for", "area scoring")}


def _ended_by(reasons: list[str], log: bool = False) -> str:
    """Why the game ended, in words: the board's banner, or (`log`) the history's line."""
    if log:
        words = {"hikers": _("all hikers are placed"), "cubes": _("all cubes are used")}
    else:
        words = {"hikers": _("all hikers are on the mountain"), "cubes": _("all cubes are on the chart")}
    said = [words.get(e, e) for e in reasons]
    if len(said) == 2:
        return _("%(first)s and %(second)s") % {"first": said[0], "second": said[1]}
    return " and ".join(said)


def picks(action: dict) -> list[str] | list[list[str]]:
    """How a legal action is spelled as `?sel=` picks (games/selection.py). A swap by the
    snow leopard or the musk deer may be picked in either order; a claim's items are
    gathered in the extra `i` (any order) and named as one sorted pick `x`."""
    kind = action["type"]
    if kind == "activate":
        species = action["animal"]
        if species == "yak":
            return [f"a:{species}", f"r:{action['region']}"]
        a, b = action["a"], action["b"]
        if species in SYMMETRIC:
            return [[f"a:{species}", f"s:{a}", f"s:{b}"], [f"a:{species}", f"s:{b}", f"s:{a}"]]
        return [f"a:{species}", f"s:{a}", f"s:{b}"]
    if kind == "claim":
        items = action["sections"] if action["row"] == "camps" else action["animals"]
        return [f"c:{action['row']}-{action['col']}", "x:" + ",".join(map(str, items))]
    if kind == "trap":
        return [f"t:{action['section']}"]
    if kind in ("place_guide", "relocate_guide"):
        return [f"g:{action['region']}"]
    return ["end"]


def _is_index_list(value: str) -> bool:
    return all(part.isdigit() for part in value.split(","))


def _ints(text: str | None) -> list[int]:
    return [int(t) for t in (text or "").split(",") if t.isdigit()]


def parse_selection(raw: str, legal: list[dict]) -> dict:
    """The current mode from `?sel=`, cut back to what the legal actions allow (else no mode)."""
    sel = selection.select(raw, legal, picks, extras={"i": _is_index_list})
    if not sel.picks:
        return {}
    kind, value = selection.key_of(sel.picks[0]), selection.value_of(sel.picks[0]) or ""
    if kind == "a":
        return _activation_mode(value, sel, legal)
    if kind == "c":
        return _claim_mode(value, sel, legal)
    return {}   # a trap, the guide or end_turn: one click, never a half-made move


def _activation_mode(species: str, sel: selection.Selection, legal: list[dict]) -> dict:
    acts = [a for a in legal if a["type"] == "activate" and a["animal"] == species]
    chosen = [int(selection.value_of(p) or 0) for p in sel.picks[1:]]
    return {"kind": "activate", "species": species, "picks": chosen, "acts": acts, "raw": sel.raw}


def _claim_mode(spot: str, sel: selection.Selection, legal: list[dict]) -> dict:
    row, _sep, col_text = spot.rpartition("-")
    col = int(col_text)
    key = "sections" if row == "camps" else "animals"
    sets = [tuple(a[key]) for a in legal if a["type"] == "claim" and a["row"] == row and a["col"] == col]
    chosen = sorted(set(_ints(sel.extra("i"))))
    if chosen and not any(set(chosen) <= set(s) for s in sets):
        chosen = []
    raw = _sel_claim(row, col, chosen)
    return {"kind": "claim", "row": row, "col": col, "key": key, "sets": sets, "picks": chosen, "raw": raw}


def _sel_activate(species: str, chosen: list[int]) -> str:
    key = "r" if species == "yak" else "s"
    return selection.encode([f"a:{species}"] + [f"{key}:{p}" for p in chosen])


def _sel_claim(row: str, col: int, chosen) -> str:
    items = sorted(chosen)
    return selection.encode(([f"i:{','.join(map(str, items))}"] if items else []) + [f"c:{row}-{col}"])


def _square(sid: int, layout: dict) -> tuple[float, float]:
    cell = layout[str(sid)]
    return MX + (cell["x"] + 4) * S, MY + cell["row"] * S


def _region_outline(apex: dict) -> str:
    return _outline_of_region(apex["row"], apex["x"])


@lru_cache(maxsize=64)
def _outline_of_region(r, x) -> str:
    pts = [(x - .5, r), (x + .5, r), (x + .5, r + 1), (x + 1, r + 1), (x + 1, r + 2), (x + 1.5, r + 2),
           (x + 1.5, r + 3), (x - 1.5, r + 3), (x - 1.5, r + 2), (x - 1, r + 2), (x - 1, r + 1), (x - .5, r + 1)]
    return " ".join(f"{MX + (px + 4.5) * S:.1f},{MY + py * S:.1f}" for px, py in pts)


def mountain_view(sections: list[dict], guide: int | None) -> str:
    """Which window a phone opens the mountain on: the one with most of the current
    targets (picked ones count double); with none, the whole mountain."""
    weight: dict[int, int] = {}
    for s in sections:
        if s["act"] or s["get"]:
            weight[s["region"]] = weight.get(s["region"], 0) + (2 if s["picked"] else 1)
    if not weight:
        return "whole"
    scores = {name: sum(weight.get(r, 0) for r in v["regions"]) + (0.5 if guide in v["regions"] else 0)
              for name, v in MOUNTAIN_VIEWS.items() if name != "whole"}
    return max(scores, key=lambda name: scores[name])


@lru_cache(maxsize=128)
def _path_cell(i: int) -> tuple[float, float]:
    """Space i of the 50-space loop: 16 along the top, 9 down, 16 back, 9 up."""
    if i < 16:
        c, r = i, 0
    elif i < 25:
        c, r = 15, i - 15
    elif i < 41:
        c, r = 40 - i, 10
    else:
        c, r = 0, 50 - i
    return PATH_X + c * CELL, PATH_Y + r * CELL


def _marks(names: list[str]) -> list[str]:
    """A letter per seat (initials when they differ, else 1 and 2), so colour is never the only cue."""
    initials = [(n or "?")[0].upper() for n in names[:2]]
    if len(initials) == 2 and initials[0] != initials[1] and all(i.isalnum() for i in initials):
        return initials
    return ["1", "2"]


# --- what every builder reads ------------------------------------------------------------------

@dataclass
class Legal:
    """The seat's legal actions, indexed by what the board draws them on."""
    traps: dict[int, dict] = field(default_factory=dict)          # section -> trap action
    region_acts: dict[int, dict] = field(default_factory=dict)    # region -> place/relocate guide
    activatable: list[str] = field(default_factory=list)          # species with a legal activation
    claimable: set[tuple[str, int]] = field(default_factory=set)  # (row, col) spots
    end_turn: dict | None = None

    @classmethod
    def of(cls, legal: list[dict]) -> Legal:
        return cls(traps={a["section"]: a for a in legal if a["type"] == "trap"},
                   region_acts={a["region"]: a for a in legal if a["type"] in ("place_guide", "relocate_guide")},
                   activatable=sorted({a["animal"] for a in legal if a["type"] == "activate"}),
                   claimable={(a["row"], a["col"]) for a in legal if a["type"] == "claim"},
                   end_turn=next((a for a in legal if a["type"] == "end_turn"), None))


@dataclass
class Targets:
    """What the current multi-step choice (the `?sel=` mode) highlights, and its Confirm."""
    sections: dict[int, str] = field(default_factory=dict)   # section -> selection to go to
    regions: dict[int, str] = field(default_factory=dict)
    animals: dict[int, str] = field(default_factory=dict)    # own animal index -> selection
    picked_sections: set[int] = field(default_factory=set)
    picked_animals: set[int] = field(default_factory=set)
    picked_region: int | None = None
    confirm: dict | None = None
    preview: tuple[int, int] | None = None                   # a swap drawn as if done
    text: str = ""
    counter: str = ""


@dataclass
class Inputs:
    """The panel, read once: who looks, in which colours, and what they may do."""
    view: dict
    seat: int | None
    legal: list[dict]
    names: list[str]
    colours: list[str]
    marks: list[str]
    mode: dict
    actions: Legal
    targets: Targets

    @property
    def in_mode(self) -> bool:
        return bool(self.mode)


def read_panel(panel: dict) -> Inputs:
    view = panel["view"]
    legal = panel.get("legal") or []
    names = list(panel.get("names") or [_("Seat %(n)s") % {"n": 1}, _("Seat %(n)s") % {"n": 2}])
    while len(names) < 2:
        names.append(_("Seat %(n)s") % {"n": len(names) + 1})
    mode = parse_selection(panel.get("selection") or "", legal) if legal else {}
    return Inputs(view=view, seat=panel.get("seat"), legal=legal, names=names,
                  colours=[SEAT_HEX.get(c, c) for c in view["seat_colours"]], marks=_marks(names),
                  mode=mode, actions=Legal.of(legal), targets=mode_targets(mode, view["chart_info"]))


# --- the current choice ------------------------------------------------------------------------

def mode_targets(mode: dict, chart_info: dict) -> Targets:
    if mode.get("kind") == "activate":
        if mode["species"] == "yak":
            return _yak_targets(mode["acts"], mode["picks"])
        return _swap_targets(mode["species"], [(a["a"], a["b"]) for a in mode["acts"]], mode["picks"])
    if mode.get("kind") == "claim":
        return _claim_targets(mode, chart_info)
    return Targets()


def _yak_targets(acts: list[dict], picks: list[int]) -> Targets:
    t = Targets(regions={a["region"]: _sel_activate("yak", [a["region"]]) for a in acts})
    if picks:
        t.picked_region = picks[0]
        t.confirm = {"type": "activate", "animal": "yak", "region": picks[0]}
        t.text = _("Yak: send the guide to region %(region)s?") % {"region": picks[0]}
    else:
        t.text = _(MODE_HELP["yak"][0])
    return t


def _swap_targets(sp: str, pairs: list[tuple[int, int]], picks: list[int]) -> Targets:
    """Snow leopard, tahr and musk deer: pick two sections, then confirm the swap."""
    first, second, done = MODE_HELP[sp]
    t = Targets(picked_sections=set(picks))
    if len(picks) == 2:
        a, b = (min(picks), max(picks)) if sp in SYMMETRIC else (picks[0], picks[1])
        t.confirm = {"type": "activate", "animal": sp, "a": a, "b": b}
        t.preview = (a, b)
        t.text = _(done)
        t.sections = {p: _sel_activate(sp, [q for q in picks if q != p]) for p in picks}
    elif len(picks) == 1:
        p = picks[0]
        partners = {b for a, b in pairs if a == p}
        if sp in SYMMETRIC:
            partners |= {a for a, b in pairs if b == p}
        t.sections = {q: _sel_activate(sp, [p, q]) for q in partners}
        t.sections[p] = _sel_activate(sp, [])
        t.text = _(second)
    else:
        starts = {a for a, _b in pairs} | ({b for _a, b in pairs} if sp in SYMMETRIC else set())
        t.sections = {q: _sel_activate(sp, [q]) for q in starts}
        t.text = _(first)
    return t


def _claim_targets(mode: dict, chart_info: dict) -> Targets:
    row, col, picks, sets = mode["row"], mode["col"], mode["picks"], mode["sets"]
    need = chart_info["need"][col]
    chosen = set(picks)
    fitting = [s for s in sets if chosen <= set(s)]
    options = set().union(*map(set, fitting)) - chosen if fitting else set()
    choices = {item: _sel_claim(row, col, chosen | {item}) for item in options}
    choices.update({item: _sel_claim(row, col, chosen - {item}) for item in picks})
    t = Targets(counter=_("%(picked)s / %(needed)s chosen") % {"picked": len(picks), "needed": need})
    if row == "camps":
        t.sections, t.picked_sections = choices, chosen
    else:
        t.animals, t.picked_animals = choices, chosen
    if tuple(picks) in sets:
        t.confirm = {"type": "claim", "row": row, "col": col, mode["key"]: list(picks)}
    t.text = _claim_text(row, chart_info["value"][row][col], need)
    return t


# --- the mountain ------------------------------------------------------------------------------

def mountain(inp: Inputs) -> dict:
    view = inp.view
    layout = view["geometry"]["layout"]
    board = view["board"]       # read only: a preview swaps two entries of a copy
    if inp.targets.preview:
        board = dict(board)
        a, b = (str(p) for p in inp.targets.preview)
        board[a], board[b] = board[b], board[a]
    last = set() if inp.in_mode else last_turn_sections(view.get("events") or [])
    words = _SquareWords(inp)
    sections = [section_square(inp, int(key), layout[key], board[key], int(key) in last, words)
                for key in view["geometry"]["sections"]]
    centres = {s["sid"]: (s["x"] + S / 2, s["y"] + S / 2) for s in sections}
    return {"sections": sections, "regions": region_flags(inp),
            "rocks": [{"points": _rock_outline(_square(tri[0], layout))}
                      for tri in view["geometry"]["dotted_triangles"]],
            "dotted": [{"x1": centres[a][0], "y1": centres[a][1], "x2": centres[b][0], "y2": centres[b][1]}
                       for a, b in view["geometry"]["dotted_edges"]]}


class _SquareWords:
    """The texts every square of one render shares, translated once (not 36 times): the
    tooltip's and name's formats, and each piece's label."""

    def __init__(self, inp: Inputs):
        self.title = _("Region %(region)s, section %(num)s (%(section)s): %(label)s")
        self.name = _("Section %(section)s: %(label)s")
        guide = inp.view.get("guide")
        self.guide = "; " + _("the guide is in region %(region)s") % {"region": guide} if guide is not None else ""
        self._inp = inp
        self._labels: dict[tuple[str, Any], str] = {}

    def label(self, piece: dict) -> str:
        """'hiker of Ann', 'camp of Ann' or the species' name."""
        kind = piece["piece"]
        key = (kind, piece["species"] if kind == "animal" else piece["seat"])
        text = self._labels.get(key)
        if text is None:
            if kind == "animal":
                text = SPECIES_NAMES[piece["species"]]
            else:
                text = (_("hiker of %(name)s") if kind == "hiker" else _("camp of %(name)s")) % {
                    "name": self._inp.names[piece["seat"]]}
            self._labels[key] = text
        return text


def section_square(inp: Inputs, sid: int, cell: dict, piece: dict, last: bool,
                   words: _SquareWords | None = None) -> dict:
    """One square of the mountain: its piece, its tooltip and what clicking it does."""
    words = words or _SquareWords(inp)
    reg, kind = cell["region"], piece["piece"]
    x, y = MX + (cell["x"] + 4) * S, MY + cell["row"] * S
    label = words.label(piece)
    item = {"sid": sid, "region": reg, "num": cell["num"], "x": x, "y": y, "cx": x + S / 2, "cy": y + S / 2 + 3,
            "fill": REGION_TINT[reg], "line": REGION_LINE[reg], "piece": kind,
            "classes": [], "act": None, "get": None}
    if kind == "animal":
        item["species"] = piece["species"]
    else:
        owner = piece["seat"]
        item["owner"], item["colour"], item["mark"] = owner, inp.colours[owner], inp.marks[owner]
    item["label"] = label
    title = words.title % {"region": reg, "num": cell["num"], "section": sid, "label": label}
    # the flag and guide token let clicks through to the squares, so say it here too
    item["title"] = title + words.guide if reg == inp.view.get("guide") else title
    item["name"] = words.name % {"section": sid, "label": label}
    if inp.in_mode:
        _section_in_mode(item, inp.targets)
    else:
        _section_action(item, inp.actions)
    classes = item["classes"]
    if last and not classes:
        classes.append("last")
    # A picked piece also gets a check badge, so "chosen" never rests on colour alone.
    item["picked"] = "picked" in classes or "picked-region" in classes
    item["cls"] = " ".join(classes)
    return item


def _section_action(item: dict, actions: Legal) -> None:
    sid, reg = item["sid"], item["region"]
    if sid in actions.traps:
        item.update(act=actions.traps[sid], name=_("Trap the %(animal)s in section %(section)s")
                    % {"animal": item["label"], "section": sid})
        item["classes"].append("legal")
        item["title"] += " — " + _("click to trap")
    elif reg in actions.region_acts:
        act = actions.region_acts[reg]
        values = {"region": reg, "section": sid, "label": item["label"]}
        name = (_("Place the guide in region %(region)s (section %(section)s: %(label)s)")
                if act["type"] == "place_guide"
                else _("Move the guide in region %(region)s (section %(section)s: %(label)s)")) % values
        item.update(act=act, name=name)
        item["classes"].append("legal-region")
        item["title"] += " — " + _("click to put the guide in region %(region)s") % {"region": reg}


def _section_in_mode(item: dict, t: Targets) -> None:
    sid, reg = item["sid"], item["region"]
    if sid in t.sections:
        item["get"] = t.sections[sid]
        picked = sid in t.picked_sections
        item["classes"].append("picked" if picked else "legal")
        item["name"] = (_("Unpick the %(label)s in section %(section)s") if picked
                        else _("Pick the %(label)s in section %(section)s")) % {"label": item["label"], "section": sid}
    elif reg in t.regions:
        item["get"] = t.regions[reg]
        picked = reg == t.picked_region
        item["classes"].append("picked-region" if picked else "legal-region")
        item["name"] = (_("Region %(region)s is picked for the guide (section %(section)s)") if picked
                        else _("Send the guide to region %(region)s (section %(section)s)")) % {
                            "region": reg, "section": sid}
    if t.preview and sid in t.preview:
        item["classes"].append("preview")


def region_flags(inp: Inputs) -> list[dict]:
    view, t = inp.view, inp.targets
    layout = view["geometry"]["layout"]
    out = []
    for key, info in view["geometry"]["regions"].items():
        reg = int(key)
        fx, fy = _square(info["flag_section"], layout)
        glow = (not inp.in_mode and reg in inp.actions.region_acts) or reg in t.regions
        out.append({"region": reg, "outline": _region_outline(info["apex"]), "line": REGION_LINE[reg],
                    "flag_x": fx + 7, "flag_y": fy + 5, "guide": view.get("guide") == reg,
                    "guide_x": fx + S - 12, "guide_y": fy + 12, "animals": view["region_animals"][key],
                    "cls": "picked" if reg == t.picked_region else ("legal" if glow else "")})
    return out


@lru_cache(maxsize=64)
def _rock_outline(top: tuple[float, float]) -> str:
    """The rock in an inverted gap between regions, below the square at `top`."""
    tx, ty = top
    pts = [(tx - S / 2, ty + S), (tx + 3 * S / 2, ty + S), (tx + 3 * S / 2, ty + 2 * S), (tx + S, ty + 2 * S),
           (tx + S, ty + 3 * S), (tx, ty + 3 * S), (tx, ty + 2 * S), (tx - S / 2, ty + 2 * S)]
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)


# --- the points chart ---------------------------------------------------------------------------

def points_chart(inp: Inputs) -> dict:
    info = inp.view["chart_info"]
    rows = []
    for r, row in enumerate(info["rows"]):
        y = CHART_Y + 22 + r * SPOT_DY
        rows.append({"key": row, "y": y, "title": ROW_TITLES[row],
                     "spots": [chart_spot(inp, row, col, y) for col in range(5)]})
    return {"chart_rows": rows,
            "need_marks": [{"x": CHART_X + c * SPOT_DX + SPOT_W / 2, "need": n} for c, n in enumerate(info["need"])],
            "chart_x": CHART_X, "chart_y": CHART_Y, "chart_bottom": CHART_Y + 22 + 3 * SPOT_DY,
            "spot_w": SPOT_W, "spot_h": SPOT_H}


def chart_spot(inp: Inputs, row: str, col: int, y: float) -> dict:
    info, mode = inp.view["chart_info"], inp.mode
    owner = inp.view["chart"][row][col]
    spot = {"col": col, "x": CHART_X + col * SPOT_DX, "y": y, "value": info["value"][row][col], "owner": owner,
            "need": info["need"][col], "cls": "", "get": None}
    if owner is not None:
        spot.update(colour=inp.colours[owner], mark=inp.marks[owner], owner_name=inp.names[owner])
    if mode.get("kind") == "claim" and (mode["row"], mode["col"]) == (row, col):
        spot["cls"] = "picked"
    elif (row, col) in inp.actions.claimable and not inp.in_mode:
        spot.update(get=_sel_claim(row, col, []), cls="legal")
    values = {"points": spot["value"], "n": info["need"][col]}
    claimed_by = _("claimed by %(name)s") % {"name": inp.names[owner]} if owner is not None else ""
    if spot["get"]:
        spot["name"] = _(CLAIM_SPOT[row]) % values
    else:
        spot["name"] = ", ".join([_(SPOT[row]) % values] + ([claimed_by] if claimed_by else [])
                                 + ([_("being claimed")] if spot["cls"] == "picked" else []))
    spot["title"] = "; ".join([ROW_TITLES[row] + " — " + ngettext("%(n)s needed, %(points)s point",
                                                                   "%(n)s needed, %(points)s points",
                                                                   spot["value"]) % values]
                              + ([claimed_by] if claimed_by else [])
                              + ([_("click to claim")] if spot["get"] else []))
    return spot


# --- the scoring path and the player cards ------------------------------------------------------

def scoring_path(inp: Inputs) -> dict:
    view = inp.view
    path = [{"i": i, "x": _path_cell(i)[0], "y": _path_cell(i)[1], "five": i % 5 == 0}
            for i in range(view["path_spaces"])]
    markers = []
    for s in (0, 1):
        summary = view["seat_summary"][s]
        px, py = _path_cell(summary["path_space"])
        dx = 4 if s == 0 else CELL - 15
        my = py + dx
        markers.append({"seat": s, "x": px + dx, "y": my, "tx": px + dx + 5.5, "ty": my + 6,
                        "colour": inp.colours[s], "mark": inp.marks[s], "laps": summary["laps"],
                        "score": view["seats"][s]["score"], "name": inp.names[s]})
    return {"path": path, "markers": markers, "path_x": PATH_X, "path_y": PATH_Y, "cell": CELL}


def _breakdown(scores: dict) -> list[tuple[str, int]]:
    labels = _breakdown_labels()
    return [(labels.get(k, k), v) for k, v in scores["breakdown"].items()]


def player_cards(inp: Inputs) -> list[dict]:
    view = inp.view
    to_act = view.get("to_act") or []
    cards = []
    for s in (0, 1):
        st, summary = view["seats"][s], view["seat_summary"][s]
        breakdown = _breakdown(view["scores"][s])
        cards.append({
            "seat": s, "name": inp.names[s], "colour": inp.colours[s], "mark": inp.marks[s],
            "hikers": st["hikers"], "camps": st["camps"], "cubes": st["cubes"], "score": st["score"],
            "on_mountain": summary["hikers_on_mountain"], "camps_on": summary["camps_on_mountain"],
            "spots": summary["spots_claimed"], "breakdown": breakdown,
            "breakdown_text": ", ".join(f"{k} {v}" for k, v in breakdown),
            "breakdown_lines": [" · ".join(f"{k} {v}" for k, v in breakdown[:3]),
                                " · ".join(f"{k} {v}" for k, v in breakdown[3:])],
            "to_act": s in to_act, "first": view.get("first_player") == s, "you": inp.seat == s,
        })
    return cards


# --- the animal boards: the viewer's own nearest (bottom), the opponent's beyond -----------------

def animal_boards(inp: Inputs) -> list[dict]:
    near = inp.seat if inp.seat in (0, 1) else 0
    boards = []
    for s in (1 - near, near):
        st = inp.view["seats"][s]
        cols = [species_column(inp, s, sp) for sp in inp.view["species"]]
        boards.append({"seat": s, "name": inp.names[s], "colour": inp.colours[s], "mark": inp.marks[s],
                       "cols": cols, "own": s == inp.seat, "held": len(st["animals"]),
                       "traded": len(st["traded"])})
    return boards


def species_column(inp: Inputs, seat: int, sp: dict) -> dict:
    key = sp["key"]
    ready: list[dict] = []
    used: list[dict] = []
    for idx, animal in enumerate(inp.view["seats"][seat]["animals"]):
        if animal["species"] == key:
            token = animal_token(inp, seat, sp, idx, animal["activated"])
            (used if animal["activated"] else ready).append(token)
    # One "picked" token is enough to show the species in use.
    picked = [t for t in ready if t["cls"] == "picked"]
    for t in picked[1:]:
        t["cls"] = ""
    return {"key": key, "name": SPECIES_NAMES[key], "letter": sp["letter"], "power": SPECIES_POWERS[key],
            "kind": sp["kind"], "ready": ready, "used": used,
            "traded": inp.view["seat_summary"][seat]["animal_board"][key]["traded"]}


def animal_token(inp: Inputs, seat: int, sp: dict, idx: int, activated: bool) -> dict:
    key, mode, t = sp["key"], inp.mode, inp.targets
    name, power = SPECIES_NAMES[key], SPECIES_POWERS[key]
    values = {"animal": name[:1].upper() + name[1:], "name": inp.names[seat]}
    if activated:
        title = _("%(animal)s of %(name)s (power used)") % values
    elif sp["kind"] == "activated":
        title = _("%(animal)s of %(name)s (ready)") % values
    else:
        title = _("%(animal)s of %(name)s") % values
    token = {"index": idx, "species": key, "activated": activated, "get": None, "cls": "", "title": title}
    token["name"] = token["title"]
    if seat != inp.seat or not inp.legal:
        return token
    if mode.get("kind") == "claim" and mode["row"] != "camps":
        if idx in t.animals:
            chosen = idx in t.picked_animals
            token.update(get=t.animals[idx], cls="picked" if chosen else "legal")
            token["title"] += " — " + (_("click to drop from the trade") if chosen else _("click to add to the trade"))
            token["name"] = (_("Drop your %(animal)s from the trade") if chosen
                             else _("Add your %(animal)s to the trade")) % {"animal": name}
    elif key in inp.actions.activatable and not activated and not inp.in_mode:
        token.update(get=_sel_activate(key, []), cls="legal")
        token["title"] += " — " + _("click to use: %(power)s") % {"power": power}
        token["name"] = _("Use your %(animal)s: %(power)s") % {"animal": name, "power": power}
    elif mode.get("kind") == "activate" and mode["species"] == key and not activated:
        token["cls"] = "picked"
    return token


# --- the controls, the status and the end of the game --------------------------------------------

def controls(inp: Inputs) -> dict:
    view, t, actions = inp.view, inp.targets, inp.actions
    return {"status": _status(view, inp.seat, inp.names), "mine": bool(inp.legal), "phase": view["phase"],
            "in_mode": inp.in_mode, "mode": inp.mode.get("kind", ""), "mode_text": t.text, "counter": t.counter,
            "confirm": t.confirm, "end_turn": actions.end_turn if not inp.in_mode else None,
            "has_end_turn": actions.end_turn is not None, "guide": view.get("guide"), "turn": view.get("turn"),
            "area_scoring": bool(view.get("options", {}).get("area_scoring")),
            "activatable": actions.activatable, "claimable": len(actions.claimable),
            "summary_hint": _hint(inp.legal, inp.in_mode, actions.traps, actions.region_acts,
                                  actions.activatable, actions.claimable),
            "events": score_pills(view.get("events") or [], inp.names)}


def end_summary(inp: Inputs) -> dict | None:
    view = inp.view
    if view["phase"] != "over":
        return None
    result, winner, scores = view.get("result") or {}, view.get("winner"), view["scores"]
    labels = _breakdown_labels()
    area = [dict(a, name=inp.names[a["seat"]]) for a in result.get("area", [])]
    return {"winner": inp.names[winner] if winner is not None else None,
            "ended_by": _ended_by(result.get("ended_by", [])),
            "rows": [{"name": inp.names[s], "colour": inp.colours[s], "mark": inp.marks[s],
                      "breakdown": _breakdown(scores[s]), "total": scores[s]["total"]} for s in (0, 1)],
            "labels": [labels.get(k, k) for k in scores[0]["breakdown"]],
            "area": area, "area_text": "; ".join(_area_award(a) for a in area)}


def _area_award(award: dict) -> str:
    """One region's award of the area-scoring variant, as the end banner lists it."""
    values = {"region": award["region"], "name": award["name"], "points": award["points"], "n": award["pieces"]}
    if award["bump"]:
        return ngettext("region %(region)s: %(name)s +%(points)s (%(n)s piece) and a bump +1",
                        "region %(region)s: %(name)s +%(points)s (%(n)s pieces) and a bump +1",
                        award["pieces"]) % values
    return ngettext("region %(region)s: %(name)s +%(points)s (%(n)s piece)",
                    "region %(region)s: %(name)s +%(points)s (%(n)s pieces)", award["pieces"]) % values


def board_context(panel: dict) -> dict:
    inp = read_panel(panel)
    board: dict[str, Any] = {"S": S, "mountain_size": MOUNTAIN, "chart_w": CHART_W, "chart_h": CHART_H,
             "path_w": PATH_W, "path_h": PATH_H,
             "colours": inp.colours, "marks": inp.marks, "species_hex": SPECIES_HEX,
             "replay": bool(panel.get("replay")), "end": end_summary(inp),
             "players": player_cards(inp), "boards": animal_boards(inp)}
    for area in (mountain(inp), points_chart(inp), scoring_path(inp), controls(inp)):
        board.update(area)
    board["selection"] = inp.mode.get("raw", "")
    board["view"] = mountain_view(board["sections"], inp.view.get("guide"))
    board["views"] = [{"key": k, "label": _(v["label"]), "checked": k == board["view"]}
                      for k, v in MOUNTAIN_VIEWS.items()]
    if panel.get("game") is not None:     # none for a context built alone (the presenter's tests)
        hx = _Hx(panel)   # one URL pair and one hx-vals per action for the whole board
        board["mountain_svg"] = mountain_svg(board, panel, hx)
        board["chart_svg"], board["path_svg"] = chart_svg(board, panel, hx), path_svg(board)
        board["players_html"], board["boards_html"] = players_html(board), animal_boards_html(board, panel, hx)
    return {"board": board}


# --- events: last turn's squares, the score pills, and words for the history ---------------------

def last_move_events(events: list[dict]) -> list[dict]:
    """The events of the latest action (they share its `move` number)."""
    if not events:
        return []
    move = events[-1].get("move")
    return [e for e in events if e.get("move") == move]


def score_pills(events: list[dict], names: list[str]) -> list[str]:
    """A pill for each score the latest action made (a red panda, a chart spot, area scoring)."""
    pills = []
    for ev in last_move_events(events):
        if ev["type"] == "score":
            what = {"red_panda": pgettext("nanga parbat pill", "Red panda"),
                    "area": pgettext("nanga parbat pill", "Area scoring")}.get(
                        ev["category"], pgettext("nanga parbat pill", "Chart spot"))
            pill = _("%(name)s — %(what)s: +%(points)s") % {"name": _name(ev["seat"], names), "what": what,
                                                             "points": ev["points"]}
            pills.append(pill + (" · " + _("Bump! +1") if ev.get("bump") else ""))
    return pills


def _touched(event: dict) -> list[int]:
    if event["type"] == "trap":
        return [event["section"]]
    if event["type"] == "activate" and "a" in event:
        return [event["a"], event["b"]]
    if event["type"] == "claim":
        return list(event.get("sections", []))
    return []


def last_turn_sections(events: list[dict]) -> set[int]:
    """Sections touched by the latest turn with a trap (the one in progress, else the one
    before): the trap, swaps and new camps."""
    trap_turns = [e["turn"] for e in events if e["type"] == "trap"]
    if not trap_turns:
        return set()
    turn = trap_turns[-1]
    return {sid for e in events if e["turn"] == turn for sid in _touched(e)}


def _name(seat: int | None, names: list[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("Seat %(n)s") % {"n": seat + 1} if isinstance(seat, int) else _("Someone")


def _spot(row: str, col: int) -> str:
    """A chart spot as the history names it, by its row's label on the chart ("camps/3")."""
    words = {"camps": pgettext("nanga parbat chart row", "camps"),
             "different": pgettext("nanga parbat chart row", "different"),
             "same": pgettext("nanga parbat chart row", "same")}
    return f"{words.get(row, row)}/{col}"


def _describe_claim(ev: dict, who: str) -> str:
    if ev["row"] == "camps":
        n = len(ev["sections"])
        return ngettext("%(name)s built %(n)s camp on section %(sections)s (spot %(spot)s).",
                        "%(name)s built %(n)s camps on sections %(sections)s (spot %(spot)s).", n) % {
            "name": who, "n": n, "sections": ", ".join(map(str, ev["sections"])), "spot": _spot("camps", ev["col"])}
    traded = ", ".join(SPECIES_NAMES.get(s, s) for s in ev.get("species", []))
    return _("%(name)s traded %(animals)s (spot %(spot)s).") % {"name": who, "animals": traded,
                                                               "spot": _spot(ev["row"], ev["col"])}


def _describe_game_over(ev: dict, names: list[str]) -> str:
    values = {"why": _ended_by(ev["ended_by"], log=True), "a": ev["scores"][0], "b": ev["scores"][1]}
    ranks = ev["ranking"]
    if ranks[0] == ranks[1]:
        return _("Game over (%(why)s): a draw at %(a)s to %(b)s.") % values
    return _("Game over (%(why)s): %(name)s wins, %(a)s to %(b)s.") % dict(
        values, name=_name(0 if ranks[0] == 1 else 1, names))


def _describe_score(ev: dict, who: str) -> str:
    values = {"name": who, "points": ev["points"], "total": ev["total"],
              "what": _score_labels().get(ev["category"], ev["category"])}
    if ev.get("bump"):
        return _("%(name)s scored %(points)s for %(what)s — Bump! +1 (now %(total)s).") % values
    return _("%(name)s scored %(points)s for %(what)s (now %(total)s).") % values


def _describe_activate(ev: dict, who: str) -> str:
    if ev["animal"] == "yak":
        return _("%(name)s used a yak to send the guide to region %(region)s.") % {"name": who, "region": ev["region"]}
    return _(SWAPPED[ev["animal"]]) % {"name": who, "a": ev["a"], "b": ev["b"]}


def describe(event: dict, names: list[str]) -> str:
    """One event of the rules (`view["events"]`) in words, with the players' names."""
    kind, who = event.get("type"), _name(event.get("seat"), names)
    simple = {
        "first_player": lambda e: _("%(name)s was drawn to play first; %(other)s places the guide.") % {
            "name": who, "other": _name(1 - e["seat"], names)},
        "place_guide": lambda e: _("%(name)s placed the guide in region %(region)s.") % {
            "name": who, "region": e["region"]},
        "relocate_guide": lambda e: _("%(name)s relocated the guide to region %(region)s.") % {
            "name": who, "region": e["region"]},
        "trap": lambda e: _(TRAPPED[e["species"]]) % {"name": who, "section": e["section"]},
        "guide_follows": lambda e: _("The guide goes to region %(region)s.") % {"region": e["region"]},
        "score": lambda e: _describe_score(e, who),
        "end_turn": lambda e: (_("%(name)s ended turn %(turn)s (nothing else to do).") if e.get("auto")
                               else _("%(name)s ended turn %(turn)s.")) % {"name": who, "turn": e["turn"]},
        "area_scoring": lambda e: _("Area scoring, region by region."),
        "activate": lambda e: _describe_activate(e, who),
        "claim": lambda e: _describe_claim(e, who),
        "game_over": lambda e: _describe_game_over(e, names),
    }
    try:
        if kind in simple:
            return simple[kind](event)
    except (KeyError, TypeError, IndexError, ValueError):
        pass
    # an event this presenter does not know (a newer or a broken record): its key, as data
    return f"{who}: {str(kind or 'something happened').replace('_', ' ')}."


def _hint(legal, in_mode, traps, region_acts, activatable, claimable) -> str:
    if not legal or in_mode:
        return ""
    bits = []
    if traps:
        bits.append(_("click a glowing section to trap its animal"))
    if region_acts:
        bits.append(_("click a glowing region (or its flag) for the guide"))
    if claimable:
        bits.append(_("click a glowing chart spot to claim it"))
    if activatable:
        bits.append(_("click a glowing animal on your board to use its power"))
    return _("Your move: %(steps)s.") % {"steps": "; ".join(bits)} if bits else ""


def _status(view: dict, seat, names: list[str]) -> str:
    phase = view["phase"]
    if phase == "over":
        w = view.get("winner")
        a, b = view["seats"][0]["score"], view["seats"][1]["score"]
        if w is None:
            return _("Game over: a draw.")
        return _("Game over: %(name)s wins, %(a)s to %(b)s.") % {"name": names[w], "a": a, "b": b}
    to_act = view.get("to_act") or []
    if not to_act:
        return ""
    actor = to_act[0]
    mine = actor == seat
    values = {"name": names[actor]}
    if phase == "place_guide":
        return _("Place the guide: choose a region's flag.") if mine else \
            _("%(name)s places the guide on a region's flag.") % values
    if phase == "trap":
        values["region"] = g = view["guide"]
        if view["region_animals"][str(g)] == 0:
            return (_("Region %(region)s is empty: choose a region for the guide.") if mine
                    else _("%(name)s: region %(region)s is empty: choose a region for the guide.")) % values
        return (_("Trap an animal in region %(region)s.") if mine
                else _("%(name)s: trap an animal in region %(region)s.")) % values
    return _("Claim a spot, activate animals or end your turn.") if mine else \
        _("%(name)s may claim a spot or activate animals, then ends the turn.") % values


# --- "how to play": small diagrams drawn by the board's own builders ------------------------------

HOW_NAMES = ["Ama", "Ben"]
# viewBoxes of the mountain's windows (the phone's), in the mountain's own units
WINDOW_BOXES = {"top": f"{1.5 * S:g} 0 {6 * S} {6 * S}", "left": f"0 {3 * S} {6 * S} {6 * S}",
                "right": f"{3 * S} {3 * S} {6 * S} {6 * S}", "whole": f"0 0 {MOUNTAIN} {MOUNTAIN}"}


def _drawn(state: dict) -> dict:
    """The board as a spectator sees `state` (no controls), for a diagram."""
    from .rules import RULES

    return board_context({"view": RULES.view(state, None), "legal": [], "names": HOW_NAMES, "seat": None})["board"]


def _example_positions() -> dict[str, dict]:
    """Setup, then a few turns played by the rules, then hand-made positions for a claim,
    the scoring path and the area-scoring variant."""
    from .rules import RULES

    start = RULES.setup(2, {}, 2021)
    second = RULES.to_act(start)[0]
    placed = RULES.apply(start, second, {"type": "place_guide", "region": 2})
    first = RULES.to_act(placed)[0]
    trapped = RULES.apply(placed, first, {"type": "trap", "section": 23})
    camps = RULES.setup(2, {}, 2021)
    for sid in (12, 14, 15):
        camps["board"][str(sid)] = {"piece": "camp", "seat": 0}
    camps["board"]["13"] = {"piece": "hiker", "seat": 1}
    camps["chart"]["camps"][3] = 0
    camps["seats"][0].update(score=4, camps=9, cubes=4)
    camps["seats"][0]["breakdown"]["camps"] = 4
    camps["phase"], camps["guide"] = "act", 1
    path = RULES.setup(2, {}, 2021)
    path["seats"][0]["score"], path["seats"][1]["score"] = 18, 57
    area = RULES.setup(2, {"area_scoring": True}, 2021)
    for sid in (51, 52, 54, 55):
        area["board"][str(sid)] = {"piece": "hiker", "seat": 1}
    area["board"]["53"] = {"piece": "camp", "seat": 1}
    area["board"]["56"] = {"piece": "hiker", "seat": 0}
    return {"start": start, "trapped": trapped, "camps": camps, "path": path, "area": area}


def how_to_play_context() -> dict:
    boards = {name: _drawn(state) for name, state in _example_positions().items()}
    species = [dict(info, key=key, name=SPECIES_NAMES[key], power=SPECIES_POWERS[key])
               for key, info in SPECIES_INFO.items()]
    return {"board_style": STYLESHEET, "boards": boards, "windows": WINDOW_BOXES, "species": species}


# --- the mountain as SVG, written here (issue 21) -------------------------------------------------
# 36 squares, each a dozen lookups and escapes in a template loop, were a third of a panel. This
# writes the markup _mountain.html draws (kept for reading and for the how-to-play page): every
# outside text escaped exactly once, numbers as Python prints them (never a decimal comma),
# `|add` coordinates truncated to integers as the filter did.

def _esc(value) -> str:
    return _html_escape(str(value))


class _Hx:
    """A control's hx attributes (_attrs.html): one URL pair per render, one hx-vals per
    action (a region's six squares place the guide with the same action)."""

    def __init__(self, panel: dict):
        from games.panel import action_vals

        self._panel, self._vals = panel, action_vals
        self.act_url, self.panel_url = game_urls(panel["game"].pk)
        self._posts: dict[int, tuple[dict, str]] = {}

    def attrs(self, item: dict) -> str:
        act = item.get("act")
        if act:
            known = self._posts.get(id(act))
            if known is None or known[0] is not act:
                known = self._posts[id(act)] = (act, (
                    f' role="button" tabindex="0" hx-post="{self.act_url}" '
                    f'hx-vals="{_esc(self._vals(self._panel, act))}" hx-target="#live" hx-swap="innerHTML"'))
            return known[1]
        if item.get("get"):
            sel = _esc(_url_quote(str(item["get"]), safe=""))
            return (f' role="button" tabindex="0" hx-get="{self.panel_url}?sel={sel}"'
                    ' hx-target="#live" hx-swap="innerHTML"')
        return ""


class _SquareMarkup(NamedTuple):
    """What a square draws wherever it is and whatever stands on it (its outline, the number)
    and where its piece goes: the same on every render."""
    rect: str
    hiker: str         # up to the fill colour
    camp: str
    check: str
    hiker_mark: str    # up to the letter
    camp_mark: str
    number: str        # the label's tail: the section number and the group's end


@lru_cache(maxsize=256)
def _square_markup(sid, x, y, size, fill: str, line: str) -> _SquareMarkup:
    ix, iy = int(x), int(y)
    return _SquareMarkup(
        rect=(f'<rect class="sq" x="{x}" y="{y}" width="{size}" height="{size}" '
              f'fill="{_esc(fill)}" stroke="{_esc(line)}"/>'),
        hiker=f'<use href="#np-meeple" x="{ix + 9}" y="{iy + 10}" width="43" height="43" fill="',
        camp=f'<use href="#np-tent" x="{ix + 8}" y="{iy + 9}" width="45" height="45" fill="',
        check=f'<use class="np-check" href="#np-check" x="{ix + 2}" y="{iy + 2}" width="16" height="16"/>',
        hiker_mark=f'<text x="{ix + 30}" y="{iy + 35}" class="np-mark">',
        camp_mark=f'<text x="{ix + 30}" y="{iy + 41}" class="np-mark">',
        number=f'<text x="{ix + 56}" y="{iy + 57}" class="np-num">{sid}</text></g>')


@lru_cache(maxsize=1024)
def _animal_use(x, y, species: str) -> str:
    return f'<use href="#np-sp-{_esc(species)}" x="{int(x) + 9}" y="{int(y) + 11}" width="43" height="43"/>'


@lru_cache(maxsize=1024, typed=True)
def _plain(value) -> str:
    """A value every render repeats, escaped once: a number, a key of the rules (a region, a
    piece, a species, a class), a colour, a seat's letter, a translated label. Never a
    player's name nor a text holding one (those vary without bound)."""
    return _esc(value)


def _section_svg(s: dict, size, hx: _Hx, fixed: _SquareMarkup, escaped: dict) -> str:
    piece = s["piece"]
    control = bool(s.get("act") or s.get("get"))
    head = f'<g class="np-sec{" " + _plain(s["cls"]) if s.get("cls") else ""}{" sel-target" if control else ""}"'
    head += f' data-section="{s["sid"]}" data-piece="{_plain(piece)}"'
    if s.get("species"):
        head += f' data-species="{_plain(s["species"])}"'
    if s.get("owner") is not None:
        head += f' data-owner="{_plain(s["owner"])}"'
    head += (f' data-region="{_plain(s["region"])}" data-sel-focus="s{s["sid"]}" aria-label="{_esc(s["name"])}"'
             + (hx.attrs(s) if control else ' role="img"') + ">")
    body = f'<title>{_esc(s["title"])}</title>{fixed.rect}'
    if piece == "animal":
        body += _animal_use(s["x"], s["y"], s["species"])
    else:
        body += (fixed.hiker if piece == "hiker" else fixed.camp) + _escaped(escaped, s["colour"]) + '"/>'
    if s.get("picked"):
        body += fixed.check
    return f"{head}{body}</g>"


def _label_svg(s: dict, fixed: _SquareMarkup, escaped: dict) -> str:
    piece, mark = s["piece"], ""
    if piece == "hiker":
        mark = f'{fixed.hiker_mark}{_escaped(escaped, s["mark"])}</text>'
    elif piece == "camp":
        mark = f'{fixed.camp_mark}{_escaped(escaped, s["mark"])}</text>'
    return f'<g data-region="{_plain(s["region"])}">{mark}{fixed.number}'


def _escaped(seen: dict, value) -> str:
    """`value` escaped, once per render (the two seats' colours and letters repeat)."""
    text = seen.get(value)
    if text is None:
        text = seen[value] = _esc(value)
    return text


def _region_svg(r: dict) -> str:
    region, n = _plain(r["region"]), r["animals"]
    words = {"region": region, "n": n}
    if r["guide"]:
        title = ngettext("Region %(region)s (%(n)s animal left): the guide is here",
                         "Region %(region)s (%(n)s animals left): the guide is here", n) % words
    else:
        title = ngettext("Region %(region)s (%(n)s animal left)", "Region %(region)s (%(n)s animals left)", n) % words
    fx, fy = r["flag_x"], r["flag_y"]
    ifx, ify = int(fx), int(fy)
    flag = f'np-flag{" " + _plain(r["cls"]) if r.get("cls") else ""}'
    out = (f'<polygon class="np-region" data-region="{region}" points="{_plain(r["outline"])}" '
           f'stroke="{_plain(r["line"])}"/><g class="{flag}" data-region="{region}" aria-hidden="true">'
           f'<title>{title}</title>'
           f'<line x1="{fx}" y1="{fy}" x2="{fx}" y2="{ify + 22}" stroke="#4a3b22" stroke-width="2"/>'
           f'<polygon class="pennant" points="{fx},{fy} {ifx + 17},{ify + 5} {fx},{ify + 11}"/>'
           f'<text x="{ifx + 6}" y="{ify + 6}" class="np-flagnum">{region}</text></g>')
    if r["guide"]:
        guide = _("The guide is in region %(region)s") % {"region": region}
        out += (f'<g class="np-guide-token" data-region="{region}" role="img" aria-label="{guide}">'
                f'<title>{guide}</title><use href="#np-guide" x="{int(r["guide_x"]) - 11}" '
                f'y="{int(r["guide_y"]) - 11}" width="22" height="22"/></g>')
    return out


def mountain_svg(board: dict, panel: dict, hx: _Hx | None = None) -> SafeString:
    """The mountain's rocks, dotted paths, squares, labels and regions (_mountain.html)."""
    hx = hx or _Hx(panel)
    size = board["S"]
    out = [f'<polygon points="{_plain(rock["points"])}" fill="url(#np-rock)" stroke="#6b6256" stroke-width="1"/>'
           for rock in board["rocks"]]
    out.extend(f'<line class="np-dots" x1="{d["x1"]}" y1="{d["y1"]}" x2="{d["x2"]}" y2="{d["y2"]}"/>'
               for d in board["dotted"])
    sections = board["sections"]
    fixed = [_square_markup(s["sid"], s["x"], s["y"], size, s["fill"], s["line"]) for s in sections]
    escaped: dict = {}
    out.extend(_section_svg(s, size, hx, f, escaped) for s, f in zip(sections, fixed, strict=True))
    out.append('<g class="np-labels" aria-hidden="true">')
    out.extend(_label_svg(s, f, escaped) for s, f in zip(sections, fixed, strict=True))
    out.append("</g>")
    out.extend(_region_svg(r) for r in board["regions"])
    return mark_safe("".join(out))


def _row_icon(row: dict, spot_h) -> str:
    title = _plain(row["title"])
    key = row["key"]
    if key == "camps":
        icon = '<use href="#np-tent" x="14" y="14" width="30" height="30" fill="#c9b48a"/>'
        word = pgettext("nanga parbat chart row", "camps")
    elif key == "different":
        icon = ('<use href="#np-sp-tahr" x="2" y="18" width="22" height="22"/><use href="#np-sp-yak" x="17" y="18" '
                'width="22" height="22"/><use href="#np-sp-bharal" x="32" y="18" width="22" height="22"/>')
        word = pgettext("nanga parbat chart row", "different")
    else:
        icon = ''.join(f'<use href="#np-sp-red_panda" x="{x}" y="18" width="22" height="22"/>' for x in (2, 17, 32))
        word = pgettext("nanga parbat chart row", "same")
    return (f'<g class="np-row-icon" transform="translate(26,{row["y"]})" role="img" aria-label="{title}">'
            f'<title>{title}</title><rect width="56" height="{spot_h}" rx="6" fill="#f6efe0"/>{icon}'
            f'<text x="28" y="11" class="np-tiny">{_plain(word)}</text></g>')


def _spot_svg(row_key: str, spot: dict, board: dict, hx: _Hx) -> str:
    x, y = spot["x"], spot["y"]
    ix, iy = int(x), int(y)
    owned = spot.get("owner") is not None
    cls = f'np-spot{" " + _plain(spot["cls"]) if spot.get("cls") else ""}{" owned" if owned else ""}'
    cls += " sel-target" if spot.get("get") else ""
    out = (f'<g class="{cls}" data-row="{_plain(row_key)}" data-col="{_plain(spot["col"])}" '
           f'data-sel-focus="c{_plain(row_key)}{_plain(spot["col"])}" aria-label="{_esc(spot["name"])}"'
           + (hx.attrs(spot) if spot.get("get") else ' role="img"') + ">"
           f'<title>{_esc(spot["title"])}</title>'
           f'<rect class="hl" x="{x}" y="{y}" width="{board["spot_w"]}" height="{board["spot_h"]}" rx="7"/>'
           f'<text x="{ix + 32}" y="{iy + 23}" class="np-pts" aria-hidden="true">{_plain(spot["value"])}</text>')
    if spot.get("cls") == "picked":
        out += f'<use class="np-check" href="#np-check" x="{ix + 2}" y="{iy + 2}" width="16" height="16"/>'
    if owned:
        out += (f'<g class="np-cube" aria-hidden="true"><rect x="{ix + 20}" y="{iy + 32}" width="24" height="24" '
                f'rx="3" fill="{_plain(spot["colour"])}" stroke="#222" stroke-width="1.5"/>'
                f'<text x="{ix + 32}" y="{iy + 44}" class="np-mark">{_plain(spot["mark"])}</text></g>')
    return out + "</g>"


def chart_svg(board: dict, panel: dict, hx: _Hx | None = None) -> SafeString:
    """The points chart (_chart.html's markup)."""
    hx = hx or _Hx(panel)
    top, bottom = int(board["chart_y"]), int(board["chart_bottom"])
    out = [f'<rect x="10" y="8" width="424" height="{bottom + 18}" rx="10" fill="#3d5a4a"/>'
           '<text x="22" y="28" class="np-h" fill="#fff" aria-hidden="true">' + _esc(_("Points chart")) + '</text>']
    for n in board["need_marks"]:
        need, x = _plain(n["need"]), n["x"]
        out.append(f'<g class="np-need" aria-hidden="true"><circle cx="{x}" cy="{top + 6}" r="10"/>'
                   f'<text x="{x}" y="{top + 7}">{need}</text></g>'
                   f'<g class="np-need" aria-hidden="true"><circle cx="{x}" cy="{bottom + 4}" r="10"/>'
                   f'<text x="{x}" y="{bottom + 5}">{need}</text></g>')
    for row in board["chart_rows"]:
        out.append(_row_icon(row, board["spot_h"]))
        out.extend(_spot_svg(row["key"], spot, board, hx) for spot in row["spots"])
    return mark_safe("".join(out))


@lru_cache(maxsize=256)
def _path_space(i, x, y, five, cell) -> str:
    """One space of the scoring path (the same on every render)."""
    number = f'<text x="{int(x) + 12}" y="{int(y) + 13}">{_plain(i)}</text>' if five else ""
    return (f'<g class="np-space{" five" if five else ""}"><rect x="{x}" y="{y}" width="{cell}" height="{cell}"/>'
            f'{number}</g>')


def path_svg(board: dict) -> SafeString:
    """The scoring path (_path.html's markup)."""
    cell = board["cell"]
    out = [_path_space(c["i"], c["x"], c["y"], c.get("five"), cell) for c in board["path"]]
    for counter, m in enumerate(board["markers"]):
        name, mark, colour, score = _esc(m["name"]), _plain(m["mark"]), _plain(m["colour"]), m["score"]
        title = ngettext("%(name)s: %(n)s point", "%(name)s: %(n)s points", score) % {"name": name, "n": _plain(score)}
        ix, iy = int(m["x"]), int(m["y"])
        lap = (f'<g class="np-lap"><rect x="{ix - 4}" y="{iy - 12}" width="22" height="11" rx="5"/>'
               f'<text x="{ix + 7}" y="{iy - 6}">+{_plain(m["laps"])}×50</text></g>') if m.get("laps") else ""
        out.append(f'<g class="np-marker seat-{_plain(m["seat"])}"><title>{title}</title>'
                   f'<rect x="{m["x"]}" y="{m["y"]}" width="11" height="11" rx="2" fill="{colour}" stroke="#111" '
                   f'stroke-width="1.4"/><text x="{m["tx"]}" y="{m["ty"]}" class="np-mark small">{mark}</text>{lap}</g>'
                   f'<g class="np-big-score" transform="translate({208 if counter else 58},90)"><use href="#np-meeple" '
                   f'x="0" y="0" width="44" height="44" fill="{colour}"/><text x="22" y="24" class="np-mark">{mark}'
                   f'</text><text x="72" y="30" class="np-score">{_plain(score)}</text><text x="72" y="62" '
                   f'class="np-sub mid">{_esc(shortened(m["name"], 12))}</text></g>')
    out.append('<text x="204" y="240" class="np-h small mid">' + _esc(_("Scoring path")) + '</text>')
    return mark_safe("".join(out))


# --- the player cards and animal boards as HTML, written here (issue 21) --------------------------
# board.html's loops over the two player cards and the two animal boards (with a token include per
# animal) were a third of a panel after the SVG layers moved. The markup is the loops' own,
# character for character (tests/games/test_panel_shell.py holds it to them): outside texts
# (names, colours, titles) escaped once, translated words as the template printed them.

def _capfirst(text) -> str:
    text = str(text)
    return text and text[0].upper() + text[1:]


def players_html(board: dict) -> SafeString:
    """The two player cards (name, pieces left, points)."""
    out = []
    for p in board["players"]:
        name, score = _esc(p["name"]), p["score"]
        title = ngettext("%(name)s: %(n)s point (%(breakdown)s)", "%(name)s: %(n)s points (%(breakdown)s)",
                         score) % {"name": name, "n": score, "breakdown": _esc(p["breakdown_text"])}
        badge = ' <span class="np-turn-badge">▶ ' + _("to play") + '</span>' if p["to_act"] else ""
        sub = (_("you") + " · " if p["you"] else "") + (_("first player") if p["first"] else _("second player"))
        points = ngettext("<strong>%(n)s</strong> point", "<strong>%(n)s</strong> points", score) % {"n": score}
        hikers = _('Hikers left: %(n)s <span class="muted">(%(out)s out)</span>') % {
            "n": _plain(p["hikers"]), "out": _plain(p["on_mountain"])}
        camps = _('Camps left: %(n)s <span class="muted">(%(built)s built)</span>') % {
            "n": _plain(p["camps"]), "built": _plain(p["camps_on"])}
        cubes = ngettext('Cubes left: %(n)s <span class="muted">(%(spots)s spot)</span>',
                         'Cubes left: %(n)s <span class="muted">(%(spots)s spots)</span>',
                         p["spots"]) % {"spots": p["spots"], "n": _plain(p["cubes"])}
        out.append(f'\n          <div class="np-player seat-{_plain(p["seat"])}{" to-act" if p["to_act"] else ""}" '
                   f'title="{title}">\n            <p class="np-pname"><svg class="np-icon" viewBox="0 0 40 40" '
                   f'aria-hidden="true" focusable="false"><use href="#np-meeple" x="0" y="0" width="40" height="40" '
                   f'fill="{_esc(p["colour"])}"/><text x="20" y="21" class="np-mark">{_esc(p["mark"])}</text></svg>\n'
                   f'              <strong>{name}</strong>{badge}</p>\n            <p class="np-sub">{sub}</p>\n'
                   f'            <p class="np-score">{points}</p>\n            <p class="np-line">{hikers}<br>{camps}'
                   f'<br>{cubes}</p>\n            <p class="np-breakdown muted">{_esc(p["breakdown_text"])}</p>\n'
                   f'          </div>\n        ')
    return mark_safe("".join(out))


def animal_boards_html(board: dict, panel: dict, hx: _Hx | None = None) -> SafeString:
    """Each seat's animal board: a column per species, a token per animal (a control when the
    seat may pick it)."""
    panel_url = (hx or _Hx(panel)).panel_url
    out = []
    for b in board["boards"]:
        name, colour = _esc(b["name"]), _plain(b["colour"])
        label = _("%(name)s's animal board") % {"name": name}
        owner = _("%(name)s's animal board (yours)") % {"name": name} if b["own"] else label
        held = _("%(n)s held") % {"n": _plain(b["held"])}
        traded = " · " + _("%(n)s traded") % {"n": _plain(b["traded"])} if b["traded"] else ""
        out.append(f'\n    <section class="np-aboard{" own" if b["own"] else ""}" data-seat="{_plain(b["seat"])}" '
                   f'aria-label="{label}" style="--seat: {colour}">\n      <h2 class="np-aboard-title">'
                   f'<span class="np-dot" style="background:{colour}" aria-hidden="true">{_plain(b["mark"])}</span> '
                   f'{owner} · {held}{traded}</h2>\n      <ul class="np-acols">\n        ')
        out.extend(_species_column_html(c, panel_url) for c in b["cols"])
        out.append("\n      </ul>\n    </section>\n  ")
    return mark_safe("".join(out))


def _species_column_html(c: dict, panel_url: str) -> str:
    name, power = _plain(c["name"]), _plain(c["power"])
    if c["kind"] == "activated":
        count = _("%(ready)s ready · %(used)s used") % {"ready": len(c["ready"]), "used": len(c["used"])}
    else:
        count = _("%(n)s held") % {"n": len(c["ready"])}
    if c["traded"]:
        count += " · " + _("traded ×%(n)s") % {"n": _plain(c["traded"])}
    ready = "".join(_token_html(t, False, panel_url) for t in c["ready"])
    used = "".join(_token_html(t, True, panel_url) for t in c["used"])
    return (f'\n          <li class="np-acol" data-species="{_plain(c["key"])}" title="{_plain(_capfirst(c["name"]))}: '
            f'{power}">\n            <p class="np-colname"><strong>{_plain(c["letter"])} · {name}</strong> '
            f'<span class="np-count">{count}</span></p>\n            <p class="np-power muted">'
            f'{_plain(_capfirst(c["power"]))}</p>\n            <p class="np-tokens">\n              {ready}\n'
            f'              {used}\n            </p>\n          </li>\n        ')


def _token_html(t: dict, used: bool, panel_url: str) -> str:
    """One animal on an animal board (what _token.html drew): a button when it is a control,
    else a picture the column's counts already say in words."""
    classes = f'np-token{" used" if used else ""}{" " + _plain(t["cls"]) if t["cls"] else ""}'
    index, species = _plain(t["index"]), _plain(t["species"])
    if t["get"]:
        sel = _esc(_url_quote(str(t["get"]), safe=""))
        head = (f'<button type="button" class="{classes} sel-target" role="button" data-sel-focus="i{index}" '
                f'data-index="{index}" data-species="{species}" aria-label="{_esc(t["name"])}" '
                f'title="{_esc(t["title"])}" hx-get="{panel_url}?sel={sel}" hx-target="#live" hx-swap="innerHTML">')
        tail = "</button>"
    else:
        head = (f'<span class="{classes}" data-index="{index}" data-species="{species}" title="{_esc(t["title"])}" '
                f'aria-hidden="true">')
        tail = "</span>"
    spent = '<path d="M4,36 L36,4" class="np-spent"/>' if used else ""
    check = '<use href="#np-check" x="24" y="0" width="16" height="16"/>' if t["cls"] == "picked" else ""
    return (f'{head}<svg viewBox="0 0 40 40" aria-hidden="true" focusable="false"><use href="#np-sp-{species}" '
            f'width="40" height="40"/>{spent}{check}</svg>{tail}\n')
