"""The move path on a diet: a bounded number of SQL queries per move, and lists and
badges that never load a game's state."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.fixtures import post_action

pytestmark = pytest.mark.django_db
SLUG = "rifugio"


def a_move(game):
    seat = game.to_act()[0]
    return seat, game.rules.legal_actions(game.state, seat)[0]


@pytest.mark.parametrize("players", [2, 5])
def test_a_move_over_http_with_its_live_pushes_costs_at_most_10_queries(
        players, start_game, make_user, django_assert_max_num_queries, django_capture_on_commit_callbacks):
    from tests.fixtures import client_for

    users = [make_user(f"p{i}") for i in range(players)]
    game = start_game(SLUG, users)
    seat, action = a_move(game)
    client = client_for(users[seat])
    with django_assert_max_num_queries(10), django_capture_on_commit_callbacks(execute=True):
        response = post_action(client, game, action, token="t1", version=game.version)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version == 1


def test_the_turn_badge_never_loads_a_games_state(start_game, alice, bob, alice_client):
    game = start_game(SLUG, [alice, bob])
    with CaptureQueriesContext(connection) as queries:
        page = alice_client.get("/games/")
    assert page.status_code == 200
    badge = [q["sql"] for q in queries.captured_queries if "seat_user" in q["sql"]]
    assert badge and all('"state"' not in sql for sql in badge)
    assert game.waiting_for == game.to_act()


def test_htmx_fragments_skip_the_turn_badge_query(start_game, alice, bob, alice_client):
    game = start_game(SLUG, [alice, bob])
    with CaptureQueriesContext(connection) as queries:
        alice_client.get(f"/play/{game.pk}/panel/", headers={"HX-Request": "true"})
    assert not [q for q in queries.captured_queries if "seat_user" in q["sql"]]


def test_a_move_saves_only_the_columns_it_changed(start_game, alice, bob):
    from games import engine

    game = start_game(SLUG, [alice, bob])
    seat, action = a_move(game)
    with CaptureQueriesContext(connection) as queries:
        engine.submit(game.pk, [alice, bob][seat], action)
    update = next(q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "games_game"'))
    assert '"seed" =' not in update and '"options" =' not in update and '"state" =' in update


@pytest.mark.django_db(transaction=True)
def test_the_movers_answer_is_its_seats_pushed_panel_swapped_in_place(start_game, alice, bob, monkeypatch):
    from games import notify
    from games.panel import render_panel_for_seat
    from tests.fixtures import client_for

    from asgiref.sync import async_to_sync

    from games import audiences

    game = start_game(SLUG, [alice, bob])
    seat, action = a_move(game)
    async_to_sync(audiences.join)(notify.seat_group(game.pk, seat), "the-movers-page")  # the mover's page is open
    from games import publisher

    drawn = {}
    real = publisher.pushed_messages
    # The renders the push is cut from (issue 21: the socket gets only the regions that
    # changed, games.regions; the answer is the whole panel they were cut from).
    monkeypatch.setattr(publisher, "pushed_messages", lambda g, renders: drawn.update(renders) or real(g, renders))
    response = post_action(client_for([alice, bob][seat]), game, action, token="t2", version=game.version)
    answer = response.content.decode()
    seat_render = drawn[(seat, "en")]
    assert 'id="game-panel"' in answer and "hx-swap-oob" not in answer
    assert answer == seat_render.replace(' hx-swap-oob="true"', "", 1)
    game.refresh_from_db()
    fresh = render_panel_for_seat(game, seat)
    assert fresh.count("<button") == answer.count("<button")
    async_to_sync(audiences.leave)(notify.seat_group(game.pk, seat), "the-movers-page")


@pytest.mark.django_db(transaction=True)
def test_no_panel_is_drawn_for_an_audience_nobody_watches(start_game, alice, bob, monkeypatch):
    from games import panel
    from tests.redis_server import settle_registry

    settle_registry()  # a registry just born counts every audience as watched
    game = start_game(SLUG, [alice, bob])
    seat, action = a_move(game)
    drawn = []
    real = panel.seat_panel_context
    monkeypatch.setattr(panel, "seat_panel_context", lambda g, s, **kw: drawn.append(s) or real(g, s, **kw))
    from games import engine

    engine.submit(game.pk, [alice, bob][seat], action)
    assert drawn == []
