"""Events as data (ARCHITECTURE.md, `events`), the stale-page key `seat_turn`, the seeded
setup through `rng_for`, and the public helpers the bot reads the rules through."""
import json
import random

from games.nanga_parbat.rules import RULES, bot
from games.nanga_parbat.rules import rules as np_rules
from games.nanga_parbat.rules.data import SPECIES
from tests.rules.contract import random_playout

from .helpers import animal, camp, held, hiker, position

EVENT_TYPES = {"first_player", "place_guide", "relocate_guide", "trap", "guide_follows", "activate",
               "claim", "score", "end_turn", "area_scoring", "game_over"}


def all_event_types_playouts():
    """Finished games (random and bot, both variants) whose events cover every type."""
    games = []
    for seed in range(6):
        for options in ({"area_scoring": False}, {"area_scoring": True}):
            games.append(random_playout(RULES, 2, seed, options)[0])
            games.append(random_playout(RULES, 2, seed, options, chooser=bot.choose)[0])
    return games


def test_setup_records_who_was_drawn_to_play_first_as_an_event():
    state = RULES.setup(2, {}, 7)
    assert state["events"] == [{"type": "first_player", "seat": state["first_player"], "turn": 0, "move": 0}]


def test_every_event_type_is_emitted_with_an_int_turn_and_only_json_values():
    seen = set()
    for state in all_event_types_playouts():
        events = RULES.view(state, 0)["events"]
        assert json.loads(json.dumps(events)) == events
        for ev in events:
            assert type(ev["turn"]) is int and type(ev["move"]) is int
            assert ev["seat"] is None or ev["seat"] in (0, 1)
            seen.add(ev["type"])
    assert seen == EVENT_TYPES


def test_the_events_of_one_action_share_its_move_number_and_turn():
    state = position(phase="trap", current=0, guide=3, turn=4, board={35: animal("red_panda")},
                     seats={0: {"score": 4, "hikers": 10, "animals": held("yak")}, 1: {"score": 5}})
    state["moves"] = 9
    after = RULES.apply(state, 0, {"type": "trap", "section": 35})
    new = after["events"][len(state["events"]):]
    assert [e["type"] for e in new] == ["trap", "guide_follows", "score"]
    assert {e["move"] for e in new} == {10} and {e["turn"] for e in new} == {4}
    assert new[0] == {"type": "trap", "seat": 0, "turn": 4, "move": 10, "section": 35, "species": "red_panda"}
    assert new[2]["bump"] is True and new[2]["total"] == 6


def test_a_trade_event_names_the_species_traded():
    state = position(phase="act", current=0, seats={0: {"animals": held("tahr", "yak", "bharal")}})
    after = RULES.apply(state, 0, {"type": "claim", "row": "different", "col": 3, "animals": [0, 1, 2]})
    claim = next(e for e in after["events"] if e["type"] == "claim")
    assert claim["species"] == ["tahr", "yak", "bharal"] and claim["animals"] == [0, 1, 2]


def test_the_rules_write_no_prose_into_events():
    for state in all_event_types_playouts()[:4]:
        for ev in state["events"]:
            for value in ev.values():
                assert not (isinstance(value, str) and " " in value), ev


def test_apply_leaves_its_input_untouched_even_deep_inside():
    state = position(phase="act", current=0, board={12: hiker(0), 13: hiker(1), 14: hiker(0)},
                     seats={0: {"animals": held("snow_leopard", "tahr", "yak", "bharal")}})
    before = json.dumps(state, sort_keys=True)
    for action in RULES.legal_actions(state, 0):
        RULES.apply(state, 0, action)
    assert json.dumps(state, sort_keys=True) == before


# --- seat_turn --------------------------------------------------------------------------------

def test_seat_turn_changes_with_each_action_and_each_turn():
    rng = random.Random(3)
    state = RULES.setup(2, {}, 3)
    keys = [RULES.seat_turn(state, s) for s in (0, 1)]
    assert keys[0] == keys[1]   # nothing is hidden: both seats see the same position
    seen = {keys[0]}
    while not RULES.is_over(state):
        seat = RULES.to_act(state)[0]
        turn = state["turn"]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
        key = RULES.seat_turn(state, seat)
        assert key not in seen, "every action changes what the seat to act decides about"
        if state["turn"] != turn:
            assert str(state["turn"]) in key
        seen.add(key)


def test_seat_turn_survives_a_json_round_trip_and_stays_short():
    state = RULES.apply(RULES.setup(2, {}, 5), 1 - RULES.setup(2, {}, 5)["first_player"],
                        {"type": "place_guide", "region": 2})
    assert RULES.seat_turn(json.loads(json.dumps(state)), 0) == RULES.seat_turn(state, 0)
    assert len(RULES.seat_turn(state, 0)) <= 64


# --- the seeded setup -------------------------------------------------------------------------

def test_setup_draws_from_the_shared_rng_helper():
    from games.rules.base import rng_for
    rng = rng_for(11, "setup")
    deal = [s for s in SPECIES for _ in range(6)]
    rng.shuffle(deal)
    state = RULES.setup(2, {}, 11)
    assert [state["board"][str(10 * r + k)]["species"] for r in range(1, 7) for k in range(1, 7)] == deal
    assert state["first_player"] == rng.randrange(2)


def test_different_seeds_deal_different_mountains():
    deals = {json.dumps(RULES.setup(2, {}, seed)["board"], sort_keys=True) for seed in range(20)}
    assert len(deals) == 20


# --- the rules' public helpers (what the bot reads) ----------------------------------------------

def test_region_has_animal_looks_at_the_six_sections_of_the_region():
    state = position(board={10 * 2 + k: hiker(0) for k in range(1, 7)})
    assert not np_rules.region_has_animal(state, 2)
    assert np_rules.region_has_animal(state, 3)


def test_largest_hiker_group_counts_connected_hikers_of_one_seat():
    state = position(board={12: hiker(0), 15: hiker(0), 23: hiker(0), 41: hiker(0), 13: hiker(1), 16: camp(0)})
    assert np_rules.largest_hiker_group(state, 0) == 3
    assert np_rules.largest_hiker_group(state, 1) == 1
    assert np_rules.largest_hiker_group(position(), 0) == 0


def test_camp_groups_and_trade_sets_list_what_claims_can_be_made_from():
    state = position(board={12: hiker(0), 15: hiker(0), 23: hiker(0)})
    assert np_rules.camp_groups(state, 0, 3) == [(12, 15, 23)]
    animals = held("tahr", "tahr", "bharal", "yak")
    assert np_rules.trade_sets(animals, "same", 3) == [(0, 1, 2)]
    assert (0, 2, 3) in np_rules.trade_sets(animals, "different", 3)


def test_the_bot_imports_no_private_name_of_the_rules():
    import ast
    import inspect
    tree = ast.parse(inspect.getsource(bot))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                for alias in node.names]
    assert imported and not [name for name in imported if name.startswith("_")]
