"""The shared rules contract (ARCHITECTURE.md), checked for every game in the registry.

A new game package gets these checks for free: determinism, no input mutation, JSON
round-trips, every legal action applies, garbage raises IllegalAction, random playouts of
every player count end, seats not to act can do nothing, and views hide the seed.
"""
from __future__ import annotations

import contextlib

import json
import random

import pytest

from games import rules as registry
from games.rules.base import IllegalAction

from .contract import find_keys, random_playout, replay

RULESETS = registry.all()
IDS = [r.slug for r in RULESETS]
SECRET_KEYS = {"seed", "rng", "rng_state"}
GARBAGE = [None, 0, "pass", [], {}, {"type": None}, {"type": 7}, {"type": ""},
           {"type": "no-such-action"}, {"type": ["write"]}, {"kind": "write"}]


def player_counts(rules):
    return range(rules.min_players, rules.max_players + 1)


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True)


@pytest.fixture(params=RULESETS, ids=IDS)
def rules(request):
    return request.param


def test_every_game_package_imports():
    assert registry.slugs(), "no game registered"
    assert registry.BROKEN == {}


def test_it_has_the_contract_members(rules):
    assert rules.slug in registry.slugs()
    assert registry.get(rules.slug) is rules
    assert isinstance(rules.title, str) and rules.title
    assert 1 <= rules.min_players <= rules.max_players
    assert isinstance(rules.version, str) and rules.version
    assert callable(registry.bot_for(rules.slug).choose)
    options = rules.default_options()
    assert json.loads(json.dumps(options)) == options


def test_it_refuses_impossible_player_counts(rules):
    for players in (rules.min_players - 1, rules.max_players + 1):
        with pytest.raises(IllegalAction):
            rules.validate_options(players, rules.default_options())


def test_it_refuses_unknown_options(rules):
    with pytest.raises(IllegalAction):
        rules.validate_options(rules.min_players, {"no_such_option": True})


def test_setup_is_json_and_deterministic(rules):
    for players in player_counts(rules):
        options = rules.validate_options(players, rules.default_options())
        first = rules.setup(players, options, 1234)
        assert dumps(first) == dumps(rules.setup(players, options, 1234))
        assert json.loads(json.dumps(first)) == first
        assert rules.to_act(first), "a new game waits for someone"
        assert not rules.is_over(first)


def _check_step(rules, state, seat, action, rng):
    """Invariants checked before every applied action of a playout."""
    before = dumps(state)
    waiting = rules.to_act(state)
    for other in range(state.get("players", len(rules.scores(state)))):
        if other not in waiting:
            assert rules.legal_actions(state, other) == []
            with pytest.raises(IllegalAction):
                rules.apply(state, other, action)
    legal = rules.legal_actions(state, seat)
    assert legal, f"seat {seat} is to act but has no legal action"
    for candidate in rng.sample(legal, min(len(legal), 6)):
        assert json.loads(json.dumps(candidate)) == candidate
        after = rules.apply(state, seat, candidate)
        assert json.loads(json.dumps(after)) == after
    for junk in GARBAGE:
        with pytest.raises(IllegalAction):
            rules.apply(state, seat, junk)
    mangled = {key: "zzz" for key in action}
    mangled["type"] = action["type"]
    if mangled != action:
        with contextlib.suppress(IllegalAction):
            rules.apply(state, seat, mangled)
    for viewer in [None, *range(state.get("players", 0))]:
        view = rules.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
        assert not find_keys(view, SECRET_KEYS), f"view({viewer}) shows a secret"
    assert dumps(state) == before, "apply or view mutated its input"


@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_end_and_keep_the_contract(rules, seed):
    for players in player_counts(rules):
        state, moves = random_playout(rules, players, seed * 100 + players,
                                      on_step=lambda *step: _check_step(rules, *step))
        assert rules.is_over(state)
        assert rules.to_act(state) == []
        for seat in range(players):
            assert rules.legal_actions(state, seat) == []
        _check_scores(rules, state, players)


def _check_scores(rules, state, players):
    scores = rules.scores(state)
    assert len(scores) == players
    for entry in scores:
        assert isinstance(entry["total"], int)
        assert all(isinstance(v, int) for v in entry["breakdown"].values())
    ranking = rules.ranking(state)
    assert len(ranking) == players
    assert min(ranking) == 1
    # competition ranking: a rank r is shared by k seats, and the next used rank is r + k
    for rank in set(ranking):
        assert sum(1 for r in ranking if r < rank) == rank - 1


def test_replaying_seed_and_moves_reproduces_the_state(rules):
    for players in player_counts(rules):
        options = rules.default_options()
        state, moves = random_playout(rules, players, 77 + players, options)
        assert dumps(replay(rules, players, options, 77 + players, moves)) == dumps(state)


def test_bot_plays_legal_moves_to_the_end(rules):
    bot = registry.bot_for(rules.slug)
    for players in player_counts(rules):
        def choose(state, seat, rng):
            action = bot.choose(state, seat, rng)
            assert action in rules.legal_actions(state, seat)
            return action
        state, _ = random_playout(rules, players, 5 + players, chooser=choose)
        assert rules.is_over(state)


def test_seed_does_not_change_a_view(rules):
    """Changing only the stored seed changes nothing a seat sees: no view derives from it."""
    for players in player_counts(rules):
        state = rules.setup(players, rules.validate_options(players, rules.default_options()), 9)
        rng = random.Random(3)
        for _ in range(10):
            if rules.is_over(state):
                break
            seat = rng.choice(rules.to_act(state))
            state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        if "seed" in state:
            other = dict(state, seed=state["seed"] + 1)
            for viewer in [None, *range(players)]:
                assert dumps(rules.view(state, viewer)) == dumps(rules.view(other, viewer))


def _check_seat_turn(rules, state, seat, action, rng):
    """seat_turn is a short str, JSON-stable, and kept by every other seat still waiting in
    the same simultaneous round when `seat` acts (nobody is refused because another moved)."""
    waiting = rules.to_act(state)
    round_trip = json.loads(json.dumps(state))
    keys = {}
    for other in range(state.get("players", len(waiting))):
        key = rules.seat_turn(state, other)
        assert isinstance(key, str) and 0 < len(key) <= 64 and key.isprintable(), (other, key)
        assert rules.seat_turn(round_trip, other) == key, "seat_turn changed over a JSON round trip"
        keys[other] = key
    after = rules.apply(state, seat, action)
    still_waiting = set(waiting) & set(rules.to_act(after)) - {seat}
    for other in still_waiting:
        assert rules.seat_turn(after, other) == keys[other], (
            f"seat {other}'s key changed when seat {seat} acted in the same round ({action})")


@pytest.mark.parametrize("seed", [3, 4])
def test_seat_turn_is_short_stable_and_kept_across_a_simultaneous_round(rules, seed):
    for players in player_counts(rules):
        random_playout(rules, players, seed * 100 + players,
                       on_step=lambda *step: _check_seat_turn(rules, *step))


def _play_some(rules, players, seed, steps):
    """A state `steps` random actions into a game (or its end)."""
    rng = random.Random(seed)
    state = rules.setup(players, rules.validate_options(players, rules.default_options()), seed)
    for _ in range(steps):
        if rules.is_over(state):
            break
        seat = rng.choice(rules.to_act(state))
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize("steps", [0, 7, 40])
def test_determinize_keeps_what_the_seat_sees_and_plays_on(rules, steps):
    """determinize (games/rules/base.py) may redraw only what the seat cannot see: its view
    is unchanged, the input is not mutated, and the redrawn state is legal and plays on."""
    for players in sorted({rules.min_players, 2, rules.max_players} & set(player_counts(rules))):
        state = _play_some(rules, players, 60 + steps + players, steps)
        before = dumps(state)
        for seat in range(players):
            world = rules.determinize(state, seat, random.Random(seat))
            assert dumps(state) == before, "determinize mutated its input"
            assert json.loads(json.dumps(world)) == world
            assert dumps(rules.view(world, seat)) == dumps(rules.view(state, seat))
            assert rules.to_act(world) == rules.to_act(state)
            for waiting in rules.to_act(world):
                for action in rules.legal_actions(world, waiting)[:3]:
                    rules.apply(world, waiting, action)
        world = rules.determinize(state, 0, random.Random(1))
        moves = 0
        while not rules.is_over(world) and moves < 3000:
            rng = random.Random(moves)
            seat = rng.choice(rules.to_act(world))
            world = rules.apply(world, seat, rng.choice(rules.legal_actions(world, seat)))
            moves += 1
        assert rules.is_over(world), "a determinized state did not play to the end"


@pytest.mark.parametrize("steps", [5, 30])
def test_determinize_forgets_the_hidden_parts(rules, steps):
    """Two states the seat cannot tell apart determinize alike under the same rng: nothing
    hidden is copied into the sampled world, so a bot searching it cannot use it."""
    for players in sorted({rules.min_players, 2} & set(player_counts(rules))):
        state = _play_some(rules, players, 90 + steps, steps)
        for seat in range(players):
            twin = rules.determinize(state, seat, random.Random(99))
            assert dumps(rules.view(twin, seat)) == dumps(rules.view(state, seat))
            assert dumps(rules.determinize(state, seat, random.Random(5))) == \
                dumps(rules.determinize(twin, seat, random.Random(5)))
