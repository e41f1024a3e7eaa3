"""Metadata, options, map data and setup (checklist items 1-5)."""
from __future__ import annotations

import json

import pytest

from games.rules.base import IllegalAction
from games.rift_valley_reserve.rules import RULES, data


def test_metadata():
    assert RULES.slug == "rift-valley-reserve"
    assert RULES.title == "Rift Valley Reserve"
    assert (RULES.min_players, RULES.max_players) == (2, 5)


def test_default_options_and_validation_fills_missing_keys():
    assert RULES.default_options() == {"boards": "identical"}
    assert RULES.validate_options(3, {}) == {"boards": "identical"}
    assert RULES.validate_options(3, None) == {"boards": "identical"}
    assert RULES.validate_options(5, {"boards": "asymmetrical"}) == {"boards": "asymmetrical"}


@pytest.mark.parametrize("players,options,words", [
    (1, {}, "2 to 5 players"), (6, {}, "2 to 5 players"), (True, {}, "2 to 5 players"),
    (3, {"solo": True}, "Unknown option"), (3, {"boards": "hexagonal"}, "identical"),
    (3, {"boards": None}, "identical"), (3, "boards", "object")])
def test_validate_options_refuses_with_a_readable_message(players, options, words):
    with pytest.raises(IllegalAction) as info:
        RULES.validate_options(players, options)
    assert words in str(info.value)


FIRST_TURN_STOPS = {"ID9": 19, "AS1": 34, "AS2": 27, "AS3": 34, "AS4": 27, "AS5": 34, "T6": 25}


def test_every_map_loads_with_the_stated_first_turn_stop_counts():
    assert set(data.MAPS) == set(FIRST_TURN_STOPS)
    for map_id, count in FIRST_TURN_STOPS.items():
        assert data.check_map(data.MAPS[map_id]) is data.MAPS[map_id]
        assert len(data.first_turn_stop_cells(data.MAPS[map_id])) == count


def _broken(map_id, **changes):
    m = json.loads(json.dumps(data.MAPS[map_id]))
    for name, rows in changes.items():
        for r, line in rows.items():
            m[name][r] = line
    return m


BROKEN = {
    "1 sizes": (_broken("ID9", terrain={3: "...|...."}), "strings of"),
    "2 unknown character": (_broken("ID9", terrain={0: "....X...."}), "unknown terrain"),
    "2 identical map with a tree": (_broken("ID9", terrain={0: "....T...."}), "no trees or water"),
    "3 only eight areas": (_broken("T6", areas={4: "778888", 5: "778888"}), "exactly 1 to 9"),
    "3 area in two pieces": (_broken("T6", areas={5: "178899"}), "one connected piece"),
    "4 four areas in a row": (_broken("T6", areas={2: "415566"}), "more than 3 areas"),
    "5 rift in two pieces": (_broken("ID9", terrain={0: "#........"}), "one connected group"),
    "6 rift two cells wide across": (_broken("T6", terrain={4: "||...."}), "one cell wide"),
    "7 no first-turn stop": (_broken("T6", terrain={0: "AAAAAA", 1: "AAAAAA", 2: "AAAAAA", 3: "AAAAAA",
                                                    5: "AAAAAA"}), "first-turn Stop"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_map_breaking_a_loader_check_is_rejected(name):
    m, words = BROKEN[name]
    with pytest.raises(ValueError) as info:
        data.check_map(m)
    assert words in str(info.value)


def _keys_are_strings(obj) -> bool:
    if isinstance(obj, dict):
        return all(isinstance(k, str) and _keys_are_strings(v) for k, v in obj.items())
    if isinstance(obj, list):
        return all(_keys_are_strings(v) for v in obj)
    return not isinstance(obj, tuple)


@pytest.mark.parametrize("players", range(2, 6))
def test_identical_setup_gives_copies_of_id9_owned_by_each_seat(players):
    state = RULES.setup(players, {"boards": "identical"}, 42)
    assert [m["id"] for m in state["maps"]] == ["ID9"] * players
    assert [m["owner"] for m in state["maps"]] == list(range(players))
    assert all(m["cells"] == {} and m["trails"] == [] for m in state["maps"])
    assert state["turn"] == 1
    assert json.loads(json.dumps(state)) == state
    assert _keys_are_strings(state)


def test_asymmetrical_setup_deals_different_pool_maps_reproducibly():
    seen = set()
    for seed in range(40):
        for players in range(2, 6):
            state = RULES.setup(players, {"boards": "asymmetrical"}, seed)
            ids = [m["id"] for m in state["maps"]]
            assert len(set(ids)) == players and set(ids) <= set(data.ASYMMETRICAL_POOL)
            assert [m["owner"] for m in state["maps"]] == list(range(players))
            assert ids == [m["id"] for m in RULES.setup(players, {"boards": "asymmetrical"}, seed)["maps"]]
            seen.update(ids)
    assert seen == set(data.ASYMMETRICAL_POOL)


def test_the_identical_option_uses_no_randomness():
    assert RULES.setup(3, None, 1)["maps"] == RULES.setup(3, None, 2)["maps"]
