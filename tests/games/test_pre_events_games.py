"""Games started before the rules wrote `events` (data) instead of an English `log` keep
playing, replay and verify (docs/rules-versions.md, "Changing a state's shape").

The fixtures (games/<module>/tests/fixtures/pre_events_games.json) were played by the rules
as they were at commit 51985f3, finished and stopped mid-game, with several player counts:
their seed, options, moves, final state, and what those rules said of that state (who acts,
their legal actions, the scores and ranking).
"""
from __future__ import annotations

import json
import random
from functools import cache
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import engine
from games import rules as registry
from games.models import Game, Move, Seat

SLUGS = ["roll-to-the-top", "nanga-parbat", "alpine-trails", "rift-valley-reserve", "rifugio"]


@cache
def old_games(slug: str) -> list[dict]:
    package = registry.package_of(slug).rsplit(".", 1)[1]
    path = Path(__file__).resolve().parents[2] / "games" / package / "tests" / "fixtures" / "pre_events_games.json"
    return json.loads(path.read_text())["games"]


def cases(finished: bool | None = None) -> list:
    return [pytest.param(slug, i, id=f"{slug}-{i}-{g['players']}p-{len(g['moves'])}moves")
            for slug in SLUGS for i, g in enumerate(old_games(slug))
            if finished is None or g["over"] == finished]


def rules_of(old: dict):
    return registry.get(old["slug"], old["rules_version"])


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_has_old_games_finished_and_stopped_mid_game(slug):
    games = old_games(slug)
    assert {g["over"] for g in games} == {True, False}
    assert all(g["rules_version"] == "1" and g["slug"] == slug for g in games)
    assert all(rules_of(g).older_shape(g["state"]) for g in games)


@pytest.mark.parametrize(("slug", "index"), cases())
def test_the_current_rules_read_an_old_state_as_the_old_rules_did(slug, index):
    old = old_games(slug)[index]
    rules, state = rules_of(old), old["state"]
    assert rules.is_over(state) == old["over"]
    assert rules.to_act(state) == old["to_act"]
    assert {str(s): rules.legal_actions(state, s) for s in rules.to_act(state)} == old["legal"]
    assert rules.scores(state) == old["scores"] and rules.ranking(state) == old["ranking"]
    for seat in [None, *range(old["players"])]:
        assert isinstance(rules.view(state, seat), dict)
    assert all(isinstance(rules.seat_turn(state, s), str) for s in range(old["players"]))


@pytest.mark.parametrize(("slug", "index"), cases(finished=False))
def test_an_old_game_stopped_mid_game_plays_to_the_end_with_its_bot(slug, index):
    old = old_games(slug)[index]
    rules, state = rules_of(old), old["state"]
    bot = registry.bot_for(slug, old["rules_version"])
    for made in range(5000):
        if rules.is_over(state):
            break
        seat = rules.to_act(state)[0]
        assert isinstance(rules.seat_turn(state, seat), str)
        action = bot.choose(state, seat, random.Random(made))
        assert action in rules.legal_actions(state, seat)
        after = rules.apply(state, seat, action)
        rules.undoable(state, seat, action, after)
        state = after
        assert rules.view(state, seat) and rules.view(state, None)
    assert rules.is_over(state)
    assert len(rules.scores(state)) == len(rules.ranking(state)) == old["players"]


@pytest.mark.parametrize(("slug", "index"), cases())
def test_replaying_an_old_game_under_its_rules_version_rebuilds_it(slug, index):
    old = old_games(slug)[index]
    rules = rules_of(old)
    state = rules.setup(old["players"], old["options"], old["seed"])
    for move in old["moves"]:
        assert move["action"] in rules.legal_actions(state, move["seat"])
        state = rules.apply(state, move["seat"], move["action"])
    # Same play; only the record of it (`log` -> `events`) and caches differ in shape.
    assert rules.comparable(state) == rules.comparable(old["state"])
    assert {str(s): rules.legal_actions(state, s) for s in rules.to_act(state)} == old["legal"]
    assert rules.scores(state) == old["scores"] and rules.ranking(state) == old["ranking"]


# The database: old games stored through the engine's models --------------------------

def store(old: dict) -> Game:
    """An old game as the engine stored it: seed, moves, the snapshot and the result; bots
    in every seat."""
    game = Game.objects.create(game_slug=old["slug"], rules_version=old["rules_version"], options=old["options"],
                               seed=old["seed"], players=old["players"], state=old["state"],
                               version=len(old["moves"]),
                               status=Game.Status.FINISHED if old["over"] else Game.Status.ACTIVE)
    # A finished game carries its result, as the engine stored it (verify_games checks it).
    over = old["over"]
    Seat.objects.bulk_create(Seat(game=game, index=i, is_bot=True, rank=old["ranking"][i] if over else None,
                                  score=old["scores"][i]["total"] if over else None)
                             for i in range(old["players"]))
    Move.objects.bulk_create(Move(game=game, seq=n, seat=m["seat"], action=m["action"], by_bot=True)
                             for n, m in enumerate(old["moves"], start=1))
    return game


def verify_all() -> str:
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_games", stdout=out, stderr=err)
    except CommandError as exc:
        raise CommandError(f"{exc}: {err.getvalue()}") from exc
    return out.getvalue()


@pytest.mark.django_db
def test_verify_games_accepts_old_games_finished_and_played_on_by_the_engine(client):
    games = [store(old) for slug in SLUGS for old in old_games(slug)]
    for game in games:
        if game.is_active:
            assert client.get(game.get_absolute_url()).status_code == 200, game.game_slug
            engine.play_bots(game.pk)
            game.refresh_from_db()
            assert game.rules.is_over(game.state), f"{game.game_slug}: the bots finished the old game"
    assert f"verified {len(games)} game(s): {len(games)} match, 0 mismatch" in verify_all()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_verify_games_still_catches_an_old_snapshot_that_differs_in_play(slug):
    old = old_games(slug)[0]
    state = json.loads(json.dumps(old["state"]))
    state["players"] = old["players"] + 1  # something of the play itself, not its record
    store({**old, "state": state})
    with pytest.raises(CommandError):
        verify_all()
