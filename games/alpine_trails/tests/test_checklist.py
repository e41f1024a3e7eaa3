"""Acceptance checklist of shared/rules/alpine_trails.md §16 (items not covered by the
worked-example and placement test modules)."""
from __future__ import annotations

import json
import random

import pytest

from games.alpine_trails.rules import RULES, solo_title
from games.alpine_trails.rules import board as B
from games.alpine_trails.rules.data import BASE_CAMPS, GOALS, TILES, TILES_BY_PLAYERS
from games.alpine_trails.rules.rules import end_game, rank_of
from games.rules.base import IllegalAction
from tests.rules.contract import random_playout, replay

from .helpers import build, campsite, fresh, legal, play, terrain, trail


def dumps(value):
    return json.dumps(value, sort_keys=True)


def first_placement(state, seat):
    return next(a for a in legal(state, seat) if a["type"] == "place")


def finish_round_for(state, seat):
    """Place both drawn tiles anywhere legal, place any waterfall, then send done."""
    while True:
        actions = legal(state, seat)
        action = next((a for a in actions if a["type"] in ("waterfall", "place", "discard")), None)
        if action is None:
            return RULES.apply(state, seat, {"type": "done"})
        state = RULES.apply(state, seat, action)


# --- Setup and data (1-4) --------------------------------------------------------------

def test_manifest_has_132_tiles_33_per_terrain_24_forks_200_miles():
    assert len(TILES) == 132
    for terrain_name in ("forest", "rock", "meadow", "wetland"):
        assert sum(t["terrain"] == terrain_name for t in TILES.values()) == 33
    assert sum(t["shape"] == "T" for t in TILES.values()) == 24
    assert sum(t["miles"] for t in TILES.values()) == 200
    assert TILES["T040"] == {"id": "T040", "terrain": "rock", "shape": "I", "miles": 2}
    assert TILES["T061"]["terrain"] == "rock" and TILES["T061"]["shape"] == "T"
    assert [TILES[f"T{n:03d}"]["shape"] for n in (28, 33, 94, 99, 127, 132)] == ["T"] * 6
    assert TILES["T001"]["terrain"] == "forest" and TILES["T132"]["terrain"] == "wetland"


@pytest.mark.parametrize("players, bag, rounds", [(1, 32, 16), (2, 64, 16), (3, 96, 16), (4, 112, 14), (5, 130, 13)])
def test_bag_size_and_rounds_by_player_count(players, bag, rounds):
    state = RULES.setup(players, {}, 3)
    assert TILES_BY_PLAYERS[players] == bag
    assert state["rounds"] == rounds
    assert len(state["bag"]) == bag - 2 * players


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_setup_gives_distinct_base_camps_goals_and_two_tile_hands(players):
    state = RULES.setup(players, {}, 11)
    camps = [s["base_camp"] for s in state["seats"]]
    goals = [s["goal"] for s in state["seats"]]
    assert len(set(camps)) == players and set(camps) <= set(BASE_CAMPS)
    assert len(set(goals)) == players and set(goals) <= set(GOALS)
    for s in state["seats"]:
        assert s["map"]["0,0"]["kind"] == "basecamp" and s["map"]["0,0"]["square"] == "A"
        assert s["map"]["1,0"]["kind"] == "basecamp" and s["map"]["1,0"]["square"] == "B"
        assert len(s["hand"]) == 2
    in_play = [t for s in state["seats"] for t in s["hand"]] + state["bag"]
    assert len(in_play) == len(set(in_play)) == TILES_BY_PLAYERS[players]


def test_setup_refuses_options_and_bad_player_counts():
    assert RULES.validate_options(3, {}) == {}
    for bad in (0, 6, True, "2"):
        with pytest.raises(IllegalAction):
            RULES.validate_options(bad, {})
    with pytest.raises(IllegalAction, match="no option 'x'"):
        RULES.validate_options(2, {"x": 1})


def test_same_seed_same_actions_same_states_json_roundtrip_and_no_mutation():
    a = RULES.setup(3, {}, 42)
    b = RULES.setup(3, {}, 42)
    assert dumps(a) == dumps(b) and json.loads(json.dumps(a)) == a
    rng = random.Random(5)
    for _ in range(40):
        seat = rng.choice(RULES.to_act(a))
        action = rng.choice(legal(a, seat))
        before = dumps(a)
        a2 = RULES.apply(a, seat, json.loads(json.dumps(action)))
        b = RULES.apply(b, seat, action)
        assert dumps(a) == before
        assert dumps(a2) == dumps(b) and json.loads(json.dumps(a2)) == a2
        a = a2


# --- Rounds and hidden information (5-10) ----------------------------------------------

def test_done_seat_leaves_to_act_and_is_refused_until_next_round():
    state = RULES.setup(2, {}, 8)
    assert RULES.to_act(state) == [0, 1]
    state = finish_round_for(state, 0)
    assert RULES.to_act(state) == [1]
    assert legal(state, 0) == []
    with pytest.raises(IllegalAction, match="finished this round"):
        RULES.apply(state, 0, {"type": "done"})
    state = finish_round_for(state, 1)
    assert RULES.to_act(state) == [0, 1] and state["round"] == 2


def test_done_is_refused_with_a_tile_in_hand_or_a_waterfall_pending():
    state = RULES.setup(1, {}, 8)
    with pytest.raises(IllegalAction, match="Deal with both drawn tiles"):
        RULES.apply(state, 0, {"type": "done"})
    assert {"type": "done"} not in legal(state)
    loop = build("BC2", [trail("T079", 0, -1, 1), trail("T080", 1, -1, 2)])
    assert loop["seats"][0]["hand"] == [] and loop["seats"][0]["waterfalls_pending"] == 1
    with pytest.raises(IllegalAction, match="waterfall first"):
        RULES.apply(loop, 0, {"type": "done"})


def test_round_resolution_publishes_maps_and_draws_new_hands():
    state = RULES.setup(2, {}, 9)
    bag = len(state["bag"])
    state = finish_round_for(state, 0)
    assert len(state["seats"][0]["public"]["map"]) == 2           # not yet published
    state = finish_round_for(state, 1)
    for s in state["seats"]:
        assert s["public"]["map"] == s["map"] and len(s["map"]) == 4
        assert len(s["hand"]) == 2 and not s["done"]
    assert len(state["bag"]) == bag - 4
    assert state["history"][-1]["round"] == 1


def test_last_round_resolution_ends_the_game():
    state = RULES.setup(1, {}, 2)
    while not RULES.is_over(state):
        state = finish_round_for(state, 0)
    assert state["phase"] == "over" and state["bag"] == [] and RULES.to_act(state) == []
    assert state["round"] == 16 and legal(state, 0) == []
    with pytest.raises(IllegalAction, match="The game is over."):
        RULES.apply(state, 0, {"type": "done"})


def test_seats_actions_in_either_interleaving_give_the_same_state():
    start = RULES.setup(3, {}, 21)
    plans = {}
    for seat in range(3):
        s, actions = start, []
        while True:
            action = next((a for a in reversed(legal(s, seat)) if a["type"] != "done"), {"type": "done"})
            actions.append(action)
            if action["type"] == "done":
                break
            s = RULES.apply(s, seat, action)
        plans[seat] = actions
    orders = [[(seat, a) for seat in (0, 1, 2) for a in plans[seat]],
              [(seat, a) for seat in (2, 1, 0) for a in plans[seat]]]
    results = []
    for order in orders:
        state = start
        for seat, action in order:
            state = RULES.apply(state, seat, action)
        results.append(dumps(state))
    assert results[0] == results[1]


def test_views_hide_the_current_rounds_choices_until_resolution():
    state = RULES.setup(2, {}, 4)
    before = RULES.view(state, 1)["seats"][0]
    hand0 = list(state["seats"][0]["hand"])
    state = finish_round_for(state, 0)
    for viewer in (None, 1):
        view = RULES.view(state, viewer)
        other = view["seats"][0]
        assert other["map"] == before["map"] and other["out"] == before["out"]
        assert "waterfalls_pending" not in other and "hand" not in other and "campsite_used" not in other
        assert other["done"] is True
        text = json.dumps(view)
        assert not any(t in text for t in hand0)
    state = finish_round_for(state, 1)
    view = RULES.view(state, 1)
    assert len(view["seats"][0]["map"]) == 4


def test_views_never_show_bag_seed_other_hands_or_goals_until_the_end():
    state = RULES.setup(3, {}, 13)
    for viewer in (None, 0, 1, 2):
        view = RULES.view(state, viewer)
        text = json.dumps(view)
        assert "bag" not in view and "seed" not in text
        assert view["bag_left"] == len(state["bag"])
        for i, s in enumerate(state["seats"]):
            if i != viewer:
                assert "goal" not in view["seats"][i] and "hand" not in view["seats"][i]
                assert not any(t in text for t in s["hand"])
            else:
                assert view["seats"][i]["goal"] == s["goal"] and view["seats"][i]["hand"] == s["hand"]
        for t in state["bag"]:
            assert f'"{t}"' not in text
    state, _ = random_playout(RULES, 3, 13)
    view = RULES.view(state, None)
    assert [e["goal"] for e in view["seats"]] == [s["goal"] for s in state["seats"]]
    assert view["result"]["ranking"] == RULES.ranking(state)


# --- Campsites (16) --------------------------------------------------------------------

def test_campsite_replaces_a_drawn_tile_which_leaves_the_game():
    state = build("BC5", [trail("T011", -1, 0, 1), trail("T012", -2, 0, 1)])
    state["seats"][0]["hand"] = ["T073", "T074"]
    after = RULES.apply(state, 0, campsite("T073", -3, 0))
    s = after["seats"][0]
    assert s["hand"] == ["T074"] and s["out"] == ["T073"] and s["campsite_used"] is True
    assert s["map"]["-3,0"] == {"kind": "campsite"}
    with pytest.raises(IllegalAction, match="not one of your drawn tiles"):
        RULES.apply(state, 0, campsite("T099", -3, 0))


# --- Forks and animals (24-27) ---------------------------------------------------------

def test_several_same_terrain_forks_give_each_other_seat_one_animal():
    state = fresh("BC1", players=2, camps=["BC1", "BC2"])
    state["seats"][0]["hand"] = ["T061", "T062"]
    state = RULES.apply(state, 0, trail("T061", -1, 0, 0))
    state = RULES.apply(state, 0, trail("T062", 2, 0, 0))
    state = RULES.apply(state, 0, {"type": "done"})
    state["seats"][1]["hand"] = ["T001", "T002"]
    state = RULES.apply(state, 1, terrain("T001", -1, 0))
    state = RULES.apply(state, 1, terrain("T002", 2, 0))
    state = RULES.apply(state, 1, {"type": "done"})
    assert state["seats"][1]["animals"] == ["goat"] and state["seats"][0]["animals"] == []


def test_animal_goes_only_on_a_free_matching_terrain_side_tile_it_holds():
    state = build("BC5", [terrain("T034", 1, 1), trail("T007", -1, 0, 1), terrain("T001", 1, -1)], players=2)
    with pytest.raises(IllegalAction, match="You have no goat to place."):
        RULES.apply(state, 0, {"type": "animal", "animal": "goat", "x": 1, "y": 1})
    state["seats"][0]["animals"] = ["goat"]
    assert [a for a in legal(state) if a["type"] == "animal"] == [{"type": "animal", "animal": "goat", "x": 1, "y": 1}]
    for x, y in ((1, -1), (-1, 0), (0, 0), (5, 5)):
        with pytest.raises(IllegalAction, match="A goat can only go on a rock tile placed terrain side up."):
            RULES.apply(state, 0, {"type": "animal", "animal": "goat", "x": x, "y": y})
    after = RULES.apply(state, 0, {"type": "animal", "animal": "goat", "x": 1, "y": 1})
    assert after["seats"][0]["map"]["1,1"]["animal"] == "goat" and after["seats"][0]["animals"] == []
    after["seats"][0]["animals"] = ["goat"]
    with pytest.raises(IllegalAction, match="already has an animal"):
        RULES.apply(after, 0, {"type": "animal", "animal": "goat", "x": 1, "y": 1})


def test_held_animals_are_placed_automatically_at_the_end_or_score_nothing():
    state = build("BC5", [terrain("T034", 1, 1), terrain("T035", 0, 1)], players=2)
    state["seats"][0]["animals"] = ["goat", "bear"]
    end_game(state)
    s = state["seats"][0]
    assert s["map"]["0,1"]["animal"] == "goat" and "animal" not in s["map"]["1,1"]
    assert s["animals"] == ["bear"]
    assert B.score_map(s["map"])["breakdown"]["animals"] == 2


# --- Solo (28-31) ----------------------------------------------------------------------

def test_solo_fork_trail_side_gives_no_animal_and_may_go_terrain_side():
    state = fresh("BC5")
    state["seats"][0]["hand"] = ["T061", "T062"]
    state = RULES.apply(state, 0, trail("T061", -1, 0, 0))
    state = RULES.apply(state, 0, terrain("T062", 1, 1))
    assert state["seats"][0]["round_forks"] == []
    state = RULES.apply(state, 0, {"type": "done"})
    assert state["seats"][0]["animals"] == [] and state["history"][-1]["gifts"] == []


def test_solo_trade_fork_gives_its_animal_at_once_placeable_the_same_round():
    state = build("BC5", [terrain("T034", 1, 1)])
    state["seats"][0]["hand"] = ["T061", "T001"]
    assert {"type": "trade_fork", "tile": "T061"} in legal(state)
    assert {"type": "trade_fork", "tile": "T001"} not in legal(state)
    state = RULES.apply(state, 0, {"type": "trade_fork", "tile": "T061"})
    assert state["seats"][0]["animals"] == ["goat"] and state["seats"][0]["out"] == ["T061"]
    state = RULES.apply(state, 0, {"type": "animal", "animal": "goat", "x": 1, "y": 1})
    assert state["seats"][0]["map"]["1,1"]["animal"] == "goat"


def test_trade_fork_refused_in_multiplayer_and_for_non_forks():
    msg = "Only a fork can be traded for an animal, and only in a solo game."
    solo = fresh("BC5")
    solo["seats"][0]["hand"] = ["T001", "T002"]
    with pytest.raises(IllegalAction, match=msg):
        RULES.apply(solo, 0, {"type": "trade_fork", "tile": "T001"})
    multi = fresh("BC5", players=2)
    multi["seats"][0]["hand"] = ["T061", "T002"]
    assert not any(a["type"] == "trade_fork" for a in legal(multi))
    with pytest.raises(IllegalAction, match=msg):
        RULES.apply(multi, 0, {"type": "trade_fork", "tile": "T061"})


def test_solo_duplicate_animals_are_held_placed_and_each_scores():
    state = build("BC5", [terrain("T034", 1, 1), terrain("T035", 0, 1)])
    state["seats"][0]["animals"] = ["goat", "goat"]
    animal_actions = [a for a in legal(state) if a["type"] == "animal"]
    assert animal_actions == [{"type": "animal", "animal": "goat", "x": 0, "y": 1},
                              {"type": "animal", "animal": "goat", "x": 1, "y": 1}]
    state = RULES.apply(state, 0, animal_actions[0])
    state = RULES.apply(state, 0, animal_actions[1])
    assert B.score_map(state["seats"][0]["map"])["breakdown"]["animals"] == 4


@pytest.mark.parametrize("total_points, title", [
    (84, None), (85, "Weekend Wanderer"), (94, "Weekend Wanderer"), (95, "Pathfinder"), (104, "Pathfinder"),
    (105, "Trailblazer"), (114, "Trailblazer"), (115, "Peak Bagger"), (124, "Peak Bagger"),
    (125, "Mountain G.O.A.T."), (140, "Mountain G.O.A.T.")])
def test_solo_titles_by_total(total_points, title):
    assert solo_title(total_points) == title


def test_solo_result_carries_the_title():
    state, _ = random_playout(RULES, 1, 3)
    result = RULES.view(state, 0)["result"]
    assert result["title"] == solo_title(result["scores"][0]["total"])
    assert result["ranking"] == [1]


def test_solo_game_over_line_names_the_player_like_every_other_line():
    """Events carry seat indexes and the presenter names them; the solo game-over line
    once said "Seat 0", which no page could turn into a name."""
    from games.alpine_trails.presenter import describe
    state, _ = random_playout(RULES, 1, 3)
    last = state["events"][-1]
    assert last["type"] == "game_over" and last["winners"] == [0]
    assert describe(last, ["alice"]).startswith("Game over: alice scores ")
    assert "Seat 0" not in " ".join(describe(e, ["alice"]) for e in state["events"])


# --- End and scoring (32-41) -----------------------------------------------------------

def test_end_places_one_lake_per_targeted_cell_and_none_on_soft_sides():
    state = build("BC5", [trail("T011", -1, 0, 1), trail("T012", -2, 0, 1)])
    state = play(state, campsite("T073", -3, 0))
    state = play(state, trail("T003", 0, -1, 0))
    end_game(state)
    lakes = sorted(k for k, p in state["seats"][0]["map"].items() if p["kind"] == "lake")
    assert lakes == ["0,-2"]
    assert state["phase"] == "over"
    assert B.targeted_cells(B.parse(state["seats"][0]["map"])) == set()


def test_fully_surrounded_waterfall_scores_8_and_three_plus_three_scores_6():
    board = {(x, y): {"kind": "terrain", "tile": "T001"} for x in (-1, 0, 1) for y in (-1, 0, 1)}
    board[(0, 0)] = {"kind": "waterfall"}
    assert B.waterfall_points(board, (0, 0)) == 8
    partial = {(0, 0): {"kind": "waterfall"}}
    for c in ((0, -1), (1, 0), (0, 1), (-1, -1), (1, -1), (1, 1)):
        partial[c] = {"kind": "lake"}
    assert B.waterfall_points(partial, (0, 0)) == 6


def test_tents_lakes_and_animals_points():
    board = {(0, 0): {"kind": "campsite"}, (5, 0): {"kind": "lake"}, (7, 0): {"kind": "lake"},
             (9, 0): {"kind": "terrain", "tile": "T034", "animal": "goat"}}
    bd = B.score_board(board)
    assert (bd["tents"], bd["lakes"], bd["animals"]) == (8, 4, 2)


def line_of(tiles, camp="BC5"):
    """Straights running west from the base camp's A square (a lake at the end)."""
    return build(camp, [trail(t, -1 - i, 0, 1) for i, t in enumerate(tiles)])


@pytest.mark.parametrize("tiles, miles, points", [
    (["T011", "T012", "T044", "T045"], 12, 0),
    (["T011", "T012", "T044", "T045", "T077"], 15, 5),
    (["T011", "T012", "T044", "T045", "T077", "T078", "T007"], 20, 10),
    (["T011", "T012", "T044", "T045", "T077", "T078", "T110"], 21, 10),
])
def test_long_hike_thresholds_are_not_cumulative(tiles, miles, points):
    state = line_of(tiles)
    bd = B.score_map(state["seats"][0]["map"], "G09")["breakdown"]
    assert bd["longest_path"] == miles and bd["goal"] == points


def test_path_stops_at_a_fork_and_skips_the_forks_mile():
    state = build("BC5", [trail("T011", -1, 0, 1), trail("T028", -2, 0, 0), trail("T012", -3, 0, 1)])
    board = B.with_lakes(B.parse(state["seats"][0]["map"]))
    miles = sorted(p["miles"] for p in B.out_and_back_paths(board))
    assert miles == [0, 3]                                    # west: T012 only; south of fork: 0
    assert B.score_board(B.parse(state["seats"][0]["map"]))["longest_path"] == 3


def test_well_travelled_thresholds_count_all_trail_miles_forks_included():
    def board_with(miles_tiles):
        return {(i * 3, 0): {"kind": "trail", "tile": t, "rotation": 0} for i, t in enumerate(miles_tiles)}
    threes = ["T011", "T012", "T026", "T027", "T044", "T045", "T059", "T060",
              "T077", "T078", "T092", "T093", "T110", "T111"]
    assert B.goal_value("G10", board_with(threes[:11])) == 0                    # 33
    assert B.goal_value("G10", board_with(threes[:11] + ["T028"])) == 5         # 34, the fork counts
    assert B.goal_value("G10", board_with(threes[:13] + ["T007"])) == 5         # 41
    assert B.goal_value("G10", board_with(threes)) == 10                        # 42


def test_balanced_ecosystem_and_well_rounded_goals():
    board = {}
    for row, first in enumerate(("T001", "T034", "T067", "T100")):
        n = int(first[1:])
        for i in range(5 if row < 2 else 2):
            board[(i, row * 2)] = {"kind": "terrain", "tile": f"T{n + i:03d}"}
    # forest 10, rock 10, meadow 4, wetland 4
    assert B.goal_value("G18", board) == 6
    assert B.goal_value("G19", board) == 4


def test_crossroads_campground_and_waterfall_chaser_goals():
    board = {(0, 0): {"kind": "trail", "tile": "T028", "rotation": 0},
             (3, 0): {"kind": "trail", "tile": "T061", "rotation": 0},
             (6, 0): {"kind": "campsite"}, (9, 0): {"kind": "waterfall"}, (12, 0): {"kind": "waterfall"}}
    assert B.goal_value("G15", board) == 4
    assert B.goal_value("G16", board) == 4
    assert B.goal_value("G13", board) == 6


def test_backcountry_needs_two_paths():
    assert B.goal_value("G20", B.with_lakes(B.parse(line_of(["T011"])["seats"][0]["map"]))) == 0


def test_scores_during_play_use_public_maps_and_hide_the_goal():
    state = RULES.setup(2, {}, 17)
    state = finish_round_for(state, 0)
    live = B.score_map(state["seats"][0]["map"], state["seats"][0]["goal"])
    public = RULES.scores(state)[0]
    assert public == B.score_map(state["seats"][0]["public"]["map"]) and public["breakdown"]["goal"] == 0
    own = RULES.view(state, 0)["seats"][0]["score"]
    assert own == live
    assert RULES.view(state, 1)["seats"][0]["score"] == public


def test_ranking_by_total_then_longest_path_then_habitats_with_shared_ranks():
    def entry(total_points, path, habitat):
        bd = {"habitat_forest": habitat, "habitat_rock": 0, "habitat_meadow": 0, "habitat_wetland": 0,
              "longest_path": path}
        return {"total": total_points, "breakdown": bd}
    assert rank_of([entry(60, 5, 5), entry(60, 5, 5), entry(50, 9, 9)]) == [1, 1, 3]
    assert rank_of([entry(60, 4, 9), entry(60, 5, 1), entry(70, 0, 0)]) == [3, 2, 1]
    assert rank_of([entry(60, 5, 2), entry(60, 5, 3)]) == [2, 1]


# --- Contract robustness (42-44) -------------------------------------------------------

BAD_ACTIONS = [
    None, 7, "done", [], {}, {"type": None}, {"type": 3}, {"type": "fly"},
    {"type": "place"}, {"type": "place", "tile": ["T001"], "side": "terrain", "x": 0, "y": 1},
    {"type": "place", "tile": {"a": 1}, "side": "terrain", "x": 0, "y": 1},
    {"type": "place", "tile": "T999", "side": "terrain", "x": 0, "y": 1},
    {"type": "place", "tile": "HAND", "side": "sideways", "x": 0, "y": 1},
    {"type": "place", "tile": "HAND", "side": "terrain", "x": True, "y": 1},
    {"type": "place", "tile": "HAND", "side": "terrain", "x": 0.0, "y": 1},
    {"type": "place", "tile": "HAND", "side": "terrain", "x": "0", "y": 1},
    {"type": "place", "tile": "HAND", "side": "terrain", "x": 10 ** 9, "y": 1},
    {"type": "place", "tile": "HAND", "side": "terrain", "x": 0, "y": 1, "rotation": 0},
    {"type": "place", "tile": "HAND", "side": "terrain", "x": 0, "y": 1, "colour": "red"},
    {"type": "place", "tile": "HAND", "side": "trail", "x": 0, "y": 1, "rotation": 4},
    {"type": "place", "tile": "HAND", "side": "trail", "x": 0, "y": 1, "rotation": -1},
    {"type": "place", "tile": "HAND", "side": "trail", "x": 0, "y": 1, "rotation": True},
    {"type": "place", "tile": "HAND", "side": "trail", "x": 0, "y": 1},
    {"type": "campsite", "discard": None, "x": 0, "y": 1},
    {"type": "waterfall", "x": 0, "y": 1},
    {"type": "animal", "animal": ["goat"], "x": 0, "y": 1},
    {"type": "animal", "animal": "dragon", "x": 0, "y": 1},
    {"type": "discard", "tile": 12},
    {"type": "trade_fork", "tile": "HAND"},
    {"type": "done", "now": True},
    {"type": "done"},
]


def test_anything_not_listed_raises_illegal_action():
    state = RULES.setup(2, {}, 31)
    hand_tile = state["seats"][0]["hand"][0]
    for bad in BAD_ACTIONS:
        if isinstance(bad, dict):
            bad = {k: (hand_tile if v == "HAND" else v) for k, v in bad.items()}
        with pytest.raises(IllegalAction):
            RULES.apply(state, 0, bad)
    with pytest.raises(IllegalAction):
        RULES.apply(state, 7, {"type": "done"})
    with pytest.raises(IllegalAction):
        RULES.apply(state, None, {"type": "done"})


def test_error_messages_players_understand():
    state = fresh("BC5", players=2)
    state["seats"][0]["hand"] = ["T001", "T002"]
    cases = [
        ({"type": "fly"}, "Unknown action."),
        (terrain("T050", -1, 0), "That tile is not one of your drawn tiles."),
        (terrain("T001", 0, 0), "That square is already taken."),
        (terrain("T001", 5, 5), "A tile must touch your map along an edge."),
        ({"type": "animal", "animal": "wolf", "x": 0, "y": 1}, "You have no wolf to place."),
        ({"type": "done"}, "Deal with both drawn tiles before finishing the round."),
        ({"type": "discard", "tile": "T001"}, "This tile still fits on your map, so you cannot discard it."),
        (campsite("T001", -1, 0), "A campsite must go at the end of a trail."),
    ]
    for action, message in cases:
        with pytest.raises(IllegalAction) as err:
            RULES.apply(state, 0, action)
        assert str(err.value) == message


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_random_playouts_finish_and_every_waiting_seat_can_act(players):
    def check(state, seat, action, rng):
        for s in RULES.to_act(state):
            assert legal(state, s)
    state, moves = random_playout(RULES, players, 500 + players, on_step=check)
    assert RULES.is_over(state)
    assert dumps(replay(RULES, players, {}, 500 + players, moves)) == dumps(state)


def test_legal_actions_are_in_canonical_order():
    state = build("BC5", [trail("T011", -1, 0, 1), trail("T012", -2, 0, 1), terrain("T034", 1, 1)])
    state["seats"][0]["hand"] = ["T062", "T040"]
    state["seats"][0]["animals"] = ["goat"]
    actions = legal(state)
    types = [a["type"] for a in actions]
    order = ["waterfall", "place", "campsite", "animal", "trade_fork", "discard", "done"]
    assert types == sorted(types, key=order.index)
    places = [a for a in actions if a["type"] == "place"]
    keys = [(a["tile"], a["side"], a["y"], a["x"], a.get("rotation", -1)) for a in places]
    assert keys == sorted(keys)
    assert {a["type"] for a in actions} == {"place", "campsite", "animal", "trade_fork"}


def test_moves_may_be_taken_back_until_the_round_resolves():
    """§5.5: nothing is revealed inside a round; the resolving `done` draws new tiles."""
    state = RULES.setup(2, {}, 4)
    for seat in (0, 1):
        while True:
            action = next(a for a in RULES.legal_actions(state, seat) if a["type"] != "done") \
                if any(a["type"] != "done" for a in RULES.legal_actions(state, seat)) else {"type": "done"}
            after = RULES.apply(state, seat, action)
            resolved = after["round"] != state["round"]
            assert RULES.undoable(state, seat, action, after) is not resolved
            state = after
            if action["type"] == "done":
                break
    assert state["round"] == 2


def test_the_last_done_of_the_game_cannot_be_taken_back():
    state, _ = random_playout(RULES, 1, 5)
    assert state["phase"] == "over"
    before = B.jcopy(state)
    before["phase"], before["round"] = "play", state["rounds"]
    assert not RULES.undoable(before, 0, {"type": "done"}, state)
