"""The shared contract checks, run here for this game with the ruleset bound (the shared
suite passes `_check_step` to `random_playout` without its `rules` argument)."""
from __future__ import annotations

import functools

import pytest

from games.rules.rift_valley_reserve import RULES
from tests.rules.contract import random_playout
from tests.rules.test_contract import _check_scores, _check_step


@pytest.mark.parametrize("boards,players", [("identical", 2), ("identical", 3), ("identical", 5),
                                            ("asymmetrical", 4)])
def test_random_playouts_keep_the_shared_contract_at_every_step(boards, players):
    state, _ = random_playout(RULES, players, 300 + players, {"boards": boards},
                              on_step=functools.partial(_check_step, RULES))
    assert RULES.is_over(state)
    assert RULES.to_act(state) == []
    _check_scores(RULES, state, players)
