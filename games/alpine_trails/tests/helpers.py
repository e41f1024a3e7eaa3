"""Builders for Alpine Trails test maps: every piece goes through RULES.apply, so the
example maps are built with the module's own placement rules."""
from __future__ import annotations

from games.alpine_trails.rules import RULES
from games.alpine_trails.rules import board as B
from games.alpine_trails.rules.data import BASE_CAMP_SQUARES, BASE_CAMPS


def basecamp_map(camp: str) -> dict:
    out = {}
    for (square, x, y), terrain in zip(BASE_CAMP_SQUARES, BASE_CAMPS[camp], strict=True):
        out[f"{x},{y}"] = {"kind": "basecamp", "camp": camp, "square": square, "terrain": terrain, "icons": 1}
    return out


def fresh(camp: str = "BC5", players: int = 1, seed: int = 1, camps: list | None = None) -> dict:
    """A new game whose seats have the given base camps (seat 0 gets `camp`)."""
    state = RULES.setup(players, {}, seed)
    camps = camps or [camp] + [c for c in sorted(BASE_CAMPS) if c != camp][: players - 1]
    for s, c in zip(state["seats"], camps, strict=True):
        s["base_camp"] = c
        s["map"] = basecamp_map(c)
        s["public"] = {"map": basecamp_map(c), "animals": [], "out": []}
    return state


def play(state: dict, action: dict, seat: int = 0, hand: bool = True) -> dict:
    """Apply an action for `seat`, first putting its tile alone in the hand (and allowing a
    new campsite), as if it had just been drawn in a fresh round."""
    state = B.jcopy(state)
    s = state["seats"][seat]
    tile = action.get("tile") or action.get("discard")
    if hand and tile is not None:
        if tile in state["bag"]:
            state["bag"].remove(tile)
        s["hand"] = [tile]
        if action["type"] == "campsite":
            s["campsite_used"] = False
    return RULES.apply(state, seat, action)


def trail(tile, x, y, r):
    return {"type": "place", "tile": tile, "side": "trail", "x": x, "y": y, "rotation": r}


def terrain(tile, x, y):
    return {"type": "place", "tile": tile, "side": "terrain", "x": x, "y": y}


def campsite(tile, x, y):
    return {"type": "campsite", "discard": tile, "x": x, "y": y}


def waterfall(x, y):
    return {"type": "waterfall", "x": x, "y": y}


def build(camp: str, steps: list, players: int = 1, seat: int = 0, state: dict | None = None) -> dict:
    state = state or fresh(camp, players)
    for action in steps:
        state = play(state, action, seat)
    return state


def score(state: dict, goal=None, seat: int = 0) -> dict:
    return B.score_map(state["seats"][seat]["map"], goal)


def total(state: dict, goal=None, seat: int = 0) -> int:
    return score(state, goal, seat)["total"]


def legal(state: dict, seat: int = 0) -> list:
    return RULES.legal_actions(state, seat)
