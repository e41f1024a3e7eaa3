"""Scoring, ranking, game length and the end (§12-§13, checklist 24, 36-40, Examples 5 and 6)."""
from __future__ import annotations

import pytest

from games.rifugio.rules import RULES
from games.rifugio.rules import data as D

from .helpers import A, B, C, act, position, seat

KEYS = {"items", "waterfall_bonus", "sets", "bears", "rifugio_cards", "raft_cards"}


def _ex5(rr=True):
    ring = [(6 + dq, dr) for dq, dr in D.DIRS]
    tiles = {(-6, 0): "WF1", (-5, 0): "WA01", (-5, -1): "WA02", (-6, -1): "WA03",
             (0, 6): "WF2", (6, 0): "WF3"}
    tiles.update({c: f"WA{10 + i:02d}" for i, c in enumerate(ring)})
    if not rr:
        tiles = {c: t for c, t in tiles.items() if not t.startswith("WA")}
    state = position(players=3, rr=rr, tiles=tiles)
    a, b, c = seat(state, A), seat(state, B), seat(state, C)
    a.update(items=["FL1", "FL2", "FL3", "PK1"], bears=["BR1"], rifugio_cards=1, raft_cards=1)
    b.update(items=["WF1", "PS1", "PS2", "AN2"], rifugio_cards=2)
    c.update(items=["WF1", "WF2", "WF3"])
    return state


def test_example_5_final_scores_and_raft_point_tie_break():
    state = _ex5()
    scores = RULES.scores(state)
    assert [s["total"] for s in scores] == [14, 14, 17]
    assert scores[A]["breakdown"] == {"items": 8, "waterfall_bonus": 0, "sets": 5, "bears": -3,
                                      "rifugio_cards": 2, "raft_cards": 2}
    assert scores[B]["breakdown"] == {"items": 7, "waterfall_bonus": 3, "sets": 0, "bears": 0,
                                      "rifugio_cards": 4, "raft_cards": 0}
    assert scores[C]["breakdown"] == {"items": 3, "waterfall_bonus": 9, "sets": 5, "bears": 0,
                                      "rifugio_cards": 0, "raft_cards": 0}
    assert RULES.ranking(state) == [2, 3, 1]


def test_example_5_a_tie_on_raft_points_too_shares_the_rank():
    state = _ex5()
    seat(state, A).update(raft_cards=0, rifugio_cards=2)
    assert [s["total"] for s in RULES.scores(state)] == [14, 14, 17]
    assert RULES.ranking(state) == [2, 2, 1]


def test_example_5_a_waterfall_with_six_water_neighbours_is_worth_seven():
    state = _ex5()
    seat(state, C).update(items=["WF3"])
    score = RULES.scores(state)[C]
    assert score["breakdown"]["items"] + score["breakdown"]["waterfall_bonus"] == 7


def test_example_5_without_the_expansion_no_waterfall_bonus_and_ties_are_shared():
    state = _ex5(rr=False)
    assert RULES.scores(state)[C]["total"] == 8
    assert RULES.scores(state)[C]["breakdown"]["waterfall_bonus"] == 0
    seat(state, A).update(raft_cards=0)
    seat(state, B).update(items=["FL1", "FL2", "FL3", "PK1"], bears=["BR1"], rifugio_cards=1)
    assert RULES.ranking(state)[A] == RULES.ranking(state)[B]


def test_score_values_and_live_waterfall_bonus():
    state = position(players=3, tiles={(1, 0): "WF2", (2, 0): "WA01"})
    seat(state, A).update(items=["WF2", "AN1", "PS3"], bears=["BR2", "BR3"], raft_cards=3)
    s = RULES.scores(state)[A]
    assert s["breakdown"] == {"items": 5, "waterfall_bonus": 1, "sets": 0, "bears": -6,
                              "rifugio_cards": 0, "raft_cards": 6}
    state["board"]["2,-1"] = {"tile": "WA02", "rot": 0}
    assert RULES.scores(state)[A]["breakdown"]["waterfall_bonus"] == 2


def test_breakdown_keys_always_present_and_sum_to_total():
    state = RULES.setup(5, None, 3)
    for s in RULES.scores(_ex5()) + RULES.scores(state):
        assert set(s["breakdown"]) == KEYS
        assert sum(s["breakdown"].values()) == s["total"]


def test_ranking_during_play_reflects_current_scores():
    state = position(players=3)
    seat(state, B).update(rifugio_cards=1)
    assert RULES.ranking(state) == [2, 1, 2]


def _quick_game(players, rr, seed):
    """Place the first legal placement, never walk: count the turns."""
    state = RULES.setup(players, {"rivers_and_rafts": rr}, seed)
    last = None
    while not RULES.is_over(state):
        s = state["active"]
        if state["phase"] == "place":
            state = RULES.apply(state, s, RULES.legal_actions(state, s)[0])
            if not state["stack"] and not state["bottom"] and state["hand"] is None and last is None:
                last = (s, state["phase"], sum(state["turns_taken"]))
        else:
            state = RULES.apply(state, s, {"type": "end_turn"})
    return state, last


@pytest.mark.parametrize("players,base,expansion", [(2, 15, 18), (3, 20, 24), (4, 15, 18), (5, 12, 14)])
def test_example_6_turns_per_player(players, base, expansion):
    for rr, turns in ((False, base), (True, expansion)):
        state, last = _quick_game(players, rr, seed=players)
        assert state["removed"] == []
        assert state["turns_taken"] == [turns] * players
        # the last tile falls on the last seat of a round, who still walks afterwards
        placer, phase, taken = last
        assert placer == (state["first_seat"] - 1) % players
        assert phase == "walk"
        assert taken == turns * players - 1


def test_example_6_four_players_the_game_ends_after_the_turn_placing_tile_72():
    state = RULES.setup(4, None, 9)
    placed = 0
    while True:
        s = state["active"]
        if state["phase"] == "place":
            state = RULES.apply(state, s, RULES.legal_actions(state, s)[0])
            placed += 1
            continue
        if placed == 72:
            assert not RULES.is_over(state) and state["phase"] == "walk"
            assert len(RULES.legal_actions(state, s)) > 1  # the last placer still walks
            state = RULES.apply(state, s, {"type": "end_turn"})
            assert RULES.is_over(state)
            break
        state = RULES.apply(state, s, {"type": "end_turn"})
    assert sum(state["turns_taken"]) == 72


def test_when_the_stack_empties_mid_round_remaining_seats_take_walk_only_turns():
    state = position(players=4, active=1, first_seat=0, stack=["PK1", "PK2"])
    state["turns_taken"] = [5, 4, 4, 4]
    state = act(state, 1, {"type": "end_turn"})
    assert state["removed"] and state["active"] == 2 and state["phase"] == "walk"
    state = act(state, 2, {"type": "end_turn"})
    assert state["active"] == 3 and state["phase"] == "walk" and not RULES.is_over(state)
    state = act(state, 3, {"type": "end_turn"})
    assert RULES.is_over(state)
    assert state["turns_taken"] == [5, 5, 5, 5]
