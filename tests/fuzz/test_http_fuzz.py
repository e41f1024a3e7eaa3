"""HTTP fuzz: every endpoint that takes input, hit with hostile ids, tokens, query
parameters, form fields and actions, as an anonymous visitor, an outsider and a seated
player. Never a 5xx; after any refusal (4xx) nothing in the database changed; no page
ever shows a game's seed (the probe for hidden information leaving the server).

Runs on whichever database the suite runs on: CI runs it on SQLite and on PostgreSQL.
"""
from __future__ import annotations

import json
import secrets
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import Rating, User
from games import rules as registry
from games.models import Game, Move
from lobby import services
from lobby.models import Table, TableSeat
from tests.fixtures import client_for

from .report import count, examples
from .strategies import actions, hostile_text, json_values

pytestmark = pytest.mark.django_db


class World:
    """Two seated players in a game of every title, an outsider, and tables to act on."""

    def __init__(self, start_game, alice, bob, charlie):
        self.users = {"seated": alice, "outsider": charlie}
        self.games = []
        for slug in registry.slugs():
            rules = registry.get(slug)
            players = [alice, bob] + [None] * max(0, rules.min_players - 2)
            self.games.append(start_game(slug, players[:max(2, rules.min_players)], seed=secrets.randbits(62)))
        public = services.create_table(bob, game_slug=registry.slugs()[0], seats_count=3, options={},
                                       is_private=False, pace="live", days_per_move=None)
        private = services.create_table(bob, game_slug=registry.slugs()[0], seats_count=2, options={},
                                        is_private=True, pace="live", days_per_move=None)
        self.tables = [public, private]
        self.seeds = [str(game.seed) for game in self.games]


def fingerprint() -> tuple:
    """Everything a refused request must leave as it was."""
    return (
        list(Game.objects.order_by("pk").values_list("pk", "version", "status", "state", "rated")),
        Move.objects.count(),
        list(Table.objects.order_by("pk").values_list("pk", "status", "seats_count", "options", "game_id")),
        list(TableSeat.objects.order_by("pk").values_list("pk", "table_id", "user_id", "is_bot")),
        User.objects.count(),
        list(Rating.objects.order_by("pk").values_list("pk", "mu", "sigma", "games_played")),
    )


def path_part(world_ids):
    """An id a URL might carry: a real one, a plausible one, or anything at all (quoted)."""
    return st.one_of(st.sampled_from(world_ids), st.integers(-5, 10**20).map(str),
                     hostile_text.map(lambda text: quote(text, safe="")))


@st.composite
def requests(draw, world: World):
    game = draw(st.sampled_from(world.games))
    game_ids = [str(g.pk) for g in world.games]
    table_ids = [str(t.pk) for t in world.tables]
    tokens = [t.invite_token for t in world.tables]
    gid, tid = draw(path_part(game_ids)), draw(path_part(table_ids))
    token = draw(st.one_of(st.sampled_from(tokens), hostile_text.map(lambda t: quote(t, safe=""))))
    text = hostile_text
    endpoints = [
        ("get", f"/play/{gid}/", {"sel": draw(text)}),
        ("get", f"/play/{gid}/panel/", {"sel": draw(text)}),
        ("post", f"/play/{gid}/act/", draw(act_fields(game))),
        ("post", f"/play/{gid}/undo/", {}),
        ("get", f"/play/{gid}/replay/", {"step": draw(text)}),
        ("get", "/games/", {"status": draw(text), "page": draw(text)}),
        ("get", "/me/turns/", {}),
        ("get", "/", {}),
        ("get", "/lobby/tables/", {}),
        ("get", "/tables/new/", {"game": draw(text)}),
        ("post", "/tables/new/", draw(table_fields())),
        ("get", f"/tables/{tid}/", {}),
        *[("post", f"/tables/{tid}/{verb}/", {}) for verb in ("join", "leave", "bots/add", "bots/remove", "start")],
        ("get", f"/invite/{token}/", {}),
        ("post", f"/invite/{token}/join/", {}),
        ("get", f"/accounts/u/{draw(text.map(lambda t: quote(t, safe='')))}/", {}),
        ("get", f"/accounts/leaderboard/{draw(text.map(lambda t: quote(t, safe='')))}/", {}),
        ("post", "/accounts/signup/", {"username": draw(text), "email": draw(text), "password1": draw(text),
                                       "password2": draw(text)}),
        ("post", "/accounts/login/", {"username": draw(text), "password": draw(text)}),
        ("post", "/accounts/password_reset/", {"email": draw(text)}),
        ("post", "/accounts/settings/", {draw(st.sampled_from(["email", "username", "theme", "x"])): draw(text)}),
    ]
    return draw(st.sampled_from(endpoints))


def act_fields(game):
    rules = game.rules
    legal = [a for seat in range(game.players) for a in rules.legal_actions(game.state, seat)][:30]
    action = st.one_of(actions, st.sampled_from(legal) if legal else actions, json_values)
    raw = st.one_of(action.map(json.dumps), hostile_text, st.just("[" * 3000 + "]" * 3000))
    return st.fixed_dictionaries({"action": raw}, optional={
        "token": hostile_text, "version": st.one_of(hostile_text, st.integers(-2, 10**30).map(str)),
        "turn": st.one_of(hostile_text, st.just(rules.seat_turn(game.state, 0)))})


def table_fields():
    return st.fixed_dictionaries({"game": st.one_of(st.sampled_from(registry.slugs()), hostile_text)}, optional={
        "seats": st.one_of(hostile_text, st.integers(-3, 10**12).map(str)), "pace": hostile_text,
        "is_private": hostile_text, "days_per_move": hostile_text, "rated": hostile_text,
        "refresh": st.sampled_from(["", "1"]), "opt_board": hostile_text, "opt_players": hostile_text})


@pytest.fixture
def world(start_game, alice, bob, charlie, settings):
    settings.RATELIMIT_ENABLE = False  # the fuzz tests inputs; tests/web/test_abuse.py tests the limits
    return World(start_game, alice, bob, charlie)


def fuzz_as(role: str, world: World, client: Client) -> None:
    name = f"http fuzz ({role})"

    @examples(3)
    @given(requests(world))
    def check(request):
        method, path, data = request
        before = fingerprint()
        response = getattr(client, method)(path, data)
        body = response.content.decode("utf-8", "replace") if not getattr(response, "streaming", False) else ""
        leaked = any(seed in body for seed in world.seeds)
        count(name, server_error=response.status_code >= 500, leak=leaked)
        assert response.status_code < 500, (method, path, data, response.status_code)
        assert not leaked, (method, path, "a page shows a game's seed")
        if 400 <= response.status_code < 500:
            assert fingerprint() == before, (method, path, data, response.status_code, "a refusal changed data")

    check()


def test_anonymous_visitors_never_get_a_5xx_and_refusals_change_nothing(world):
    fuzz_as("anonymous", world, Client())


def test_outsiders_never_get_a_5xx_and_refusals_change_nothing(world):
    fuzz_as("outsider", world, client_for(world.users["outsider"]))


def test_seated_players_never_get_a_5xx_and_refusals_change_nothing(world):
    fuzz_as("seated", world, client_for(world.users["seated"]))
