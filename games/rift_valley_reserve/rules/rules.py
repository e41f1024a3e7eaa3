"""Rift Valley Reserve rules (shared/rules/rift_valley_reserve.md): the turn flow.

Every turn all seats draw at once, each on the map it holds, and the maps then move one
seat on. A submission stays in `state["pending"]` (hidden by `view`) until every asked
seat has drawn; then all are applied together. `apply` never changes its input: it
copies the few containers it changes and shares the rest with the input, which is safe
because nothing here ever edits a state in place.
"""
from __future__ import annotations

import random

from typing import Any

from games.rules.base import (Action, IllegalAction, Ruleset, State, _, check_action_shape, competition_ranking,
                              gettext_noop, rng_for)
from .determinize import determinize
from . import data
from .board import (CATEGORIES, Cell, draw, final_turn_for, has_draw, held_map, is_full, legal_draws,
                    new_map, rescore, score_map, stop_error, tent_error, total, trail_action, trail_error)
from .view import build_view

ACTION_KEYS = {
    "stop": {"type", "cell"},
    "tent": {"type", "cell"},
    "trail": {"type", "from", "to", "corner"},
    "pass": {"type"},
}
NOT_UNDERSTOOD = gettext_noop("That move is not understood.")
AUTO_PASS = {"type": "pass", "auto": True}


def draw_event(seat: int, turn: int, map_index: int, move: Action) -> dict:
    """What a seat drew (or that it passed) in a resolved turn, as data: the action's own
    fields plus who, when and on which map."""
    event = {"seat": seat, "turn": turn, "map": map_index, **move}
    if move["type"] == "pass":
        event["auto"] = bool(move.get("auto"))
    return event


# --- The ruleset ----------------------------------------------------------------------

class RiftValleyReserve(Ruleset):
    slug = "rift-valley-reserve"
    title = "Rift Valley Reserve"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    version = "1"

    # Options and setup ----------------------------------------------------------------

    def default_options(self) -> dict:
        return {"boards": data.DEFAULT_BOARDS}

    def validate_options(self, players: int, options: dict | None) -> dict:
        if isinstance(players, bool) or not isinstance(players, int) \
                or not self.min_players <= players <= self.max_players:
            raise IllegalAction(_("Rift Valley Reserve is for %(low)s to %(high)s players.")
                                % {"low": self.min_players, "high": self.max_players})
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise IllegalAction(_("The options must be an object."))
        unknown = sorted(str(k) for k in options if k not in self.default_options())
        if unknown:
            raise IllegalAction(_("Unknown option: %(names)s.") % {"names": ", ".join(unknown)})
        out = dict(self.default_options(), **options)
        if out["boards"] not in data.BOARD_SETS:
            raise IllegalAction(_("The board set must be \"identical\" or \"asymmetrical\"."))
        return out

    def setup(self, players: int, options: dict | None, seed: int) -> State:
        options = self.validate_options(players, options)
        if options["boards"] == "identical":
            ids = [data.IDENTICAL_MAP] * players
        else:
            pool = list(data.ASYMMETRICAL_POOL)
            rng_for(seed, "deal").shuffle(pool)
            ids = pool[:players]
        state = {
            "seed": seed, "players": players, "options": options, "turn": 1,
            "maps": [new_map(map_id, b) for b, map_id in enumerate(ids)],
            "asked": [], "pending": {}, "trigger_turn": None, "final_turn": None,
            "events": [], "over": False,
            # Running per-map, per-seat breakdowns, updated by each draw (board.rescore).
            "map_scores": [score_map(new_map(map_id, b), players) for b, map_id in enumerate(ids)],
        }
        state["asked"] = self.asked_seats(state)
        return state

    def asked_seats(self, state: State) -> list[int]:
        """The seats with at least one legal draw this turn (the others pass unasked, D12)."""
        n, turn = state["players"], state["turn"]
        if not data.AUTO_PASS:
            return list(range(n))
        return [s for s in range(n) if has_draw(state["maps"][held_map(s, turn, n)], s, turn)]

    # Turn flow ------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return bool(state["over"])

    def to_act(self, state: State) -> list[int]:
        if state["over"]:
            return []
        pending = state["pending"]
        return [s for s in state["asked"] if str(s) not in pending]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.to_act(state):
            return []
        n, turn = state["players"], state["turn"]
        actions = legal_draws(state["maps"][held_map(seat, turn, n)], seat, turn)
        if state["trigger_turn"] is not None:
            actions.append({"type": "pass"})
        return actions

    def _seat_may_act(self, state: State, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["players"]:
            raise IllegalAction(_("That is not a seat at this table."))
        if state["over"]:
            raise IllegalAction(_("The game is over."))
        if str(seat) in state["pending"]:
            raise IllegalAction(_("You have already drawn this turn."))
        if seat not in state["asked"]:
            raise IllegalAction(_("There is nothing for you to draw this turn."))
        return seat

    def _cell(self, action: Action, name: str, m: dict) -> Cell:
        value = action.get(name)
        if (not isinstance(value, list) or len(value) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
            raise IllegalAction(_(NOT_UNDERSTOOD))
        r, c = value
        if not (0 <= r < m["rows"] and 0 <= c < m["cols"]):
            raise IllegalAction(_("That square is not on the map."))
        return r, c

    def canonical(self, state: State, seat: int, action: Any) -> Action:
        """The action in its canonical form when it is legal for this seat now, else
        IllegalAction with the reason (checked against the start-of-turn map)."""
        kind = check_action_shape(action)
        if kind not in ACTION_KEYS or set(action) != ACTION_KEYS[kind]:
            raise IllegalAction(_(NOT_UNDERSTOOD))
        seat = self._seat_may_act(state, seat)
        n, turn = state["players"], state["turn"]
        m = state["maps"][held_map(seat, turn, n)]
        if kind == "pass":
            if state["trigger_turn"] is None:
                raise IllegalAction(_("You can pass only once the end of the game has been triggered."))
            return {"type": "pass"}
        if kind in ("stop", "tent"):
            r, c = self._cell(action, "cell", m)
            if kind == "stop":
                error = stop_error(m, seat, r, c, turn)
            else:
                error = tent_error(m, r, c, turn)
            if error:
                raise IllegalAction(_(error))
            return {"type": kind, "cell": [r, c]}
        a = self._cell(action, "from", m)
        b = self._cell(action, "to", m)
        corner = None if action["corner"] is None else self._cell(action, "corner", m)
        if b < a:
            a, b = b, a
        error = trail_error(m, seat, a, b, corner, turn)
        if error:
            raise IllegalAction(_(error))
        return trail_action(a, b, corner)

    def apply(self, state: State, seat: int, action: Action) -> State:
        move = self.canonical(state, seat, action)
        out = dict(state)
        out["pending"] = dict(state["pending"], **{str(seat): move})
        if all(str(s) in out["pending"] for s in out["asked"]):
            out = self._resolve(out)
        return out

    def undoable(self, before: State, seat: int, action: Action, after: State) -> bool:
        """A draw may be taken back while it is still pending (spec 15.2 "Take back"):
        until the turn resolves nobody else has seen it (5.3 step 3) and nothing anyone
        else chose depends on it. Once the last asked seat has drawn, every draw of the
        turn is public and the maps have moved on, so it stands."""
        return (not after["over"] and after["turn"] == before["turn"]
                and str(seat) in after["pending"] and str(seat) not in before["pending"])

    def _resolve(self, state: State) -> State:
        """Apply every pending draw at once, record the turn, check the end, and start the
        next turn (turns with nobody to ask resolve at once, spec 5.3 step 8)."""
        n = state["players"]
        events = list(state.get("events", ()))  # none in a state saved with the English `history`
        maps = list(state["maps"])
        map_scores = list(self.map_scores(state))
        while True:
            turn = state["turn"]
            pending = state["pending"]
            for s in range(n):
                move = pending.get(str(s), AUTO_PASS)
                b = held_map(s, turn, n)
                events.append(draw_event(s, turn, b, move))
                if move["type"] != "pass":
                    map_scores[b] = rescore(maps[b], map_scores[b], s, move)
                    maps[b] = draw(maps[b], s, move)
            state = dict(state, maps=maps, map_scores=map_scores, events=events, pending={})
            if state["trigger_turn"] is None and sum(1 for m in maps if is_full(m)) >= data.END_TRIGGER_FULL_MAPS[n]:
                state["trigger_turn"] = turn
                state["final_turn"] = final_turn_for(turn, n)
                events.append({"type": "end_triggered", "seat": None, "turn": turn,
                               "final_turn": state["final_turn"], "full_maps": data.END_TRIGGER_FULL_MAPS[n]})
            if state["final_turn"] is not None and turn >= state["final_turn"]:
                state["over"] = True
                state["asked"] = []
                return state
            state["turn"] = turn + 1
            state["asked"] = self.asked_seats(state)
            if state["asked"]:
                return state
            if state["trigger_turn"] is None:
                # Unreachable under the spec (7.3); never wait on nobody.
                state["trigger_turn"] = turn
                state["final_turn"] = final_turn_for(turn, n)

    # Scores ---------------------------------------------------------------------------

    def map_scores(self, state: State) -> list[list[dict]]:
        """[map][seat] breakdowns of the resolved maps (kept up to date by each turn; worked
        out from the maps for a state saved before they were kept)."""
        if "map_scores" not in state:
            return [score_map(m, state["players"]) for m in state["maps"]]
        return state["map_scores"]

    def totals_of(self, per_map: list[list[dict]], n: int) -> list[dict]:
        out = []
        for s in range(n):
            breakdown = {c: sum(scores[s][c] for scores in per_map) for c in CATEGORIES}
            out.append({"total": total(breakdown), "breakdown": breakdown})
        return out

    def scores(self, state: State) -> list[dict]:
        return self.totals_of(self.map_scores(state), state["players"])

    @staticmethod
    def rank_scores(scores: list[dict]) -> list[int]:
        return competition_ranking([(e["total"], *(e["breakdown"][k] for k in data.TIE_BREAKS))
                                    for e in scores])

    def ranking(self, state: State) -> list[int]:
        return self.rank_scores(self.scores(state))

    # View -----------------------------------------------------------------------------

    def stage(self, state: State) -> str:
        if state["over"]:
            return "over"
        if state["trigger_turn"] is not None:
            return "final"
        return "opening" if state["turn"] == data.OPENING_TURN else "main"

    # A game saved before `events` replaced the English `history` (and before `map_scores`
    # and a map's `empty` count were kept) keeps playing: the rules read the missing events
    # as none and work the rest out from the maps (docs/rules-versions.md).
    def older_shape(self, state: State) -> bool:
        return "history" in state

    def comparable(self, state: State) -> State:
        maps = [{k: v for k, v in m.items() if k != "empty"} for m in state["maps"]]
        return {**{k: v for k, v in state.items() if k not in ("history", "events", "map_scores")}, "maps": maps}

    def seat_turn(self, state: State, seat: int | None) -> str:
        """The turn decides everything a seat draws on: the map it holds changes every turn
        (the maps rotate), and nothing another seat submits this turn is visible or matters
        to it before the turn resolves (spec 5.3)."""
        if state["over"]:
            return "over"
        n, turn = state["players"], state["turn"]
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n:
            return f"t{turn}.m{held_map(seat, turn, n)}"
        return f"t{turn}"

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """What `seat` cannot see, drawn afresh (see determinize.py)."""
        return determinize(state, seat, rng)

    def view(self, state: State, seat: int | None) -> dict:
        return build_view(self, state, seat)
