"""Events as data, the seat_turn key, and running scores that agree with a full rescan."""
from __future__ import annotations

import json
import random

import pytest

from games.rift_valley_reserve import presenter
from games.rift_valley_reserve.rules import RULES
from games.rift_valley_reserve.rules.board import empty_cells, score_map

from .helpers import blank

S = lambda r, c: {"type": "stop", "cell": [r, c]}   # noqa: E731


def playout(players: int, boards: str, seed: int):
    """Every state of a random game, first to last."""
    rng = random.Random(seed)
    state = RULES.setup(players, {"boards": boards}, seed)
    states = [state]
    while not RULES.is_over(state):
        seat = RULES.to_act(state)[0]
        state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
        states.append(state)
    return states


@pytest.mark.parametrize("boards", ["identical", "asymmetrical"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_running_scores_match_a_full_rescan_of_every_map_at_every_step(players, boards):
    for seed in (1, 2):
        for state in playout(players, boards, seed)[::3]:
            assert state["map_scores"] == [score_map(m, players) for m in state["maps"]]
            assert [m["empty"] for m in state["maps"]] == [len(list(empty_cells(m))) for m in state["maps"]]


def test_describe_words_every_event_type_a_game_emits():
    seen = {}
    names = ["ann", "bo", "cy"]
    for seed in range(1, 6):
        final = playout(3, "asymmetrical", seed)[-1]
        for event in RULES.view(final, 0)["events"]:
            seen.setdefault((event["type"], event.get("auto")), event)
    assert {kind for kind, _ in seen} == {"stop", "tent", "trail", "pass", "end_triggered", "game_over"}
    assert ("pass", True) in seen and ("pass", False) in seen
    for event in seen.values():
        text = presenter.describe(event, names)
        assert text and text.endswith(".") and "Seat" not in text and "{" not in text
    trail = next(e for (kind, _), e in seen.items() if kind == "trail")
    assert presenter.describe(trail, names).startswith(f"{names[trail['seat']]} drew a Trail from ")


def test_describe_has_a_fallback_for_unknown_or_broken_events():
    assert presenter.describe({"type": "earthquake", "turn": 4}, ["a", "b"]) == "Turn 4: earthquake."
    assert presenter.describe({"type": "stop", "turn": 4}, ["a", "b"]) == "Turn 4: stop."


def test_events_carry_int_turns_and_only_json_values():
    final = playout(4, "identical", 3)[-1]
    events = RULES.view(final, None)["events"]
    assert events and all(isinstance(e["turn"], int) and not isinstance(e["turn"], bool) for e in events)
    assert all("seat" in e for e in events)
    assert json.loads(json.dumps(events)) == events


def test_a_pending_draw_is_no_event_until_its_turn_resolves():
    state = RULES.apply(blank(3), 0, S(0, 3))
    for seat in (0, 1, 2, None):
        assert RULES.view(state, seat)["events"] == []


def test_the_last_turns_draws_glow_from_the_events():
    state = RULES.apply(RULES.apply(blank(2), 0, S(0, 4)), 1, S(8, 4))
    view = RULES.view(state, 0)
    assert view["maps"][0]["recent"] == [[0, 4]] and view["maps"][1]["recent"] == [[8, 4]]


# --- seat_turn ---------------------------------------------------------------------------

def test_seat_turn_changes_when_the_maps_rotate():
    state = blank(2)
    before = [RULES.seat_turn(state, s) for s in (0, 1)]
    state = RULES.apply(RULES.apply(state, 0, S(0, 4)), 1, S(8, 4))
    after = [RULES.seat_turn(state, s) for s in (0, 1)]
    assert before[0] != after[0] and before[1] != after[1]


def test_seat_turn_stays_when_another_seat_draws_in_the_same_turn():
    state = blank(3)
    before = RULES.seat_turn(state, 1)
    state = RULES.apply(state, 0, S(0, 4))
    assert RULES.seat_turn(state, 1) == before
    assert RULES.seat_turn(state, 0) == before.replace("m1", "m0")


def test_seat_turn_is_json_stable_and_short():
    state = playout(5, "asymmetrical", 1)[40]
    again = json.loads(json.dumps(state))
    for seat in range(5):
        key = RULES.seat_turn(state, seat)
        assert key == RULES.seat_turn(again, seat) and len(key) <= 64
