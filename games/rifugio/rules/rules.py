"""Rifugio with the Rivers & Rafts expansion (shared/rules/rifugio.md).

The state follows §15.1 of the spec with two changes the project contract forces:
`state["players"]` is the player count (the shared helpers read it as an int), so the per-player
records live in `state["seats"]`; and the stack is not shuffled at setup. Instead `stack` holds the
undrawn tiles sorted by id and each draw picks one with `rng_for(seed, "draw", n)` at the moment
it happens, so no future order is ever stored. Tiles sent to the bottom wait in `bottom` (in the
order they went there) and are drawn only once `stack` is empty, exactly as under a physical stack.

What happened is kept as data, never prose: `events` holds the latest event dicts
(`{"type", "seat", "turn", ...}`; games/rifugio/presenter.py `describe()` words them).
`waterfalls` indexes where each waterfall lies, so scoring never scans the map. `apply` copies
only what it changes (`copy_state`): the map's entries, events and options are never changed
in place, so they are shared between a state and the next.
"""
from __future__ import annotations

import random

from functools import cache, lru_cache
from typing import Any

from games.rules.base import (
    Action,
    IllegalAction,
    Ruleset,
    State,
    _,
    check_action_shape,
    competition_ranking,
    gettext_noop,
    pgettext,
    require_int,
    rng_for,
)

from .determinize import determinize
from . import data as D

# The state keeps the latest events only (as it kept the latest log lines): a bounded list keeps
# every apply and view O(1) in the length of the game. [DECISION]
EVENT_LIMIT = 60
VIEW_EVENTS = 40

ACTION_KEYS = {
    "place_tile": {"type", "q", "r", "rotation"},
    "step": {"type", "to"},
    "sail": {"type", "to"},
    "build_rifugio": {"type"},
    "build_raft": {"type", "at"},
    "use_extra_step": {"type"},
    "swim": {"type", "via", "to"},
    "continue_swim": {"type"},
    "end_turn": {"type"},
}
EXPANSION_ACTIONS = {"sail", "build_raft", "swim", "continue_swim"}

# The checks return these untranslated (legal_actions only asks whether there is one); a
# refusal is put into the player's language where it is raised (`_Ctx._raise`).
NO_STEPS = gettext_noop("You have no steps left this turn. Use an extra-step card or end your turn.")
SWIMMING = gettext_noop("You are swimming: keep swimming or end your turn.")
NO_SWIM = gettext_noop("You may only swim when you cannot build a raft and no raft lies next to your land.")


# --- geometry ------------------------------------------------------------------------------

@cache
def key(q: int, r: int) -> str:
    """The board key of (q, r); cached, as the map is queried far more often than it grows."""
    return f"{q},{r}"


@cache
def parse(k: str) -> tuple[int, int]:
    """(q, r) of a board key; cached because every map query parses the same few keys."""
    q, r = k.split(",")
    return int(q), int(r)


def neighbours(c: tuple[int, int]) -> list[tuple[int, int]]:
    return list(_neighbour_tuple(tuple(c)))


def opposite(s: int) -> int:
    return (s + 3) % 6


def distance(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def edge_at(tile_id: str, rot: int, s: int) -> str:
    return D.TILES[tile_id]["edges"][(s - rot) % 6]


@cache
def sides_of(tile_id: str, rot: int) -> str:
    """The letters a tile shows on sides 0-5 at rotation rot."""
    edges = D.TILES[tile_id]["edges"]
    return "".join(edges[(s - rot) % 6] for s in range(6))


@cache
def _fit_class(tile_id: str) -> tuple[bool, bool]:
    t = D.TILES[tile_id]
    return t["exact"], t["kind"] == "pass"


@cache
def _fits_cached(a: str, a_class: tuple[bool, bool], b: str, b_class: tuple[bool, bool]) -> bool:
    if "W" in (a, b) and (a_class[1] or b_class[1]):
        return False
    if a_class[0] or b_class[0]:
        return a == b
    return (a, b) in D.COMPATIBLE


def fits(a: str, ta: dict, b: str, tb: dict) -> bool:
    """Whether letters a (shown by tile ta) and b (shown by tb) may touch (§6.1)."""
    if "W" in (a, b) and "pass" in (ta["kind"], tb["kind"]):
        return False
    if ta["exact"] or tb["exact"]:
        return a == b
    return (a, b) in D.COMPATIBLE


def terrain_word(letter: str) -> str:
    """A terrain's name in the active language (D.TERRAIN_NAMES stays English: it is in the view).
    Only refusals call it, so the words are looked up then, never at import."""
    words = {"M": pgettext("terrain", "meadow"), "F": pgettext("terrain", "forest"),
             "R": pgettext("terrain", "rock"), "P": pgettext("terrain", "mountaintop"),
             "W": pgettext("terrain", "water")}
    return words[letter]


def placement_error(board: dict, tile_id: str, q: int, r: int, k: int) -> str | None:
    """Why tile_id may not go at (q, r) with rotation k, or None when it may (§6.2)."""
    if key(q, r) in board:
        return _("That space is already taken.")
    tile = D.TILES[tile_id]
    touching = False
    for s in range(6):
        n = board.get(key(q + D.DIRS[s][0], r + D.DIRS[s][1]))
        if n is None:
            continue
        touching = True
        other = D.TILES[n["tile"]]
        mine, theirs = edge_at(tile_id, k, s), edge_at(n["tile"], n["rot"], opposite(s))
        if not fits(mine, tile, theirs, other):
            target = (pgettext("touches", "a pass") if other["kind"] == "pass" and mine == "W"
                      else terrain_word(theirs))
            return _("That tile does not fit there: its %(side)s side would touch %(other)s.") % {
                "side": terrain_word(mine), "other": target}
    if not touching:
        return _("Tiles must touch a tile already on the map.")
    return None


def frontier(board: dict) -> list[tuple[int, int]]:
    """The empty cells next to the map, sorted."""
    return list(_frontier_of(tuple(board)))


@lru_cache(maxsize=512)
def _frontier_of(keys: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """The frontier depends on the map's cells only, so it is cached on them: the view and the
    placements of every state of a turn (and every request that loads it) share one search."""
    cells = {parse(k) for k in keys}
    return tuple(sorted({n for c in cells for n in _neighbour_tuple(c)} - cells))


@lru_cache(maxsize=4096)
def _neighbour_tuple(c: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple((c[0] + dq, c[1] + dr) for dq, dr in D.DIRS)


def _facing(board: dict, q: int, r: int) -> list[tuple[int, str, tuple[bool, bool]]]:
    """(side, letter shown towards this cell, fit class) for each tile next to (q, r)."""
    out = []
    for s, k in enumerate(_neighbour_keys(q, r)):
        n = board.get(k)
        if n is not None:
            out.append((s, sides_of(n["tile"], n["rot"])[(s + 3) % 6], _fit_class(n["tile"])))
    return out


@lru_cache(maxsize=8192)
def _neighbour_keys(q: int, r: int) -> tuple[str, ...]:
    return tuple(key(q + dq, r + dr) for dq, dr in D.DIRS)


def _placements(board: dict, tile_id: str, first_only: bool = False) -> list[tuple[int, int, int]]:
    """Every legal (q, r, rotation), the same verdicts as placement_error but computed per cell once.

    A tile that shows one letter all round fits in every rotation or in none, so it is checked once
    per cell (most tiles are such tiles, and the frontier grows with the map)."""
    mine = _fit_class(tile_id)
    symmetric = D.is_symmetric(tile_id)
    rotations = range(1) if symmetric else range(6)
    out: list[tuple[int, int, int]] = []
    for (q, r) in frontier(board):
        facing = _facing(board, q, r)
        for k in rotations:
            shown = sides_of(tile_id, k)
            if all(_fits_cached(shown[s], mine, theirs, other) for s, theirs, other in facing):
                if symmetric:
                    out.extend((q, r, rot) for rot in range(6))
                else:
                    out.append((q, r, k))
                if first_only:
                    return out[:1]
    return out


def legal_placements(board: dict, tile_id: str) -> list[tuple[int, int, int]]:
    return _placements(board, tile_id)


def can_place(board: dict, tile_id: str) -> bool:
    return bool(_placements(board, tile_id, first_only=True))


def is_water(board: dict, c) -> bool:
    n = board.get(key(c[0], c[1]))
    return n is not None and n["tile"] in WATER_IDS


def is_land(board: dict, c) -> bool:
    n = board.get(key(c[0], c[1]))
    return n is not None and n["tile"] not in WATER_IDS


WATER_IDS = frozenset(t for t, info in D.TILES.items() if info["water"])


def river(board: dict, w: tuple[int, int]) -> set[tuple[int, int]]:
    """All water tiles joined to water tile w, w included (§11.2)."""
    seen, todo = {w}, [w]
    while todo:
        c = todo.pop()
        for n in neighbours(c):
            if n not in seen and is_water(board, n):
                seen.add(n)
                todo.append(n)
    return seen


def terrain(board: dict) -> tuple[set, set]:
    """(water cells, land cells) of the map, so a search tests set membership, not the board."""
    water: set[tuple[int, int]] = set()
    land: set[tuple[int, int]] = set()
    for k, n in board.items():
        (water if n["tile"] in WATER_IDS else land).add(parse(k))
    return water, land


def component(start: tuple[int, int], cells: set) -> set[tuple[int, int]]:
    """The cells of `cells` joined to `start` through neighbours (start included)."""
    seen, todo = {start}, [start]
    while todo:
        for n in _neighbour_tuple(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def rivers_of(board: dict) -> dict[str, int]:
    """Water tile key -> river number (for drawing a river as one body)."""
    water = {k for k, n in board.items() if n["tile"] in WATER_IDS}
    out: dict[str, int] = {}
    number = 0
    for k in sorted(water):
        if k in out:
            continue
        todo = [k]
        out[k] = number
        while todo:
            for nk in _neighbour_keys(*parse(todo.pop())):
                if nk in water and nk not in out:
                    out[nk] = number
                    todo.append(nk)
        number += 1
    return out


# --- small state helpers -------------------------------------------------------------------

def expansion(state: State) -> bool:
    return bool(state["options"]["rivers_and_rafts"])


def raft_at(state: State) -> dict[tuple[int, int], dict]:
    return {tuple(r["at"]): r for r in state["rafts"]}


def swimmer_tiles(state: State) -> set[tuple[int, int]]:
    return {tuple(p["walker"]["swim"]["via"]) for p in state["seats"] if p["walker"]["swim"]}


def turn_number(state: State) -> int:
    """The game-wide turn being played, 1 for the first turn of the game."""
    return sum(state["turns_taken"]) + 1


def emit(state: State, kind: str, seat: int | None, **data: Any) -> None:
    """Record what happened as data (the presenter's describe() puts it into words)."""
    state["events"].append({"type": kind, "seat": seat, "turn": turn_number(state), **data})
    del state["events"][:-EVENT_LIMIT]


def copy_state(state: State) -> State:
    """A structural copy: every container `apply` may change is new, the rest is shared.

    Board entries, event dicts and options are never changed in place (the board only grows),
    so sharing them keeps `apply` pure without a deep copy of a state that grows every turn.
    """
    new = dict(state)
    for name in ("turns_taken", "stack", "bottom", "removed"):
        new[name] = list(state[name])
    # A game saved with the prose `log` starts its events afresh; the `log` stays, marking the
    # state as of the older shape for `verify_games` (`older_shape`, docs/rules-versions.md).
    new["events"] = list(state.get("events", []))
    new["board"] = dict(state["board"])
    new["rifugi"] = dict(state["rifugi"])
    new["rafts"] = [{**r, "at": list(r["at"]), "riders": list(r["riders"])} for r in state["rafts"]]
    new["seats"] = [_copy_seat(p) for p in state["seats"]]
    new["turn"] = {k: list(v) if isinstance(v, list) else v for k, v in state["turn"].items()}
    return new


def _copy_seat(p: dict) -> dict:
    w = p["walker"]
    swim = None if w["swim"] is None else {k: list(v) if isinstance(v, list) else v
                                           for k, v in w["swim"].items()}
    return {**p, "walker": {**w, "at": list(w["at"]), "swim": swim},
            "items": list(p["items"]), "bears": list(p["bears"])}


def coord(action: Action, name: str) -> tuple[int, int]:
    value = action.get(name)
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
        raise IllegalAction(_("'%(name)s' must be a coordinate [q, r] of two whole numbers.") % {"name": name})
    return value[0], value[1]


# --- the ruleset ---------------------------------------------------------------------------

# Actions a seat may take back within its turn (they reveal nothing hidden). [DECISION]
UNDOABLE_ACTIONS = frozenset({"step", "sail", "build_rifugio", "build_raft", "use_extra_step", "swim",
                              "continue_swim"})


class Rifugio(Ruleset):
    slug = D.SLUG
    title = D.TITLE
    min_players = D.MIN_PLAYERS
    max_players = D.MAX_PLAYERS
    version = "1"

    # options and setup ---------------------------------------------------------------------

    def default_options(self) -> dict:
        return dict(D.DEFAULT_OPTIONS)

    def validate_options(self, players: int, options: dict | None) -> dict:
        if isinstance(players, bool) or not isinstance(players, int) or not (
                D.MIN_PLAYERS <= players <= D.MAX_PLAYERS):
            raise IllegalAction(_("Rifugio is played by %(low)s to %(high)s players.")
                                % {"low": D.MIN_PLAYERS, "high": D.MAX_PLAYERS})
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise IllegalAction(_("Options must be an object."))
        unknown = sorted(set(options) - set(D.DEFAULT_OPTIONS))
        if unknown:
            raise IllegalAction(_("Unknown option: %(name)s.") % {"name": unknown[0]})
        out = dict(D.DEFAULT_OPTIONS)
        for name, value in options.items():
            if not isinstance(value, bool):
                raise IllegalAction(_("The option '%(name)s' must be true or false.") % {"name": name})
            out[name] = value
        return out

    def setup(self, players: int, options: dict | None, seed: int) -> State:
        options = self.validate_options(players, options)
        rr = options["rivers_and_rafts"]
        first = rng_for(seed, "first_seat").randrange(players)
        state: State = {
            "seed": seed,
            "options": options,
            "players": players,
            "first_seat": first,
            "active": first,
            "phase": "place",
            "turns_taken": [0] * players,
            "stack": D.stack_ids(players, rr),
            "bottom": [],
            "draws": 0,
            "removed": [],
            "hand": None,
            "board": {"0,0": {"tile": "START", "rot": 0}},
            "rifugi": {},
            "waterfalls": {},
            "rafts": [],
            "seats": [{
                "walker": {"at": [0, 0], "raft": None, "swim": None},
                "items": [], "bears": [], "rifugio_cards": 0, "raft_cards": 0,
                "extra_step_cards": 0, "rifugi_left": D.RIFUGI_PER_PLAYER,
                "rafts_left": D.RAFTS_PER_PLAYER[players] if rr else 0,
            } for _ in range(players)],
            "turn": {},
            "events": [],
        }
        self._begin_turn(state, first)
        return state

    # turn machinery ------------------------------------------------------------------------

    def _begin_turn(self, state: State, seat: int) -> None:
        state["active"] = seat
        state["turn"] = {"tiles_to_place": D.TILES_PER_TURN[state["players"]],
                         "steps": D.STEPS_PER_TURN, "visited_rifugi": [], "visited_rafts": [],
                         "tried": [], "placed": []}
        self._draw(state)

    def _draw(self, state: State) -> None:
        """Draw until a placeable tile is in hand or the stack is empty (§5, §6.3)."""
        turn = state["turn"]
        while turn["tiles_to_place"] > 0 and state["hand"] is None and (state["stack"] or state["bottom"]):
            if state["stack"]:
                index = rng_for(state["seed"], "draw", state["draws"]).randrange(len(state["stack"]))
                state["draws"] += 1
                tile = state["stack"].pop(index)
            else:
                tile = state["bottom"].pop(0)
            if can_place(state["board"], tile):
                state["hand"] = tile
                break
            state["bottom"].append(tile)
            turn["tried"].append(tile)
            emit(state, "tile_to_bottom", state["active"], tile=tile)
            if not state["stack"] and all(t in turn["tried"] for t in state["bottom"]):
                state["removed"].extend(state["bottom"])
                emit(state, "tiles_removed", None, tiles=list(state["bottom"]))
                state["bottom"] = []
        state["phase"] = "place" if state["hand"] is not None else "walk"

    # contract ------------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == "over" else [state["active"]]

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def undoable(self, before: State, seat: int, action: Action, after: State) -> bool:
        """Walking, sailing, swimming, building and extra steps reveal nothing, so they
        may be taken back while the turn goes on; placing a tile (which draws the next
        one) and ending the turn (which draws the next player's tile) may not."""
        return (action.get("type") in UNDOABLE_ACTIONS and before["phase"] == after["phase"] == "walk"
                and after["active"] == seat)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.to_act(state):
            return []
        if state["phase"] == "place":
            return [{"type": "place_tile", "q": q, "r": r, "rotation": k}
                    for q, r, k in legal_placements(state["board"], state["hand"])]
        ctx = _Ctx(state, seat)
        out = ctx.step_actions() + ctx.sail_actions()
        if ctx.build_rifugio_error() is None:
            out.append({"type": "build_rifugio"})
        out += ctx.build_raft_actions()
        if ctx.use_extra_step_error() is None:
            out.append({"type": "use_extra_step"})
        out += ctx.swim_actions()
        if ctx.rr and ctx.continue_swim_error() is None:
            out.append({"type": "continue_swim"})
        out.append({"type": "end_turn"})
        return out

    def apply(self, state: State, seat: int, action: Action) -> State:
        seat = self.check_seat(state, seat)
        kind = _checked_kind(state, action)
        if kind == "place_tile":
            q, r = require_int(action, "q"), require_int(action, "r")
            k = require_int(action, "rotation", 0, 5)
            if state["phase"] != "place":
                raise IllegalAction(_("There is no tile to place now."))
            return self._place(state, seat, q, r, k)
        if state["phase"] != "walk":
            raise IllegalAction(_("Place your tile first."))
        new = copy_state(state)
        if kind == "end_turn":
            self._end_turn(new, seat)
        else:
            WALK_EFFECTS[kind](_Ctx(new, seat), action)
        return new

    def _place(self, state: State, seat: int, q: int, r: int, k: int) -> State:
        error = placement_error(state["board"], state["hand"], q, r, k)
        if error:
            raise IllegalAction(error)
        new = copy_state(state)
        tile = new["hand"]
        new["board"][key(q, r)] = {"tile": tile, "rot": k}
        if D.TILES[tile]["kind"] == "waterfall":
            new["waterfalls"] = {**new.get("waterfalls", {}), tile: key(q, r)}
        new["hand"] = None
        turn = new["turn"]
        turn["tiles_to_place"] -= 1
        turn["tried"] = []
        turn["placed"].append(key(q, r))
        emit(new, "placed", seat, tile=tile, at=[q, r], rotation=k)
        self._draw(new)
        return new

    def _end_turn(self, state: State, seat: int) -> None:
        emit(state, "turn_ended", seat)
        state["turns_taken"][seat] += 1
        nxt = (seat + 1) % state["players"]
        if (not state["stack"] and not state["bottom"] and state["hand"] is None
                and nxt == state["first_seat"]):
            state["phase"] = "over"
            state["turn"] = {"tiles_to_place": 0, "steps": 0, "visited_rifugi": [],
                             "visited_rafts": [], "tried": [], "placed": []}
            ranks = self.ranking(state)
            emit(state, "game_over", None, winners=[i for i, rank in enumerate(ranks) if rank == 1])
        else:
            self._begin_turn(state, nxt)

    # scoring -------------------------------------------------------------------------------

    def scores(self, state: State) -> list[dict]:
        """Live scores. Only a waterfall's bonus looks at the map, and only at its six neighbours,
        so the cost does not grow with the map."""
        rr = expansion(state)
        out = []
        for p in state["seats"]:
            items = sum(D.ITEM_VALUE[D.TILES[t]["category"]] for t in p["items"])
            bonus = 0
            if rr:
                for t in p["items"]:
                    if D.TILES[t]["category"] == "WATERFALL":
                        bonus += D.WATERFALL_BONUS_PER_WATER * _water_around(state, t)
            held = set(p["items"])
            sets = D.SET_BONUS * sum(1 for c in D.CATEGORIES if held.issuperset(D.CATEGORY_TILES[c]))
            breakdown = {
                "items": items,
                "waterfall_bonus": bonus,
                "sets": sets,
                "bears": D.BEAR_VALUE * len(p["bears"]),
                "rifugio_cards": D.RIFUGIO_CARD_VALUE * p["rifugio_cards"],
                "raft_cards": D.RAFT_CARD_VALUE * p["raft_cards"],
            }
            if D.EXTRA_STEP_CARD_VALUE:
                breakdown["extra_step_cards"] = D.EXTRA_STEP_CARD_VALUE * p["extra_step_cards"]
            out.append({"total": sum(breakdown.values()), "breakdown": breakdown})
        return out

    def ranking(self, state: State) -> list[int]:
        return self._ranking(state, self.scores(state))

    def _ranking(self, state: State, totals: list[dict]) -> list[int]:
        keys = [(s["total"], p["raft_cards"] if "raft_points" in D.TIEBREAKS else 0)
                for s, p in zip(totals, state["seats"], strict=True)]
        return competition_ranking(keys)

    # A game saved before `events` replaced the English `log` and before the `waterfalls`
    # index keeps playing: both are read as empty (docs/rules-versions.md).
    def older_shape(self, state: State) -> bool:
        return "log" in state

    def comparable(self, state: State) -> State:
        return {k: v for k, v in state.items() if k not in ("log", "events", "waterfalls")}

    def seat_turn(self, state: State, seat: int | None) -> str:
        """Turn-based: what a seat decides about changes when the turn passes (turns taken) and
        when a tile goes down and the next one is revealed (tiles on the map); walking within
        a turn changes neither."""
        if state["phase"] == "over":
            return "over"
        return f"{sum(state['turns_taken'])}.{len(state['board'])}"

    # view ----------------------------------------------------------------------------------

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """What `seat` cannot see, drawn afresh (see determinize.py)."""
        return determinize(state, seat, rng)

    def view(self, state: State, seat: int | None) -> dict:
        scores = self.scores(state)
        ranking = self._ranking(state, scores)
        turn = state["turn"]
        events = [dict(e) for e in state.get("events", [])[-VIEW_EVENTS:]]
        return {
            "game": self.slug,
            "you": seat,
            "options": dict(state["options"]),
            "players": state["players"],
            "phase": state["phase"],
            "active": state["active"],
            "to_act": self.to_act(state),
            "first_seat": state["first_seat"],
            "turn": {"tiles_to_place": turn.get("tiles_to_place", 0), "steps": turn.get("steps", 0),
                     "visited_rifugi": list(turn.get("visited_rifugi", [])),
                     "visited_rafts": list(turn.get("visited_rafts", [])),
                     "tried": list(turn.get("tried", [])), "placed": list(turn.get("placed", []))},
            "hand": _hand_view(state["hand"]),
            "tiles_left": len(state["stack"]) + len(state["bottom"]),
            "removed": list(state["removed"]),
            "geometry": {"layout": "pointy-top axial", "dirs": [list(d) for d in D.DIRS],
                         "side_names": list(D.SIDE_NAMES), "terrain_names": dict(D.TERRAIN_NAMES)},
            "tiles": _tiles_view(state),
            "frontier": [[q, r] for q, r in frontier(state["board"])],
            "rafts": [{"id": r["id"], "owner": r["owner"], "at": list(r["at"]),
                       "riders": list(r["riders"]), "unmanned": not r["riders"]} for r in state["rafts"]],
            "rifugi": [{"at": list(parse(k)), "owner": o} for k, o in sorted(state["rifugi"].items())],
            "seats": [_seat_view(state, i, scores[i], ranking[i]) for i in range(state["players"])],
            "scores": scores,
            "ranking": ranking,
            "events": events,
        }


def _water_around(state: State, tile_id: str) -> int:
    """Water tiles next to a waterfall on the map (0 when it is not on the map)."""
    board = state["board"]
    k = state.get("waterfalls", {}).get(tile_id)
    if k is None or board.get(k, {}).get("tile") != tile_id:
        # not in the index (a state saved before it existed, or one built by hand): look it up
        k = next((k for k, n in board.items() if n["tile"] == tile_id), None)
    if k is None:
        return 0
    return sum(1 for c in _neighbour_tuple(parse(k)) if is_water(board, c))


@cache
def _hand_static(tile_id: str) -> dict:
    t = D.TILES[tile_id]
    return {"tile": tile_id, "kind": t["kind"], "terrain": t["terrain"], "edges": t["edges"],
            "category": t["category"], "name": t["name"], "symmetric": D.is_symmetric(tile_id)}


def _hand_view(hand: str | None) -> dict | None:
    return None if hand is None else dict(_hand_static(hand))


@lru_cache(maxsize=8192)
def _row_major(k: str) -> tuple[int, int]:
    q, r = parse(k)
    return r, q


@cache
def _tile_static(k: str, tile_id: str, rot: int) -> dict:
    """The parts of a map tile's view that never change once it is placed."""
    t = D.TILES[tile_id]
    q, r = parse(k)
    return {"key": k, "q": q, "r": r, "tile": tile_id, "rot": rot, "kind": t["kind"],
            "terrain": t["terrain"], "sides": sides_of(tile_id, rot), "category": t["category"],
            "name": t["name"]}


def _tiles_view(state: State) -> list[dict]:
    board = state["board"]
    rivers = rivers_of(board)
    holders: dict[str, list[int]] = {}
    for i, p in enumerate(state["seats"]):
        for t in p["items"] + p["bears"]:
            holders.setdefault(t, []).append(i)
    rifugi = state["rifugi"]
    tiles = []
    for k in sorted(board, key=_row_major):
        n = board[k]
        tiles.append({**_tile_static(k, n["tile"], n["rot"]), "river": rivers.get(k),
                      "rifugio": rifugi.get(k), "holders": holders.get(n["tile"], [])})
    return tiles


def _seat_view(state: State, i: int, score: dict, rank: int) -> dict:
    p = state["seats"][i]
    w = p["walker"]
    return {
        "seat": i,
        "hiker": {"at": list(w["at"]), "raft": w["raft"], "swim": dict(w["swim"]) if w["swim"] else None},
        "items": list(p["items"]),
        "items_by_category": {c: [t for t in D.CATEGORY_TILES[c] if t in p["items"]] for c in D.CATEGORIES},
        "bears": list(p["bears"]),
        "rifugio_cards": p["rifugio_cards"], "raft_cards": p["raft_cards"],
        "extra_step_cards": p["extra_step_cards"],
        "rifugi_left": p["rifugi_left"], "rafts_left": p["rafts_left"],
        "turns_taken": state["turns_taken"][i],
        "score": score["total"], "breakdown": score["breakdown"],
        "rank": rank,
    }


class _Ctx:
    """One seat's walk-phase situation: the legality checks and the effects of each action.

    The checks return a message or None, so `legal_actions` and `apply` share one source of
    truth and cannot disagree.
    """

    def __init__(self, state: State, seat: int):
        self.state = state
        self.seat = seat
        self.board = state["board"]
        self.rr = expansion(state)
        self.me = state["seats"][seat]
        self.walker = self.me["walker"]
        self.swim = self.walker["swim"]
        self.at = tuple(self.walker["at"])
        self.turn = state["turn"]
        self.rafts = raft_at(state)
        self.swimmers = swimmer_tiles(state)
        self._swim_pre: Any = False

    # the legal actions of each kind, in a stable order ------------------------------------

    def step_actions(self) -> list[Action]:
        return [{"type": "step", "to": [n[0], n[1]]} for n in sorted(neighbours(self.at))
                if self.step_error(n) is None]

    def sail_actions(self) -> list[Action]:
        if not self.rr or self.walker["raft"] is None or self.swim:
            return []
        return [{"type": "sail", "to": [t[0], t[1]]} for t in sorted(river(self.board, self.at))
                if self.sail_error(t) is None]

    def build_raft_actions(self) -> list[Action]:
        if not self.rr:
            return []
        return [{"type": "build_raft", "at": [n[0], n[1]]} for n in sorted(neighbours(self.at))
                if self.build_raft_error(n) is None]

    def swim_actions(self) -> list[Action]:
        if not self.rr or self.swim_precondition_error() is not None:
            return []
        return [{"type": "swim", "via": [via[0], via[1]], "to": [to[0], to[1]]}
                for via in sorted(neighbours(self.at)) if is_water(self.board, via)
                for to in sorted(neighbours(via)) if self.swim_error(via, to) is None]

    # checks ------------------------------------------------------------------------------

    def _common(self, cost: int) -> str | None:
        if self.swim:
            return SWIMMING
        if self.turn["steps"] < cost:
            return NO_STEPS
        return None

    def step_error(self, to) -> str | None:
        error = self._common(D.STEP_COST)
        if error:
            return error
        if distance(self.at, to) != 1:
            return gettext_noop("You can only move to a neighbouring tile.")
        if key(*to) not in self.board:
            return gettext_noop("There is no tile there to walk onto.")
        if is_land(self.board, to):
            return None
        raft = self.rafts.get(tuple(to))
        if raft is None:
            return gettext_noop("You cannot walk on water. Step onto a raft, build one, or swim when stranded.")
        if len(raft["riders"]) >= D.RAFT_CAPACITY:
            return gettext_noop("That raft already carries two hikers.")
        return None

    def sail_error(self, to) -> str | None:
        if self.walker["raft"] is None:
            return SWIMMING if self.swim else "You are not aboard a raft."
        if self.turn["steps"] < D.SAIL_COST:
            return NO_STEPS
        if tuple(to) == self.at:
            return gettext_noop("Your raft is already there.")
        if not is_water(self.board, to) or tuple(to) not in river(self.board, self.at):
            return gettext_noop("That water is not part of your raft's river.")
        if tuple(to) in self.rafts:
            return gettext_noop("Another raft lies on that water tile.")
        if tuple(to) in self.swimmers:
            return gettext_noop("Someone is swimming there.")
        return None

    def build_rifugio_error(self) -> str | None:
        error = self._common(D.BUILD_RIFUGIO_COST)
        if error:
            return error
        if self.walker["raft"] is not None or not is_land(self.board, self.at):
            return gettext_noop("A Rifugio can only be built on land.")
        if self.board[key(*self.at)]["tile"] == "START" and not D.RIFUGIO_ON_START_ALLOWED:
            return gettext_noop("No Rifugio may be built on the start tile.")
        if key(*self.at) in self.state["rifugi"]:
            return gettext_noop("A Rifugio already stands here.")
        if self.me["rifugi_left"] <= 0:
            return gettext_noop("You have no Rifugi left to build.")
        return None

    def build_raft_error(self, at) -> str | None:
        if self.swim:
            return SWIMMING
        if self.walker["raft"] is not None and not D.BUILD_RAFT_FROM_RAFT:
            return gettext_noop("Step onto land before building a raft.")
        if self.me["rafts_left"] <= 0:
            return gettext_noop("You have no rafts left to build.")
        if self.turn["steps"] < D.BUILD_RAFT_COST:
            return gettext_noop("Building a raft needs 2 steps in this turn.")
        if distance(self.at, at) != 1:
            return gettext_noop("You can only build a raft on a neighbouring water tile.")
        if not is_water(self.board, at):
            return gettext_noop("Rafts can only be built on water.")
        if tuple(at) in self.rafts:
            return gettext_noop("Another raft lies on that water tile.")
        if tuple(at) in self.swimmers:
            return gettext_noop("Someone is swimming there.")
        return None

    def use_extra_step_error(self) -> str | None:
        if self.me["extra_step_cards"] <= 0:
            return gettext_noop("You have no extra-step cards.")
        return None

    def continue_swim_error(self) -> str | None:
        if not self.swim:
            return gettext_noop("You are not swimming.")
        if self.turn["steps"] < 1:
            return NO_STEPS
        return None

    def swim_precondition_error(self) -> str | None:
        """Conditions 1-3 and 6 of §11.7 (the parts that do not depend on via and to)."""
        if self._swim_pre is not False:
            return self._swim_pre
        self._swim_pre = self._swim_precondition()
        return self._swim_pre

    def _swim_precondition(self) -> str | None:
        if self.swim:
            return SWIMMING
        if self.walker["raft"] is not None or not is_land(self.board, self.at):
            return gettext_noop("You can only start a swim from land.")
        if self.turn["steps"] < 1:
            return NO_STEPS
        water, land = terrain(self.board)
        region = component(self.at, land)
        self.region = region
        shore = {n for c in region for n in _neighbour_tuple(c) if n in water}
        useful: set = set()
        seen: set = set()
        for w in shore:
            if w in seen:
                continue
            body = component(w, water)
            seen |= body
            escapes = any(n in land and n not in region for c in body for n in _neighbour_tuple(c))
            if escapes or not D.SWIM_IGNORES_ENCLOSED_WATER:
                useful |= body & shore
        if self.me["rafts_left"] > 0 and any(
                w not in self.rafts and w not in self.swimmers for w in useful):
            return NO_SWIM
        for w in useful:
            raft = self.rafts.get(w)
            if raft is not None and (len(raft["riders"]) < D.RAFT_CAPACITY or not D.SWIM_IGNORES_FULL_RAFTS):
                return NO_SWIM
        return None

    def swim_error(self, via, to) -> str | None:
        error = self.swim_precondition_error()
        if error:
            return error
        via, to = tuple(via), tuple(to)
        if distance(self.at, via) != 1 or not is_water(self.board, via):
            return gettext_noop("A swim must cross a water tile next to your tile.")
        if via in self.rafts:
            return gettext_noop("Another raft lies on that water tile.")
        if via in self.swimmers and not D.SWIMMERS_SHARE_TILE:
            return gettext_noop("Someone is swimming there.")
        if distance(via, to) != 1 or not is_land(self.board, to):
            return gettext_noop("You must swim to a land tile on the far side of that water.")
        if D.SWIM_TARGET_OUTSIDE_REGION and to in self.region:
            return gettext_noop("You can walk there: swimming is only for leaving the land you are on.")
        return None

    # effects -----------------------------------------------------------------------------

    def _raise(self, error: str | None) -> None:
        if error:
            raise IllegalAction(_(error))

    def _leave_raft(self) -> None:
        rid = self.walker["raft"]
        if rid is not None:
            raft = self.state["rafts"][rid]
            raft["riders"].remove(self.seat)
            self.walker["raft"] = None

    def _enter_land(self, c) -> None:
        """§8.1: item, bear, Rifugio, in that order."""
        state, seat, me = self.state, self.seat, self.me
        tile = self.board[key(*c)]["tile"]
        info = D.TILES[tile]
        if info["category"] and tile not in me["items"]:
            me["items"].append(tile)
            emit(state, "item", seat, tile=tile, at=[c[0], c[1]])
        if info["kind"] == "bear" and tile not in me["bears"]:
            me["bears"].append(tile)
            emit(state, "bear", seat, tile=tile, at=[c[0], c[1]])
        owner = state["rifugi"].get(key(*c))
        if owner is not None and owner != seat and key(*c) not in self.turn["visited_rifugi"]:
            state["seats"][owner]["rifugio_cards"] += 1
            me["extra_step_cards"] += 1
            self.turn["visited_rifugi"].append(key(*c))
            emit(state, "rifugio_visit", seat, owner=owner, at=[c[0], c[1]])

    def _board_raft(self, raft: dict) -> None:
        """§8.2: stepping onto a raft."""
        state, seat = self.state, self.seat
        raft["riders"].append(seat)
        self.walker["raft"] = raft["id"]
        self.walker["at"] = list(raft["at"])
        owner = raft["owner"]
        if owner != seat and raft["id"] not in self.turn["visited_rafts"]:
            state["seats"][owner]["raft_cards"] += 1
            self.me["extra_step_cards"] += 1
            self.turn["visited_rafts"].append(raft["id"])
            emit(state, "raft_visit", seat, owner=owner, raft=raft["id"], at=list(raft["at"]))
        else:
            emit(state, "raft_boarded", seat, owner=owner, raft=raft["id"], at=list(raft["at"]))

    def step(self, to) -> None:
        self._raise(self.step_error(to))
        self.turn["steps"] -= D.STEP_COST
        self._leave_raft()
        if is_land(self.board, to):
            self.walker["at"] = [to[0], to[1]]
            self._enter_land(to)
        else:
            self._board_raft(self.rafts[tuple(to)])

    def sail(self, to) -> None:
        self._raise(self.sail_error(to))
        self.turn["steps"] -= D.SAIL_COST
        raft = self.state["rafts"][self.walker["raft"]]
        raft["at"] = [to[0], to[1]]
        for rider in raft["riders"]:
            self.state["seats"][rider]["walker"]["at"] = [to[0], to[1]]
        emit(self.state, "sailed", self.seat, owner=raft["owner"], raft=raft["id"], to=[to[0], to[1]],
             carried=[r for r in raft["riders"] if r != self.seat])

    def build_rifugio(self) -> None:
        self._raise(self.build_rifugio_error())
        self.turn["steps"] -= D.BUILD_RIFUGIO_COST
        self.state["rifugi"][key(*self.at)] = self.seat
        self.me["rifugi_left"] -= 1
        emit(self.state, "rifugio_built", self.seat, at=[self.at[0], self.at[1]])

    def build_raft(self, at) -> None:
        self._raise(self.build_raft_error(at))
        self.turn["steps"] -= D.BUILD_RAFT_COST
        self._leave_raft()
        rid = len(self.state["rafts"])
        self.state["rafts"].append({"id": rid, "owner": self.seat, "at": [at[0], at[1]],
                                    "riders": [self.seat]})
        self.walker["raft"] = rid
        self.walker["at"] = [at[0], at[1]]
        self.me["rafts_left"] -= 1
        emit(self.state, "raft_built", self.seat, raft=rid, at=[at[0], at[1]])

    def use_extra_step(self) -> None:
        self._raise(self.use_extra_step_error())
        self.me["extra_step_cards"] -= 1
        self.turn["steps"] += 1
        emit(self.state, "extra_step", self.seat)

    def swim_start(self, via, to) -> None:
        self._raise(self.swim_error(via, to))
        self.turn["steps"] -= 1
        self.walker["swim"] = {"from": list(self.at), "via": [via[0], via[1]], "to": [to[0], to[1]],
                               "stage": 1}
        self.walker["at"] = [via[0], via[1]]
        emit(self.state, "swim_started", self.seat, via=[via[0], via[1]], to=[to[0], to[1]],
             stage=1, stages=D.SWIM_STAGES)

    def continue_swim(self) -> None:
        self._raise(self.continue_swim_error())
        self.turn["steps"] -= 1
        swim = self.walker["swim"]
        swim["stage"] += 1
        if swim["stage"] >= D.SWIM_STAGES:
            to = tuple(swim["to"])
            self.walker["swim"] = None
            self.walker["at"] = [to[0], to[1]]
            emit(self.state, "swam_ashore", self.seat, at=[to[0], to[1]])
            self._enter_land(to)
        else:
            emit(self.state, "swim_stage", self.seat, stage=swim["stage"], stages=D.SWIM_STAGES)


def _checked_kind(state: State, action: Action) -> str:
    """The action's type once its shape is right: known type, exactly its fields, expansion on."""
    kind = check_action_shape(action)
    if kind not in ACTION_KEYS:
        raise IllegalAction(_("Unknown action '%(kind)s'.") % {"kind": kind})
    missing = sorted(ACTION_KEYS[kind] - set(action))
    if missing:
        raise IllegalAction(_("The action '%(kind)s' needs '%(field)s'.") % {"kind": kind, "field": missing[0]})
    extra = sorted(set(action) - ACTION_KEYS[kind])
    if extra:
        raise IllegalAction(_("The action '%(kind)s' does not take '%(field)s'.") % {"kind": kind, "field": extra[0]})
    if kind in EXPANSION_ACTIONS and not expansion(state):
        raise IllegalAction(_("That action needs the Rivers & Rafts expansion."))
    return kind


# The walk-phase actions and the effect each has on a (copied) state.
WALK_EFFECTS = {
    "step": lambda ctx, a: ctx.step(coord(a, "to")),
    "sail": lambda ctx, a: ctx.sail(coord(a, "to")),
    "build_rifugio": lambda ctx, a: ctx.build_rifugio(),
    "build_raft": lambda ctx, a: ctx.build_raft(coord(a, "at")),
    "use_extra_step": lambda ctx, a: ctx.use_extra_step(),
    "swim": lambda ctx, a: ctx.swim_start(coord(a, "via"), coord(a, "to")),
    "continue_swim": lambda ctx, a: ctx.continue_swim(),
}


RULES = Rifugio()
