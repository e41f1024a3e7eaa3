"""The replay marks the moves a bot made for an absent player, as the game page does."""
from __future__ import annotations

from datetime import timedelta

import pytest

from games import engine
from games.models import Game, Seat
from tests.games.test_clocks import SEQUENTIAL, age_clock, everyone_moves_once

pytestmark = pytest.mark.django_db


def time_out(game) -> tuple[int, int]:
    """The seat to act runs out of time and the bot plays for it: (seat, bot_since)."""
    [absent] = game.to_act()
    age_clock(game, absent, timedelta(days=2))
    assert engine.expire(game.pk, absent) is True
    return absent, Seat.objects.get(game=game, index=absent).bot_since


def replay(client, game, step: int) -> str:
    return client.get(f"/play/{game.pk}/replay/?step={step}").content.decode()


@pytest.fixture
def timed_out_game(start_game, alice, bob):
    """Both players moved (a player who never moved would be a no-show: the game aborted),
    then one timed out and the bot played for them, then the other resigned (game over)."""
    game = start_game(SEQUENTIAL, [alice, bob], pace="correspondence", days_per_move=1)
    game = everyone_moves_once(game, {0: alice, 1: bob})
    absent, since = time_out(game)
    present = {0: alice, 1: bob}[1 - absent]
    engine.resign(game.pk, present)
    game = Game.objects.get(pk=game.pk)
    assert not game.is_active
    return game, absent, since, {0: alice, 1: bob}[absent]


def test_the_replay_says_who_ran_out_of_time_once_it_has_happened(client, timed_out_game):
    game, absent, since, user = timed_out_game
    line = f"Move {since}: {user.username} ran out of time; the seat is played by a bot since move {since}."
    assert since > 0 and line in replay(client, game, game.version)
    assert "ran out of time" not in replay(client, game, since - 1)


def test_the_replay_marks_each_move_the_bot_made_for_the_absent_seat(client, timed_out_game):
    game, absent, since, _ = timed_out_game
    bot_move = game.moves.get(seq=since + 1)
    assert bot_move.seat == absent and bot_move.by_bot
    assert "played by a bot</small>" in replay(client, game, bot_move.seq)
    human_move = game.moves.filter(by_bot=False).first()
    assert "played by a bot</small>" not in replay(client, game, human_move.seq)


def test_the_replay_says_who_resigned(client, timed_out_game, alice, bob):
    game, absent, _, _ = timed_out_game
    resigned = Seat.objects.get(game=game, index=1 - absent)
    assert f"{resigned.name} resigned; the seat is played by a bot since move {resigned.bot_since}" in replay(
        client, game, game.version)


def test_a_seat_taken_back_keeps_its_stand_in_moves_marked(start_game, alice, bob, admin_client):
    game = start_game(SEQUENTIAL, [alice, bob], pace="correspondence", days_per_move=1)
    game = everyone_moves_once(game, {0: alice, 1: bob})
    absent, since = time_out(game)
    user = {0: alice, 1: bob}[absent]
    engine.take_back(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    bot_moves = list(game.moves.filter(seat=absent, by_bot=True).values_list("seq", flat=True))
    assert bot_moves and Seat.objects.get(game=game, index=absent).bot_since is None
    html = replay(admin_client, game, game.version)  # admins may replay a running game
    assert f"Move {since}: {user.username} was away; a bot played move" in html
    assert "played by a bot since" not in html


def test_a_bot_seat_s_own_moves_are_not_marked(client, start_game):
    game = start_game("roll-to-the-top", [None, None], seed=5)
    game.refresh_from_db()
    html = replay(client, game, 1)
    assert "played by a bot</small>" not in html and "bot-note" not in html


def test_the_replay_reads_the_stand_in_moves_in_one_query(client, timed_out_game, django_assert_max_num_queries):
    from games.replay_marks import stand_in_notes

    game, _, _, _ = timed_out_game
    game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    with django_assert_max_num_queries(1):
        stand_in_notes(game, game.version)
