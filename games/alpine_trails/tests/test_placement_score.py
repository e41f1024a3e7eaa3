"""The greedy bot's incremental score (`board.PlacementScorer`, issue 25) against the full
rescoring it replaced: the same total for every piece the rules allow, and the same move
in every position of many seeded games, with every goal card."""
from __future__ import annotations

import random

import pytest

from games.alpine_trails.rules import RULES, bot
from games.alpine_trails.rules import board as B
from games.alpine_trails.rules.data import GOAL_IDS


def seeded_game(players: int, seed: int, greedy_share: float, first_goal: int = 0):
    """Yield (state, seat, rng) for every decision of a seeded game, the seats' goals the
    goal cards from `first_goal` on; the moves are the greedy bot's `greedy_share` of the
    time, else random (boards a greedy bot would not build)."""
    rng = random.Random(seed)
    state = RULES.setup(players, {}, seed)
    for i, seat in enumerate(state["seats"]):
        seat["goal"] = GOAL_IDS[(first_goal + i) % len(GOAL_IDS)]
    while not RULES.is_over(state):
        seat = rng.choice(RULES.to_act(state))
        yield state, seat, rng
        if rng.random() < greedy_share:
            action = bot.choose(state, seat, rng)
        else:
            action = rng.choice(RULES.legal_actions(state, seat))
        state = RULES.apply(state, seat, action)


def pieces_of(action: dict, board: B.Board):
    """The (cell, piece) an action puts on the board, as the bot tries it."""
    kind = action["type"]
    if kind not in ("place", "waterfall", "campsite", "animal"):
        return
    cell = (action["x"], action["y"])
    if kind == "place" and action["side"] == "trail":
        yield cell, {"kind": "trail", "tile": action["tile"], "rotation": action["rotation"]}
    elif kind == "place":
        yield cell, {"kind": "terrain", "tile": action["tile"]}
    elif kind == "animal":
        yield cell, {**board[cell], "animal": action["animal"]}
    else:
        yield cell, {"kind": kind}


def full_total(board: B.Board, goal: str | None) -> int:
    return sum(B.score_board(board, goal).values())


@pytest.mark.parametrize("players", [1, 2, 3])
def test_the_incremental_score_is_the_full_score_of_every_legal_piece(players):
    """Each decision with the seat's own goal and the next card in turn (every card is met
    many times)."""
    checked, decisions = 0, 0
    for seed in range(3):
        for state, seat, _rng in seeded_game(players, seed, greedy_share=seed / 2, first_goal=seed * players):
            s = state["seats"][seat]
            board = B.parse(s["map"])
            decisions += 1
            for goal in (s["goal"], GOAL_IDS[decisions % len(GOAL_IDS)]):
                scorer = B.PlacementScorer(board, goal)
                assert scorer.total == full_total(board, goal)
                for action in RULES.legal_actions(state, seat):
                    for cell, piece in pieces_of(action, board):
                        assert scorer.total_with(cell, piece) == full_total({**board, cell: piece}, goal), \
                            (players, seed, goal, action)
                        checked += 1
    assert checked > 1000


def test_a_finished_map_with_its_lakes_scores_the_same():
    """At the end the lakes stand on the map as pieces; the scorer counts them as lakes."""
    state = RULES.setup(1, {}, 5)
    rng = random.Random(5)
    while not RULES.is_over(state):
        state = RULES.apply(state, 0, bot.choose(state, 0, rng))
    board = B.parse(state["seats"][0]["map"])
    assert any(piece["kind"] == "lake" for piece in board.values())
    for goal in GOAL_IDS:
        assert B.PlacementScorer(board, goal).total == full_total(board, goal)


class RescoringTrial(bot._Trial):
    """The bot's trial before the incremental score (reference): the whole board rescored
    for every piece tried."""

    def __init__(self, board: B.Board, goal: str) -> None:
        super().__init__(board, goal)
        self.base = full_total(board, goal)

    def total_with(self, cell, piece: dict) -> int:
        saved = self.board.get(cell)
        self.board[cell] = piece
        try:
            return full_total(self.board, self.goal)
        finally:
            if saved is None:
                del self.board[cell]
            else:
                self.board[cell] = saved


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_bot_chooses_as_it_did_with_the_full_rescore(players, monkeypatch):
    """Every decision of seeded games, greedy and mixed with random moves: the same move
    and the same rng draws with the incremental score as with the full rescore."""
    decisions = 0
    goals_from = {1: 16, 2: 8, 4: 0}[players]       # over the three runs, every goal card
    for seed in range(4):
        for state, seat, rng in seeded_game(players, 100 + seed, greedy_share=1.0 if seed % 2 else 0.5,
                                            first_goal=goals_from + seed * players):
            snapshot = rng.getstate()
            fast_rng, reference_rng = random.Random(), random.Random()
            fast_rng.setstate(snapshot)
            reference_rng.setstate(snapshot)
            fast = bot.choose(state, seat, fast_rng)
            with monkeypatch.context() as patch:
                patch.setattr(bot, "_Trial", RescoringTrial)
                reference = bot.choose(state, seat, reference_rng)
            assert fast == reference, (players, seed, seat, state["round"])
            assert fast_rng.getstate() == reference_rng.getstate()
            decisions += 1
    assert decisions > 100
