"""Builders for hand-made positions of the worked examples (§17)."""
from __future__ import annotations

import random
import re

from games.roll_to_the_top.rules import RULES
from games.roll_to_the_top.rules.data import DIE_ORDER, GEOMETRY


def parse_sheet(text: str) -> dict:
    """'(0,0)=2, (0,2)=5' -> {"0,0": 2, "0,2": 5}, as the spec's notation writes sheets."""
    return {f"{r},{x}": int(v) for r, x, v in re.findall(r"\((\d+),(\d+)\)=(\d+)", text)}


def write_state(board="giza", players=1, sheets=None, roll=None, face="ADD", mode="normal",
                specials=True, active=0, **options):
    """A fresh WRITE state on `board` with the given committed sheets and rolled pool dice."""
    opts = RULES.validate_options(players, {"board": board, "mode": mode, "board_specials": specials, **options})
    state = RULES.setup(players, opts, 1)
    roll = roll or {"d4": 1}
    state["pool"] = [d for d in DIE_ORDER if d in roll]
    state["reserve"] = [d for d in DIE_ORDER if d not in roll]
    state["roll"] = dict(roll)
    state["face"] = face
    state["turn"] = max(state["turn"], 1)
    state["active"] = active
    state["first_active"] = active
    state["phase"] = "write"
    state["action"] = None
    sheets = sheets if sheets is not None else [{} for _ in range(players)]
    state["sheets"] = [dict(s) for s in sheets]
    state["pending"] = [[] for _ in range(players)]
    state["done"] = [False] * players
    state["auto_done"] = [False] * players
    state["last_written"] = [[] for _ in range(players)]
    return state


def action_state(pool, reserve, effect, reason="face", resolver=1, players=3, board="giza", face=None):
    state = write_state(board=board, players=players, roll={d: 1 for d in pool})
    state["reserve"] = [d for d in DIE_ORDER if d in reserve]
    state["phase"] = "action"
    state["face"] = face or effect
    state["action"] = {"seat": resolver, "effect": effect, "reason": reason}
    state["done"] = [True] * players
    return state


def place(box, dice):
    return {"type": "place", "box": list(box), "dice": list(dice)}


def places(actions):
    return [a for a in actions if a["type"] == "place"]


def full_sheet(board, value=1, missing=()):
    return {k: value for k in GEOMETRY[board]["order"] if k not in set(missing)}


class Scripted(random.Random):
    """An RNG whose randint/choice/randrange answers come from a script, then from chance."""

    def __init__(self, ints=(), choice=None, randrange=None, salt="x"):
        super().__init__(salt)
        self.ints = list(ints)
        self.choice_value = choice
        self.randrange_value = randrange

    def randint(self, a, b):
        if self.ints:
            value = self.ints.pop(0)
            assert a <= value <= b, f"scripted {value} outside {a}..{b}"
            return value
        return super().randint(a, b)

    def choice(self, seq):
        return self.choice_value if self.choice_value is not None else super().choice(seq)

    def randrange(self, *args):
        return self.randrange_value if self.randrange_value is not None else super().randrange(*args)


def script_dice(monkeypatch, script: dict):
    """Make the rules' rng_for answer scripted values for the given salts, e.g.
    {("start_pool", 1, 0): {"ints": [2, 3, 5, 10, 17]}, ("roll", 1, 1): {"ints": [3, 7], "choice": "REMOVE"}}.
    Unscripted events use the real seeded RNG."""
    from games.roll_to_the_top.rules import rules as module

    real = module.rng_for

    def fake(seed, *salt):
        if tuple(salt) in script:
            return Scripted(**script[tuple(salt)])
        return real(seed, *salt)

    monkeypatch.setattr(module, "rng_for", fake)
