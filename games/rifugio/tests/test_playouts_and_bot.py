"""Random playouts, invariants, the view for the board page and the bot (checklist 35, 43-45)."""
from __future__ import annotations

import json
import random

import pytest

from games.rifugio.rules import RULES, bot
from games.rifugio.rules.rules import parse
from tests.rules.contract import random_playout, replay

from .helpers import check_invariants


def _invariants_and_legality(state, seat, action, rng):
    check_invariants(state)
    legal = RULES.legal_actions(state, seat)
    assert action in legal
    for candidate in rng.sample(legal, min(3, len(legal))):
        check_invariants(RULES.apply(state, seat, candidate))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("rr", [True, False])
def test_random_playouts_finish_and_keep_the_invariants(players, rr):
    state, _moves = random_playout(RULES, players, 31 * players + rr, {"rivers_and_rafts": rr},
                                  on_step=_invariants_and_legality)
    check_invariants(state)
    assert RULES.is_over(state) and RULES.to_act(state) == []
    assert all(RULES.legal_actions(state, s) == [] for s in range(players))
    assert len(set(state["turns_taken"])) == 1
    for s in RULES.scores(state):
        assert sum(s["breakdown"].values()) == s["total"]


def test_replaying_seed_and_moves_reproduces_the_state():
    state, moves = random_playout(RULES, 3, 77)
    assert json.dumps(replay(RULES, 3, RULES.default_options(), 77, moves), sort_keys=True) == \
        json.dumps(state, sort_keys=True)


def test_the_view_carries_what_the_board_page_draws():
    rng = random.Random(4)
    state = RULES.setup(3, None, 4)
    for _ in range(40):
        seat = RULES.to_act(state)[0]
        state = RULES.apply(state, seat, bot.choose(state, seat, rng))
    view = RULES.view(state, 1)
    for name in ("tiles", "frontier", "rafts", "rifugi", "seats", "hand", "tiles_left", "turn",
                 "phase", "active", "scores", "ranking", "events", "geometry", "removed"):
        assert name in view
    assert {t["key"] for t in view["tiles"]} == set(state["board"])
    one = view["tiles"][0]
    assert {"q", "r", "tile", "rot", "kind", "sides", "category", "name", "river", "rifugio",
            "holders"} <= set(one)
    assert len(view["seats"]) == 3
    for entry in view["seats"]:
        assert {"hiker", "items", "bears", "rifugio_cards", "raft_cards", "extra_step_cards",
                "rifugi_left", "rafts_left", "score", "breakdown"} <= set(entry)
    assert view["events"] and all(isinstance(e, dict) for e in view["events"])
    assert "log" not in view
    assert RULES.view(state, None)["tiles"] == view["tiles"]


def test_the_view_shows_sides_as_rotated():
    state = RULES.setup(2, None, 1)
    state["board"]["1,0"] = {"tile": "PS1", "rot": 1}
    tile = next(t for t in RULES.view(state, 0)["tiles"] if t["key"] == "1,0")
    assert tile["sides"] == "MRRRMM"


def test_the_bot_always_chooses_a_legal_action():
    for players in (2, 3, 4, 5):
        def chooser(state, seat, rng):
            action = bot.choose(state, seat, rng)
            assert action in RULES.legal_actions(state, seat)
            return action
        state, _ = random_playout(RULES, players, 900 + players, chooser=chooser)
        assert RULES.is_over(state)


def test_the_bot_beats_a_random_player_clearly():
    wins = 0
    games = 8
    for seed in range(games):
        rng = random.Random(seed)
        bot_seat = seed % 2
        state = RULES.setup(2, None, 1000 + seed)
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            action = (bot.choose(state, seat, rng) if seat == bot_seat
                      else rng.choice(RULES.legal_actions(state, seat)))
            state = RULES.apply(state, seat, action)
        wins += RULES.ranking(state)[bot_seat] == 1
    assert wins >= 6


def _plain_distances(board, start, rr):
    """Walking costs by the rules of thumb the bot states (land 1, bear 4, water 2 with
    rafts), searched afresh: what its kept distances must equal."""
    from games.rifugio.rules import data as D
    from games.rifugio.rules.rules import key, neighbours

    def cost(cell):
        kind = D.TILES[cell["tile"]]["kind"]
        return None if kind == "water" and not rr else {"water": 2, "bear": 4}.get(kind, 1)

    dist, todo = {tuple(start): 0}, [tuple(start)]
    while todo:   # relax until nothing changes (Bellman-Ford: slow and plainly right)
        c = todo.pop()
        for n in neighbours(c):
            cell = board.get(key(*n))
            step = cost(cell) if cell is not None else None
            if step is not None and dist[c] + step < dist.get(n, 99):
                dist[n] = dist[c] + step
                todo.append(n)
    return dist


@pytest.mark.parametrize("rr", [True, False])
def test_the_kept_walking_distances_match_a_fresh_search(rr):
    """The bot keeps each map's distances between calls (a search rolls the same maps out
    again and again): whatever it met before, it must answer as a fresh search would, also
    for a map that differs from a kept one only in the tile on one cell."""
    seen = 0
    for seed in range(3):
        state, rng = RULES.setup(2, {"rivers_and_rafts": rr}, 70 + seed), random.Random(seed)
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            board = state["board"]
            for walker in {tuple(p["walker"]["at"]) for p in state["seats"]}:
                assert bot._distances(board, walker, rr) == _plain_distances(board, walker, rr)
                seen += 1
            state = RULES.apply(state, seat, bot.choose(state, seat, rng))
    board = state["board"]
    last, cell = next(reversed(board.items()))
    start = tuple(state["seats"][0]["walker"]["at"])
    kept = bot._distances(board, start, rr)
    kind = bot.D.TILES[cell["tile"]]["kind"]
    other = next(t for t in bot.D.TILES if bot.D.TILES[t]["kind"] not in (kind, "water")
                 and (kind == "bear") != (bot.D.TILES[t]["kind"] == "bear"))
    swapped = {**board, last: {**cell, "tile": other}}
    fresh = _plain_distances(swapped, start, rr)
    assert bot._distances(swapped, start, rr) == fresh
    assert fresh != kept or parse(last) == start   # the swap moved a distance (unless stood on)
    assert seen > 100
