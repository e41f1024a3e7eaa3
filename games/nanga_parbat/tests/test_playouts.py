"""Properties over random playouts (checklist 15, 16, 22, 24, 25, 26, 29) and the contract's
per-step checks, bound correctly to this game."""
import json
import random
from itertools import combinations

import pytest

from games.rules.base import IllegalAction
from games.nanga_parbat.rules import RULES, bot
from games.nanga_parbat.rules.data import NEED, ROWS, SECTIONS
from games.nanga_parbat.rules.rules import (_camp_claim_error, _list_error, _spot_error,
                                            _trade_claim_error)
from tests.rules.contract import random_playout, replay

OPTIONS = [{"area_scoring": False}, {"area_scoring": True}]


def check_invariants(state):
    board = state["board"].values()
    held = sum(len(s["animals"]) for s in state["seats"])
    traded = sum(len(s["traded"]) for s in state["seats"])
    assert sum(1 for c in board if c["piece"] == "animal") + held + traded == 36
    for seat, s in enumerate(state["seats"]):
        hikers_on = sum(1 for c in board if c["piece"] == "hiker" and c["seat"] == seat)
        camps_on = sum(1 for c in board if c["piece"] == "camp" and c["seat"] == seat)
        assert 15 - s["hikers"] == hikers_on + camps_on
        assert s["camps"] + camps_on == 12
        owned = sum(1 for row in ROWS for o in state["chart"][row] if o == seat)
        assert 5 - s["cubes"] == owned
        assert sum(s["breakdown"].values()) == s["score"]
    a, b = state["seats"][0]["score"], state["seats"][1]["score"]
    assert a != b or a == b == 0


def _mutations(action):
    out = [dict(action, extra=1)]
    for key, value in action.items():
        if key == "type":
            continue
        out.append(dict(action, **{key: str(value)}))
        if isinstance(value, int):
            out.append(dict(action, **{key: float(value)}))
            out.append(dict(action, **{key: value + 100}))
        if isinstance(value, list) and len(value) > 1:
            out.append(dict(action, **{key: list(reversed(value))}))
            out.append(dict(action, **{key: value[:-1]}))
            out.append(dict(action, **{key: value + [value[-1]]}))
    if "a" in action:
        out.append(dict(action, a=action["b"], b=action["a"]))
    return out


def _check_step(state, seat, rng):
    waiting = RULES.to_act(state)
    assert waiting == [seat]
    assert RULES.legal_actions(state, 1 - seat) == []
    legal = RULES.legal_actions(state, seat)
    assert legal
    assert len({json.dumps(a, sort_keys=True) for a in legal}) == len(legal)
    if state["phase"] == "act":
        assert legal[-1] == {"type": "end_turn"}
        assert len(legal) > 1, "AUTO_END_TURN should have ended this turn"
    if state["phase"] == "trap":
        assert any(a["type"] in ("trap", "relocate_guide") for a in legal)
    before = json.dumps(state, sort_keys=True)
    for action in rng.sample(legal, min(len(legal), 8)):
        after = RULES.apply(state, seat, action)
        check_invariants(after)
        for bad in _mutations(action):
            if bad not in legal:
                with pytest.raises(IllegalAction):
                    RULES.apply(state, seat, bad)
        with pytest.raises(IllegalAction):
            RULES.apply(state, 1 - seat, action)
    assert json.dumps(state, sort_keys=True) == before


@pytest.mark.parametrize("options", OPTIONS, ids=["base", "area"])
def test_random_playouts_keep_the_invariants_and_end_within_30_turns(options):
    for seed in range(8):
        rng = random.Random(seed)
        state = RULES.setup(2, options, seed)
        check_invariants(state)
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            _check_step(state, seat, rng)
            state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
            check_invariants(state)
        assert state["turn"] <= 30
        assert state["result"]["ended_by"]
        assert RULES.ranking(state) in ([1, 2], [2, 1], [1, 1])


def test_contract_step_checks_hold_for_nanga_parbat():
    """The shared suite's per-step checks, called with the signature random_playout uses."""
    from tests.rules.test_contract import _check_step as contract_step
    for seed in (1, 2, 3):
        for options in OPTIONS:
            state, _ = random_playout(RULES, 2, seed, options,
                                      on_step=lambda st, seat, a, rng: contract_step(RULES, st, seat, a, rng))
            assert RULES.is_over(state)


def test_replaying_seed_and_moves_reproduces_the_state():
    for seed in range(5):
        state, moves = random_playout(RULES, 2, seed, OPTIONS[seed % 2])
        again = replay(RULES, 2, OPTIONS[seed % 2], seed, moves)
        assert json.dumps(again, sort_keys=True) == json.dumps(state, sort_keys=True)


def _brute_claims(state, seat):
    """Every claim the predicates accept, by trying all combinations (slow, for checking)."""
    out = []
    me = state["seats"][seat]
    hikers = [s for s in SECTIONS if state["board"][str(s)] == {"piece": "hiker", "seat": seat}]
    for row in ROWS:
        for col in range(5):
            pool = hikers if row == "camps" else list(range(len(me["animals"])))
            key = "sections" if row == "camps" else "animals"
            for combo in combinations(pool, NEED[col]):
                items = list(combo)
                err = _spot_error(state, seat, row, col) or _list_error(items, NEED[col], key)
                if err is None:
                    err = (_camp_claim_error(state, seat, col, items) if row == "camps"
                           else _trade_claim_error(state, seat, row, items))
                if err is None:
                    out.append({"type": "claim", "row": row, "col": col, key: items})
    return out


def test_listed_claims_are_exactly_those_the_predicates_accept():
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = RULES.setup(2, {}, seed)
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            legal = RULES.legal_actions(state, seat)
            if state["phase"] == "act" and rng.random() < 0.3:
                assert [a for a in legal if a["type"] == "claim"] == _brute_claims(state, seat)
                checked += 1
            # prefer non-claims so that players accumulate animals and hikers
            pool = [a for a in legal if a["type"] != "claim"] if rng.random() < 0.8 else legal
            state = RULES.apply(state, seat, rng.choice(pool))
    assert checked > 50


def test_bot_returns_legal_actions_in_random_playout_positions():
    for seed in range(6):
        rng = random.Random(seed)
        state = RULES.setup(2, {}, seed)
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            legal = RULES.legal_actions(state, seat)
            assert bot.choose(state, seat, random.Random(seed)) in legal
            state = RULES.apply(state, seat, rng.choice(legal))


def play_bot_vs_random(seed, options=None):
    """One seeded game; the bot takes seat seed % 2. Returns the bot's rank (1 = won)."""
    rng = random.Random(seed)
    state = RULES.setup(2, options or {}, seed)
    bot_seat = seed % 2
    while not RULES.is_over(state):
        seat = RULES.to_act(state)[0]
        if seat == bot_seat:
            action = bot.choose(state, seat, rng)
        else:
            action = rng.choice(RULES.legal_actions(state, seat))
        state = RULES.apply(state, seat, action)
    return RULES.ranking(state)[bot_seat], state


def test_bot_beats_a_random_player_in_a_clear_majority_of_50_games():
    wins = sum(1 for seed in range(50) if play_bot_vs_random(seed)[0] == 1)
    assert wins >= 30, f"bot won only {wins} of 50"
