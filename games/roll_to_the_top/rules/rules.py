"""Roll to the Top: Journeys — the pure rules (shared/rules/roll_to_the_top.md).

Phases in the state: "write" (simultaneous), "action" (the resolver), "over". ROLL and
RESOLVE are automatic steps inside setup/apply. Every random event draws from
rng_for(seed, <event>, game, turn) at the moment it happens, so the state never holds
future dice.
"""
from __future__ import annotations

import random

from itertools import combinations
from typing import Any

from games.rules.base import (
    IllegalAction,
    Ruleset,
    State,
    _,
    check_action_shape,
    clone,
    competition_ranking,
    gettext_noop,
    rng_for,
)

from .determinize import determinize
from . import data as D
from .data import (
    ACTION_FACES,
    AUTO_DONE,
    BOARD_ORDER,
    BOARDS,
    DIE_ORDER,
    GEOMETRY,
    NUMBER_DICE,
    POOL_MAX,
    ROUNDS_FIRST_ACTIVE_STEP,
)

# What a player reads when a move is refused: marked here, translated where raised (`_`),
# into the language of the request that made the move.
ACTION_DIE_SAYS = {
    "ADD": gettext_noop("The action die says to add a die."),
    "REMOVE": gettext_noop("The action die says to remove a die."),
    "ADD_OR_REMOVE": gettext_noop("The action die says to add or remove a die."),
    "SWAP": gettext_noop("The action die says to swap a reserve die for a pool die."),
}
NOT_AVAILABLE = gettext_noop("That move is not available now.")
# Why nothing fits an empty box now: `bounds` returns the English text (it runs for every
# box of every legal-move search), `_place` translates it when it refuses a move.
NEEDS_SUPPORTS = gettext_noop("The boxes under this one need numbers first.")
NOTHING_HOLDS = gettext_noop("Nothing holds this box yet: fill a box beside it first.")
LINK_FIRST = gettext_noop("The linked box must be filled first.")


def effective_action(pool_size: int, anyone_wrote: bool, face: str) -> tuple[str, str]:
    """§5: the effect in force and why (the overrides are checked in this order)."""
    if pool_size == POOL_MAX:
        return "REMOVE", "pool_full"
    if not anyone_wrote:
        return "ADD", "nobody_wrote"
    if pool_size == 1:
        return "ADD", "single_die"
    return face, "face"


def _sorted_dice(dice) -> list[str]:
    return sorted(dice, key=DIE_ORDER.index)


def _box_sort_key(k: str) -> tuple[int, int]:
    r, x = k.split(",")
    return int(r), int(x)


# --- placement legality ---------------------------------------------------------------

def bounds(state: State, sheet: dict, k: str) -> tuple[int, int] | str:
    """The interval [lo, hi] of values legal in empty box k on `sheet` (committed plus
    pending), or the reason (an English message, translated by `_`) why nothing fits there now (§8)."""
    box = GEOMETRY[state["board"]]["boxes"][k]
    reverse = state["options"]["mode"] == "reverse"
    lo, hi = 1, D.MAX_VALUE
    need: list[int] = []
    if box["kind"] == "supported":
        if any(s not in sheet for s in box["supports"]):
            return NEEDS_SUPPORTS
        need.extend(sheet[s] for s in box["supports"])
    elif box["kind"] == "hanging" and not any(n in sheet for n in box["neighbours"]):
        return NOTHING_HOLDS
    if state["options"]["board_specials"]:
        if any(link not in sheet for link in box["links"]):
            return LINK_FIRST
        need.extend(sheet[link] for link in box["links"])
        if box["min_value"] is not None:
            need.append(box["min_value"])
    if need:
        if reverse:
            hi = min(need)
        else:
            lo = max(need)
    return lo, hi


def seat_sheet(state: State, seat: int) -> dict:
    sheet = dict(state["sheets"][seat])
    for p in state["pending"][seat]:
        sheet[f"{p['box'][0]},{p['box'][1]}"] = p["value"]
    return sheet


def used_dice(state: State, seat: int) -> list[str]:
    used = {d for p in state["pending"][seat] for d in p["dice"]}
    return [d for d in DIE_ORDER if d in used]


def free_dice(state: State, seat: int) -> list[str]:
    used = set(used_dice(state, seat))
    return [d for d in DIE_ORDER if d in state["pool"] and d not in used]


def subsets(state: State, dice: list[str]) -> list[tuple[tuple[str, ...], int]]:
    """Every non-empty subset of `dice` (in itertools order) with its sum."""
    roll = state["roll"]
    out = []
    for size in range(1, len(dice) + 1):
        for combo in combinations(dice, size):
            out.append((combo, sum(roll[d] for d in combo)))
    return out


def open_boxes(state: State, sheet: dict):
    """(key, lo, hi) for every empty box of `sheet` that some value could fill now."""
    for k in GEOMETRY[state["board"]]["order"]:
        if k in sheet:
            continue
        b = bounds(state, sheet, k)
        if not isinstance(b, str):
            yield k, b[0], b[1]


def legal_places(state: State, seat: int) -> list[dict]:
    if state["phase"] != "write" or state["done"][seat]:
        return []
    dice = free_dice(state, seat)
    if not dice:
        return []
    subs = subsets(state, dice)
    sheet = seat_sheet(state, seat)
    out = []
    for k, lo, hi in open_boxes(state, sheet):
        box = list(_box_sort_key(k))
        for combo, total in subs:
            if lo <= total <= hi:
                out.append({"type": "place", "box": box, "dice": list(combo)})
    return out


def has_legal_place(state: State, seat: int) -> bool:
    dice = free_dice(state, seat)
    if not dice:
        return False
    sums = {total for _, total in subsets(state, dice)}
    low, high = min(sums), max(sums)
    sheet = seat_sheet(state, seat)
    return any(lo <= high and hi >= low and any(lo <= s <= hi for s in sums)
               for _, lo, hi in open_boxes(state, sheet))


def legal_sums(state: State, seat: int) -> dict[str, list[int]]:
    """For each empty box, the sums of this seat's unused dice that are legal there."""
    dice = free_dice(state, seat)
    sums = sorted({total for _, total in subsets(state, dice)})
    sheet = seat_sheet(state, seat)
    out = {}
    for k, lo, hi in open_boxes(state, sheet):
        fits = [s for s in sums if lo <= s <= hi]
        if fits:
            out[k] = fits
    return out


# --- state machine --------------------------------------------------------------------

def _copy(state: State) -> State:
    """A fresh copy of the state (what `clone` does, but shaped to this state, so fast)."""
    new = dict(state)
    new["options"] = clone(state["options"])
    for name in ("board_plan", "pool", "reserve", "done", "auto_done", "winners"):
        new[name] = list(state[name])
    new["events"] = list(state.get("events", ()))  # none in a state saved with the English `log`
    new["roll"] = dict(state["roll"])
    new["sheets"] = [dict(sheet) for sheet in state["sheets"]]
    new["last_written"] = [list(keys) for keys in state["last_written"]]
    new["pending"] = [[{"box": list(p["box"]), "dice": list(p["dice"]), "value": p["value"]} for p in seat]
                      for seat in state["pending"]]
    new["action"] = dict(state["action"]) if state["action"] is not None else None
    new["results"] = clone(state["results"])
    return new


def _event(state: State, kind: str, seat: int | None = None, **data: Any) -> None:
    """Record what happened as data (the presenter's `describe` puts it into words).
    Events are shared dicts: they are never changed once appended, so copies may share them."""
    state["events"].append({"type": kind, "seat": seat, "turn": state["turn"], "game": state["game"], **data})
    if len(state["events"]) > D.EVENTS_KEEP:
        del state["events"][: len(state["events"]) - D.EVENTS_KEEP]


def _draw_start_pool(state: State) -> None:
    """§3 step 4: even dice form the pool; all odd rolls again. Or all five."""
    if state["options"]["start_pool"] == "all":
        pool = list(DIE_ORDER)
    else:
        attempt = 0
        while True:
            rng = rng_for(state["seed"], "start_pool", state["game"], attempt)
            values = {d: rng.randint(1, NUMBER_DICE[d]) for d in DIE_ORDER}
            pool = [d for d in DIE_ORDER if values[d] % 2 == 0]
            if pool:
                break
            attempt += 1
    state["pool"] = pool
    state["reserve"] = [d for d in DIE_ORDER if d not in pool]


def _start_game(state: State) -> None:
    players = state["players"]
    state["board"] = state["board_plan"][state["game"] - 1]
    state["sheets"] = [{} for _ in range(players)]
    state["pending"] = [[] for _ in range(players)]
    state["done"] = [False] * players
    state["auto_done"] = [False] * players
    state["last_written"] = [[] for _ in range(players)]
    state["turn"] = 0
    state["active"] = state["first_active"]
    state["action"] = None
    _draw_start_pool(state)
    _event(state, "game_start", state["active"], games=state["options"]["games"], board=state["board"],
           pool=list(state["pool"]))
    _roll(state)


def _roll(state: State) -> None:
    """ROLL: every pool die and the action die, then WRITE (with automatic done)."""
    state["turn"] += 1
    rng = rng_for(state["seed"], "roll", state["game"], state["turn"])
    state["roll"] = {d: rng.randint(1, NUMBER_DICE[d]) for d in state["pool"]}
    state["face"] = rng.choice(ACTION_FACES)
    state["phase"] = "write"
    state["action"] = None
    players = state["players"]
    state["pending"] = [[] for _ in range(players)]
    state["done"] = [False] * players
    state["auto_done"] = [False] * players
    _event(state, "roll", state["active"], roll=dict(state["roll"]), face=state["face"])
    if AUTO_DONE:
        for seat in range(players):
            if not has_legal_place(state, seat):
                state["done"][seat] = True
                state["auto_done"][seat] = True
        auto = [s for s in range(players) if state["auto_done"][s]]
        if auto:
            _event(state, "no_fit", None, seats=auto)
    if all(state["done"]):
        _resolve(state)


def _resolve(state: State) -> None:
    """RESOLVE: commit every pending placement, then end the game or hand over the action die."""
    players = state["players"]
    anyone_wrote = False
    for seat in range(players):
        written = []
        for p in state["pending"][seat]:
            k = f"{p['box'][0]},{p['box'][1]}"
            state["sheets"][seat][k] = p["value"]
            written.append(k)
        state["last_written"][seat] = written
        if written:
            anyone_wrote = True
            _event(state, "wrote", seat, numbers=[{"box": list(p["box"]), "value": p["value"], "dice": list(p["dice"])}
                                                  for p in state["pending"][seat]])
    state["pending"] = [[] for _ in range(players)]
    state["anyone_wrote"] = anyone_wrote
    if not anyone_wrote:
        _event(state, "nobody_wrote")
    total = len(GEOMETRY[state["board"]]["order"])
    complete = [s for s in range(players) if len(state["sheets"][s]) == total]
    if complete:
        _event(state, "filled", None, seats=list(complete))
        _end_game(state, complete)
        return
    if state["turn"] >= state["options"]["max_turns"]:
        _event(state, "turn_limit", None, max_turns=state["options"]["max_turns"])
        _end_game(state, complete)
        return
    resolver = state["active"] if players == 1 else (state["active"] + 1) % players
    effect, reason = effective_action(len(state["pool"]), anyone_wrote, state["face"])
    state["phase"] = "action"
    state["action"] = {"seat": resolver, "effect": effect, "reason": reason}
    _event(state, "must", resolver, effect=effect, reason=reason)


def _end_game(state: State, complete: list[int]) -> None:
    total = len(GEOMETRY[state["board"]]["order"])
    empty = [total - len(sheet) for sheet in state["sheets"]]
    state["results"].append({
        "board": state["board"], "empty": empty, "complete": complete, "turns": state["turn"],
        "sheets": [dict(sheet) for sheet in state["sheets"]],
    })
    state["action"] = None
    if state["game"] < state["options"]["games"]:
        _event(state, "game_end", None, empty=list(empty))
        state["game"] += 1
        state["first_active"] = (state["first_active"] + ROUNDS_FIRST_ACTIVE_STEP) % state["players"]
        _start_game(state)
        return
    state["phase"] = "over"
    ranking = _ranking(state)
    state["winners"] = [s for s in range(state["players"]) if ranking[s] == 1]
    _event(state, "game_over", None, winners=list(state["winners"]))


def _empty_counts(state: State) -> list[int]:
    total = len(GEOMETRY[state["board"]]["order"])
    return [total - len(sheet) for sheet in state["sheets"]]


def _in_progress(state: State) -> bool:
    return state["phase"] != "over"


def _scores(state: State) -> list[dict]:
    players = state["players"]
    games = state["options"]["games"]
    empty = _empty_counts(state)
    total_boxes = len(GEOMETRY[state["board"]]["order"])
    if players == 1:
        if games == 1:
            return [{"total": state["turn"], "breakdown": {
                "turns": state["turn"], "filled": total_boxes - empty[0], "empty": empty[0]}}]
        breakdown = {f"game_{i + 1}": r["turns"] for i, r in enumerate(state["results"])}
        if _in_progress(state):
            breakdown[f"game_{state['game']}"] = state["turn"]
        return [{"total": sum(breakdown.values()), "breakdown": breakdown}]
    if games == 1:
        return [{"total": total_boxes - empty[s], "breakdown": {"filled": total_boxes - empty[s], "empty": empty[s]}}
                for s in range(players)]
    out = []
    for s in range(players):
        breakdown = {f"game_{i + 1}": r["empty"][s] for i, r in enumerate(state["results"])}
        total = sum(breakdown.values())
        if _in_progress(state):
            breakdown["current_empty"] = empty[s]
        out.append({"total": total, "breakdown": breakdown})
    return out


def _ranking(state: State) -> list[int]:
    players = state["players"]
    if players == 1:
        return [1]
    if state["options"]["games"] == 1:
        return competition_ranking([-e for e in _empty_counts(state)])
    totals = [sc["total"] for sc in _scores(state)]
    return competition_ranking([-t for t in totals])


# --- the Ruleset ----------------------------------------------------------------------

def _free_dice_of(state: State, seat: int, dice: Any) -> list[str]:
    """The dice a `place` names, each rolled this turn and not yet used by the seat."""
    if not isinstance(dice, list) or not all(isinstance(d, str) for d in dice):
        raise IllegalAction(_("The dice are given as a list such as [\"d4\", \"d12\"]."))
    if not dice:
        raise IllegalAction(_("Pick at least one die."))
    if len(set(dice)) != len(dice):
        raise IllegalAction(_("Each die can be used only once."))
    used = set(used_dice(state, seat))
    for d in dice:
        if d not in NUMBER_DICE:
            raise IllegalAction(_("There is no die called %(die)s.") % {"die": repr(d[:12])})
        if d not in state["pool"]:
            raise IllegalAction(_("The %(die)s was not rolled this turn.") % {"die": d})
        if d in used:
            raise IllegalAction(_("You already used the %(die)s this turn.") % {"die": d})
    return dice


def _check_sequence(opts: dict) -> None:
    """Games and the board sequence: a list must name one known board per game."""
    games = opts["games"]
    if isinstance(games, bool) or not isinstance(games, int) or not D.GAMES_RANGE[0] <= games <= D.GAMES_RANGE[1]:
        raise IllegalAction(_("The number of games must be between %(low)s and %(high)s.")
                            % {"low": D.GAMES_RANGE[0], "high": D.GAMES_RANGE[1]})
    seq = opts["board_sequence"]
    if isinstance(seq, list):
        if len(seq) != games:
            raise IllegalAction(_("The board sequence must list exactly %(games)s board(s).") % {"games": games})
        if not all(isinstance(b, str) and b in BOARDS for b in seq):
            raise IllegalAction(_("The board sequence names an unknown board."))
        opts["board_sequence"] = list(seq)
    elif seq not in ("tour", "same"):
        # Translators: 'tour' and 'same' are the option's values, typed as they are.
        raise IllegalAction(_("The board sequence must be 'tour', 'same' or a list of boards."))


OPTION_KEYS = ("board", "mode", "games", "board_sequence", "start_pool", "board_specials", "max_turns")


class RollToTheTop(Ruleset):
    slug = "roll-to-the-top"
    title = "Roll to the Top: Journeys"
    min_players = 1
    max_players = 6
    version = "1"

    def default_options(self) -> dict:
        return {"board": "giza", "mode": "normal", "games": 1, "board_sequence": "tour",
                "start_pool": "even_dice", "board_specials": True, "max_turns": D.DEFAULT_MAX_TURNS}

    def validate_options(self, players: int, options: dict | None) -> dict:
        if isinstance(players, bool) or not isinstance(players, int) \
                or not self.min_players <= players <= self.max_players:
            raise IllegalAction(_("This game needs %(low)s to %(high)s players.")
                                % {"low": self.min_players, "high": self.max_players})
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise IllegalAction(_("The options must be an object."))
        unknown = sorted(str(k) for k in options if k not in OPTION_KEYS)
        if unknown:
            raise IllegalAction(_("Unknown option: %(names)s.") % {"names": ", ".join(unknown)})
        opts = self.default_options()
        opts.update(options)
        if not isinstance(opts["board"], str) or (opts["board"] not in BOARDS and opts["board"] != "random"):
            # Translators: the boards' ids and 'random' are the option's values, typed as they are.
            raise IllegalAction(_("Unknown board. Choose one of: %(boards)s, or random.")
                                % {"boards": ", ".join(BOARD_ORDER)})
        if opts["mode"] not in D.MODES:
            # Translators: 'normal' and 'reverse' are the option's values, typed as they are.
            raise IllegalAction(_("The mode must be 'normal' or 'reverse'."))
        _check_sequence(opts)
        if opts["start_pool"] not in D.START_POOLS:
            # Translators: 'even_dice' and 'all' are the option's values, typed as they are.
            raise IllegalAction(_("The starting pool must be 'even_dice' or 'all'."))
        if not isinstance(opts["board_specials"], bool):
            # Translators: 'board_specials' is the option's name, true and false its values.
            raise IllegalAction(_("'board_specials' must be true or false."))
        turns = opts["max_turns"]
        low, high = D.MAX_TURNS_RANGE
        if isinstance(turns, bool) or not isinstance(turns, int) or not low <= turns <= high:
            raise IllegalAction(_("The turn limit must be between %(low)s and %(high)s.") % {"low": low, "high": high})
        return opts

    def setup(self, players: int, options: dict | None, seed: int) -> State:
        opts = self.validate_options(players, options)
        first = opts["board"]
        if first == "random":
            first = rng_for(seed, "board").choice(BOARD_ORDER)
        seq = opts["board_sequence"]
        if isinstance(seq, list):
            plan = list(seq)
        elif seq == "same":
            plan = [first] * opts["games"]
        else:
            start = BOARD_ORDER.index(first)
            plan = [BOARD_ORDER[(start + i) % len(BOARD_ORDER)] for i in range(opts["games"])]
        state: State = {
            "players": players, "options": opts, "seed": seed, "game": 1, "board_plan": plan,
            "board": plan[0], "first_active": rng_for(seed, "first_active").randrange(players),
            "turn": 0, "active": 0, "phase": "write", "pool": [], "reserve": [], "roll": {},
            "face": None, "sheets": [], "pending": [], "done": [], "auto_done": [],
            "last_written": [], "action": None, "anyone_wrote": False, "results": [],
            "winners": [], "events": [],
        }
        _start_game(state)
        return state

    # -- queries --

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def to_act(self, state: State) -> list[int]:
        if state["phase"] == "write":
            return [s for s in range(state["players"]) if not state["done"][s]]
        if state["phase"] == "action":
            return [state["action"]["seat"]]
        return []

    def _valid_seat(self, state: State, seat: Any) -> bool:
        return not isinstance(seat, bool) and isinstance(seat, int) and 0 <= seat < state["players"]

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        if not self._valid_seat(state, seat) or seat not in self.to_act(state):
            return []
        if state["phase"] == "write":
            out = legal_places(state, seat)
            if state["pending"][seat]:
                out += [{"type": "unplace"}, {"type": "reset"}]
            out.append({"type": "done"})
            return out
        effect = state["action"]["effect"]
        out = []
        if effect in ("ADD", "ADD_OR_REMOVE"):
            out += [{"type": "add", "die": d} for d in state["reserve"]]
        if effect in ("REMOVE", "ADD_OR_REMOVE"):
            out += [{"type": "remove", "die": d} for d in state["pool"]]
        if effect == "SWAP":
            out += [{"type": "swap", "add": a, "remove": r} for a in state["reserve"] for r in state["pool"]]
        return out

    # A game saved before `events` replaced the English `log` (same moves, same play) keeps
    # playing: the rules read its missing `events` as none (docs/rules-versions.md).
    def older_shape(self, state: State) -> bool:
        return "log" in state

    def comparable(self, state: State) -> State:
        return {k: v for k, v in state.items() if k not in ("log", "events")}

    def seat_turn(self, state: State, seat: int) -> str:
        """The game, turn and phase, and (while writing) the seat's own pending numbers:
        the key moves with a new roll, the action die and the seat's own placements, never
        because another seat wrote or finished in the same simultaneous turn."""
        key = f"g{state['game']}t{state['turn']}{state['phase'][0]}"
        if state["phase"] == "write" and self._valid_seat(state, seat):
            key += "".join(f"-{p['box'][0]}.{p['box'][1]}" for p in state["pending"][seat])
        return key

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """What `seat` cannot see, drawn afresh (see determinize.py)."""
        return determinize(state, seat, rng)

    def score_sign(self, state: State) -> int:
        """Solo totals count turns and a series' totals count empty boxes: fewer is better."""
        return -1 if state["players"] == 1 or state["options"]["games"] > 1 else 1

    def scores(self, state: State) -> list[dict]:
        return _scores(state)

    def ranking(self, state: State) -> list[int]:
        return _ranking(state)

    # -- apply --

    def _check_turn(self, state: State, seat: Any) -> int:
        if not self._valid_seat(state, seat):
            raise IllegalAction(_("That is not a seat at this table."))
        if state["phase"] == "over":
            raise IllegalAction(_("The game is over."))
        if state["phase"] == "write" and state["done"][seat]:
            raise IllegalAction(_("You have already finished this turn."))
        if state["phase"] == "action" and state["action"]["seat"] != seat:
            raise IllegalAction(_("Another player is resolving the action die."))
        return seat

    def apply(self, state: State, seat: int, action: Any) -> State:
        seat = self._check_turn(state, seat)
        kind = check_action_shape(action)
        if state["phase"] == "write":
            handler = {"place": self._place, "unplace": self._unplace, "reset": self._reset,
                       "done": self._done}.get(kind)
        else:
            handler = {"add": self._add, "remove": self._remove, "swap": self._swap}.get(kind)
        if handler is None:
            if state["phase"] == "action" and kind in ("place", "unplace", "reset", "done"):
                raise IllegalAction(_("Now the action die is resolved, not written."))
            if state["phase"] == "write" and kind in ("add", "remove", "swap"):
                raise IllegalAction(_("Everyone is writing numbers now; the action die comes later."))
            raise IllegalAction(_(NOT_AVAILABLE))
        return handler(state, seat, action)

    @staticmethod
    def _keys(action: dict, keys: set[str]) -> None:
        if set(action) != keys:
            raise IllegalAction(_(NOT_AVAILABLE))

    def _place(self, state: State, seat: int, action: dict) -> State:
        self._keys(action, {"type", "box", "dice"})
        box = action["box"]
        if not isinstance(box, list) or len(box) != 2 \
                or any(isinstance(v, bool) or not isinstance(v, int) for v in box):
            raise IllegalAction(_("A box is given as [row, x]."))
        k = f"{box[0]},{box[1]}"
        if k not in GEOMETRY[state["board"]]["boxes"]:
            raise IllegalAction(_("There is no such box on this board."))
        sheet = seat_sheet(state, seat)
        if k in sheet:
            raise IllegalAction(_("That box already has a number."))
        dice = _free_dice_of(state, seat, action["dice"])
        value = sum(state["roll"][d] for d in dice)
        b = bounds(state, sheet, k)
        if isinstance(b, str):
            raise IllegalAction(_(b))
        lo, hi = b
        if value < lo:
            raise IllegalAction(_("This box needs at least %(value)s.") % {"value": lo})
        if value > hi:
            raise IllegalAction(_("This box needs at most %(value)s.") % {"value": hi})
        new = _copy(state)
        new["pending"][seat].append({"box": [box[0], box[1]], "dice": _sorted_dice(dice), "value": value})
        return new

    def _unplace(self, state: State, seat: int, action: dict) -> State:
        self._keys(action, {"type"})
        if not state["pending"][seat]:
            raise IllegalAction(_("You have nothing to take back this turn."))
        new = _copy(state)
        new["pending"][seat].pop()
        return new

    def _reset(self, state: State, seat: int, action: dict) -> State:
        self._keys(action, {"type"})
        if not state["pending"][seat]:
            raise IllegalAction(_("You have nothing to take back this turn."))
        new = _copy(state)
        new["pending"][seat] = []
        return new

    def _done(self, state: State, seat: int, action: dict) -> State:
        self._keys(action, {"type"})
        new = _copy(state)
        new["done"][seat] = True
        _event(new, "done", seat)
        if all(new["done"]):
            _resolve(new)
        return new

    def _die(self, action: dict, field: str) -> str:
        d = action[field]
        if not isinstance(d, str) or d not in NUMBER_DICE:
            raise IllegalAction(_("That is not one of the dice."))
        return d

    def _effect_allows(self, state: State, kind: str) -> None:
        effect = state["action"]["effect"]
        allowed = {"add": ("ADD", "ADD_OR_REMOVE"), "remove": ("REMOVE", "ADD_OR_REMOVE"), "swap": ("SWAP",)}[kind]
        if effect not in allowed:
            raise IllegalAction(_(ACTION_DIE_SAYS[effect]))

    def _add(self, state: State, seat: int, action: dict) -> State:
        self._keys(action, {"type", "die"})
        self._effect_allows(state, "add")
        d = self._die(action, "die")
        if d not in state["reserve"]:
            raise IllegalAction(_("The %(die)s is not in the reserve.") % {"die": d})
        new = _copy(state)
        new["pool"] = _sorted_dice(new["pool"] + [d])
        new["reserve"] = [x for x in new["reserve"] if x != d]
        _event(new, "add", seat, die=d)
        return self._next_turn(new, seat)

    def _remove(self, state: State, seat: int, action: dict) -> State:
        self._keys(action, {"type", "die"})
        self._effect_allows(state, "remove")
        d = self._die(action, "die")
        if d not in state["pool"]:
            raise IllegalAction(_("The %(die)s is not in the pool.") % {"die": d})
        new = _copy(state)
        new["pool"] = [x for x in new["pool"] if x != d]
        new["reserve"] = _sorted_dice(new["reserve"] + [d])
        _event(new, "remove", seat, die=d)
        return self._next_turn(new, seat)

    def _swap(self, state: State, seat: int, action: dict) -> State:
        self._keys(action, {"type", "add", "remove"})
        self._effect_allows(state, "swap")
        a, r = self._die(action, "add"), self._die(action, "remove")
        if a == r:
            raise IllegalAction(_("Swap a reserve die for a different die from the pool."))
        if a not in state["reserve"]:
            raise IllegalAction(_("The %(die)s is not in the reserve.") % {"die": a})
        if r not in state["pool"]:
            raise IllegalAction(_("The %(die)s is not in the pool.") % {"die": r})
        new = _copy(state)
        new["pool"] = _sorted_dice([x for x in new["pool"] if x != r] + [a])
        new["reserve"] = _sorted_dice([x for x in new["reserve"] if x != a] + [r])
        _event(new, "swap", seat, add=a, remove=r)
        return self._next_turn(new, seat)

    @staticmethod
    def _next_turn(state: State, resolver: int) -> State:
        state["active"] = resolver
        state["action"] = None
        _roll(state)
        return state

    # -- view --

    def view(self, state: State, seat: int | None) -> dict:
        if not self._valid_seat(state, seat):
            seat = None
        to_act = self.to_act(state)
        resolver = state["action"]["seat"] if state["action"] is not None else None
        view = {
            "slug": self.slug,
            "players": state["players"],
            "options": dict(state["options"]),
            "mode": state["options"]["mode"],
            "reverse": state["options"]["mode"] == "reverse",
            "game": state["game"],
            "games": state["options"]["games"],
            "board_plan": list(state["board_plan"]),
            "board": state["board"],
            "board_data": _board_data(state),
            "turn": state["turn"],
            "max_turns": state["options"]["max_turns"],
            "phase": state["phase"],
            "active": state["active"],
            "resolver": resolver,
            "to_act": to_act,
            "dice": {d: NUMBER_DICE[d] for d in DIE_ORDER},
            "pool": list(state["pool"]),
            "reserve": list(state["reserve"]),
            "roll": dict(state["roll"]),
            "face": state["face"],
            "action": dict(state["action"]) if state["action"] is not None else None,
            "sheets": [dict(sh) for sh in state["sheets"]],
            "done": list(state["done"]),
            "last_written": [list(x) for x in state["last_written"]],
            "seats": _seat_rows(state, resolver),
            "results": clone(state["results"]),
            "winners": list(state["winners"]),
            "scores": _scores(state),
            "ranking": _ranking(state),
            "events": list(state.get("events", ())[-D.EVENTS_VIEW:]),
        }
        if seat is not None:
            view["me"] = _my_view(state, seat, to_act)
        return view


def _board_data(state: State) -> dict:
    """The board's boxes, with links and minimum values only when board specials are on."""
    geo = GEOMETRY[state["board"]]
    specials = state["options"]["board_specials"]
    boxes = []
    for k in geo["order"]:
        b = geo["boxes"][k]
        boxes.append({
            "key": k, "r": b["r"], "x": b["x"], "kind": b["kind"],
            "supports": list(b["supports"]),
            "links": list(b["links"]) if specials else [],
            "min_value": b["min_value"] if specials else None,
        })
    return {"id": state["board"], "name": BOARDS[state["board"]]["name"],
            "rows": geo["rows"], "width": geo["width"], "boxes": boxes}


def _seat_status(state: State, s: int, resolver: int | None) -> str:
    if state["phase"] == "write":
        return "done" if state["done"][s] else "writing"
    if state["phase"] == "action":
        return "resolving" if s == resolver else "waiting"
    return "finished"


def _seat_rows(state: State, resolver: int | None) -> list[dict]:
    """Every seat's public progress: boxes filled, done, and what it is doing now."""
    total = len(GEOMETRY[state["board"]]["order"])
    rows = []
    for s in range(state["players"]):
        filled = len(state["sheets"][s])
        rows.append({
            "seat": s, "filled": filled, "empty": total - filled,
            "total": total, "done": state["done"][s], "auto_done": state["auto_done"][s],
            "status": _seat_status(state, s, resolver),
            "is_active": s == state["active"], "is_resolver": s == resolver,
            "complete": filled == total,
        })
    return rows


def _my_view(state: State, seat: int, to_act: list[int]) -> dict:
    """What only this seat sees: its pending numbers, used dice and what it may do now."""
    me = {
        "seat": seat,
        "pending": clone(state["pending"][seat]),
        "used": used_dice(state, seat),
        "done": state["done"][seat],
        "auto_done": state["auto_done"][seat],
        "to_act": seat in to_act,
        "legal_sums": {},
        "can_add": [], "can_remove": [], "can_swap": False,
    }
    if seat in to_act and state["phase"] == "write":
        me["legal_sums"] = legal_sums(state, seat)
    if seat in to_act and state["phase"] == "action":
        effect = state["action"]["effect"]
        if effect in ("ADD", "ADD_OR_REMOVE", "SWAP"):
            me["can_add"] = list(state["reserve"])
        if effect in ("REMOVE", "ADD_OR_REMOVE", "SWAP"):
            me["can_remove"] = list(state["pool"])
        me["can_swap"] = effect == "SWAP"
    return me

RULES = RollToTheTop()
