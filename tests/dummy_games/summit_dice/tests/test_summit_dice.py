"""Summit Dice's own tests: worked examples pinned to seeds, then the contract's invariants."""
from __future__ import annotations

import json

import pytest

from games import rules as registry
from tests.rules.contract import random_playout, replay

ROLL, STOP = {"type": "roll"}, {"type": "stop"}


@pytest.fixture
def rules():
    """The game through the registry, as the site reaches it (tests/dummy_games is searched too)."""
    registry.use_roots("games", "tests.dummy_games")
    yield registry.get("summit-dice")
    registry.use_roots("games")


def test_a_roll_adds_its_pips_and_a_one_loses_the_turns_climb(rules):
    state = rules.setup(2, {}, seed=3)          # seed 3 rolls 3, then 1, on turn 1
    state = rules.apply(state, 0, ROLL)
    assert state["climb"] == 3 and rules.to_act(state) == [0]
    assert rules.legal_actions(state, 0) == [ROLL, STOP]
    state = rules.apply(state, 0, ROLL)
    assert state["heights"] == [0, 0] and state["climb"] == 0
    assert rules.to_act(state) == [1] and state["turn"] == 2


def test_stopping_makes_camp_and_passes_the_turn(rules):
    state = rules.setup(2, {}, seed=1)          # seed 1 rolls 6, then 2, on turn 1
    state = rules.apply(rules.apply(state, 0, ROLL), 0, ROLL)
    state = rules.apply(state, 0, STOP)
    assert state["heights"] == [8, 0] and rules.to_act(state) == [1]
    assert state["events"][-1] == {"type": "camp", "seat": 0, "turn": 1, "height": 8}


def test_reaching_the_summit_ends_the_game_at_once(rules):
    state = rules.setup(2, {"summit": 10}, seed=1)   # 6 + 2 + 3 = 11 >= 10
    for _ in range(3):
        state = rules.apply(state, 0, ROLL)
    assert rules.is_over(state) and rules.to_act(state) == []
    assert rules.ranking(state) == [1, 2]
    assert [s["total"] for s in rules.scores(state)] == [11, 0]


def test_a_seat_may_not_stop_before_climbing_nor_act_out_of_turn(rules):
    state = rules.setup(2, {}, seed=1)
    with pytest.raises(registry.IllegalAction):
        rules.apply(state, 0, STOP)
    with pytest.raises(registry.IllegalAction):
        rules.apply(state, 1, ROLL)
    assert rules.legal_actions(state, 1) == []


@pytest.mark.parametrize("players, options", [(0, {}), (5, {}), (2, {"summit": 9}), (2, {"summit": "high"}),
                                              (2, {"summit": 20, "wind": 1})])
def test_it_refuses_bad_player_counts_and_options(rules, players, options):
    with pytest.raises(registry.IllegalAction):
        rules.validate_options(players, options)


def test_no_view_shows_the_seed(rules):
    state = rules.apply(rules.setup(3, {}, seed=12345), 0, ROLL)
    for seat in (0, 1, 2, None):
        assert "seed" not in rules.view(state, seat)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_random_playouts_end_and_replay_from_seed_and_moves(rules, players):
    for seed in range(5):
        final, moves = random_playout(rules, players, seed)
        assert rules.is_over(final)
        assert json.loads(json.dumps(final)) == final
        assert replay(rules, players, rules.default_options(), seed, moves) == final


def test_the_bot_climbs_to_the_summit(rules):
    bot = registry.bot_for("summit-dice")
    final, _ = random_playout(rules, 2, seed=7, chooser=bot.choose)
    assert max(final["heights"]) >= final["summit"]
