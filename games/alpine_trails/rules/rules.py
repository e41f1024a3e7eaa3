"""Alpine Trails rules (shared/rules/alpine_trails.md): a simultaneous tile-laying game.

Every seat plays each round at the same time on its own map; nothing a seat does is
seen by, or changes anything for, another seat until the last `done` resolves the round.
"""
from __future__ import annotations

import random

from typing import Any

from games.rules.base import (
    IllegalAction, Ruleset, _, check_action_shape, competition_ranking, gettext_noop, ngettext, require_int, rng_for,
)

from .determinize import determinize
from . import board as B
from .board import solo_title
from .data import (
    ACTION_ORDER, ANIMAL_OF, BASE_CAMP_SQUARES, BASE_CAMPS, CAMPSITE_MIN_MILES, CAMPSITES_PER_ROUND,
    EVENTS_KEEP, GOAL_IDS, TERRAIN_OF_ANIMAL, TERRAINS, TILE_IDS, TILES, TILES_BY_PLAYERS, TILES_PER_ROUND,
)
from .view import build_view

__all__ = ["RULES", "AlpineTrails", "solo_title"]

PLACE_KEYS = {"trail": {"type", "tile", "side", "x", "y", "rotation"},
              "terrain": {"type", "tile", "side", "x", "y"}}
ACTION_KEYS = {"campsite": {"type", "discard", "x", "y"}, "waterfall": {"type", "x", "y"},
               "animal": {"type", "animal", "x", "y"}, "discard": {"type", "tile"},
               "trade_fork": {"type", "tile"}, "done": {"type"}}

# Refusals are shown to the player: kept English here, raised as _(MSG_...) so they read in
# the language active where the action is refused.
MSG_NOT_IN_HAND = gettext_noop("That tile is not one of your drawn tiles.")
MSG_TAKEN = gettext_noop("That square is already taken.")
MSG_NOT_TOUCHING = gettext_noop("A tile must touch your map along an edge.")
MSG_UNLINKED = gettext_noop("A trail must join your base camp, a campsite or a trail already on your map.")
MSG_CONFLICT = gettext_noop("That would run a trail into the side of a tile.")
MSG_TARGETED = gettext_noop("That square is at the end of a trail. Only a trail or a campsite can go there.")
MSG_WATERFALL_FIRST = gettext_noop("Place your waterfall first.")

# One sentence per animal (each animal lives on one terrain), so every language can
# give each its own article and case.
MSG_NO_ANIMAL = {
    "bear": gettext_noop("You have no bear to place."),
    "goat": gettext_noop("You have no goat to place."),
    "wolf": gettext_noop("You have no wolf to place."),
    "moose": gettext_noop("You have no moose to place."),
}
MSG_ANIMAL_TERRAIN = {
    "bear": gettext_noop("A bear can only go on a forest tile placed terrain side up."),
    "goat": gettext_noop("A goat can only go on a rock tile placed terrain side up."),
    "wolf": gettext_noop("A wolf can only go on a meadow tile placed terrain side up."),
    "moose": gettext_noop("A moose can only go on a wetland tile placed terrain side up."),
}


# --- helpers ---------------------------------------------------------------------------

def _yx(cell):
    return (cell[1], cell[0])


def placements(board: B.Board) -> dict:
    """Every legal spot on a board: terrain/waterfall cells, trail (cell, rotation, links)
    per shape, and the targeted cells; all in reading order."""
    front = sorted(B.frontier(board), key=_yx)
    open_cells: list[B.Cell] = []
    targeted: list[B.Cell] = []
    trail: dict[str, list[tuple[B.Cell, int, int]]] = {"I": [], "L": [], "T": []}
    for cell in front:
        face = B.faces(board, cell)
        if B.HARD in face:
            targeted.append(cell)
        else:
            open_cells.append(cell)
        for shape, fits in B.trail_fits(face).items():
            trail[shape].extend((cell, r, links) for r, links in fits)
    return {"open": open_cells, "trail": trail, "targeted": targeted}


def tile_fits(board: B.Board, tile_id: str, spots: dict | None = None) -> bool:
    spots = spots or placements(board)
    return bool(spots["open"] or spots["trail"][TILES[tile_id]["shape"]])


def seat_actions(state: dict, seat: int) -> list[dict]:
    """The canonical legal list of §10 for a seat that is to act."""
    s = state["seats"][seat]
    board = B.parse(s["map"])
    if s["waterfalls_pending"] > 0:
        return [{"type": "waterfall", "x": x, "y": y} for x, y in B.waterfall_cells(board)]
    hand = sorted(s["hand"])
    places: list[dict] = []
    campsites: list[dict] = []
    animals: list[dict] = []
    trades: list[dict] = []
    discards: list[dict] = []
    if hand:
        spots = placements(board)
        for tile_id in hand:
            for x, y in spots["open"]:
                places.append({"type": "place", "tile": tile_id, "side": "terrain", "x": x, "y": y})
            for (x, y), r, _links in spots["trail"][TILES[tile_id]["shape"]]:
                places.append({"type": "place", "tile": tile_id, "side": "trail", "x": x, "y": y,
                               "rotation": r})
            if not tile_fits(board, tile_id, spots):
                discards.append({"type": "discard", "tile": tile_id})
            if state["solo"] and TILES[tile_id]["shape"] == "T":
                trades.append({"type": "trade_fork", "tile": tile_id})
        if _campsites_left(s):
            cells = [c for c in spots["targeted"] if B.campsite_ok(board, c)[0]]
            for tile_id in hand:
                campsites.extend({"type": "campsite", "discard": tile_id, "x": x, "y": y} for x, y in cells)
    for animal in sorted(set(s["animals"])):
        animals.extend({"type": "animal", "animal": animal, "x": x, "y": y}
                       for x, y in B.animal_cells(board, animal))
    done = [] if hand else [{"type": "done"}]
    return places + campsites + animals + trades + discards + done


def _campsites_left(s: dict) -> bool:
    return (0 if not s["campsite_used"] else 1) < CAMPSITES_PER_ROUND


def drop_unplaceable_waterfalls(s: dict, board: B.Board) -> None:
    """D11: a pending waterfall with no legal cell is lost, so a seat is never stuck."""
    if s["waterfalls_pending"] > 0 and not B.waterfall_cells(board):
        _seat_event(s, "waterfall_lost", count=s["waterfalls_pending"])
        s["waterfalls_pending"] = 0


def loops_closed(links: int) -> int:
    """D10: a placement making k links closes k - 1 loops (the network is connected)."""
    return max(0, links - 1)


def _int_cell(action: dict) -> tuple[int, int]:
    return require_int(action, "x"), require_int(action, "y")


def _check_keys(action: dict, allowed: set) -> None:
    extra = sorted(str(k) for k in action if k not in allowed)
    if extra:
        raise IllegalAction(_("Unknown field '%(field)s' in this action.") % {"field": extra[0]})
    missing = sorted(k for k in allowed if k not in action)
    if missing:
        raise IllegalAction(_("This action needs a '%(field)s'.") % {"field": missing[0]})


def _hand_tile(s: dict, value: Any) -> str:
    if not isinstance(value, str) or value not in s["hand"]:
        raise IllegalAction(_(MSG_NOT_IN_HAND))
    return value


def _empty_touching(board: B.Board, cell) -> None:
    if cell in board:
        raise IllegalAction(_(MSG_TAKEN))
    if not any(B.step(cell, d) in board for d in range(4)):
        raise IllegalAction(_(MSG_NOT_TOUCHING))


def _publish(s: dict) -> None:
    """Snapshot what the others may see. Pieces are never changed in place once placed
    (`_do_animal` replaces its piece), so the snapshot may share them with the live map."""
    s["public"] = {"map": dict(s["map"]), "animals": list(s["animals"]), "out": list(s["out"])}


def _copy_for(state: dict, seat: int, resolving: bool) -> dict:
    """A copy of the state that `apply` may change for this seat.

    Within a round only the acting seat's private part changes, so the other seats and
    every public snapshot are shared with the input (they are never changed in place;
    `_publish` replaces a snapshot wholesale). Placed pieces and recorded events are never
    changed in place either, so a map is copied one level deep, never piece by piece: the
    cost of a move does not grow with the maps. A resolving `done` changes every seat.
    """
    new = dict(state)
    if resolving:
        new["events"] = list(state.get("events", ()))  # none in a state saved with the English `log`
        new["bag"] = list(state["bag"])
        new["history"] = list(state["history"])
        new["seats"] = [_seat_copy(s) for s in state["seats"]]
        return new
    seats = list(state["seats"])
    seats[seat] = _seat_copy(seats[seat])
    new["seats"] = seats
    return new


def _seat_copy(s: dict) -> dict:
    """A seat whose lists and map may be changed without touching `s` (pieces are shared)."""
    return {k: (v if k == "public" else dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
            for k, v in s.items()}


def _event(state: dict, kind: str, seat: int | None = None, **data: Any) -> None:
    """Record what happened, as data (the presenter's `describe` puts it into words)."""
    state["events"].append({"type": kind, "seat": seat, "turn": state["round"], **data})
    if len(state["events"]) > EVENTS_KEEP:
        del state["events"][: len(state["events"]) - EVENTS_KEEP]


def _seat_event(s: dict, kind: str, **data: Any) -> None:
    """A seat's own move this round: private until the round resolves (D20). The seat and
    turn are filled in when it is published."""
    s.setdefault("round_events", []).append({"type": kind, **data})  # a seat saved with `round_log` has none


def _draw(state: dict) -> None:
    """D25: at the start of a round each seat, in seat order, draws 2 tiles from the bag.
    The draw is random at the moment it happens (nothing future is stored)."""
    rng = rng_for(state["seed"], "draw", state["round"])
    for s in state["seats"]:
        for _draw_n in range(TILES_PER_ROUND):
            if state["bag"]:
                s["hand"].append(state["bag"].pop(rng.randrange(len(state["bag"]))))
        s["hand"].sort()


def end_game(state: dict) -> None:
    """§7: held animals are placed automatically (D27), lakes fill every open end."""
    for i, s in enumerate(state["seats"]):
        board = B.parse(s["map"])
        held = []
        for animal in s["animals"]:
            cells = B.animal_cells(board, animal)
            if cells:
                piece = {**board[cells[0]], "animal": animal}
                board[cells[0]] = piece
                s["map"][B.cell_key(cells[0])] = piece
            else:
                held.append(animal)
        placed = len(s["animals"]) - len(held)
        s["animals"] = held
        lakes = B.targeted_cells(board)
        for cell in lakes:
            s["map"][B.cell_key(cell)] = {"kind": "lake"}
        if placed:
            _event(state, "end_animals", i, count=placed)
        _event(state, "lakes", i, count=len(lakes))
        _publish(s)
    state["phase"] = "over"
    totals = [entry["total"] for entry in final_scores(state)]
    best = max(totals)
    _event(state, "game_over", None, winners=[i for i, t in enumerate(totals) if t == best], points=best,
           solo=state["solo"])


def resolve_round(state: dict) -> None:
    """§5.3: gifts (multiplayer), publish every map, reset flags, draw or end."""
    seats = state["seats"]
    gifts = []
    for i, s in enumerate(seats):
        for event in s.get("round_events", ()):
            _event(state, event["type"], i, **{k: v for k, v in event.items() if k != "type"})
    if not state["solo"]:
        for giver, s in enumerate(seats):
            for terrain in s["round_forks"]:
                animal = ANIMAL_OF[terrain]
                for taker, other in enumerate(seats):
                    if taker == giver or animal in other["animals"]:
                        continue
                    if any(p.get("animal") == animal for p in other["map"].values()):
                        continue
                    other["animals"].append(animal)
                    gifts.append({"from": giver, "to": taker, "animal": animal})
                    _event(state, "gift", giver, to=taker, animal=animal, terrain=terrain)
    state["history"].append({"round": state["round"], "gifts": gifts,
                             "out": {str(i): list(s["round_out"]) for i, s in enumerate(seats)}})
    for s in seats:
        _publish(s)
        s["done"] = False
        s["campsite_used"] = False
        s["round_forks"] = []
        s["round_out"] = []
        s["round_events"] = []
        s.pop("round_log", None)  # the English record of a state saved before `events`
    if state["round"] >= state["rounds"] or len(state["bag"]) < TILES_PER_ROUND * len(seats):
        end_game(state)
    else:
        state["round"] += 1
        _draw(state)
        _event(state, "round_start", None, rounds=state["rounds"])


def final_scores(state: dict) -> list[dict]:
    return [B.score_map(s["map"], s["goal"]) for s in state["seats"]]


def public_scores(state: dict) -> list[dict]:
    """D26: during play, public maps with provisional lakes and the goal hidden (0)."""
    return [B.score_map(s["public"]["map"], None) for s in state["seats"]]


def rank_of(scores: list[dict]) -> list[int]:
    """D21 (TIE_BREAKS): total, then longest path, then habitat sum; then shared."""
    keys = [(sc["total"], sc["breakdown"]["longest_path"],
             sum(sc["breakdown"][f"habitat_{t}"] for t in TERRAINS)) for sc in scores]
    return competition_ranking(keys)


# --- the ruleset -----------------------------------------------------------------------

def _moves_this_round(s: dict) -> int:
    """The seat's own moves this round (a seat saved before `events` counted them in `round_log`)."""
    return len(s.get("round_log", ())) + len(s.get("round_events", ()))


class AlpineTrails(Ruleset):
    slug = "alpine-trails"
    title = "Alpine Trails"
    min_players = 1
    max_players = 5
    version = "1"

    def default_options(self) -> dict:
        return {}

    def validate_options(self, players: int, options: dict | None) -> dict:
        if isinstance(players, bool) or not isinstance(players, int) \
                or not self.min_players <= players <= self.max_players:
            raise IllegalAction(_("Alpine Trails is for %(low)s to %(high)s players.")
                                % {"low": self.min_players, "high": self.max_players})
        if options is None:
            return {}
        if not isinstance(options, dict):
            raise IllegalAction(_("Options must be an object."))
        for key in options:
            raise IllegalAction(_("Alpine Trails has no option '%(option)s'.") % {"option": key})
        return {}

    def setup(self, players: int, options: dict | None, seed: int) -> dict:
        self.validate_options(players, options)
        rng = rng_for(seed, "setup")
        ids = list(TILE_IDS)
        rng.shuffle(ids)                                      # tiles, then camps, then goals
        bag = sorted(ids[: TILES_BY_PLAYERS[players]])        # the rest stay in the box
        camps = rng.sample(sorted(BASE_CAMPS), players)
        goals = rng.sample(list(GOAL_IDS), players)
        seats = []
        for i in range(players):
            camp = camps[i]
            map_ = {}
            for (square, x, y), terrain in zip(BASE_CAMP_SQUARES, BASE_CAMPS[camp], strict=True):
                map_[f"{x},{y}"] = {"kind": "basecamp", "camp": camp, "square": square,
                                    "terrain": terrain, "icons": 1}
            seat = {"base_camp": camp, "goal": goals[i], "hand": [], "map": map_, "animals": [],
                    "waterfalls_pending": 0, "campsite_used": False, "done": False,
                    "round_forks": [], "out": [], "round_out": [], "round_events": []}
            _publish(seat)
            seats.append(seat)
        state = {"rules_version": self.version, "players": players, "solo": players == 1,
                 "phase": "play", "round": 1,
                 "rounds": TILES_BY_PLAYERS[players] // (TILES_PER_ROUND * players),
                 "seed": seed, "bag": bag, "seats": seats, "history": [], "events": []}
        _event(state, "round_start", None, rounds=state["rounds"])
        _draw(state)
        return state

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"

    def undoable(self, before: dict, seat: int, action: dict, after: dict) -> bool:
        """§5.5: a seat's moves touch no one else and reveal nothing until the round
        resolves, so any move that did not resolve it (new draws, gifts) may be taken back."""
        return after["phase"] == "play" and after["round"] == before["round"]

    def seat_turn(self, state: dict, seat: int) -> str:
        """The round and how many moves the seat itself has made in it: another seat's
        moves in the same round never change it (they are hidden until the round resolves)."""
        if not self._valid_seat(state, seat) or state["phase"] != "play":
            return f"{state['phase']}-r{state['round']}"
        return f"r{state['round']}.{_moves_this_round(state['seats'][seat])}"

    # A game saved before `events` replaced the English `log` (and a seat's `round_log`) keeps
    # playing: the rules read the missing events as none (docs/rules-versions.md).
    def older_shape(self, state: dict) -> bool:
        return "log" in state

    def comparable(self, state: dict) -> dict:
        seats = [{k: v for k, v in s.items() if k not in ("round_log", "round_events")} for s in state["seats"]]
        return {**{k: v for k, v in state.items() if k not in ("log", "events")}, "seats": seats}

    def to_act(self, state: dict) -> list[int]:
        if state["phase"] != "play":
            return []
        return [i for i, s in enumerate(state["seats"]) if not s["done"]]

    def _valid_seat(self, state: dict, seat: Any) -> bool:
        return not isinstance(seat, bool) and isinstance(seat, int) and 0 <= seat < state["players"]

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if not self._valid_seat(state, seat) or seat not in self.to_act(state):
            return []
        return seat_actions(state, seat)

    # apply ------------------------------------------------------------------------------

    def apply(self, state: dict, seat: int, action: dict) -> dict:
        if not self._valid_seat(state, seat):
            raise IllegalAction(_("That is not a seat at this table."))
        if self.is_over(state):
            raise IllegalAction(_("The game is over."))
        if state["seats"][seat]["done"]:
            raise IllegalAction(_("You have finished this round. Waiting for the other players."))
        kind = check_action_shape(action)
        if kind not in ACTION_ORDER:
            raise IllegalAction(_("Unknown action."))
        mine = state["seats"][seat]
        if kind != "waterfall" and mine["waterfalls_pending"] > 0:
            raise IllegalAction(_(MSG_WATERFALL_FIRST))
        if kind == "place":
            side = action.get("side")
            if side not in ("trail", "terrain") or not isinstance(side, str):
                raise IllegalAction(_("Choose the trail side or the terrain side."))
            if side == "terrain" and "rotation" in action:
                raise IllegalAction(_("The terrain side has no rotation."))
            _check_keys(action, PLACE_KEYS[side])
        else:
            _check_keys(action, ACTION_KEYS[kind])
        new = _copy_for(state, seat, resolving=kind == "done" and self.to_act(state) == [seat])
        s = new["seats"][seat]
        getattr(self, f"_do_{kind}")(new, s, action)
        if kind == "done" and not self.to_act(new):
            resolve_round(new)
        return new

    def _do_place(self, state, s, action):
        tile_id = _hand_tile(s, action["tile"])
        x, y = _int_cell(action)
        board = B.parse(s["map"])
        cell = (x, y)
        tile = TILES[tile_id]
        if action["side"] == "trail":
            r = require_int(action, "rotation", 0, 3)
            _empty_touching(board, cell)
            problem, links = B.trail_fit(B.faces(board, cell), B.EXITS[(tile["shape"], r)])
            if problem == "conflict":
                raise IllegalAction(_(MSG_CONFLICT))
            if problem is not None:
                raise IllegalAction(_(MSG_UNLINKED))
            piece = {"kind": "trail", "tile": tile_id, "rotation": r}
            loops = loops_closed(links)
            s["waterfalls_pending"] += loops
            _seat_event(s, "place", tile=tile_id, side="trail", x=x, y=y, rotation=r, loops=loops)
            if tile["shape"] == "T" and not state["solo"]:
                s["round_forks"].append(tile["terrain"])
        else:
            _empty_touching(board, cell)
            if B.HARD in B.faces(board, cell):
                raise IllegalAction(_(MSG_TARGETED))
            piece = {"kind": "terrain", "tile": tile_id}
            _seat_event(s, "place", tile=tile_id, side="terrain", x=x, y=y)
        s["hand"].remove(tile_id)
        s["map"][B.cell_key(cell)] = piece
        board[cell] = piece
        drop_unplaceable_waterfalls(s, board)

    def _do_campsite(self, state, s, action):
        tile_id = _hand_tile(s, action["discard"])
        if not _campsites_left(s):
            raise IllegalAction(_("You have already made a campsite this round."))
        x, y = _int_cell(action)
        board = B.parse(s["map"])
        cell = (x, y)
        _empty_touching(board, cell)
        face = B.faces(board, cell)
        if B.HARD not in face:
            raise IllegalAction(_("A campsite must go at the end of a trail."))
        ok, distance = B.campsite_ok(board, cell)
        if not ok:
            raise IllegalAction(ngettext(
                "This spot is only %(distance)s mile by trail from the nearest campsite or base camp. "
                "A campsite needs at least %(needed)s.",
                "This spot is only %(distance)s miles by trail from the nearest campsite or base camp. "
                "A campsite needs at least %(needed)s.", distance or 0,
            ) % {"distance": distance, "needed": CAMPSITE_MIN_MILES})
        links = sum(1 for f in face if f == B.HARD)
        loops = loops_closed(links)
        s["hand"].remove(tile_id)
        s["out"].append(tile_id)
        s["round_out"].append(tile_id)
        s["campsite_used"] = True
        s["waterfalls_pending"] += loops
        piece = {"kind": "campsite"}
        s["map"][B.cell_key(cell)] = piece
        board[cell] = piece
        _seat_event(s, "campsite", x=x, y=y, miles=distance, tile=tile_id, loops=loops)
        drop_unplaceable_waterfalls(s, board)

    def _do_waterfall(self, state, s, action):
        if s["waterfalls_pending"] <= 0:
            raise IllegalAction(_("You have no waterfall to place."))
        x, y = _int_cell(action)
        board = B.parse(s["map"])
        cell = (x, y)
        _empty_touching(board, cell)
        if B.HARD in B.faces(board, cell):
            raise IllegalAction(_("A waterfall may not block the end of a trail."))
        piece = {"kind": "waterfall"}
        s["map"][B.cell_key(cell)] = piece
        board[cell] = piece
        s["waterfalls_pending"] -= 1
        _seat_event(s, "waterfall", x=x, y=y)
        drop_unplaceable_waterfalls(s, board)

    def _do_animal(self, state, s, action):
        animal = action["animal"]
        if not isinstance(animal, str) or animal not in TERRAIN_OF_ANIMAL:
            raise IllegalAction(_("There is no animal called %(animal)s.") % {"animal": repr(animal)}
                                if isinstance(animal, str) else _("Name the animal to place."))
        if animal not in s["animals"]:
            raise IllegalAction(_(MSG_NO_ANIMAL[animal]))
        x, y = _int_cell(action)
        piece = s["map"].get(f"{x},{y}")
        terrain = TERRAIN_OF_ANIMAL[animal]
        if piece is None or piece["kind"] != "terrain" or TILES[piece["tile"]]["terrain"] != terrain:
            raise IllegalAction(_(MSG_ANIMAL_TERRAIN[animal]))
        if piece.get("animal"):
            raise IllegalAction(_("That tile already has an animal."))
        s["map"][f"{x},{y}"] = {**piece, "animal": animal}
        s["animals"].remove(animal)
        _seat_event(s, "animal", animal=animal, x=x, y=y)

    def _do_discard(self, state, s, action):
        tile_id = _hand_tile(s, action["tile"])
        if tile_fits(B.parse(s["map"]), tile_id):
            raise IllegalAction(_("This tile still fits on your map, so you cannot discard it."))
        s["hand"].remove(tile_id)
        s["out"].append(tile_id)
        s["round_out"].append(tile_id)
        _seat_event(s, "discard", tile=tile_id)

    def _do_trade_fork(self, state, s, action):
        tile_id = _hand_tile(s, action["tile"])
        if not state["solo"] or TILES[tile_id]["shape"] != "T":
            raise IllegalAction(_("Only a fork can be traded for an animal, and only in a solo game."))
        animal = ANIMAL_OF[TILES[tile_id]["terrain"]]
        s["hand"].remove(tile_id)
        s["out"].append(tile_id)
        s["round_out"].append(tile_id)
        s["animals"].append(animal)
        _seat_event(s, "trade_fork", tile=tile_id, animal=animal)

    def _do_done(self, state, s, action):
        if s["hand"]:
            raise IllegalAction(_("Deal with both drawn tiles before finishing the round."))
        s["done"] = True

    # scores and view ---------------------------------------------------------------------

    def determinize(self, state: dict, seat: int, rng: random.Random) -> dict:
        """What `seat` cannot see, drawn afresh (see determinize.py)."""
        return determinize(state, seat, rng)

    def scores(self, state: dict) -> list[dict]:
        return final_scores(state) if self.is_over(state) else public_scores(state)

    def ranking(self, state: dict) -> list[int]:
        return rank_of(self.scores(state))

    def view(self, state: dict, seat: int | None) -> dict:
        viewer = seat if self._valid_seat(state, seat) else None
        return build_view(self, state, viewer)


RULES = AlpineTrails()
