"""Options, setup, hidden information and the turn machine (checklist 1-9, 16, 41, 42)."""
from __future__ import annotations

import json

import pytest

from games.rifugio.rules import RULES
from games.rifugio.rules import data as D
from games.rules.base import IllegalAction

from .helpers import A, B, act, check_invariants, position, refused


def test_contract_members_and_default_options():
    assert RULES.slug == "rifugio"
    assert RULES.title == "Rifugio"
    assert (RULES.min_players, RULES.max_players) == (2, 5)
    assert RULES.default_options() == {"rivers_and_rafts": True}


@pytest.mark.parametrize("players", [1, 6, 0, True, "3"])
def test_validate_options_refuses_impossible_player_counts(players):
    with pytest.raises(IllegalAction):
        RULES.validate_options(players, {})


@pytest.mark.parametrize("options", [{"rafts": True}, {"rivers_and_rafts": 1},
                                     {"rivers_and_rafts": "yes"}, {"rivers_and_rafts": None}])
def test_validate_options_refuses_unknown_keys_and_non_booleans(options):
    with pytest.raises(IllegalAction):
        RULES.validate_options(3, options)


def test_validate_options_fills_in_missing_keys():
    assert RULES.validate_options(3, {}) == {"rivers_and_rafts": True}
    assert RULES.validate_options(3, None) == {"rivers_and_rafts": True}
    assert RULES.validate_options(3, {"rivers_and_rafts": False}) == {"rivers_and_rafts": False}


def _all_tiles(state):
    return sorted(state["stack"] + state["bottom"] + ([state["hand"]] if state["hand"] else []))


@pytest.mark.parametrize("players,rr,count", [(2, False, 60), (3, False, 60), (5, False, 60),
                                              (2, True, 72), (3, True, 72), (4, True, 72), (5, True, 70)])
def test_setup_builds_the_stack_with_the_exact_ids(players, rr, count):
    state = RULES.setup(players, {"rivers_and_rafts": rr}, 42)
    tiles = _all_tiles(state)
    assert len(tiles) == count
    assert len(set(tiles)) == count
    if rr:
        assert not set(D.RR_REMOVED_TILES) & set(tiles)
        water = [t for t in tiles if t.startswith("WA")]
        assert water == [f"WA{i:02d}" for i in range(1, (23 if players == 5 else 25))]
        assert sorted(t for t in tiles if not t.startswith("WA")) == sorted(
            set(D.TILE_MANIFEST) - set(D.RR_REMOVED_TILES))
    else:
        assert tiles == D.TILE_MANIFEST
    assert "START" not in tiles
    assert state["board"] == {"0,0": {"tile": "START", "rot": 0}}
    assert all(p["walker"] == {"at": [0, 0], "raft": None, "swim": None} for p in state["seats"])


@pytest.mark.parametrize("players,rafts", [(2, 3), (3, 2), (4, 2), (5, 2)])
def test_supplies_at_setup(players, rafts):
    for rr in (True, False):
        state = RULES.setup(players, {"rivers_and_rafts": rr}, 3)
        for p in state["seats"]:
            assert p["rifugi_left"] == 3
            assert p["rafts_left"] == (rafts if rr else 0)
            assert p["items"] == [] and p["bears"] == []
            assert p["rifugio_cards"] == p["raft_cards"] == p["extra_step_cards"] == 0


def _draw_sequence(seed, players=3):
    state = RULES.setup(players, None, seed)
    seen = []
    for _ in range(6):
        seen.append(state["hand"])
        action = RULES.legal_actions(state, state["active"])[0]
        state = RULES.apply(state, state["active"], action)
        state = RULES.apply(state, state["active"], {"type": "end_turn"})
    return seen


def test_same_seed_same_actions_give_identical_states():
    assert _draw_sequence(5) == _draw_sequence(5)
    one = RULES.setup(4, None, 77)
    assert json.dumps(one, sort_keys=True) == json.dumps(RULES.setup(4, None, 77), sort_keys=True)


def test_different_seeds_give_different_stack_orders():
    orders = {tuple(_draw_sequence(seed)) for seed in range(1, 7)}
    assert len(orders) >= 5
    firsts = {RULES.setup(5, None, seed)["first_seat"] for seed in range(30)}
    assert len(firsts) > 1


def test_apply_never_mutates_input_and_states_round_trip_through_json():
    state = RULES.setup(2, None, 11)
    before = json.dumps(state, sort_keys=True)
    new = RULES.apply(state, state["active"], RULES.legal_actions(state, state["active"])[0])
    assert json.dumps(state, sort_keys=True) == before
    assert json.loads(json.dumps(new)) == new
    check_invariants(new)


def test_view_hides_the_stack_order_and_seed_but_shows_hand_and_tiles_left():
    state = RULES.setup(3, None, 8)
    for viewer in (None, 0, 1, 2):
        view = RULES.view(state, viewer)
        text = json.dumps(view)
        assert "seed" not in text and "stack" not in text and "draws" not in text
        assert view["hand"]["tile"] == state["hand"]
        assert view["tiles_left"] == len(state["stack"])
        # no id still in the stack appears anywhere in the view
        assert not any(f'"{t}"' in text for t in state["stack"])


def test_first_player_holds_a_drawn_tile_in_the_place_phase():
    state = RULES.setup(3, None, 2)
    assert state["phase"] == "place" and state["hand"] is not None
    assert RULES.to_act(state) == [state["first_seat"]]
    assert state["turn"]["tiles_to_place"] == 1


def test_two_players_place_two_tiles_drawn_one_after_the_other():
    state = RULES.setup(2, None, 2)
    seat = state["active"]
    assert state["turn"]["tiles_to_place"] == 2
    first_tile = state["hand"]
    left = len(state["stack"])
    state = act(state, seat, RULES.legal_actions(state, seat)[0])
    assert state["phase"] == "place" and state["hand"] not in (None, first_tile)
    assert len(state["stack"]) == left - 1
    state = act(state, seat, RULES.legal_actions(state, seat)[0])
    assert state["phase"] == "walk" and state["hand"] is None
    assert len(state["turn"]["placed"]) == 2


def test_more_players_place_one_tile():
    state = RULES.setup(4, None, 2)
    seat = state["active"]
    state = act(state, seat, RULES.legal_actions(state, seat)[0])
    assert state["phase"] == "walk"


def test_end_turn_is_illegal_in_the_place_phase_and_legal_throughout_the_walk():
    state = RULES.setup(3, None, 2)
    seat = state["active"]
    refused(state, seat, {"type": "end_turn"}, "place your tile first")
    refused(state, seat, {"type": "step", "to": [1, 0]}, "place your tile first")
    state = act(state, seat, RULES.legal_actions(state, seat)[0])
    assert {"type": "end_turn"} in RULES.legal_actions(state, seat)
    refused(state, seat, {"type": "place_tile", "q": 5, "r": 5, "rotation": 0}, "no tile to place")


def test_each_turn_starts_with_two_steps_and_unspent_steps_do_not_carry_over():
    state = position(players=3, steps=2, tiles={(1, 0): "F01"})
    state = act(state, A, {"type": "end_turn"})
    assert state["active"] == B
    assert state["turn"]["steps"] == 2
    state = act(state, B, RULES.legal_actions(state, B)[0])
    state = act(state, B, {"type": "step", "to": [1, 0]})
    assert state["turn"]["steps"] == 1
    state = act(state, B, {"type": "end_turn"})
    state = act(state, 2, RULES.legal_actions(state, 2)[0])
    assert state["turn"]["steps"] == 2


def test_to_act_is_the_active_seat_and_others_have_no_actions():
    state = RULES.setup(4, None, 6)
    active = state["active"]
    assert RULES.to_act(state) == [active]
    for other in range(4):
        if other != active:
            assert RULES.legal_actions(state, other) == []
            with pytest.raises(IllegalAction, match="not your turn"):
                RULES.apply(state, other, RULES.legal_actions(state, active)[0])


MALFORMED = [
    None, 3, "end_turn", [], {}, {"type": None}, {"type": "fly"},
    {"type": "end_turn", "extra": 1},
    {"type": "place_tile", "q": 1, "r": 0},
    {"type": "place_tile", "q": True, "r": 0, "rotation": 0},
    {"type": "place_tile", "q": 1.0, "r": 0, "rotation": 0},
    {"type": "place_tile", "q": -1, "r": 0, "rotation": 6},
    {"type": "place_tile", "q": -1, "r": 0, "rotation": "0"},
    {"type": "step"}, {"type": "step", "to": [1]}, {"type": "step", "to": [1, 0, 0]},
    {"type": "step", "to": [True, 0]}, {"type": "step", "to": "1,0"}, {"type": "step", "to": {"q": 1}},
    {"type": "step", "to": [1.5, 0]}, {"type": "sail", "to": None},
    {"type": "swim", "via": [1, 0]}, {"type": "swim", "via": [1, 0], "to": [0, "0"]},
    {"type": "build_raft", "at": [None, None]}, {"type": "build_rifugio", "at": [0, 0]},
]


@pytest.mark.parametrize("action", MALFORMED)
def test_malformed_actions_raise_illegal_action(action):
    placing = RULES.setup(3, None, 4)
    walking = position(players=3, tiles={(1, 0): "F01"})
    for state in (placing, walking):
        with pytest.raises(IllegalAction):
            RULES.apply(state, state["active"], action)


@pytest.mark.parametrize("seat", [-1, 3, 7, True, "0", None, 0.0])
def test_wrong_seats_raise_illegal_action(seat):
    state = RULES.setup(3, None, 4)
    with pytest.raises(IllegalAction):
        RULES.apply(state, seat, {"type": "end_turn"})
    assert RULES.legal_actions(state, seat) == [] or seat == state["active"]


def test_actions_after_game_over_raise_illegal_action():
    state = position(players=2, stack=[], first_seat=A, active=B)
    state = act(state, B, {"type": "end_turn"})
    assert RULES.is_over(state) and RULES.to_act(state) == []
    for s in (A, B):
        assert RULES.legal_actions(state, s) == []
        with pytest.raises(IllegalAction, match="over"):
            RULES.apply(state, s, {"type": "end_turn"})
