"""verify_games sees tampered results and move marks (issue 18, row 10, build 7): ranks
and scores are recomputed from the replay, `by_bot` is checked against each seat's
controller, `created` against the move order and the game's lifetime. Ten tamperings,
each caught."""
from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games import engine
from games.rules import bot_for
from games.models import Game, Move, Seat
from games.verify import verify

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"


def play_to_the_end(game, users):
    """Each player moves as the game's bot would (bots answer at once) until the end."""
    bot, rng = bot_for(SLUG), random.Random(7)
    for _ in range(2000):
        game.refresh_from_db()
        if not game.is_active:
            return game
        seat = next(s for s in game.to_act() if users[s] is not None)
        engine.submit(game.pk, users[seat], bot.choose(game.state, seat, rng))
    raise AssertionError("the game did not end")


def first_difference(game) -> str:
    mismatch = verify(Game.objects.get(pk=game.pk))
    assert mismatch is not None, "the tampering went unseen"
    return mismatch.detail


@pytest.fixture
def finished(start_game, alice):
    """Alice against a bot, to the end."""
    game = play_to_the_end(start_game(SLUG, [alice, None]), [alice, None])
    assert game.status == Game.Status.FINISHED and verify(game) is None
    return game


@pytest.fixture
def active(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    for seat, user in ((0, alice), (1, bob)):
        game.refresh_from_db()
        engine.submit(game.pk, user, game.rules.legal_actions(game.state, seat)[0])
    game.refresh_from_db()
    assert verify(game) is None
    return game


@pytest.fixture
def taken_over(start_game, alice, bob, charlie):
    """Three players; Alice resigns, so the bot plays her seat from then on."""
    users = [alice, bob, charlie]
    game = start_game(SLUG, users)
    engine.resign(game.pk, alice)
    for _ in range(6):
        game.refresh_from_db()
        if Move.objects.filter(game=game, seat=0, by_bot=True).exists():
            break
        for seat in game.to_act():
            if users[seat] is not alice:
                engine.submit(game.pk, users[seat], game.rules.legal_actions(game.state, seat)[0])
                break
    game.refresh_from_db()
    assert Move.objects.filter(game=game, seat=0, by_bot=True).exists() and verify(game) is None
    return game


def test_a_changed_rank_is_caught(finished):
    seat = Seat.objects.get(game=finished, index=0)
    Seat.objects.filter(pk=seat.pk).update(rank=1 if seat.rank != 1 else 2)
    assert "seat 0's rank" in first_difference(finished)


def test_a_changed_score_is_caught(finished):
    Seat.objects.filter(game=finished, index=1).update(score=999)
    assert "seat 1's score is 999" in first_difference(finished)


def test_a_rank_in_a_game_still_running_is_caught(active):
    Seat.objects.filter(game=active, index=1).update(rank=1)
    assert "a result in a game without one" in first_difference(active)


def test_a_score_in_a_game_still_running_is_caught(active):
    Seat.objects.filter(game=active, index=0).update(score=12)
    assert "a result in a game without one" in first_difference(active)


def test_a_bot_seats_move_relabelled_as_a_players_is_caught(finished):
    move = Move.objects.filter(game=finished, seat=1).order_by("seq").first()
    Move.objects.filter(pk=move.pk).update(by_bot=False)
    assert "seat 1 is a bot" in first_difference(finished)


def test_a_taken_over_seats_move_relabelled_as_a_players_is_caught(taken_over):
    move = Move.objects.filter(game=taken_over, seat=0, by_bot=True).first()
    Move.objects.filter(pk=move.pk).update(by_bot=False)
    assert "played by the bot since move" in first_difference(taken_over)


def test_a_players_move_relabelled_as_the_bots_is_caught(start_game, alice, bob):
    """A move the bot would not have made (a forced move is the same whoever makes it)."""
    users = [alice, bob]
    game, bot = start_game(SLUG, users), bot_for(SLUG)
    for _ in range(50):
        game.refresh_from_db()
        seat = game.to_act()[0]
        choice = bot.choose(game.state, seat, random.Random(f"{game.seed}:bot:{game.version}"))
        other = [a for a in game.rules.legal_actions(game.state, seat) if a != choice]
        engine.submit(game.pk, users[seat], other[0] if other else choice)
        if other:
            break
    game.refresh_from_db()
    assert verify(game) is None
    Move.objects.filter(game=game, seq=game.version).update(by_bot=True)
    assert "marked as the bot's, but the bot plays" in first_difference(game)


def test_a_move_dated_before_the_one_it_follows_is_caught(active):
    second = Move.objects.get(game=active, seq=2)
    Move.objects.filter(game=active, seq=1).update(created=second.created + timedelta(seconds=1))
    assert "dated before move 1" in first_difference(active)


def test_a_move_dated_after_the_game_ended_is_caught(finished):
    last = Move.objects.filter(game=finished).order_by("-seq").first()
    Move.objects.filter(pk=last.pk).update(created=finished.finished_at + timedelta(minutes=5))
    assert "after the game ended" in first_difference(finished)


def test_a_move_dated_before_the_game_began_is_caught(active):
    Move.objects.filter(game=active, seq=1).update(created=active.created - timedelta(days=1))
    assert "before the game was created" in first_difference(active)
