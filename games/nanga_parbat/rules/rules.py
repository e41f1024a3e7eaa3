"""Nanga Parbat rules (shared/rules/nanga_parbat.md): pure functions over a JSON state.

Randomness appears only in `setup` (the animal deal and the first player); after that the
game has no hidden or random element, so the state does not keep the seed (spec §5).
"""
from __future__ import annotations

import random
from itertools import combinations, islice, pairwise, product
from typing import Any, Iterator

from games.rules.base import (IllegalAction, Ruleset, State, Action, _, check_action_shape, competition_ranking,
                              gettext_noop, ngettext, rng_for)
from . import data
from .data import (ACTIVATED_SPECIES, ADJ_SETS, ADJACENCY, AREA_POINTS, NEED, RED_PANDA, REGIONS,
                   ROWS, SECTIONS, SPECIES, VALUE, WILD, num, region)

# Decisions of the spec (§6, §7.4, §9), kept here so changing one is a one-line change.
AUTO_END_TURN = True                # end the turn by itself when end_turn is the only legal action
END_CHECK = "end_of_turn"           # end conditions are checked when a turn ends
NOOP_SWAPS_ALLOWED = False          # snow leopard: same-colour hikers; musk deer: same species
YAK_SAME_REGION_ALLOWED = False     # the yak sends the guide to a *new* region
YAK_EMPTY_REGION_ALLOWED = True     # the yak may send the guide to a region without animals (G24)
TIE_BREAKS = ("camps_on_mountain", "spots_claimed")
SCHEMA = 1

SECTION_SET = frozenset(SECTIONS)
PHASES = ("place_guide", "trap", "act", "over")


# --- small helpers ---------------------------------------------------------------------------

def _is_int(value: Any) -> bool:
    return type(value) is int  # refuses bools and floats (35.0 is not a section)


# Whole sentences per species, so each language can give the animal its own article and case.
NO_UNACTIVATED = {
    "snow_leopard": gettext_noop("You have no unactivated snow leopard."),
    "tahr": gettext_noop("You have no unactivated tahr."),
    "musk_deer": gettext_noop("You have no unactivated musk deer."),
    "yak": gettext_noop("You have no unactivated yak."),
}


def _keys(action: Action, expected: set[str]) -> None:
    keys = set(action)
    missing = sorted(expected - keys)
    if missing:
        raise IllegalAction(_("The action is missing '%(key)s'.") % {"key": missing[0]})
    extra = sorted(k for k in keys - expected if isinstance(k, str)) or sorted(map(str, keys - expected))
    if extra:
        raise IllegalAction(_("The action has an unexpected key '%(key)s'.") % {"key": extra[0]})


def _section_of(action: Action, key: str) -> int:
    value = action[key]
    if not _is_int(value):
        raise IllegalAction(_("'%(key)s' must be a section number such as 35.") % {"key": key})
    if value not in SECTION_SET:
        raise IllegalAction(_("There is no section %(section)s on the mountain.") % {"section": value})
    return value


def _region_of(action: Action, key: str = "region") -> int:
    value = action[key]
    if not _is_int(value):
        raise IllegalAction(_("'%(key)s' must be a region number from 1 to 6.") % {"key": key})
    if value not in REGIONS:
        raise IllegalAction(_("There is no region %(region)s; regions are numbered 1 to 6.") % {"region": value})
    return value


def _cell(state: State, sid: int) -> dict:
    return state["board"][str(sid)]


def _is_animal(state: State, sid: int) -> bool:
    return state["board"][str(sid)]["piece"] == "animal"


def region_has_animal(state: State, reg: int) -> bool:
    """Whether any section of region `reg` still holds an animal."""
    board = state["board"]
    return any(board[str(10 * reg + s)]["piece"] == "animal" for s in range(1, 7))


def _first_unactivated(seat_state: dict, species: str) -> int | None:
    for i, animal in enumerate(seat_state["animals"]):
        if animal["species"] == species and not animal["activated"]:
            return i
    return None


def _connected(sections) -> bool:
    group = set(sections)
    if not group:
        return False
    start = next(iter(group))
    seen = {start}
    stack = [start]
    while stack:
        cur = stack.pop()
        for n in ADJ_SETS[cur]:
            if n in group and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(group)


def _components(sections) -> list[list[int]]:
    left = set(sections)
    out = []
    while left:
        start = min(left)
        comp = {start}
        stack = [start]
        left.discard(start)
        while stack:
            cur = stack.pop()
            for n in ADJ_SETS[cur]:
                if n in left:
                    left.discard(n)
                    comp.add(n)
                    stack.append(n)
        out.append(sorted(comp))
    return out


def _own_hikers(state: State, seat: int) -> list[int]:
    board = state["board"]
    return [sid for sid in SECTIONS
            if board[str(sid)]["piece"] == "hiker" and board[str(sid)]["seat"] == seat]


def largest_hiker_group(state: State, seat: int) -> int:
    """How many of the seat's hikers the biggest connected group holds (what camps are built from)."""
    return max((len(c) for c in _components(_own_hikers(state, seat))), default=0)


def _emit(state: State, kind: str, seat: int | None, **data: Any) -> None:
    """Record what happened as data (ARCHITECTURE.md, `events`): the presenter words it.
    `move` counts the actions applied so far, so the events of one action share it."""
    state["events"].append({"type": kind, "seat": seat, "turn": state["turn"], "move": state["moves"], **data})


def gain(state: State, seat: int, points: int, category: str) -> bool:
    """Every score change goes through the scoring path: landing on the opponent's space
    (other than 0) bumps one further (§8.2). Returns whether a bump happened."""
    me, opp = state["seats"][seat], state["seats"][1 - seat]
    new = me["score"] + points
    me["breakdown"][category] += points
    bump = new != 0 and new == opp["score"]
    if bump:
        new += 1
        me["breakdown"]["bump"] += 1
    me["score"] = new
    _emit(state, "score", seat, points=points, category=category, bump=bump, total=new)
    return bump


# --- legality: one function per action kind, shared by legal_actions and apply -------------

def _trap_error(state: State, seat: int, sid: int) -> str | None:
    guide = state["guide"]
    if not region_has_animal(state, guide):
        return _("Region %(region)s has no animals left: move the guide to another region first.") % {"region": guide}
    if region(sid) != guide:
        return _("Trap an animal in region %(region)s.") % {"region": guide}
    if not _is_animal(state, sid):
        return _("Section %(section)s holds no animal.") % {"section": sid}
    if state["seats"][seat]["hikers"] <= 0:
        return _("You have no hikers left.")
    return None


def _relocate_error(state: State, reg: int) -> str | None:
    if region_has_animal(state, state["guide"]):
        return _("The guide can only be relocated when its region has no animals left.")
    if not region_has_animal(state, reg):
        return _("Region %(region)s has no animals: choose a region with at least one animal.") % {"region": reg}
    return None


def _activation_error(state: State, seat: int, species: str, a: int | None, b: int | None,
                      reg: int | None) -> str | None:
    if _first_unactivated(state["seats"][seat], species) is None:
        return _(NO_UNACTIVATED[species])
    if species == "yak":
        if reg is None:
            return _("Choose a region for the yak.")
        if reg == state["guide"] and not YAK_SAME_REGION_ALLOWED:
            return _("The guide is already in region %(region)s.") % {"region": reg}
        if not YAK_EMPTY_REGION_ALLOWED and not region_has_animal(state, reg):
            return _("Region %(region)s has no animals.") % {"region": reg}
        return None
    if a is None or b is None:
        return _("Choose the two sections to swap.")
    ca, cb = state["board"][str(a)], state["board"][str(b)]
    return _SWAP_ERRORS[species](a, b, ca, cb)


def _snow_leopard_error(a: int, b: int, ca: dict, cb: dict) -> str | None:
    if a >= b:
        return _("List the two sections in increasing order (a < b).")
    if ca["piece"] == "camp" or cb["piece"] == "camp":
        return _("Camps cannot be moved.")
    if ca["piece"] != "hiker" or cb["piece"] != "hiker":
        return _("The snow leopard swaps two hikers.")
    if b not in ADJ_SETS[a]:
        return _("Sections %(a)s and %(b)s are not adjacent.") % {"a": a, "b": b}
    if ca["seat"] == cb["seat"] and not NOOP_SWAPS_ALLOWED:
        return _("Both hikers have the same colour: swapping them would change nothing.")
    return None


def _tahr_error(a: int, b: int, ca: dict, cb: dict) -> str | None:
    if ca["piece"] == "camp":
        return _("Camps cannot be moved.")
    if ca["piece"] != "hiker":
        return _("Section %(section)s must hold a hiker ('a' is the hiker, 'b' the animal).") % {"section": a}
    if cb["piece"] != "animal":
        return _("Section %(section)s holds no animal.") % {"section": b}
    if b not in ADJ_SETS[a]:
        return _("Sections %(a)s and %(b)s are not adjacent.") % {"a": a, "b": b}
    return None


def _musk_deer_error(a: int, b: int, ca: dict, cb: dict) -> str | None:
    if a >= b:
        return _("List the two sections in increasing order (a < b).")
    if ca["piece"] != "animal" or cb["piece"] != "animal":
        return _("The musk deer swaps two animals.")
    if ca["species"] == cb["species"] and not NOOP_SWAPS_ALLOWED:
        return _("Both animals are of the same species: swapping them would change nothing.")
    return None


_SWAP_ERRORS = {"snow_leopard": _snow_leopard_error, "tahr": _tahr_error, "musk_deer": _musk_deer_error}


def _spot_error(state: State, seat: int, row: str, col: int) -> str | None:
    me = state["seats"][seat]
    if state["claimed_this_turn"]:
        return _("You have already claimed a spot this turn.")
    if me["cubes"] <= 0:
        return _("You have no cubes left.")
    if state["chart"][row][col] is not None:
        return _("That spot is already taken.")
    return None


def _list_error(items: Any, n: int, what: str) -> str | None:
    if not isinstance(items, list):
        return _("'%(key)s' must be a list.") % {"key": what}
    if any(not _is_int(x) for x in items):
        return _("'%(key)s' must list whole numbers.") % {"key": what}
    if len(set(items)) != len(items):
        return _("Each entry of '%(key)s' may be listed only once.") % {"key": what}
    if len(items) != n:
        if what == "sections":
            return ngettext("This column needs exactly %(n)s hiker.",
                            "This column needs exactly %(n)s hikers.", n) % {"n": n}
        return ngettext("This column needs exactly %(n)s animal.",
                        "This column needs exactly %(n)s animals.", n) % {"n": n}
    if any(x >= y for x, y in pairwise(items)):
        if what == "sections":
            return _("List the sections in increasing order.")
        return _("List the animals in increasing order.")
    return None


def _camp_claim_error(state: State, seat: int, col: int, sections: list[int]) -> str | None:
    n = NEED[col]
    for sid in sections:
        if sid not in SECTION_SET:
            return _("There is no section %(section)s on the mountain.") % {"section": sid}
        cell = _cell(state, sid)
        if cell["piece"] != "hiker" or cell["seat"] != seat:
            return _("Section %(section)s does not hold one of your hikers.") % {"section": sid}
    if state["seats"][seat]["camps"] < n:
        return ngettext("You need %(n)s camp in your supply.", "You need %(n)s camps in your supply.", n) % {"n": n}
    if not _connected(sections):
        return _("Those hikers are not all connected.")
    return None


def _trade_claim_error(state: State, seat: int, row: str, indices: list[int]) -> str | None:
    animals = state["seats"][seat]["animals"]
    for i in indices:
        if not 0 <= i < len(animals):
            return _("You hold no animal number %(index)s.") % {"index": i}
    kinds = [animals[i]["species"] for i in indices if animals[i]["species"] != WILD]
    if row == "different":
        if len(set(kinds)) != len(kinds):
            return _("Those animals are not all different.")
    elif len(set(kinds)) > 1:
        return _("Those animals are not all the same species.")
    return None


# --- enumeration for legal_actions ---------------------------------------------------------

def camp_groups(state: State, seat: int, n: int) -> list[tuple[int, ...]]:
    """Every set of `n` connected hikers of the seat (sorted sections), in sorted order."""
    out: list[tuple[int, ...]] = []
    for comp in _components(_own_hikers(state, seat)):
        if len(comp) >= n:
            out.extend(c for c in combinations(comp, n) if _connected(c))
    out.sort()
    return out


def trade_sets(animals: list[dict], row: str, n: int) -> list[tuple[int, ...]]:
    """Every set of `n` indices into `animals` that the chart row `row` accepts (bharal wild)."""
    wild = [i for i, a in enumerate(animals) if a["species"] == WILD]
    by: dict[str, list[int]] = {}
    for i, a in enumerate(animals):
        if a["species"] != WILD:
            by.setdefault(a["species"], []).append(i)
    out = _same_sets(by, wild, n) if row == "same" else _different_sets(by, wild, n)
    out.sort()
    return out


def _with_wild(chosen: tuple[int, ...], wild: list[int], n: int) -> list[tuple[int, ...]]:
    """`chosen` topped up to `n` animals with bharals, every way."""
    return [tuple(sorted(chosen + w)) for w in combinations(wild, n - len(chosen))]


def _same_sets(by: dict[str, list[int]], wild: list[int], n: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for idx in by.values():
        for k in range(max(1, n - len(wild)), min(len(idx), n) + 1):
            for c in combinations(idx, k):
                out.extend(_with_wild(c, wild, n))
    if len(wild) >= n:
        out.extend(combinations(wild, n))
    return out


def _different_sets(by: dict[str, list[int]], wild: list[int], n: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for k in range(max(0, n - len(wild)), min(len(by), n) + 1):
        for kinds in combinations(list(by), k):
            for pick in product(*(by[s] for s in kinds)):
                out.extend(_with_wild(pick, wild, n))
    return out


def _claim_possible_rows(state: State, seat: int):
    """(row, col) spots the seat could claim now, ignoring which pieces (for a quick check)."""
    me = state["seats"][seat]
    if state["phase"] != "act" or state["claimed_this_turn"] or me["cubes"] <= 0:
        return []
    return [(row, col) for row in ROWS for col in range(5) if state["chart"][row][col] is None]


def _any_claim(state: State, seat: int) -> bool:
    spots = _claim_possible_rows(state, seat)
    if not spots:
        return False
    me = state["seats"][seat]
    comp_max = None
    wild = sum(1 for a in me["animals"] if a["species"] == WILD)
    counts: dict[str, int] = {}
    for a in me["animals"]:
        if a["species"] != WILD:
            counts[a["species"]] = counts.get(a["species"], 0) + 1
    for row, col in spots:
        n = NEED[col]
        if row == "camps":
            if me["camps"] < n:
                continue
            if comp_max is None:
                comp_max = largest_hiker_group(state, seat)
            if comp_max >= n:
                return True
        elif row == "different":
            if min(len(counts), n) + wild >= n:
                return True
        else:
            if max(counts.values(), default=0) + wild >= n:
                return True
    return False


def _claims(state: State, seat: int) -> list[Action]:
    spots = _claim_possible_rows(state, seat)
    if not spots:
        return []
    me = state["seats"][seat]
    out: list[Action] = []
    cache: dict[tuple[str, int], list] = {}
    for row, col in spots:
        n = NEED[col]
        if row == "camps":
            if me["camps"] < n:
                continue
            if (row, n) not in cache:
                cache[(row, n)] = camp_groups(state, seat, n)
            out.extend({"type": "claim", "row": row, "col": col, "sections": list(g)}
                       for g in cache[(row, n)])
        else:
            if (row, n) not in cache:
                cache[(row, n)] = trade_sets(me["animals"], row, n)
            out.extend({"type": "claim", "row": row, "col": col, "animals": list(g)}
                       for g in cache[(row, n)])
    return out


def _snow_leopard_pairs(board: dict, hikers: list[int], animals: list[int]) -> Iterator[tuple[int, int]]:
    for a in hikers:
        for b in ADJACENCY[a]:
            if b > a and board[str(b)]["piece"] == "hiker" and (
                    NOOP_SWAPS_ALLOWED or board[str(b)]["seat"] != board[str(a)]["seat"]):
                yield a, b


def _tahr_pairs(board: dict, hikers: list[int], animals: list[int]) -> Iterator[tuple[int, int]]:
    for a in hikers:
        for b in ADJACENCY[a]:
            if board[str(b)]["piece"] == "animal":
                yield a, b


def _musk_deer_pairs(board: dict, hikers: list[int], animals: list[int]) -> Iterator[tuple[int, int]]:
    for i, a in enumerate(animals):
        for b in animals[i + 1:]:
            if NOOP_SWAPS_ALLOWED or board[str(b)]["species"] != board[str(a)]["species"]:
                yield a, b


_SWAP_PAIRS = {"snow_leopard": _snow_leopard_pairs, "tahr": _tahr_pairs, "musk_deer": _musk_deer_pairs}


def _yak_regions(state: State) -> Iterator[int]:
    for reg in REGIONS:
        if reg == state["guide"] and not YAK_SAME_REGION_ALLOWED:
            continue
        if not YAK_EMPTY_REGION_ALLOWED and not region_has_animal(state, reg):
            continue
        yield reg


def _each_activation(state: State, held: set[str]) -> Iterator[Action]:
    board = state["board"]
    hikers = [s for s in SECTIONS if board[str(s)]["piece"] == "hiker"]
    animals = [s for s in SECTIONS if board[str(s)]["piece"] == "animal"]
    for species, pairs in _SWAP_PAIRS.items():
        if species in held:
            for a, b in pairs(board, hikers, animals):
                yield {"type": "activate", "animal": species, "a": a, "b": b}
    if "yak" in held:
        for reg in _yak_regions(state):
            yield {"type": "activate", "animal": "yak", "region": reg}


def _activations(state: State, seat: int, first_only: bool = False) -> list[Action]:
    held = {a["species"] for a in state["seats"][seat]["animals"] if not a["activated"]}
    if not held & set(ACTIVATED_SPECIES):
        return []
    found = _each_activation(state, held)
    return list(islice(found, 1)) if first_only else list(found)


def only_end_turn(state: State, seat: int) -> bool:
    """True when, in phase act, end_turn is the seat's only legal action."""
    return (state["phase"] == "act" and not _any_claim(state, seat)
            and not _activations(state, seat, first_only=True))


def _copy_for_apply(state: State) -> State:
    """A copy `apply` may change without touching its input: every container a handler
    mutates is copied, while what handlers only replace or append to is shared (board cells
    and recorded events are never changed in place). Cheaper than a deep copy, and its cost
    does not grow with the history."""
    new = dict(state)
    new["board"] = dict(state["board"])
    new["chart"] = {row: list(spots) for row, spots in state["chart"].items()}
    new["seats"] = [dict(seat, breakdown=dict(seat["breakdown"]), traded=list(seat["traded"]),
                         animals=[dict(a) for a in seat["animals"]]) for seat in state["seats"]]
    new["events"] = list(state.get("events", []))
    return new


# --- the ruleset -----------------------------------------------------------------------------

class NangaParbat(Ruleset):
    slug = "nanga-parbat"
    title = "Nanga Parbat"
    min_players = 2
    max_players = 2
    # "2": the mountain is dealt by the shared `rng_for(seed, "setup")`; games started under
    # "1" keep their deal through `PREVIOUS` (rules/v1.py, docs/rules-versions.md).
    version = "2"

    def default_options(self) -> dict:
        return {"area_scoring": False}

    def validate_options(self, players: int, options: dict | None) -> dict:
        if isinstance(players, bool) or not isinstance(players, int) or players != 2:
            raise IllegalAction(_("Nanga Parbat is for exactly 2 players."))
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise IllegalAction(_("The options must be an object."))
        result = self.default_options()
        for key, value in options.items():
            if key not in result:
                raise IllegalAction(_("Unknown option '%(option)s'. The only option is 'area_scoring'.")
                                    % {"option": key})
            if not isinstance(value, bool):
                raise IllegalAction(_("The option '%(option)s' must be true or false.") % {"option": key})
            result[key] = value
        return result

    def setup(self, players: int, options: dict | None, seed: int) -> State:
        opts = self.validate_options(players, options)
        rng = self.deal_rng(seed)
        deal = [s for s in SPECIES for _n in range(data.ANIMALS_PER_SPECIES)]
        rng.shuffle(deal)
        first = rng.randrange(2)
        board = {str(sid): {"piece": "animal", "species": sp} for sid, sp in zip(SECTIONS, deal, strict=True)}
        seats = [{"hikers": data.HIKERS_PER_SEAT, "camps": data.CAMPS_PER_SEAT,
                  "cubes": data.CUBES_PER_SEAT, "score": 0,
                  "breakdown": {c: 0 for c in data.BREAKDOWN_CATEGORIES},
                  "animals": [], "traded": []} for _n in range(2)]
        return {
            "schema": SCHEMA,
            "players": 2,
            "options": opts,
            "first_player": first,
            "current": 1 - first,
            "phase": "place_guide",
            "turn": 0,
            "guide": None,
            "claimed_this_turn": False,
            "board": board,
            "seats": seats,
            "chart": {row: [None] * 5 for row in ROWS},
            "moves": 0,
            "events": [{"type": "first_player", "seat": first, "turn": 0, "move": 0}],
            "result": None,
        }

    def deal_rng(self, seed: int) -> random.Random:
        """The draw that deals the mountain and picks the first player."""
        return rng_for(seed, "setup")

    # --- turn order ---

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "place_guide":
            return [1 - state["first_player"]]
        return [state["current"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if not _is_int(seat) or seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "place_guide":
            return [{"type": "place_guide", "region": r} for r in REGIONS]
        out: list[Action] = []
        if phase == "trap":
            guide = state["guide"]
            if region_has_animal(state, guide):
                if state["seats"][seat]["hikers"] > 0:
                    out.extend({"type": "trap", "section": 10 * guide + s} for s in range(1, 7)
                               if _is_animal(state, 10 * guide + s))
            else:
                out.extend({"type": "relocate_guide", "region": r} for r in REGIONS
                           if region_has_animal(state, r))
            out.extend(_activations(state, seat))
            return out
        out.extend(_claims(state, seat))
        out.extend(_activations(state, seat))
        out.append({"type": "end_turn"})
        return out

    def apply(self, state: State, seat: int, action: Action) -> State:
        self.check_seat(state, seat)
        kind = check_action_shape(action)
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise IllegalAction(_("'%(kind)s' is not an action in Nanga Parbat.") % {"kind": kind})
        new = _copy_for_apply(state)
        new["moves"] = state.get("moves", 0) + 1
        handler(new, seat, action)
        return new

    # --- scores ---

    def scores(self, state: State) -> list[dict]:
        return [{"total": s["score"], "breakdown": dict(s["breakdown"])} for s in state["seats"]]

    def ranking(self, state: State) -> list[int]:
        return competition_ranking([_rank_key(state, seat) for seat in range(2)])

    def view(self, state: State, seat: int | None) -> dict:
        from .view import build_view
        return build_view(self, state, seat)

    def undoable(self, before: State, seat: int, action: Action, after: State) -> bool:
        return _undoable(before, seat, action, after)

    # A game saved before `events` replaced the English `log` and `last_events` keeps playing:
    # the rules read its missing `events` as none and its move count from 0 (docs/rules-versions.md).
    def older_shape(self, state: State) -> bool:
        return "log" in state

    def comparable(self, state: State) -> State:
        return {k: v for k, v in state.items() if k not in ("log", "last_events", "events", "moves")}

    def seat_turn(self, state: State, seat: int) -> str:
        """Turns alternate and nothing is hidden, so every action changes what the seat to
        act decides about (a trap moves the guide, a swap moves pieces): the key is the turn
        and the number of actions applied."""
        return f"{state['turn']}.{state.get('moves', 0)}"


def _rank_key(state: State, seat: int) -> tuple:
    key = [state["seats"][seat]["score"]]
    for tb in TIE_BREAKS:
        if tb == "camps_on_mountain":
            key.append(sum(1 for c in state["board"].values()
                           if c["piece"] == "camp" and c["seat"] == seat))
        elif tb == "spots_claimed":
            key.append(sum(1 for row in ROWS for o in state["chart"][row] if o == seat))
    return tuple(key)


# --- action handlers (mutate the fresh copy; validate before changing anything) --------------

def _need_phase(state: State, allowed: tuple[str, ...], kind: str) -> None:
    phase = state["phase"]
    if phase in allowed:
        return
    if kind == "place_guide":
        raise IllegalAction(_("The guide has already been placed."))
    if phase == "place_guide":
        raise IllegalAction(_("First place the guide on the flag of a region."))
    if kind in ("trap", "relocate_guide"):
        raise IllegalAction(_("You have already trapped an animal this turn."))
    if kind == "claim":
        raise IllegalAction(_("Trap an animal first: claims come after the trap."))
    if kind == "end_turn":
        raise IllegalAction(_("You must trap an animal before ending your turn."))
    raise IllegalAction(_("That cannot be done now."))


def _do_place_guide(state: State, seat: int, action: Action) -> None:
    _keys(action, {"type", "region"})
    _need_phase(state, ("place_guide",), "place_guide")
    reg = _region_of(action)
    state["guide"] = reg
    state["current"] = state["first_player"]
    state["phase"] = "trap"
    state["turn"] = 1
    _emit(state, "place_guide", seat, region=reg)


def _do_relocate(state: State, seat: int, action: Action) -> None:
    _keys(action, {"type", "region"})
    _need_phase(state, ("trap",), "relocate_guide")
    reg = _region_of(action)
    err = _relocate_error(state, reg)
    if err:
        raise IllegalAction(err)
    state["guide"] = reg
    _emit(state, "relocate_guide", seat, region=reg)


def _do_trap(state: State, seat: int, action: Action) -> None:
    _keys(action, {"type", "section"})
    _need_phase(state, ("trap",), "trap")
    sid = _section_of(action, "section")
    err = _trap_error(state, seat, sid)
    if err:
        raise IllegalAction(err)
    me, opp = state["seats"][seat], state["seats"][1 - seat]
    species = _cell(state, sid)["species"]
    me["animals"].append({"species": species, "activated": False})
    state["board"][str(sid)] = {"piece": "hiker", "seat": seat}
    me["hikers"] -= 1
    _emit(state, "trap", seat, section=sid, species=species)
    state["guide"] = num(sid)
    _emit(state, "guide_follows", seat, region=state["guide"])
    if species == RED_PANDA and me["score"] <= opp["score"]:
        gain(state, seat, 1, "red_panda")
    state["phase"] = "act"
    _maybe_auto_end(state, seat)


def _do_activate(state: State, seat: int, action: Action) -> None:
    _need_phase(state, ("trap", "act"), "activate")
    species = action.get("animal")
    if not isinstance(species, str) or species not in SPECIES:
        raise IllegalAction(_("Unknown animal: choose snow_leopard, tahr, musk_deer or yak."))
    if species == WILD:
        raise IllegalAction(_("The bharal has no power to activate; it is wild when trading."))
    if species == RED_PANDA:
        raise IllegalAction(_("The red panda has no power to activate; it scores when trapped."))
    a = b = reg = None
    if species == "yak":
        _keys(action, {"type", "animal", "region"})
        reg = _region_of(action)
    else:
        _keys(action, {"type", "animal", "a", "b"})
        a = _section_of(action, "a")
        b = _section_of(action, "b")
    err = _activation_error(state, seat, species, a, b, reg)
    if err:
        raise IllegalAction(err)
    me = state["seats"][seat]
    me["animals"][_first_unactivated(me, species)]["activated"] = True
    board = state["board"]
    if species == "yak":
        state["guide"] = reg
        _emit(state, "activate", seat, animal=species, region=reg)
    else:
        board[str(a)], board[str(b)] = board[str(b)], board[str(a)]
        _emit(state, "activate", seat, animal=species, a=a, b=b)
    if state["phase"] == "act":
        _maybe_auto_end(state, seat)


def _do_claim(state: State, seat: int, action: Action) -> None:
    _need_phase(state, ("act",), "claim")
    row = action.get("row")
    if not isinstance(row, str) or row not in ROWS:
        raise IllegalAction(_("Unknown row: choose camps, different or same."))
    items_key = "sections" if row == "camps" else "animals"
    _keys(action, {"type", "row", "col", items_key})
    col = action["col"]
    if not _is_int(col) or not 0 <= col <= 4:
        raise IllegalAction(_("'col' must be a column number from 0 to 4."))
    err = _spot_error(state, seat, row, col)
    items = action[items_key]
    err = err or _list_error(items, NEED[col], items_key)
    if err is None:
        if row == "camps":
            err = _camp_claim_error(state, seat, col, items)
        else:
            err = _trade_claim_error(state, seat, row, items)
    if err:
        raise IllegalAction(err)
    me = state["seats"][seat]
    if row == "camps":
        for sid in items:
            state["board"][str(sid)] = {"piece": "camp", "seat": seat}
        me["camps"] -= len(items)
    else:
        chosen = set(items)
        traded = [me["animals"][i] for i in items]
        me["traded"].extend(traded)
        me["animals"] = [a for i, a in enumerate(me["animals"]) if i not in chosen]
    me["cubes"] -= 1
    state["chart"][row][col] = seat
    state["claimed_this_turn"] = True
    traded_species = {} if row == "camps" else {"species": [a["species"] for a in traded]}
    _emit(state, "claim", seat, row=row, col=col, **{items_key: list(items)}, **traded_species)
    gain(state, seat, VALUE[row][col], row)
    _maybe_auto_end(state, seat)


def _do_end_turn(state: State, seat: int, action: Action) -> None:
    _keys(action, {"type"})
    _need_phase(state, ("act",), "end_turn")
    _end_turn(state, seat)


_HANDLERS = {
    "place_guide": _do_place_guide,
    "relocate_guide": _do_relocate,
    "trap": _do_trap,
    "activate": _do_activate,
    "claim": _do_claim,
    "end_turn": _do_end_turn,
}


def _maybe_auto_end(state: State, seat: int) -> None:
    if AUTO_END_TURN and only_end_turn(state, seat):
        _end_turn(state, seat, auto=True)


def _end_turn(state: State, seat: int, auto: bool = False) -> None:
    _emit(state, "end_turn", seat, auto=auto)
    seats = state["seats"]
    ended_by = []
    if all(s["hikers"] == 0 for s in seats):
        ended_by.append("hikers")
    if all(s["cubes"] == 0 for s in seats):
        ended_by.append("cubes")
    if ended_by:
        _finish(state, ended_by)
        return
    state["current"] = 1 - seat
    state["turn"] += 1
    state["claimed_this_turn"] = False
    state["phase"] = "trap"


def _finish(state: State, ended_by: list[str]) -> None:
    awards = []
    if state["options"].get("area_scoring"):
        _emit(state, "area_scoring", None)
        board = state["board"]
        for reg in REGIONS:
            for s in (0, 1):
                pieces = sum(1 for k in range(1, 7)
                             if board[str(10 * reg + k)]["piece"] in ("hiker", "camp")
                             and board[str(10 * reg + k)]["seat"] == s)
                points = AREA_POINTS.get(pieces, 0)
                if points:
                    bump = gain(state, s, points, "area")
                    awards.append({"region": reg, "seat": s, "pieces": pieces,
                                   "points": points, "bump": bump})
    state["phase"] = "over"
    state["claimed_this_turn"] = False
    state["result"] = {"ended_by": ended_by, "area": awards}
    ranks = competition_ranking([_rank_key(state, s) for s in (0, 1)])
    a, b = state["seats"][0]["score"], state["seats"][1]["score"]
    _emit(state, "game_over", None, ended_by=list(ended_by), ranking=ranks, scores=[a, b])


RULES = NangaParbat()


def _undoable(before: State, seat: int, action: Action, after: State) -> bool:
    """Nothing is ever revealed in Nanga Parbat, so a seat may take back its own action while
    the turn it belongs to is still running (the action did not end the turn or the game)."""
    return (before["phase"] in ("trap", "act") and after["phase"] in ("trap", "act")
            and after["turn"] == before["turn"] and after["current"] == seat)

