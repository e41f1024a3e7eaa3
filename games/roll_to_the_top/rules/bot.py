"""A greedy bot for Roll to the Top: Journeys.

Writing: place the number that wastes the least headroom (how far it overshoots the
box's requirement, weighted by how low the box sits), while the waste stays small;
then `done`. Action die: pick the die move whose resulting pool gives the most boxes
to fill next turn, judged on a few sample rolls.

`search_policy` (levels 4-5 play and roll out by it: `POLICY_LEVELS` in
games/rules/levels.py) writes by a plan for the whole turn instead: the greedy writer
spends the die that fits one box best and looks no further, so that die may be the one a
second box needed; the plan weighs every way to share the roll out among the boxes.
"""
from __future__ import annotations

import random

from .data import GEOMETRY, NUMBER_DICE
from .rules import RULES, bounds, free_dice, legal_places, open_boxes, seat_sheet

WASTE_LIMIT = 4          # a placement wasting more than this (scaled) is not worth it
SAMPLES = 8              # sample rolls to judge a die move
REVERSE_BASE = 10


def _waste(state, seat, sheet, place) -> float:
    k = f"{place['box'][0]},{place['box'][1]}"
    value = sum(state["roll"][d] for d in place["dice"])
    fit = bounds(state, sheet, k)
    assert not isinstance(fit, str), "a legal place has bounds"
    return _waste_of(state, k, value, fit, len(place["dice"]))


def _waste_of(state, k: str, value: int, fit: tuple[int, int], dice_used: int) -> float:
    """How much headroom writing `value` into box k (whose legal values are `fit`) uses up."""
    geo = GEOMETRY[state["board"]]
    lo, hi = fit
    reverse = state["options"]["mode"] == "reverse"
    rows = geo["rows"]
    r = geo["boxes"][k]["r"]
    # the ideal number for a row rises (falls in reverse) from the base to the peak
    frac = r / max(rows - 1, 1)
    if reverse:
        ideal = 1 + REVERSE_BASE * (1 - frac)
        over = max(0, ideal - value) if geo["boxes"][k]["kind"] != "supported" else hi - value
    else:
        ideal = 1 + 35 * frac
        over = max(0, value - ideal) if geo["boxes"][k]["kind"] != "supported" else value - lo
    return over + 0.3 * (dice_used - 1)


def _waste_limit(state) -> float:
    """The most waste a placement may cost before writing nothing is better: more dice
    rolled, more ways to fill a box, so the bar rises with the pool."""
    return WASTE_LIMIT + 2 * len(state["pool"]) / 5


def _write(state, seat, rng):
    places = legal_places(state, seat)
    if not places:
        return {"type": "done"}
    sheet = seat_sheet(state, seat)
    best = min(places, key=lambda p: (_waste(state, seat, sheet, p), -p["box"][0]))
    if _waste(state, seat, sheet, best) <= _waste_limit(state):
        return best
    return {"type": "done"}


def _fillable(state, seat, pool, rng) -> float:
    sheet = state["sheets"][seat]
    geo = GEOMETRY[state["board"]]
    open_bounds = []
    for k in geo["order"]:
        if k in sheet:
            continue
        b = bounds(state, sheet, k)
        if not isinstance(b, str):
            open_bounds.append(b)
    if not open_bounds:
        return 0.0
    score = 0.0
    for _ in range(SAMPLES):
        values = [rng.randint(1, NUMBER_DICE[d]) for d in pool]
        sums = set()
        for mask in range(1, 1 << len(values)):
            sums.add(sum(v for i, v in enumerate(values) if mask >> i & 1))
        score += sum(1 for lo, hi in open_bounds if any(lo <= s <= hi for s in sums))
    return score / SAMPLES


def _act(state, seat, rng, legal):
    def pool_after(a):
        pool = list(state["pool"])
        if a["type"] == "add":
            pool.append(a["die"])
        elif a["type"] == "remove":
            pool.remove(a["die"])
        else:
            pool.remove(a["remove"])
            pool.append(a["add"])
        return pool
    local = random.Random(rng.random())
    return max(legal, key=lambda a: _fillable(state, seat, pool_after(a), random.Random(local.random())))


def choose(state, seat, rng):
    legal = RULES.legal_actions(state, seat)
    if not legal:
        raise ValueError("This seat has nothing to do now.")
    if state["phase"] == "write":
        return _write(state, seat, rng)
    return _act(state, seat, rng, legal)


# --- the search policy: a plan for the whole turn -------------------------------------------

# What one more box filled this turn is worth against its waste: more than the waste limit,
# so every placement the greedy writer would make adds to a plan, and a plan fills fewer
# boxes only where the boxes it leaves would waste nearly all they are worth (measured
# against greedy at two players, 200 deals: a box worth 5-7 won 56-57 %, 10 or 20 55 %; 4 or
# less, where a placement within the limit may be worth nothing, 50 %).
PLAN_BOX_WORTH = 7.0
# Plans kept between calls: the policy is asked once for each number it writes in a turn,
# and each later call finds the rest of the plan its first call made.
_PLANS: dict[tuple, list[dict]] = {}
_PLANS_KEPT = 4096


def search_policy(state, seat, rng):
    """The greedy bot's move, but writing by `_turn_plan`: its first number, then `done`."""
    if state["phase"] != "write":
        return choose(state, seat, rng)
    if seat not in RULES.to_act(state):
        raise ValueError("This seat has nothing to do now.")
    plan = _turn_plan(state, seat)
    return plan[0] if plan else {"type": "done"}


def _turn_plan(state, seat) -> list[dict]:
    """The placements to make with this seat's free dice this turn, in an order that keeps
    each one legal: the most worth, PLAN_BOX_WORTH a box less its waste (each placement
    within the greedy writer's waste limit)."""
    sheet = seat_sheet(state, seat)
    dice = free_dice(state, seat)
    plan = _PLANS.get(_plan_key(state, sheet, dice))
    if plan is None:
        plan = _best_plan(state, sheet, dice)
        _keep_plan(state, sheet, dice, plan)
    return plan


def _keep_plan(state, sheet: dict, dice: list[str], plan: list[dict]) -> None:
    """Keep the plan under this position and its rest under each position it leads to."""
    if len(_PLANS) >= _PLANS_KEPT:
        _PLANS.clear()
    for step, place in enumerate(plan):
        _PLANS[_plan_key(state, sheet, dice)] = plan[step:]
        sheet = {**sheet, f"{place['box'][0]},{place['box'][1]}": sum(state["roll"][d] for d in place["dice"])}
        dice = [d for d in dice if d not in place["dice"]]
    _PLANS[_plan_key(state, sheet, dice)] = []


def _plan_key(state, sheet: dict, dice: list[str]) -> tuple:
    return (state["board"], state["options"]["mode"], state["options"]["board_specials"],
            tuple(sorted(sheet.items())), tuple((d, state["roll"][d]) for d in dice), len(state["pool"]))


def _best_plan(state, sheet: dict, dice: list[str]) -> list[dict]:
    roll = state["roll"]
    subsets = [[d for i, d in enumerate(dice) if mask >> i & 1] for mask in range(1, 1 << len(dice))]
    sums = [(mask, combo, sum(roll[d] for d in combo)) for mask, combo in enumerate(subsets, start=1)]
    limit = _waste_limit(state)
    best: tuple[float, list[dict]] = (0.0, [])
    seen: set[frozenset] = set()

    def extend(sheet: dict, free_mask: int, plan: list[dict], worth: float) -> None:
        nonlocal best
        if worth > best[0]:
            best = (worth, list(plan))
        if worth + PLAN_BOX_WORTH * free_mask.bit_count() <= best[0]:
            return   # each box takes a die at least: no plan from here does better
        placed = frozenset((p["box"][0], p["box"][1], p["mask"]) for p in plan)
        for k, lo, hi in open_boxes(state, sheet):
            r, x = (int(part) for part in k.split(","))
            for mask, combo, total in sums:
                if mask & free_mask != mask or not lo <= total <= hi or placed | {(r, x, mask)} in seen:
                    continue
                seen.add(placed | {(r, x, mask)})
                waste = _waste_of(state, k, total, (lo, hi), len(combo))
                if waste > limit:
                    continue
                plan.append({"box": [r, x], "mask": mask, "dice": combo})
                extend({**sheet, k: total}, free_mask & ~mask, plan, worth + PLAN_BOX_WORTH - waste)
                plan.pop()

    extend(sheet, (1 << len(dice)) - 1, [], 0.0)
    return [{"type": "place", "box": p["box"], "dice": p["dice"]} for p in best[1]]
