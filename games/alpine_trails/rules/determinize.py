"""Determinization for search bots: a state a seat cannot tell from the real one.

What a seat cannot see in Alpine Trails: the bag (which tiles are in it, and which stayed
in the box), the other seats' goals, and everything the other seats did in the round
still in progress (their hands, live maps and private choices: only their `public`
snapshot of the last resolved round shows). `determinize` rebuilds all of that from what
the seat sees plus `rng`, so two states that differ only in hidden parts give the same
result under the same rng: a bot searching over it cannot use what it may not know.
"""
from __future__ import annotations

import random

from games.rules.base import State

from .data import GOAL_IDS, TILE_IDS, TILES_PER_ROUND


def _tiles_on(map_: dict) -> set[str]:
    return {piece["tile"] for piece in map_.values() if "tile" in piece}


def _seen_tiles(state: State, seat: int) -> set[str]:
    """Every tile the seat can name: on its own live map, hand and out pile, and on the
    other seats' public maps and out piles."""
    seen: set[str] = set()
    for i, s in enumerate(state["seats"]):
        src = s if i == seat else s["public"]
        seen |= _tiles_on(src["map"]) | set(src["out"])
        if i == seat:
            seen |= set(s["hand"])
    return seen


def _as_of_last_round(s: dict, hand: list[str], goal: str) -> dict:
    """Another seat as the viewer knows it: its public snapshot, a sampled hand and goal,
    nothing chosen yet this round (a seat already done has dealt with its hand)."""
    public = s["public"]
    kept = {k: v for k, v in s.items() if k != "round_log"}  # a seat saved before `events`
    return {**kept, "goal": goal, "hand": sorted(hand), "map": dict(public["map"]),
            "animals": list(public["animals"]), "out": list(public["out"]),
            "waterfalls_pending": 0, "campsite_used": False, "round_forks": [], "round_out": [],
            "round_events": [], "public": {"map": dict(public["map"]), "animals": list(public["animals"]),
                                           "out": list(public["out"])}}


def determinize(state: State, seat: int, rng: random.Random) -> State:
    if state["phase"] == "over":
        return dict(state)
    unseen = sorted(set(TILE_IDS) - _seen_tiles(state, seat))
    rng.shuffle(unseen)
    own_goal = state["seats"][seat]["goal"]
    goals = [g for g in GOAL_IDS if g != own_goal]
    rng.shuffle(goals)
    seats = []
    for i, s in enumerate(state["seats"]):
        if i == seat:
            seats.append(s)
            continue
        hand_size = 0 if s["done"] else TILES_PER_ROUND
        hand, unseen = unseen[:hand_size], unseen[hand_size:]
        seats.append(_as_of_last_round(s, hand, goals.pop()))
    bag = sorted(unseen[: len(state["bag"])])
    return {**state, "seats": seats, "bag": bag, "seed": rng.randrange(2**31)}
