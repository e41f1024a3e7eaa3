"""Alpine Trails' greedy bot (level 3): weaknesses found while building the search levels
(issue 25, item 5), as positions from real games: a seed and the moves made up to the
position (bot_positions.json; replayed, so later changes to the bot cannot move it)."""
from __future__ import annotations

import json
import random
from pathlib import Path

from games.alpine_trails.rules import RULES, bot
from games.alpine_trails.rules import board as B

POSITIONS = json.loads((Path(__file__).parent / "bot_positions.json").read_text())


def position(name):
    entry = POSITIONS[name]
    players = entry["players"]
    state = RULES.setup(players, RULES.validate_options(players, RULES.default_options()), entry["seed"])
    for seat, action in entry["moves"]:
        state = RULES.apply(state, seat, action)
    return state, entry["bot_seat"]


def test_a_wildlife_watcher_trades_a_fork_for_an_animal_worth_more_than_placing_it():
    """Solo, goal Wildlife Watcher (+2 per animal), a meadow fork in hand and a free meadow
    tile on the map: the animal is worth 4 (2 + the goal's 2), more than any spot for the
    fork. The old bot valued a trade at 2 less half the fork's best spot, so it never traded
    (Wildlife Watcher games scored 0 for the goal, 6 of the first 100 solo seeds)."""
    state, seat = position("wildlife_watcher_seed_1")
    s = state["seats"][seat]
    assert s["goal"] == "G17"
    trial = bot._Trial(B.parse(s["map"]), s["goal"])
    fork = next(a for a in RULES.legal_actions(state, seat) if a["type"] == "trade_fork")
    fork_spots = [bot._value(state, seat, trial, a) for a in RULES.legal_actions(state, seat)
                  if a["type"] == "place" and a["tile"] == fork["tile"]]
    assert bot._value(state, seat, trial, fork) == 4
    assert max(fork_spots) < 4
    for salt in range(3):
        action = bot.choose(state, seat, random.Random(salt))
        assert action == fork, action
    traded = RULES.apply(state, seat, fork)
    animal = bot.choose(traded, seat, random.Random(0))
    assert animal["type"] == "animal"
    placed = RULES.apply(traded, seat, animal)["seats"][seat]["map"]
    assert sum(1 for piece in placed.values() if piece.get("animal")) == 1
