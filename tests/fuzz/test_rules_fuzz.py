"""Rules fuzz over every registered game: arbitrary JSON actions, from any seat, at states
reached by random play. The only failure a rules module may raise is IllegalAction, and
neither the state nor the action it was given may change (the contract's "never mutated")."""
from __future__ import annotations

import copy
import functools
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import rules as registry
from games.rules.base import IllegalAction

from .report import count, examples
from .strategies import actions, mutated

SLUGS = registry.slugs()
STATES_PER_GAME = 40


@functools.lru_cache(maxsize=None)
def reachable_states(slug: str, players: int) -> tuple[str, ...]:
    """States met along two random playouts, kept as JSON text so no test can change them."""
    rules = registry.get(slug)
    states = []
    for seed in (1, 2):
        rng = random.Random(seed)
        state = rules.setup(players, rules.validate_options(players, rules.default_options()), seed)
        while not rules.is_over(state):
            states.append(json.dumps(state))
            seat = rng.choice(rules.to_act(state))
            state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        states.append(json.dumps(state))
    step = max(1, len(states) // STATES_PER_GAME)
    return tuple(states[::step])


@st.composite
def situations(draw, slug):
    rules = registry.get(slug)
    players = draw(st.integers(rules.min_players, rules.max_players))
    state = json.loads(draw(st.sampled_from(reachable_states(slug, players))))
    seat = draw(st.one_of(st.integers(-1, players), st.sampled_from([None, True, "0", 1.0, 10**20])))
    legal = rules.legal_actions(state, seat) if isinstance(seat, int) and 0 <= seat < players \
        and not isinstance(seat, bool) else []
    if legal and draw(st.booleans()):
        action = draw(mutated(draw(st.sampled_from(legal))))
    else:
        action = draw(actions)
    return state, seat, action


@pytest.mark.parametrize("slug", SLUGS)
def test_arbitrary_actions_raise_only_illegal_action_and_mutate_nothing(slug):
    rules = registry.get(slug)
    name = f"rules fuzz {slug}"

    @examples(8)
    @given(situations(slug))
    def check(situation):
        state, seat, action = situation
        state_before, action_before = json.dumps(state, sort_keys=True), copy.deepcopy(action)
        try:
            after = rules.apply(state, seat, action)
        except IllegalAction as exc:
            assert isinstance(exc.message, str) and exc.message
        except Exception:
            count(name, failure=True)
            raise
        else:
            assert json.loads(json.dumps(after)) == after, "a legal action left a non-JSON state"
        count(name)
        assert json.dumps(state, sort_keys=True) == state_before, "apply mutated the state"
        assert action == action_before, "apply mutated the action"

    check()
