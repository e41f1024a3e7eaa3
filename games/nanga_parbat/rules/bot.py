"""A greedy Nanga Parbat bot (spec §15): take the best-paying claim (saving cubes for spots
worth CLAIM_MIN or more until turns run short), trap with an eye on the
next claim and on what the guide's new region offers the opponent, use a yak to deny a rich
region, then end the turn. It reads the state through the rules module's public helpers, so it
only ever returns actions that `legal_actions` lists."""
from __future__ import annotations

import random

from .data import NEED, RED_PANDA, REGIONS, ROWS, VALUE, WILD, num
from .rules import RULES, camp_groups, largest_hiker_group, region_has_animal, trade_sets

OPP_WEIGHT = 0.8        # how much the opponent's best answer in the guide's region counts
PROGRESS_WEIGHT = 0.5   # how much a step towards a future claim counts
YAK_MARGIN = 3          # a yak is spent only when it changes the outlook by this much
CLAIM_MIN = 8           # cubes are few: claim a cheaper spot only when turns are running out


def _holdings(state, seat) -> tuple[int, dict, int]:
    """What a claim can be made from: wild animals, other animals per species, and the
    size of the seat's largest group of adjacent hikers."""
    animals = state["seats"][seat]["animals"]
    wild = sum(1 for a in animals if a["species"] == WILD)
    counts: dict[str, int] = {}
    for a in animals:
        if a["species"] != WILD:
            counts[a["species"]] = counts.get(a["species"], 0) + 1
    comp = largest_hiker_group(state, seat)
    return wild, counts, comp


def _feasible_value(state, seat, ignore_turn=False) -> int:
    """The best chart value the seat could claim with what it has now (0 if none)."""
    me = state["seats"][seat]
    if me["cubes"] <= 0 or (state["claimed_this_turn"] and not ignore_turn):
        return 0
    wild, counts, comp = _holdings(state, seat)
    best = 0
    for row in ROWS:
        for col in range(5):
            if state["chart"][row][col] is not None:
                continue
            n = NEED[col]
            if row == "camps":
                ok = me["camps"] >= n and comp >= n
            elif row == "different":
                ok = min(len(counts), n) + wild >= n
            else:
                ok = max(counts.values(), default=0) + wild >= n
            if ok:
                best = max(best, VALUE[row][col])
    return best


def _progress(state, seat) -> float:
    """A rough measure of how close the seat is to its next claims."""
    me = state["seats"][seat]
    if me["cubes"] <= 0:
        return 0.0
    wild, counts, comp = _holdings(state, seat)
    return min(comp, 6) + min(len(counts) + wild, 6) * 0.7 + min(max(counts.values(), default=0) + wild, 6)


def _after_trap(state, seat, sid):
    """A light copy of the state just after `seat` traps `sid` (no auto end of turn)."""
    board = dict(state["board"])
    species = board[str(sid)]["species"]
    board[str(sid)] = {"piece": "hiker", "seat": seat}
    seats = [dict(s) for s in state["seats"]]
    me, opp = seats[seat], seats[1 - seat]
    me["animals"] = me["animals"] + [{"species": species, "activated": False}]
    me["hikers"] -= 1
    points = 1 if species == RED_PANDA and me["score"] <= opp["score"] else 0
    new = dict(state, board=board, seats=seats, guide=num(sid), phase="act")
    return new, points


def _trap_gain(state, seat, sid, ignore_turn=False) -> tuple[float, dict]:
    """The value of trapping in `sid` for `seat`, and the state after it."""
    after, points = _after_trap(state, seat, sid)
    return points + _feasible_value(after, seat, ignore_turn) + PROGRESS_WEIGHT * _progress(after, seat), after


def _threat(state, opp, reg) -> float:
    """The opponent's best trap value if it must play in region `reg` next turn."""
    regions = [reg] if region_has_animal(state, reg) else [r for r in REGIONS if region_has_animal(state, r)]
    fresh = dict(state, claimed_this_turn=False)
    best = 0.0
    for r in regions:
        for k in range(1, 7):
            sid = 10 * r + k
            if fresh["board"][str(sid)]["piece"] == "animal":
                value, _ = _trap_gain(fresh, opp, sid, ignore_turn=True)
                best = max(best, value)
    return best


def _best_trap(state, seat):
    guide = state["guide"]
    best, best_value = None, None
    for k in range(1, 7):
        sid = 10 * guide + k
        if state["board"][str(sid)]["piece"] != "animal":
            continue
        value, after = _trap_gain(state, seat, sid)
        value -= OPP_WEIGHT * _threat(after, 1 - seat, after["guide"])
        if best_value is None or value > best_value:
            best, best_value = sid, value
    return best, best_value


def _trade_cost(animals, indices) -> int:
    """What giving up these animals costs: a wild bharal most, an unused power a little."""
    total = 0
    for i in indices:
        a = animals[i]
        if a["species"] == WILD:
            total += 3
        elif not (a["activated"] or a["species"] == RED_PANDA):
            total += 1
    return total


def _claim_choice(state, seat):
    me = state["seats"][seat]
    spots = sorted(((VALUE[row][col], row, col) for row in ROWS for col in range(5)
                    if state["chart"][row][col] is None), reverse=True)
    for _value, row, col in spots:
        n = NEED[col]
        if row == "camps":
            if me["camps"] < n:
                continue
            groups = camp_groups(state, seat, n)
            if groups:
                return {"type": "claim", "row": row, "col": col, "sections": list(groups[0])}
        else:
            sets = trade_sets(me["animals"], row, n)
            if sets:
                best = min(sets, key=lambda indices: _trade_cost(me["animals"], indices))
                return {"type": "claim", "row": row, "col": col, "animals": list(best)}
    return None


def _yak_move(state, seat):
    """A yak activation that sends the guide somewhere much worse for the opponent, or None."""
    if not _has_ready_yak(state, seat):
        return None
    opp = 1 - seat
    here = _threat(state, opp, state["guide"])
    options = [(_threat(state, opp, r), r) for r in REGIONS if r != state["guide"]]
    value, reg = min(options)
    if here - value >= YAK_MARGIN:
        return {"type": "activate", "animal": "yak", "region": reg}
    return None


def _has_ready_yak(state, seat) -> bool:
    return any(a["species"] == "yak" and not a["activated"] for a in state["seats"][seat]["animals"])


def _relocation(state, seat):
    """The guide's region is empty: send it where this seat's best trap is best (first such region)."""
    best: tuple[float, int] | None = None
    for r in REGIONS:
        if region_has_animal(state, r):
            value = _best_trap(dict(state, guide=r), seat)[1]
            if value is not None and (best is None or value > best[0]):
                best = (value, r)
    # The guide is relocated only when some region still holds an animal.
    assert best is not None
    return {"type": "relocate_guide", "region": best[1]}


def _trap_phase(state, seat):
    if not region_has_animal(state, state["guide"]):
        return _relocation(state, seat)
    sid, value = _best_trap(state, seat)
    # A yak before the trap: move to a region with a much better trap.
    if _has_ready_yak(state, seat):
        alt = [(_best_trap(dict(state, guide=r), seat)[1], r) for r in REGIONS
               if r != state["guide"] and region_has_animal(state, r)]
        if alt:
            v, r = max(alt)
            if v - value >= YAK_MARGIN:
                return {"type": "activate", "animal": "yak", "region": r}
    return {"type": "trap", "section": sid}


def _act_phase(state, seat):
    me = state["seats"][seat]
    claim = _claim_choice(state, seat) if not state["claimed_this_turn"] and me["cubes"] > 0 else None
    # Turns left to claim in: this one plus one per hiker still in supply.
    if claim is not None and (VALUE[claim["row"]][claim["col"]] >= CLAIM_MIN or me["cubes"] >= me["hikers"] + 1):
        return claim
    return _yak_move(state, seat) or {"type": "end_turn"}


def choose(state, seat, rng: random.Random):
    if seat not in RULES.to_act(state):
        raise ValueError("The bot was asked to move when it has no legal action.")
    phase = state["phase"]
    if phase == "place_guide":
        first = 1 - seat
        scores = [(_threat(state, first, r), r) for r in REGIONS]
        return {"type": "place_guide", "region": min(scores)[1]}
    if phase == "trap":
        return _trap_phase(state, seat)
    return _act_phase(state, seat)
