"""Builders for hand-made Rifugio positions (the worked examples of shared/rules/rifugio.md §18)."""
from __future__ import annotations

import json

import pytest

from games.rifugio.rules import RULES
from games.rifugio.rules import data as D
from games.rifugio.rules.rules import is_land, is_water, key, parse
from games.rules.base import IllegalAction

A, B, C = 0, 1, 2
FILLER = [f"F{i:02d}" for i in range(4, 19)]  # plain forest tiles: they fit next to almost anything


def position(players: int = 2, rr: bool = True, tiles: dict | None = None, active: int = A,
             steps: int = 2, first_seat: int = 0, stack: list | None = None, at=(0, 0)) -> dict:
    """A walk-phase position: START at (0,0) plus `tiles` ({(q, r): id}, rotation 0)."""
    state = RULES.setup(players, {"rivers_and_rafts": rr}, 1)
    state["board"] = {"0,0": {"tile": "START", "rot": 0}}
    for (q, r), tile in (tiles or {}).items():
        state["board"][key(q, r)] = {"tile": tile, "rot": 0}
    state["hand"] = None
    state["stack"] = list(stack) if stack is not None else list(FILLER)
    state["bottom"] = []
    state["phase"] = "walk"
    state["active"] = active
    state["first_seat"] = first_seat
    state["turn"] = {"tiles_to_place": 0, "steps": steps, "visited_rifugi": [], "visited_rafts": [],
                     "tried": [], "placed": []}
    for p in state["seats"]:
        p["walker"]["at"] = list(at)
    return state


def put(state: dict, seat: int, q: int, r: int) -> None:
    state["seats"][seat]["walker"]["at"] = [q, r]


def add_raft(state: dict, owner: int, q: int, r: int, riders=()) -> int:
    rid = len(state["rafts"])
    state["rafts"].append({"id": rid, "owner": owner, "at": [q, r], "riders": list(riders)})
    state["seats"][owner]["rafts_left"] -= 1
    for seat in riders:
        state["seats"][seat]["walker"].update({"at": [q, r], "raft": rid})
    return rid


def act(state: dict, seat: int, action: dict) -> dict:
    """Apply an action after checking it is listed as legal (legal_actions and apply agree)."""
    assert action in RULES.legal_actions(state, seat), f"{action} not listed"
    new = RULES.apply(state, seat, action)
    check_invariants(new)
    return new


def refused(state: dict, seat: int, action: dict, words: str = "") -> str:
    assert action not in RULES.legal_actions(state, seat)
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, seat, action)
    assert words.lower() in str(info.value).lower(), str(info.value)
    return str(info.value)


def far_placement(state: dict) -> dict:
    """The legal placement farthest west (the examples' tiles 'go elsewhere')."""
    actions = RULES.legal_actions(state, state["active"])
    return min(actions, key=lambda a: (a["q"], a["r"], a["rotation"]))


def place_away(state: dict) -> dict:
    while state["phase"] == "place":
        state = act(state, state["active"], far_placement(state))
    return state


def pass_turn(state: dict) -> dict:
    """The active seat places its tiles far away and ends its turn; the next turn's tiles too."""
    state = place_away(state)
    state = act(state, state["active"], {"type": "end_turn"})
    return place_away(state)


def steps(state: dict) -> int:
    return state["turn"]["steps"]


def seat(state: dict, s: int) -> dict:
    return state["seats"][s]


def check_invariants(state: dict) -> None:
    """§15.1 invariants, plus the JSON round trip."""
    assert json.loads(json.dumps(state)) == state
    board = state["board"]
    spots = [tuple(r["at"]) for r in state["rafts"]]
    assert len(spots) == len(set(spots)), "two rafts on one tile"
    swimmers = {tuple(p["walker"]["swim"]["via"]) for p in state["seats"] if p["walker"]["swim"]}
    for raft in state["rafts"]:
        assert is_water(board, raft["at"])
        assert len(raft["riders"]) <= D.RAFT_CAPACITY
        assert tuple(raft["at"]) not in swimmers
    for i, p in enumerate(state["seats"]):
        w = p["walker"]
        aboard = [r["id"] for r in state["rafts"] if i in r["riders"]]
        if w["raft"] is None:
            assert aboard == []
        else:
            assert aboard == [w["raft"]]
            assert w["at"] == state["rafts"][w["raft"]]["at"]
        if w["raft"] is None and w["swim"] is None:
            assert is_land(board, w["at"])
        if w["swim"]:
            assert w["at"] == w["swim"]["via"] and 1 <= w["swim"]["stage"] <= 3
        built_rafts = sum(1 for r in state["rafts"] if r["owner"] == i)
        expected = D.RAFTS_PER_PLAYER[state["players"]] if state["options"]["rivers_and_rafts"] else 0
        assert p["rafts_left"] + built_rafts == expected
        built_rifugi = sum(1 for o in state["rifugi"].values() if o == i)
        assert p["rifugi_left"] + built_rifugi == D.RIFUGI_PER_PLAYER
    for k in state["rifugi"]:
        assert is_land(board, parse(k))
