"""Rules versions (docs/rules-versions.md): a game in progress keeps playing under the rules
version it started with, after the game's rules are bumped; new games start on the new one."""
from __future__ import annotations

import importlib
from io import StringIO

import pytest
from django.core.management import call_command

from games import engine
from games import rules as registry
from games.rules.base import IllegalAction

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"


def bumped(old):
    """Version "2" of the rules: states carry a marker, and it plays only its own states."""
    class Version2(type(old)):
        version = "2"

        def setup(self, players, options, seed):
            return {**super().setup(players, options, seed), "v2": True}

        def apply(self, state, seat, action):
            if not state.get("v2"):
                raise IllegalAction("This state was made by another rules version.")
            return {**super().apply(state, seat, action), "v2": True}
    return Version2()


@pytest.fixture
def bump(monkeypatch):
    """Bump the game's rules to "2", keeping "1" (and its bot) side by side."""
    module = importlib.import_module(f"{registry.package_of(SLUG)}.rules")
    old = module.RULES
    monkeypatch.setattr(module, "RULES", bumped(old))
    monkeypatch.setattr(module, "PREVIOUS", {"1": old}, raising=False)
    monkeypatch.setattr(module, "PREVIOUS_BOTS", {"1": registry.bot_for(SLUG)}, raising=False)
    return module


def test_a_running_game_plays_on_under_the_version_it_started_with(start_game, alice, bob, monkeypatch):
    module = importlib.import_module(f"{registry.package_of(SLUG)}.rules")
    game = start_game(SLUG, [alice, None])
    assert game.rules_version == "1"
    old = module.RULES
    monkeypatch.setattr(module, "RULES", bumped(old))
    monkeypatch.setattr(module, "PREVIOUS", {"1": old}, raising=False)
    monkeypatch.setattr(module, "PREVIOUS_BOTS", {"1": registry.bot_for(SLUG)}, raising=False)

    game.refresh_from_db()
    assert game.rules is old and game.is_available
    seat = game.seat_of(alice)
    engine.submit(game.pk, alice, game.rules.legal_actions(game.state, seat)[0])
    game.refresh_from_db()
    assert game.version >= 1 and "v2" not in game.state, "the bot answered under version 1 too"
    out = StringIO()
    call_command("verify_games", str(game.pk), stdout=out)
    assert "1 match" in out.getvalue()


def test_a_new_game_starts_under_the_new_version(start_game, alice, bob, bump):
    game = start_game(SLUG, [alice, bob])
    assert game.rules_version == "2" and game.state["v2"] is True
    engine.submit(game.pk, alice, game.rules.legal_actions(game.state, 0)[0])


def test_a_version_no_longer_kept_makes_the_game_unavailable_not_broken(start_game, alice, bob, bump, client):
    game = start_game(SLUG, [alice, bob])
    bump.PREVIOUS = {}
    game.rules_version = "1"
    game.save(update_fields=["rules_version"])
    game.refresh_from_db()
    assert not game.is_available and game.to_act() == []
    assert client.get(f"/play/{game.pk}/").status_code < 500
