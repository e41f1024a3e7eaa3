"""Simultaneous turns, map rotation, passing and the end of the game (EX8, EX10 and
checklist items 7-9, 20-22, 24, 27, 28)."""
from __future__ import annotations

import json

import pytest

from games.rules.base import IllegalAction
from games.rift_valley_reserve.rules import RULES
from games.rift_valley_reserve.rules.board import final_turn_for, is_full
from tests.rules.contract import random_playout, replay

from .helpers import blank, fill_with_tents, fresh, legal, position, stop


def S(r, c):
    return {"type": "stop", "cell": [r, c]}


def totals(state):
    return [e["total"] for e in RULES.scores(state)]


# --- EX10: a two-player opening --------------------------------------------------------

def test_ex10_two_player_opening_turn_by_turn():
    state = blank(2)
    assert RULES.to_act(state) == [0, 1]
    assert len(legal(state, 0)) == len(legal(state, 1)) == 19

    state = RULES.apply(state, 0, S(0, 4))
    assert RULES.to_act(state) == [1]
    for viewer in (1, None):
        view = RULES.view(state, viewer)
        assert view["maps"][0]["cells"] == {}
        assert [s["submitted"] for s in view["seats"]] == [True, False]
        assert view["my_pending"] is None
        assert "[0, 4]" not in json.dumps(view)
    assert RULES.view(state, 0)["my_pending"] == S(0, 4)
    assert totals(state) == [0, 0]

    state = RULES.apply(state, 1, S(8, 4))
    assert state["maps"][0]["cells"] == {"0,4": {"kind": "stop", "seat": 0}}
    assert state["maps"][1]["cells"] == {"8,4": {"kind": "stop", "seat": 1}}
    assert totals(state) == [-2, -2]

    assert state["turn"] == 2
    view = RULES.view(state, None)
    assert [s["holds"] for s in view["seats"]] == [1, 0]
    assert RULES.to_act(state) == [0, 1]
    for seat in (0, 1):
        kinds = {a["type"] for a in legal(state, seat)}
        assert kinds == {"stop", "tent"}

    state = RULES.apply(state, 1, S(0, 0))
    state = RULES.apply(state, 0, {"type": "tent", "cell": [8, 3]})
    assert totals(state) == [-2, -4]

    assert state["turn"] == 3
    view = RULES.view(state, 0)
    assert view["held_map"] == 0
    assert view["maps"][0]["holder"] == 0 and view["maps"][0]["next_holder"] == 1


def test_ex10_history_records_the_resolved_turn_in_public():
    state = RULES.apply(RULES.apply(blank(2), 0, S(0, 4)), 1, S(8, 4))
    assert state["events"] == [{"type": "stop", "seat": 0, "turn": 1, "map": 0, "cell": [0, 4]},
                               {"type": "stop", "seat": 1, "turn": 1, "map": 1, "cell": [8, 4]}]
    view = RULES.view(state, None)
    assert view["events"] == state["events"]
    assert "log" not in view and "history" not in view
    assert view["maps"][0]["recent"] == [[0, 4]]


# --- Hidden submissions -------------------------------------------------------------

def test_pending_draws_stay_hidden_from_other_seats_spectators_and_scores():
    state = blank(3)
    state = RULES.apply(state, 0, S(0, 3))
    state = RULES.apply(state, 2, S(8, 3))
    for viewer in (1, None):
        text = json.dumps(RULES.view(state, viewer))
        assert "[0, 3]" not in text and "[8, 3]" not in text
        assert RULES.view(state, viewer)["my_pending"] is None
    assert "[8, 3]" not in json.dumps(RULES.view(state, 0))
    assert "[0, 3]" not in json.dumps(RULES.view(state, 2))
    assert totals(state) == [0, 0, 0]
    assert RULES.view(state, 2)["my_pending"] == S(8, 3)


def test_the_view_never_holds_the_seed():
    state = blank(2, seed=987654)
    for viewer in (0, 1, None):
        assert "seed" not in json.dumps(RULES.view(state, viewer))


# --- Submissions and resolution -----------------------------------------------------

def test_a_seat_cannot_submit_twice_in_a_turn():
    state = RULES.apply(blank(3), 1, S(0, 3))
    with pytest.raises(IllegalAction, match="already drawn"):
        RULES.apply(state, 1, S(0, 5))
    assert legal(state, 1) == []


def test_the_turn_resolves_only_when_the_last_asked_seat_submits():
    state = blank(3)
    state = RULES.apply(state, 2, S(0, 3))
    state = RULES.apply(state, 0, S(0, 3))
    assert state["turn"] == 1 and all(m["cells"] == {} for m in state["maps"])
    state = RULES.apply(state, 1, S(0, 3))
    assert state["turn"] == 2
    assert all(m["cells"] == {"0,3": {"kind": "stop", "seat": b}} for b, m in enumerate(state["maps"]))
    assert state["pending"] == {}


def test_submissions_are_checked_against_the_start_of_turn_map():
    # Both seats may draw beside each other's spots: they are on different maps.
    state = blank(2)
    state = RULES.apply(state, 0, S(0, 3))
    state = RULES.apply(state, 1, S(0, 4))
    assert state["maps"][1]["cells"] == {"0,4": {"kind": "stop", "seat": 1}}


# --- Rotation -----------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 5])
def test_maps_rotate_to_the_next_seat_after_every_turn(players):
    import random
    rng = random.Random(players)
    state = blank(players)
    for _ in range(2 * players + 1):
        turn = state["turn"]
        view = RULES.view(state, None)
        for b, m in enumerate(view["maps"]):
            assert m["holder"] == (b + turn - 1) % players
            assert m["next_holder"] == (b + turn) % players
        if (turn - 1) % players == 0:
            assert [s["holds"] for s in view["seats"]] == list(range(players))
        for seat in list(RULES.to_act(state)):
            state = RULES.apply(state, seat, rng.choice(legal(state, seat)))
        assert state["turn"] == turn + 1


# --- Passing, trigger and the final stage ---------------------------------------------

def test_ex8_final_turn_table():
    rows = [(2, 6, 7), (2, 7, 9), (3, 7, 10), (3, 9, 10), (3, 10, 13), (3, 14, 16), (4, 20, 21), (5, 22, 26)]
    for players, t0, t_end in rows:
        assert final_turn_for(t0, players) == t_end


def test_trigger_needs_n_minus_one_full_maps():
    from games.rift_valley_reserve.rules import data
    assert data.END_TRIGGER_FULL_MAPS == {2: 1, 3: 2, 4: 3, 5: 4}


def _three_seat_turn_14():
    """Turn 14 of a 3-seat game: map 0 already full, map 2 one cell from full."""
    maps = [fill_with_tents(fresh("ID9", 0), 1), fresh("ID9", 1),
            fill_with_tents(fresh("ID9", 2), 1, keep={(8, 8)})]
    return position(maps, turn=14)


def test_ex8_three_players_trigger_on_the_second_full_map_and_play_to_turn_16():
    state = _three_seat_turn_14()
    # Turn 14: map 0 -> seat 1 (full, nothing to draw), map 1 -> seat 2, map 2 -> seat 0.
    assert state["asked"] == [0, 2]
    assert RULES.to_act(state) == [0, 2]
    with pytest.raises(IllegalAction, match="nothing for you to draw"):
        RULES.apply(state, 1, S(0, 3))
    assert {"type": "pass"} not in legal(state, 0)
    state = RULES.apply(state, 0, {"type": "tent", "cell": [8, 8]})
    state = RULES.apply(state, 2, S(0, 3))
    assert {"type": "pass", "seat": 1, "turn": 14, "map": 0, "auto": True} in state["events"]
    assert state["events"][-1] == {"type": "end_triggered", "seat": None, "turn": 14, "final_turn": 16,
                                   "full_maps": 2}
    assert (state["trigger_turn"], state["final_turn"]) == (14, 16)
    view = RULES.view(state, None)
    assert view["stage"] == "final" and view["turns_left"] == 2
    assert view["full_maps"] == 2 and view["full_maps_needed"] == 2

    # Turn 15: only seat 0 (holding map 1) can draw; it may pass.
    assert state["turn"] == 15 and RULES.to_act(state) == [0]
    assert legal(state, 0)[-1] == {"type": "pass"}
    state = RULES.apply(state, 0, {"type": "pass"})

    # Turn 16: everyone is back on their own map; only seat 1 can draw.
    assert state["turn"] == 16 and RULES.to_act(state) == [1]
    state = RULES.apply(state, 1, S(2, 2))
    assert RULES.is_over(state)
    assert RULES.to_act(state) == []
    assert all(legal(state, s) == [] for s in range(3))
    assert RULES.view(state, None)["stage"] == "over"
    with pytest.raises(IllegalAction, match="The game is over."):
        RULES.apply(state, 1, S(4, 4))


def test_a_final_stage_turn_with_nobody_to_ask_resolves_at_once():
    maps = [fill_with_tents(fresh("ID9", 0), 0), fill_with_tents(fresh("ID9", 1), 0, keep={(0, 0)})]
    state = position(maps, turn=6, trigger_turn=5, final_turn=7)
    assert RULES.to_act(state) == [0]            # seat 0 holds map 1, seat 1 holds the full map 0
    state = RULES.apply(state, 0, {"type": "tent", "cell": [0, 0]})
    assert RULES.is_over(state)
    assert state["events"][-2:] == [{"type": "pass", "seat": 0, "turn": 7, "map": 0, "auto": True},
                                    {"type": "pass", "seat": 1, "turn": 7, "map": 1, "auto": True}]


def test_a_full_map_still_offers_its_owner_a_bridge():
    def build(m):
        m = stop(m, 0, (2, 3), (2, 5))
        return fill_with_tents(m, 1, keep={(2, 4)})
    m = build(fresh("ID9", 0))
    state = position([m, fresh("ID9", 1)], turn=3)
    assert state["asked"] == [0, 1]
    assert legal(state, 0) == [{"type": "trail", "from": [2, 3], "to": [2, 5], "corner": None}]


def test_after_the_trigger_every_asked_seat_is_offered_pass_last():
    state = position([fresh("ID9", 0), fresh("ID9", 1)], turn=4, trigger_turn=3, final_turn=5)
    for seat in (0, 1):
        assert legal(state, seat)[-1] == {"type": "pass"}
    state = RULES.apply(state, 0, {"type": "pass"})
    assert RULES.view(state, None)["seats"][0]["submitted"] is True


# --- Live scores, determinism, playouts -------------------------------------------------

def test_after_turn_one_every_seat_has_minus_two():
    import random
    rng = random.Random(5)
    for players in range(2, 6):
        state = blank(players)
        for seat in range(players):
            state = RULES.apply(state, seat, rng.choice(legal(state, seat)))
        assert totals(state) == [-2] * players


def test_same_seed_and_actions_give_identical_states_and_replays_match():
    for boards in ("identical", "asymmetrical"):
        state, moves = random_playout(RULES, 4, 11, {"boards": boards})
        again, _ = random_playout(RULES, 4, 11, {"boards": boards})
        assert json.dumps(state, sort_keys=True) == json.dumps(again, sort_keys=True)
        saved = json.loads(json.dumps(moves))
        assert replay(RULES, 4, {"boards": boards}, 11, saved) == state


@pytest.mark.parametrize("boards", ["identical", "asymmetrical"])
def test_random_playouts_end_for_every_player_count(boards):
    for players in range(2, 6):
        for seed in (1, 2):
            state, _ = random_playout(RULES, players, seed, {"boards": boards})
            assert RULES.is_over(state)
            assert state["trigger_turn"] is not None
            assert state["final_turn"] == final_turn_for(state["trigger_turn"], players)
            assert state["events"][-1]["turn"] == state["final_turn"]
            assert sum(1 for m in state["maps"] if is_full(m)) >= players - 1


# --- Take back (spec 15.2): a pending draw, never a resolved one ------------------------

def test_a_pending_draw_may_be_taken_back():
    state = blank(3)
    after = RULES.apply(state, 0, S(0, 4))
    assert RULES.undoable(state, 0, S(0, 4), after)


def test_the_draw_that_resolves_the_turn_cannot_be_taken_back():
    state = RULES.apply(blank(2), 0, S(0, 4))
    after = RULES.apply(state, 1, S(8, 4))
    assert after["turn"] == 2
    assert not RULES.undoable(state, 1, S(8, 4), after)


def test_a_pass_in_the_final_stage_may_be_taken_back_until_the_turn_resolves():
    state = blank(3)
    state = dict(state, trigger_turn=1, final_turn=4)
    after = RULES.apply(state, 2, {"type": "pass"})
    assert RULES.undoable(state, 2, {"type": "pass"}, after)
