"""The shared contract's per-step checks on the asymmetrical board set: the shared suite
plays only the default options (identical boards)."""
from __future__ import annotations

import functools

import pytest

from games.rift_valley_reserve.rules import RULES
from tests.rules.contract import random_playout
from tests.rules.test_contract import _check_scores, _check_step


@pytest.mark.parametrize("players", [2, 4])
def test_asymmetrical_playouts_keep_the_shared_contract_at_every_step(players):
    state, _ = random_playout(RULES, players, 300 + players, {"boards": "asymmetrical"},
                              on_step=functools.partial(_check_step, RULES))
    assert RULES.is_over(state)
    assert RULES.to_act(state) == []
    _check_scores(RULES, state, players)
