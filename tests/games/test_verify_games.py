"""manage.py verify_games: seed + moves must rebuild every stored snapshot; a mismatch names
the game and the first differing move and makes the command fail."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import engine
from games.models import Game, Move

pytestmark = pytest.mark.django_db
SLUG = "rift-valley-reserve"


@pytest.fixture
def played(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], seed=11)
    for _ in range(3):
        game.refresh_from_db()
        for seat, user in ((0, alice), (1, bob)):
            game.refresh_from_db()
            if seat in game.to_act():
                engine.submit(game.pk, user, game.rules.legal_actions(game.state, seat)[0])
    game.refresh_from_db()
    assert game.version >= 4
    return game


def run(*ids):
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_games", *map(str, ids), stdout=out, stderr=err)
    except CommandError as exc:
        return False, out.getvalue(), err.getvalue() + str(exc)
    return True, out.getvalue(), err.getvalue()


def test_seeded_bot_games_of_every_title_verify():
    call_command("seed_bot_games", stdout=StringIO())
    ok, out, _ = run()
    assert ok, out
    assert Game.objects.count() >= 5 and "0 mismatch" in out


def test_an_honest_game_verifies(played):
    assert run(played.pk)[0]


def test_a_changed_action_names_the_game_and_the_first_differing_move(played):
    second = Move.objects.get(game=played, seq=2)
    Move.objects.filter(pk=second.pk).update(action={"type": "stop", "cell": [99, 99]})
    ok, _, err = run(played.pk)
    assert not ok
    assert f"game {played.pk}: first difference at move 2" in err


def test_a_missing_move_is_a_mismatch(played):
    Move.objects.filter(game=played, seq=3).delete()
    ok, _, err = run(played.pk)
    assert not ok and "move 3 is missing" in err


def test_a_tampered_snapshot_is_a_mismatch_naming_where(played):
    state = dict(played.state, turn=played.state["turn"] + 5)
    Game.objects.filter(pk=played.pk).update(state=state)
    ok, _, err = run(played.pk)
    assert not ok and "state.turn" in err


def test_only_the_named_games_are_checked(played, start_game, alice, bob):
    other = start_game(SLUG, [alice, bob], seed=12)
    Game.objects.filter(pk=other.pk).update(version=7)
    assert run(played.pk)[0]
    assert not run(other.pk)[0]
    assert not run(987654)[0], "an unknown id is an error"
