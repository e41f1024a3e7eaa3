"""Scoring fixtures EX1-EX6 and ranking EX9 (spec sections 8, 9, 14)."""
from __future__ import annotations

from games.rift_valley_reserve.rules import RULES
from games.rift_valley_reserve.rules.board import score_map

from .helpers import fresh, position, stop, tent, trail


def ex1():
    m = fresh("T6", 0)
    m = stop(m, 0, (0, 0), (0, 4), (2, 0))
    m = trail(m, 0, (0, 0), (0, 4))
    return tent(m, 0, (1, 1))


def ex2():
    """ID9 owned by Q = seat 1."""
    m = fresh("ID9", 1)
    m = stop(m, 0, (0, 0), (8, 8))
    m = stop(m, 1, (2, 0), (2, 2))
    m = trail(m, 0, (0, 0), (8, 8), corner=(0, 8))
    m = trail(m, 1, (2, 0), (2, 2))
    return tent(m, 0, (1, 0))


def ex3():
    """ID9 owned by P = seat 0."""
    m = fresh("ID9", 0)
    m = stop(m, 0, (3, 2), (3, 6), (5, 0), (5, 2), (7, 3))
    m = trail(m, 0, (3, 2), (3, 6))
    m = trail(m, 0, (5, 0), (5, 2))
    return tent(m, 0, (4, 1))


def breakdown(trails, animals, tents, stop_penalty):
    return {"trails": trails, "animals": animals, "tents": tents, "stop_penalty": stop_penalty}


def test_ex1_one_player_on_t6_scores_six():
    assert score_map(ex1(), 1)[0] == breakdown(3, 3, 2, -2)


def test_ex2_shared_animal_and_long_l_trail():
    p, q = score_map(ex2(), 2)
    assert p == breakdown(5, 11, 2, 0) and sum(p.values()) == 18
    assert q == breakdown(1, 2, 0, 0) and sum(q.values()) == 3


def test_ex3_owner_bridge_tent_and_unconnected_stop():
    p = score_map(ex3(), 1)[0]
    assert p == breakdown(4, 6, 6, -2)
    assert sum(p.values()) == 14


def test_ex3_the_bridged_rift_cell_belongs_to_the_trail():
    m = ex3()
    assert m["cells"]["3,4"] == {"kind": "trail", "seat": 0, "trail": 0}
    assert m["trails"][0]["path"] == [[3, 2], [3, 3], [3, 4], [3, 5], [3, 6]]


def test_ex4_three_seats_share_one_animal_for_one_point_each():
    m = fresh("T6", 0)
    m = stop(m, 0, (0, 1), (0, 5))
    m = stop(m, 1, (2, 1), (2, 5))
    m = stop(m, 2, (1, 0), (1, 2))
    m = trail(m, 0, (0, 1), (0, 5))
    m = trail(m, 1, (2, 1), (2, 5))
    m = trail(m, 2, (1, 0), (1, 2))
    totals = [sum(b.values()) for b in score_map(m, 3)]
    assert totals == [4, 4, 3]
    assert [b["animals"] for b in score_map(m, 3)] == [1, 1, 1]


def test_ex5_vertical_bridge_and_a_herd_scoring_twice():
    m = fresh("AS1", 0)
    m = stop(m, 0, (2, 1), (4, 1))
    m = trail(m, 0, (2, 1), (4, 1))
    m = stop(m, 1, (3, 4), (3, 7))
    m = trail(m, 1, (3, 4), (3, 7))
    p, q = score_map(m, 2)
    assert p == breakdown(2, 3, 0, 0)
    assert q == breakdown(2, 9, 0, 0)


def test_ex6_totals_add_up_over_maps_and_rank():
    state = position([ex3(), ex2()], turn=3)
    scores = RULES.scores(state)
    assert scores[0] == {"total": 32, "breakdown": breakdown(9, 17, 8, -2)}
    assert scores[1] == {"total": 3, "breakdown": breakdown(1, 2, 0, 0)}
    assert RULES.ranking(state) == [1, 2]


def test_breakdown_values_always_add_up_to_the_total():
    state = position([ex3(), ex2()], turn=3)
    for entry in RULES.scores(state):
        assert sum(entry["breakdown"].values()) == entry["total"]
        assert entry["breakdown"]["stop_penalty"] <= 0
    view = RULES.view(state, None)
    for entry in view["scores"]:
        for per_map in entry["per_map"]:
            assert per_map["total"] == sum(v for k, v in per_map.items() if k != "total")


def _entry(trails, animals, tents, stop_penalty):
    b = breakdown(trails, animals, tents, stop_penalty)
    return {"total": sum(b.values()), "breakdown": b}


def test_ex9_ties_broken_by_trail_points_then_fewer_unconnected_stops():
    scores = [_entry(6, 4, 2, -2), _entry(6, 2, 2, 0), _entry(4, 4, 2, 0)]
    assert [e["total"] for e in scores] == [10, 10, 10]
    assert RULES.rank_scores(scores) == [2, 1, 3]


def test_ex9_a_true_tie_shares_the_rank_and_skips_the_next():
    scores = [_entry(6, 4, 0, 0), _entry(6, 2, 2, 0), _entry(4, 2, 2, 0)]
    assert RULES.rank_scores(scores) == [1, 1, 3]


def test_view_says_which_tie_breaks_settled_a_tie():
    from games.rift_valley_reserve.rules.view import tie_breaks
    notes = tie_breaks([_entry(6, 4, 2, -2), _entry(6, 2, 2, 0), _entry(4, 4, 2, 0)])
    assert notes == [{"seats": [0, 1, 2], "total": 10, "decided_by": ["trails", "stop_penalty"]}]


def test_the_presenter_explains_a_tie_break_in_plain_words():
    from games.rift_valley_reserve import presenter
    from games.rift_valley_reserve.rules.view import tie_breaks
    view = {"over": True, "tie_breaks": tie_breaks([_entry(6, 4, 2, -2), _entry(6, 2, 2, 0), _entry(4, 4, 2, 0)])}
    assert presenter.tie_break_notes(view, ["ann", "bo", "cy"]) == [
        "ann, bo, cy tie on 10 points; decided by Trail points then fewer unconnected Stops."]
