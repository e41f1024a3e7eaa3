"""Nanga Parbat rules version "1" (docs/rules-versions.md): games dealt before the mountain
came from the shared `rng_for(seed, "setup")` keep their deal under `PREVIOUS["1"]`."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games import rules as registry
from games.nanga_parbat.rules import PREVIOUS, PREVIOUS_BOTS, RULES, bot

OLD_GAMES = json.loads((Path(__file__).parent / "fixtures" / "pre_events_games.json").read_text())["games"]
SEEDS = [g["seed"] for g in OLD_GAMES]


def test_new_games_are_dealt_under_version_2_and_version_1_is_kept():
    assert RULES.version == "2"
    assert registry.get("nanga-parbat", "1") is PREVIOUS["1"] and PREVIOUS["1"].version == "1"
    assert registry.bot_for("nanga-parbat", "1") is PREVIOUS_BOTS["1"] is bot


@pytest.mark.parametrize("seed", SEEDS)
def test_version_1_deals_an_old_seed_as_the_old_rules_did(seed):
    old = next(g for g in OLD_GAMES if g["seed"] == seed)
    state = PREVIOUS["1"].setup(2, old["options"], seed)
    first = old["moves"][0]
    assert first["action"] in PREVIOUS["1"].legal_actions(state, first["seat"])
    assert state["first_player"] == old["state"]["first_player"]


def test_version_2_deals_old_seeds_differently_which_is_why_it_is_a_new_version():
    deals = [(PREVIOUS["1"].setup(2, None, seed)["board"], RULES.setup(2, None, seed)["board"]) for seed in SEEDS]
    assert any(v1 != v2 for v1, v2 in deals)


def test_version_1_differs_from_version_2_only_in_the_deal():
    seed = random.Random(7).getrandbits(62)
    v1, v2 = PREVIOUS["1"].setup(2, None, seed), RULES.setup(2, None, seed)
    assert set(v1) == set(v2) and v1["seats"] == v2["seats"] and v1["chart"] == v2["chart"]
    seat = PREVIOUS["1"].to_act(v1)[0]
    action = PREVIOUS["1"].legal_actions(v1, seat)[0]
    assert PREVIOUS["1"].apply(v1, seat, action)["phase"] == RULES.apply(v1, seat, action)["phase"]
