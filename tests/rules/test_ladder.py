"""The bot ladder (games/rules/ladder.py, manage.py bot_ladder): how a cell counts games."""
from __future__ import annotations

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
