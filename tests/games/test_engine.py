"""The engine: the only writer of games."""
from __future__ import annotations

import threading

import pytest
from django.db import connection

from accounts.models import Rating
from games import engine
from games.engine import Rejected
from games.models import Move
from tests.rules.contract import random_playout

SLUG = "roll-to-the-top"


def play_to_the_end(game, users_by_seat):
    """Submit random legal actions through the engine until the game ends."""
    import random

    rng = random.Random(4)
    for _ in range(5000):
        game.refresh_from_db()
        if not game.is_active:
            return game
        seat = rng.choice(game.to_act())
        action = rng.choice(game.rules.legal_actions(game.state, seat))
        engine.submit(game.pk, users_by_seat[seat], action)
    raise AssertionError("game did not end")


@pytest.mark.django_db
def test_a_bot_answers_in_the_same_submission(start_game, alice):
    game = start_game(SLUG, [alice, None])
    assert 1 not in game.to_act(), "the bot never keeps a game waiting"
    action = game.rules.legal_actions(game.state, 0)[-1]
    engine.submit(game.pk, alice, action)
    game.refresh_from_db()
    assert 1 not in game.to_act()


@pytest.mark.django_db
def test_a_game_against_bots_plays_to_the_end_and_stores_the_result(start_game, alice):
    game = start_game(SLUG, [alice, None, None])
    game = play_to_the_end(game, {0: alice})
    assert game.status == "finished" and game.finished_at
    seats = game.ordered_seats()
    assert [s.rank for s in seats] == game.rules.ranking(game.state)
    assert not game.rated and not Rating.objects.exists(), "games with bots are not rated"


@pytest.mark.django_db
def test_a_finished_game_updates_ratings_exactly_once(start_game, alice, bob):
    game = play_to_the_end(start_game(SLUG, [alice, bob]), {0: alice, 1: bob})
    assert game.rated
    assert sorted(r.games_played for r in Rating.objects.all()) == [1, 1]
    engine.play_bots(game.pk)
    with pytest.raises(Rejected):
        engine.submit(game.pk, alice, {"type": "done"})
    assert sorted(r.games_played for r in Rating.objects.all()) == [1, 1]
    winner = next(s for s in game.ordered_seats() if s.rank == 1)
    ratings = {r.user_id: r for r in Rating.objects.all()}
    assert ratings[winner.user_id].mu >= min(r.mu for r in ratings.values())


@pytest.mark.django_db
def test_replaying_seed_and_moves_reproduces_the_stored_snapshot(start_game, alice, bob, charlie):
    game = play_to_the_end(start_game(SLUG, [alice, bob, charlie], seed=99), {0: alice, 1: bob, 2: charlie})
    assert engine.replay_state(game) == game.state
    assert Move.objects.filter(game=game).count() == game.version


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["roll-to-the-top", "nanga-parbat", "alpine-trails", "rift-valley-reserve", "rifugio"])
def test_bot_games_of_every_game_replay_exactly(start_game, slug):
    from games import rules

    ruleset = rules.get(slug)
    game = start_game(slug, [None] * ruleset.min_players + [None] * (ruleset.min_players < 2), seed=7)
    game.refresh_from_db()
    assert not game.is_active, "bots play a bot-only game to its end at once"
    assert engine.replay_state(game) == game.state


@pytest.mark.django_db
def test_a_stale_page_gets_a_clear_answer(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    done = {"type": "done"}
    engine.submit(game.pk, alice, done, seen_version=0)
    with pytest.raises(Rejected) as refused:
        engine.submit(game.pk, alice, done, seen_version=0)
    assert refused.value.status == 409 and "changed since your page was drawn" in refused.value.message


@pytest.mark.django_db
def test_out_of_turn_is_refused_and_changes_nothing(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    engine.submit(game.pk, alice, {"type": "done"})
    game.refresh_from_db()
    before = (game.version, game.state)
    with pytest.raises(Rejected) as refused:
        engine.submit(game.pk, alice, {"type": "done"}, seen_version=game.version)
    assert refused.value.message == "It is not your turn."
    game.refresh_from_db()
    assert (game.version, game.state) == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_two_racing_submissions_never_both_apply(start_game, alice, bob):
    """Two threads send the same final action at once: exactly one applies."""
    game = start_game(SLUG, [alice, bob])
    done = {"type": "done"}
    barrier = threading.Barrier(2)
    results = []

    def send(token):
        barrier.wait()
        try:
            results.append(engine.submit(game.pk, alice, done, token=token).applied)
        except Rejected as exc:
            results.append(exc.status)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(t,)) for t in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(map(str, results)) == ["409", "True"]
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_a_double_click_with_one_token_applies_once_under_a_race(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    action = game.rules.legal_actions(game.state, 0)[0]
    barrier = threading.Barrier(2)

    def send():
        barrier.wait()
        try:
            engine.submit(game.pk, alice, action, token="same-click")
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert Move.objects.filter(game=game).count() == 1


def test_random_playouts_reach_the_end_for_every_player_count():
    from games import rules

    ruleset = rules.get(SLUG)
    for players in range(ruleset.min_players, ruleset.max_players + 1):
        state, _ = random_playout(ruleset, players, players)
        assert ruleset.is_over(state)


@pytest.mark.django_db
def test_a_player_takes_back_a_step_that_revealed_nothing(start_game, alice, bob):
    game = start_game("rifugio", [alice, bob], seed=8)
    users = {0: alice, 1: bob}
    while game.state["phase"] != "walk":
        seat = game.to_act()[0]
        engine.submit(game.pk, users[seat], game.rules.legal_actions(game.state, seat)[0])
        game.refresh_from_db()
    seat = game.to_act()[0]
    before = (game.version, game.state)
    step = next(a for a in game.rules.legal_actions(game.state, seat) if a["type"] != "end_turn")
    engine.submit(game.pk, users[seat], step)
    engine.undo(game.pk, users[seat])
    game.refresh_from_db()
    assert (game.version, game.state) == before
    with pytest.raises(Rejected):
        engine.undo(game.pk, users[seat])  # the tile placement before it drew a new tile


def test_an_anonymous_user_is_never_taken_for_a_bot_seat(start_game, alice):
    """Bots' seats have no user: an anonymous user (pk None) must not match them."""
    from django.contrib.auth.models import AnonymousUser

    game = start_game("roll-to-the-top", [alice, None])
    for act in (engine.resign, engine.take_back, lambda gid, user: engine.abort(gid, by_user=user)):
        with pytest.raises(engine.Rejected) as refused:
            act(game.pk, AnonymousUser())
        assert refused.value.status == 403
    game.refresh_from_db()
    assert game.is_active
