"""The bot ladder (games/rules/ladder.py, manage.py bot_ladder): how a cell counts games."""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.rules import ladder


def test_a_cell_counts_wins_ties_and_margins_with_the_levels_swapping_seats():
    cell = ladder.run_cell(ladder.Cell("nanga-parbat", 2, 3, ladder.RANDOM), 4, 11, ladder.Ratings(), None, None)
    assert cell.games == 4 and cell.points == 4            # greedy beats a random mover
    assert len(cell.margins) == 4 and min(cell.margins) > 0
    low, high = cell.interval()
    assert 0.4 < low < 1 == high
    assert ladder.seat_levels(3, 0, 2, 0) == [3, 0] and ladder.seat_levels(3, 0, 2, 1) == [0, 3]
    ratings = ladder.Ratings()
    ladder.run_cell(ladder.Cell("nanga-parbat", 2, 3, ladder.RANDOM), 4, 11, ratings, None, None)
    by_level = {level: mu for level, mu, _sigma, _ordinal in ratings.table()}
    assert by_level[3] > by_level[ladder.RANDOM]


def test_a_tie_counts_one_over_k():
    """Roll to the Top's greedy bot against itself fills both sheets on the same turn."""
    cell = ladder.run_cell(ladder.Cell("roll-to-the-top", 2, 3, 3), 2, 1, ladder.Ratings(), None, None)
    assert cell.points == pytest.approx(cell.games / 2)
    assert cell.margins == [0, 0]
    assert (cell.won, cell.shared) == (0, 2) and "(0 won, 2 shared, 0 lost)" in ladder.format_row(cell, None)


def test_games_played_on_two_processes_are_the_same_games():
    one = ladder.run_cell(ladder.Cell("rift-valley-reserve", 2, 2, 1), 4, 5, ladder.Ratings(), None, None)
    two = ladder.run_cell(ladder.Cell("rift-valley-reserve", 2, 2, 1), 4, 5, ladder.Ratings(), None, None, jobs=2)
    assert (one.points, one.margins) == (two.points, two.margins)


def test_the_command_prints_the_table_and_refuses_bad_arguments():
    out = StringIO()
    call_command("bot_ladder", "--slug", "nanga-parbat", "--pairs", "3-0", "--games", "2", stdout=out)
    assert "| nanga-parbat | 2p | L3 vs random | 100 % [" in out.getvalue()
    assert "margin +" in out.getvalue() and "OpenSkill" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("bot_ladder", "--jobs", "0", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("bot_ladder", "--pairs", "9-1", stdout=StringIO())


def test_a_cell_played_in_two_streams_and_pooled_counts_as_one_run():
    """`--record` writes each game as a JSON line; `--first-game` continues a cell; `--pool`
    counts the streams' games as one cell (a game recorded twice counts once)."""
    whole = ladder.run_cell(ladder.Cell("nanga-parbat", 2, 2, 1), 4, 30, ladder.Ratings(), None, None)
    records: list[dict] = []
    for first_game in (0, 2):
        ladder.run_cell(ladder.Cell("nanga-parbat", 2, 2, 1), 2, 30, ladder.Ratings(), None, None,
                        first_game=first_game, record=records.append)
    assert [r["seed"] for r in records] == [30, 31, 32, 33]
    assert [r["seats"] for r in records] == [[2, 1], [1, 2], [2, 1], [1, 2]]
    (pooled,) = ladder.pool(records + records[:1])
    assert (pooled.games, pooled.points, pooled.margins) == (whole.games, whole.points, whole.margins)
    assert pooled.cpu > 0


def test_the_command_records_continues_and_pools(tmp_path):
    record = tmp_path / "games.jsonl"
    for first in ("0", "1"):
        call_command("bot_ladder", "--slug", "nanga-parbat", "--pairs", "3-0", "--games", "1",
                     "--first-game", first, "--record", str(record), stdout=StringIO())
    lines = record.read_text().splitlines()
    assert len(lines) == 2 and {json.loads(line)["seats"][0] for line in lines} == {3, 0}
    out = StringIO()
    call_command("bot_ladder", "--pool", str(record), stdout=out)
    assert "| nanga-parbat | 2p | L3 vs random | 100 % [" in out.getvalue()
    assert "| 2 | " in out.getvalue() and "s of CPU a game" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("bot_ladder", "--pool", str(tmp_path / "missing.jsonl"), stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("bot_ladder", "--first-game", "-1", stdout=StringIO())
