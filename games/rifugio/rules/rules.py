"""Rifugio with the Rivers & Rafts expansion (shared/rules/rifugio.md).

The state follows §15.1 of the spec with two changes the project contract forces:
`state["players"]` is the player count (the shared helpers read it as an int), so the per-player
records live in `state["seats"]`; and the stack is not shuffled at setup. Instead `stack` holds the
undrawn tiles sorted by id and each draw picks one with `rng_for(seed, "draw", n)` at the moment
it happens, so no future order is ever stored. Tiles sent to the bottom wait in `bottom` (in the
order they went there) and are drawn only once `stack` is empty, exactly as under a physical stack.
"""
from __future__ import annotations

from typing import Any

from games.rules.base import (Action, IllegalAction, Ruleset, State, check_action_shape, clone,
                    competition_ranking, require_int, rng_for)
from . import data as D

LOG_LENGTH = 40

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

NO_STEPS = "You have no steps left this turn. Use an extra-step card or end your turn."
SWIMMING = "You are swimming: keep swimming or end your turn."
NO_SWIM = "You may only swim when you cannot build a raft and no raft lies next to your land."


# --- geometry ------------------------------------------------------------------------------

def key(q: int, r: int) -> str:
    return f"{q},{r}"


def parse(k: str) -> tuple[int, int]:
    q, r = k.split(",")
    return int(q), int(r)


def nb(c: tuple[int, int], s: int) -> tuple[int, int]:
    return c[0] + D.DIRS[s][0], c[1] + D.DIRS[s][1]


def neighbours(c: tuple[int, int]) -> list[tuple[int, int]]:
    return [(c[0] + dq, c[1] + dr) for dq, dr in D.DIRS]


def opposite(s: int) -> int:
    return (s + 3) % 6


def distance(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def edge_at(tile_id: str, rot: int, s: int) -> str:
    return D.TILES[tile_id]["edges"][(s - rot) % 6]


def fits(a: str, ta: dict, b: str, tb: dict) -> bool:
    """Whether letters a (shown by tile ta) and b (shown by tb) may touch (§6.1)."""
    if "W" in (a, b) and "pass" in (ta["kind"], tb["kind"]):
        return False
    if ta["exact"] or tb["exact"]:
        return a == b
    return (a, b) in D.COMPATIBLE


def placement_error(board: dict, tile_id: str, q: int, r: int, k: int) -> str | None:
    """Why tile_id may not go at (q, r) with rotation k, or None when it may (§6.2)."""
    if key(q, r) in board:
        return "That space is already taken."
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
            target = "a pass" if other["kind"] == "pass" and mine == "W" else D.TERRAIN_NAMES[theirs]
            return f"That tile does not fit there: its {D.TERRAIN_NAMES[mine]} side would touch {target}."
    if not touching:
        return "Tiles must touch a tile already on the map."
    return None


def frontier(board: dict) -> list[tuple[int, int]]:
    cells = {parse(k) for k in board}
    return sorted({n for c in cells for n in neighbours(c)} - cells)


def _placements(board: dict, tile_id: str, first_only: bool = False) -> list[tuple[int, int, int]]:
    """Every legal (q, r, rotation), the same verdicts as placement_error but computed per cell once."""
    tile = D.TILES[tile_id]
    edges = tile["edges"]
    out = []
    for (q, r) in frontier(board):
        facing = []
        for s in range(6):
            n = board.get(key(q + D.DIRS[s][0], r + D.DIRS[s][1]))
            if n is not None:
                facing.append((s, edge_at(n["tile"], n["rot"], opposite(s)), D.TILES[n["tile"]]))
        for k in range(6):
            if all(fits(edges[(s - k) % 6], tile, theirs, other) for s, theirs, other in facing):
                out.append((q, r, k))
                if first_only:
                    return out
    return out


def legal_placements(board: dict, tile_id: str) -> list[tuple[int, int, int]]:
    return _placements(board, tile_id)


def can_place(board: dict, tile_id: str) -> bool:
    return bool(_placements(board, tile_id, first_only=True))


def is_water(board: dict, c) -> bool:
    n = board.get(key(*c))
    return n is not None and D.TILES[n["tile"]]["water"]


def is_land(board: dict, c) -> bool:
    n = board.get(key(*c))
    return n is not None and not D.TILES[n["tile"]]["water"]


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


def land_region(board: dict, a: tuple[int, int]) -> set[tuple[int, int]]:
    """Every land tile reachable from land tile a by walking (§11.7)."""
    seen, todo = {a}, [a]
    while todo:
        c = todo.pop()
        for n in neighbours(c):
            if n not in seen and is_land(board, n):
                seen.add(n)
                todo.append(n)
    return seen


def rivers_of(board: dict) -> dict[str, int]:
    """Water tile key -> river number (for drawing a river as one body)."""
    water = {k for k, n in board.items() if D.TILES[n["tile"]]["water"]}
    out: dict[str, int] = {}
    number = 0
    for k in sorted(water):
        if k in out:
            continue
        todo = [k]
        out[k] = number
        while todo:
            c = parse(todo.pop())
            for n in neighbours(c):
                nk = key(*n)
                if nk in water and nk not in out:
                    out[nk] = number
                    todo.append(nk)
        number += 1
    return out


# --- small state helpers -------------------------------------------------------------------

def expansion(state: State) -> bool:
    return bool(state["options"]["rivers_and_rafts"])


def at_of(state: State, seat: int) -> tuple[int, int]:
    return tuple(state["seats"][seat]["walker"]["at"])  # type: ignore[return-value]


def raft_at(state: State) -> dict[tuple[int, int], dict]:
    return {tuple(r["at"]): r for r in state["rafts"]}


def swimmer_tiles(state: State) -> set[tuple[int, int]]:
    return {tuple(p["walker"]["swim"]["via"]) for p in state["seats"] if p["walker"]["swim"]}


def tile_label(tile_id: str) -> str:
    t = D.TILES[tile_id]
    if t["name"] and t["kind"] != "start":
        return f"{t['name']} ({t['kind']})"
    return f"{t['terrain']} tile"


def log(state: State, text: str) -> None:
    state["log"].append(text)
    del state["log"][:-LOG_LENGTH]


def coord(action: Action, name: str) -> tuple[int, int]:
    value = action.get(name)
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
        raise IllegalAction(f"'{name}' must be a coordinate [q, r] of two whole numbers.")
    return value[0], value[1]


def _where(c) -> str:
    return f"({c[0]},{c[1]})"


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
            raise IllegalAction(f"Rifugio is played by {D.MIN_PLAYERS} to {D.MAX_PLAYERS} players.")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise IllegalAction("Options must be an object.")
        unknown = sorted(set(options) - set(D.DEFAULT_OPTIONS))
        if unknown:
            raise IllegalAction(f"Unknown option: {unknown[0]}.")
        out = dict(D.DEFAULT_OPTIONS)
        for name, value in options.items():
            if not isinstance(value, bool):
                raise IllegalAction(f"The option '{name}' must be true or false.")
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
            "rafts": [],
            "seats": [{
                "walker": {"at": [0, 0], "raft": None, "swim": None},
                "items": [], "bears": [], "rifugio_cards": 0, "raft_cards": 0,
                "extra_step_cards": 0, "rifugi_left": D.RIFUGI_PER_PLAYER,
                "rafts_left": D.RAFTS_PER_PLAYER[players] if rr else 0,
            } for _ in range(players)],
            "turn": {},
            "log": [],
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
            log(state, f"The {tile_label(tile)} {tile} fits nowhere and goes to the bottom of the stack.")
            if not state["stack"] and all(t in turn["tried"] for t in state["bottom"]):
                state["removed"].extend(state["bottom"])
                log(state, f"No tile left in the stack fits anywhere; {len(state['bottom'])} "
                           f"tile(s) are removed from the game.")
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
        out: list[Action] = []
        here = ctx.at
        for n in sorted(neighbours(here)):
            if ctx.step_error(n) is None:
                out.append({"type": "step", "to": [n[0], n[1]]})
        if ctx.rr and ctx.walker["raft"] is not None and not ctx.swim:
            for t in sorted(river(state["board"], here)):
                if ctx.sail_error(t) is None:
                    out.append({"type": "sail", "to": [t[0], t[1]]})
        if ctx.build_rifugio_error() is None:
            out.append({"type": "build_rifugio"})
        if ctx.rr:
            for n in sorted(neighbours(here)):
                if ctx.build_raft_error(n) is None:
                    out.append({"type": "build_raft", "at": [n[0], n[1]]})
        if ctx.use_extra_step_error() is None:
            out.append({"type": "use_extra_step"})
        if ctx.rr and ctx.swim_precondition_error() is None:
            for via in sorted(neighbours(here)):
                if not is_water(state["board"], via):
                    continue
                for to in sorted(neighbours(via)):
                    if ctx.swim_error(via, to) is None:
                        out.append({"type": "swim", "via": [via[0], via[1]], "to": [to[0], to[1]]})
        if ctx.rr and ctx.continue_swim_error() is None:
            out.append({"type": "continue_swim"})
        out.append({"type": "end_turn"})
        return out

    def apply(self, state: State, seat: int, action: Action) -> State:
        seat = self.check_seat(state, seat)
        kind = check_action_shape(action)
        if kind not in ACTION_KEYS:
            raise IllegalAction(f"Unknown action '{kind}'.")
        extra = sorted(set(action) - ACTION_KEYS[kind])
        missing = sorted(ACTION_KEYS[kind] - set(action))
        if missing:
            raise IllegalAction(f"The action '{kind}' needs '{missing[0]}'.")
        if extra:
            raise IllegalAction(f"The action '{kind}' does not take '{extra[0]}'.")
        if kind in EXPANSION_ACTIONS and not expansion(state):
            raise IllegalAction("That action needs the Rivers & Rafts expansion.")
        if kind == "place_tile":
            q, r = require_int(action, "q"), require_int(action, "r")
            k = require_int(action, "rotation", 0, 5)
            if state["phase"] != "place":
                raise IllegalAction("There is no tile to place now.")
            return self._place(state, seat, q, r, k)
        if state["phase"] != "walk":
            raise IllegalAction("Place your tile first.")
        new = clone(state)
        ctx = _Ctx(new, seat)
        if kind == "step":
            ctx.step(coord(action, "to"))
        elif kind == "sail":
            ctx.sail(coord(action, "to"))
        elif kind == "build_rifugio":
            ctx.build_rifugio()
        elif kind == "build_raft":
            ctx.build_raft(coord(action, "at"))
        elif kind == "use_extra_step":
            ctx.use_extra_step()
        elif kind == "swim":
            ctx.swim_start(coord(action, "via"), coord(action, "to"))
        elif kind == "continue_swim":
            ctx.continue_swim()
        else:
            self._end_turn(new, seat)
        return new

    def _place(self, state: State, seat: int, q: int, r: int, k: int) -> State:
        error = placement_error(state["board"], state["hand"], q, r, k)
        if error:
            raise IllegalAction(error)
        new = clone(state)
        tile = new["hand"]
        new["board"][key(q, r)] = {"tile": tile, "rot": k}
        new["hand"] = None
        turn = new["turn"]
        turn["tiles_to_place"] -= 1
        turn["tried"] = []
        turn["placed"].append(key(q, r))
        log(new, f"Seat {seat + 1} placed a {tile_label(tile)} at {_where((q, r))}.")
        self._draw(new)
        return new

    def _end_turn(self, state: State, seat: int) -> None:
        state["turns_taken"][seat] += 1
        log(state, f"Seat {seat + 1} ended their turn.")
        nxt = (seat + 1) % state["players"]
        if (not state["stack"] and not state["bottom"] and state["hand"] is None
                and nxt == state["first_seat"]):
            state["phase"] = "over"
            state["turn"] = {"tiles_to_place": 0, "steps": 0, "visited_rifugi": [],
                             "visited_rafts": [], "tried": [], "placed": []}
            best = min(self.ranking(state))
            winners = [i for i, rank in enumerate(self.ranking(state)) if rank == best]
            log(state, "The game is over. " + " and ".join(f"Seat {i + 1}" for i in winners)
                + (" win." if len(winners) > 1 else " wins."))
        else:
            self._begin_turn(state, nxt)

    # scoring -------------------------------------------------------------------------------

    def scores(self, state: State) -> list[dict]:
        board = state["board"]
        where = {n["tile"]: parse(k) for k, n in board.items()}
        rr = expansion(state)
        out = []
        for p in state["seats"]:
            items = sum(D.ITEM_VALUE[D.TILES[t]["category"]] for t in p["items"])
            bonus = 0
            if rr:
                for t in p["items"]:
                    if D.TILES[t]["category"] == "WATERFALL" and t in where:
                        bonus += D.WATERFALL_BONUS_PER_WATER * sum(
                            1 for n in neighbours(where[t]) if is_water(board, n))
            held = set(p["items"])
            sets = D.SET_BONUS * sum(1 for c in D.CATEGORIES if set(D.CATEGORY_TILES[c]) <= held)
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
        totals = self.scores(state)
        keys = [(s["total"], p["raft_cards"] if "raft_points" in D.TIEBREAKS else 0)
                for s, p in zip(totals, state["seats"])]
        return competition_ranking(keys)

    # view ----------------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict:
        board = state["board"]
        rivers = rivers_of(board)
        holders: dict[str, list[int]] = {}
        for i, p in enumerate(state["seats"]):
            for t in p["items"] + p["bears"]:
                holders.setdefault(t, []).append(i)
        tiles = []
        for k in sorted(board, key=lambda k: parse(k)[::-1]):
            n = board[k]
            t = D.TILES[n["tile"]]
            q, r = parse(k)
            tiles.append({
                "key": k, "q": q, "r": r, "tile": n["tile"], "rot": n["rot"],
                "kind": t["kind"], "terrain": t["terrain"],
                "sides": "".join(edge_at(n["tile"], n["rot"], s) for s in range(6)),
                "category": t["category"], "name": t["name"], "river": rivers.get(k),
                "rifugio": state["rifugi"].get(k), "holders": holders.get(n["tile"], []),
            })
        scores = self.scores(state)
        ranking = self.ranking(state)
        hand = state["hand"]
        players = []
        for i, p in enumerate(state["seats"]):
            w = p["walker"]
            players.append({
                "seat": i,
                "hiker": {"at": list(w["at"]), "raft": w["raft"],
                          "swim": dict(w["swim"]) if w["swim"] else None},
                "items": list(p["items"]),
                "items_by_category": {c: [t for t in D.CATEGORY_TILES[c] if t in p["items"]]
                                      for c in D.CATEGORIES},
                "bears": list(p["bears"]),
                "rifugio_cards": p["rifugio_cards"], "raft_cards": p["raft_cards"],
                "extra_step_cards": p["extra_step_cards"],
                "rifugi_left": p["rifugi_left"], "rafts_left": p["rafts_left"],
                "turns_taken": state["turns_taken"][i],
                "score": scores[i]["total"], "breakdown": scores[i]["breakdown"],
                "rank": ranking[i],
            })
        turn = state["turn"]
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
            "hand": None if hand is None else {
                "tile": hand, "kind": D.TILES[hand]["kind"], "terrain": D.TILES[hand]["terrain"],
                "edges": D.TILES[hand]["edges"], "category": D.TILES[hand]["category"],
                "name": D.TILES[hand]["name"], "symmetric": D.is_symmetric(hand)},
            "tiles_left": len(state["stack"]) + len(state["bottom"]),
            "removed": list(state["removed"]),
            "geometry": {"layout": "pointy-top axial", "dirs": [list(d) for d in D.DIRS],
                         "side_names": list(D.SIDE_NAMES), "terrain_names": dict(D.TERRAIN_NAMES)},
            "tiles": tiles,
            "frontier": [[q, r] for q, r in frontier(board)],
            "rafts": [{"id": r["id"], "owner": r["owner"], "at": list(r["at"]),
                       "riders": list(r["riders"]), "unmanned": not r["riders"]} for r in state["rafts"]],
            "rifugi": [{"at": list(parse(k)), "owner": o} for k, o in sorted(state["rifugi"].items())],
            "seats": players,
            "scores": scores,
            "ranking": ranking,
            "log": list(state["log"][-20:]),
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
            return "You can only move to a neighbouring tile."
        if key(*to) not in self.board:
            return "There is no tile there to walk onto."
        if is_land(self.board, to):
            return None
        raft = self.rafts.get(tuple(to))
        if raft is None:
            return "You cannot walk on water. Step onto a raft, build one, or swim when stranded."
        if len(raft["riders"]) >= D.RAFT_CAPACITY:
            return "That raft already carries two hikers."
        return None

    def sail_error(self, to) -> str | None:
        if self.walker["raft"] is None:
            return SWIMMING if self.swim else "You are not aboard a raft."
        if self.turn["steps"] < D.SAIL_COST:
            return NO_STEPS
        if tuple(to) == self.at:
            return "Your raft is already there."
        if not is_water(self.board, to) or tuple(to) not in river(self.board, self.at):
            return "That water is not part of your raft's river."
        if tuple(to) in self.rafts:
            return "Another raft lies on that water tile."
        if tuple(to) in self.swimmers:
            return "Someone is swimming there."
        return None

    def build_rifugio_error(self) -> str | None:
        error = self._common(D.BUILD_RIFUGIO_COST)
        if error:
            return error
        if self.walker["raft"] is not None or not is_land(self.board, self.at):
            return "A Rifugio can only be built on land."
        if self.board[key(*self.at)]["tile"] == "START" and not D.RIFUGIO_ON_START_ALLOWED:
            return "No Rifugio may be built on the start tile."
        if key(*self.at) in self.state["rifugi"]:
            return "A Rifugio already stands here."
        if self.me["rifugi_left"] <= 0:
            return "You have no Rifugi left to build."
        return None

    def build_raft_error(self, at) -> str | None:
        if self.swim:
            return SWIMMING
        if self.walker["raft"] is not None and not D.BUILD_RAFT_FROM_RAFT:
            return "Step onto land before building a raft."
        if self.me["rafts_left"] <= 0:
            return "You have no rafts left to build."
        if self.turn["steps"] < D.BUILD_RAFT_COST:
            return "Building a raft needs 2 steps in this turn."
        if distance(self.at, at) != 1:
            return "You can only build a raft on a neighbouring water tile."
        if not is_water(self.board, at):
            return "Rafts can only be built on water."
        if tuple(at) in self.rafts:
            return "Another raft lies on that water tile."
        if tuple(at) in self.swimmers:
            return "Someone is swimming there."
        return None

    def use_extra_step_error(self) -> str | None:
        if self.me["extra_step_cards"] <= 0:
            return "You have no extra-step cards."
        return None

    def continue_swim_error(self) -> str | None:
        if not self.swim:
            return "You are not swimming."
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
            return "You can only start a swim from land."
        if self.turn["steps"] < 1:
            return NO_STEPS
        region = land_region(self.board, self.at)
        self.region = region
        shore = {n for c in region for n in neighbours(c) if is_water(self.board, n)}
        useful: set = set()
        seen: set = set()
        for w in shore:
            if w in seen:
                continue
            body = river(self.board, w)
            seen |= body
            escapes = any(is_land(self.board, n) and n not in region for c in body for n in neighbours(c))
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
            return "A swim must cross a water tile next to your tile."
        if via in self.rafts:
            return "Another raft lies on that water tile."
        if via in self.swimmers and not D.SWIMMERS_SHARE_TILE:
            return "Someone is swimming there."
        if distance(via, to) != 1 or not is_land(self.board, to):
            return "You must swim to a land tile on the far side of that water."
        if D.SWIM_TARGET_OUTSIDE_REGION and to in self.region:
            return "You can walk there: swimming is only for leaving the land you are on."
        return None

    # effects -----------------------------------------------------------------------------

    def _raise(self, error: str | None) -> None:
        if error:
            raise IllegalAction(error)

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
            log(state, f"Seat {seat + 1} collected the {info['name']} card.")
        if info["kind"] == "bear" and tile not in me["bears"]:
            me["bears"].append(tile)
            log(state, f"Seat {seat + 1} met a bear at {_where(c)} (-3).")
        owner = state["rifugi"].get(key(*c))
        if owner is not None and owner != seat and key(*c) not in self.turn["visited_rifugi"]:
            state["seats"][owner]["rifugio_cards"] += 1
            me["extra_step_cards"] += 1
            self.turn["visited_rifugi"].append(key(*c))
            log(state, f"Seat {seat + 1} visited the Rifugio of Seat {owner + 1} at {_where(c)}: "
                       f"Seat {owner + 1} gains a Rifugio card, Seat {seat + 1} an extra step.")

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
            log(state, f"Seat {seat + 1} stepped onto the raft of Seat {owner + 1}: "
                       f"Seat {owner + 1} gains a raft-point card, Seat {seat + 1} an extra step.")
        else:
            log(state, f"Seat {seat + 1} stepped onto a raft at {_where(raft['at'])}.")

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
        carried = [f"Seat {r + 1}" for r in raft["riders"] if r != self.seat]
        log(self.state, f"Seat {self.seat + 1} sailed the raft of Seat {raft['owner'] + 1} to {_where(to)}"
            + (f", carrying {' and '.join(carried)}." if carried else "."))

    def build_rifugio(self) -> None:
        self._raise(self.build_rifugio_error())
        self.turn["steps"] -= D.BUILD_RIFUGIO_COST
        self.state["rifugi"][key(*self.at)] = self.seat
        self.me["rifugi_left"] -= 1
        log(self.state, f"Seat {self.seat + 1} built a Rifugio at {_where(self.at)}.")

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
        log(self.state, f"Seat {self.seat + 1} built a raft at {_where(at)} and stepped aboard.")

    def use_extra_step(self) -> None:
        self._raise(self.use_extra_step_error())
        self.me["extra_step_cards"] -= 1
        self.turn["steps"] += 1
        log(self.state, f"Seat {self.seat + 1} used an extra-step card.")

    def swim_start(self, via, to) -> None:
        self._raise(self.swim_error(via, to))
        self.turn["steps"] -= 1
        self.walker["swim"] = {"from": list(self.at), "via": [via[0], via[1]], "to": [to[0], to[1]],
                               "stage": 1}
        self.walker["at"] = [via[0], via[1]]
        log(self.state, f"Seat {self.seat + 1} started to swim across {_where(via)} towards {_where(to)} (1/4).")

    def continue_swim(self) -> None:
        self._raise(self.continue_swim_error())
        self.turn["steps"] -= 1
        swim = self.walker["swim"]
        swim["stage"] += 1
        if swim["stage"] >= D.SWIM_STAGES:
            to = tuple(swim["to"])
            self.walker["swim"] = None
            self.walker["at"] = [to[0], to[1]]
            log(self.state, f"Seat {self.seat + 1} swam ashore at {_where(to)}.")
            self._enter_land(to)
        else:
            log(self.state, f"Seat {self.seat + 1} keeps swimming ({swim['stage']}/4).")


RULES = Rifugio()
