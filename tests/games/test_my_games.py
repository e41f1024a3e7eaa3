"""'My games' (the home page when logged in), the header badge, the tab title, and the
user socket that keeps them live and tells the mail tasks someone is on the site."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from games import engine, presence
from tests.fixtures import client_for
from tests.games.test_sockets import connect

SLUG = "nanga-parbat"


@pytest.mark.django_db
def test_my_games_lists_my_turns_by_time_left_then_the_others_then_my_open_tables(start_game, alice, bob, charlie):
    from lobby import services

    later = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=7, seed=1)
    sooner = start_game(SLUG, [alice, charlie], pace="correspondence", days_per_move=1, seed=1)
    for game in (later, sooner):  # make both wait for alice, whoever started
        if game.to_act() != [game.seat_of(alice)]:
            other = bob if game is later else charlie
            seat = game.to_act()[0]
            engine.submit(game.pk, other, game.rules.legal_actions(game.state, seat)[0])
    table = services.create_table(alice, game_slug=SLUG, seats_count=2, options={}, is_private=False,
                                  pace="live", days_per_move=None)
    page = client_for(alice).get("/me/games/").content.decode()
    mine, others, tables = page.index("Your move"), page.index("Waiting for others"), page.index("open tables")
    assert mine < others < tables
    waiting_for_me = page[mine:others]
    assert waiting_for_me.index(f"#{sooner.pk}<") < waiting_for_me.index(f"#{later.pk}<")
    assert f"table #{table.pk}" in page[tables:]


@pytest.mark.django_db
def test_the_home_page_leads_with_my_games_and_the_badge_links_to_them(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    user = {0: alice, 1: bob}[game.to_act()[0]]
    page = client_for(user).get("/").content.decode()
    assert 'id="my-games"' in page
    assert 'href="/me/games/"' in page and "Your turn: 1" in page
    assert "<title>(1) " in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_badge_and_my_games_update_over_the_websocket(start_game, alice, bob):
    game = await sync_to_async(start_game)(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    first = game.to_act()[0]
    mover, other = (alice, bob) if first == 0 else (bob, alice)
    other_ws, connected = await connect("/ws/me/", other)
    assert connected
    action = game.rules.legal_actions(game.state, first)[0]
    await sync_to_async(engine.submit)(game.pk, mover, action)
    html = await other_ws.receive_from(timeout=5)
    assert 'id="turn-badge"' in html
    refreshed = await sync_to_async(lambda: game.__class__.objects.get(pk=game.pk))()
    if game.players == 2 and refreshed.waiting_for == [1 - first]:
        assert 'data-count="1"' in html
        # The page's script then redraws "my games" from its data-src (the same view).
        lists = await sync_to_async(lambda: client_for(other).get("/me/games/", headers={"HX-Request": "true"}))()
        assert f"#{game.pk}<" in lists.content.decode().split("Waiting for others")[0]
    await other_ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_user_socket_marks_its_user_present_while_open(alice):
    ws, connected = await connect("/ws/me/", alice)
    assert connected
    assert await sync_to_async(presence.is_online)(alice.pk)
    await ws.disconnect()
    assert not await sync_to_async(presence.is_online)(alice.pk)


def _section(page: str, heading: str, next_heading: str) -> str:
    return page[page.index(heading):page.index(next_heading)]


@pytest.mark.django_db
def test_the_lobby_keeps_my_games_and_redraws_them_when_a_game_moves_or_a_table_fills(
        start_game, alice, bob, charlie, django_assert_max_num_queries):
    """Issue 21: the box is kept between visits (a repeat visit reads two small aggregates,
    not the games), and each change it shows draws it again: a move hands the turn over, a
    player joins the table alice sits at."""
    from lobby import services

    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1, seed=3)
    mover = {0: alice, 1: bob}[game.to_act()[0]]
    table = services.create_table(alice, game_slug="rifugio", seats_count=3, options={}, is_private=False,
                                  pace="live", days_per_move=None)
    viewer = client_for(mover)
    before = viewer.get("/").content.decode()
    assert f"#{game.pk}<" in _section(before, "Your move", "Waiting for others")
    with django_assert_max_num_queries(14):   # kept: no game, seat or player read for the box
        assert viewer.get("/").content.decode().count(f"#{game.pk}<") == 1
    engine.submit(game.pk, mover, game.rules.legal_actions(game.state, game.to_act()[0])[0])
    after = viewer.get("/").content.decode()
    assert f"#{game.pk}<" in _section(after, "Waiting for others", "Your open tables")
    assert f"#{game.pk}<" not in _section(after, "Your move", "Waiting for others")

    alices = client_for(alice)
    assert "1/3 seated" in alices.get("/").content.decode()
    services.join(table.pk, bob)
    assert "2/3 seated" in alices.get("/").content.decode()


@pytest.mark.django_db
def test_the_lobbys_queries_do_not_grow_with_a_players_games(start_game, alice, bob, django_assert_num_queries):
    """Issue 21: the lobby of a player with a game in play and one finished, and with six of
    each, reads the same number of queries, kept or drawn."""
    def queries_of_a_first_and_a_repeat_visit() -> list[int]:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        counts = []
        viewer = client_for(alice)
        for _ in range(2):
            with CaptureQueriesContext(connection) as captured:
                assert viewer.get("/").status_code == 200
            counts.append(len(captured.captured_queries))
        return counts

    start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1, seed=1)
    engine.resign(start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1, seed=2).pk, bob)
    few = queries_of_a_first_and_a_repeat_visit()
    for seed in range(3, 13):
        game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1, seed=seed)
        if seed % 2:
            engine.resign(game.pk, bob)
    assert queries_of_a_first_and_a_repeat_visit() == few
    assert few[1] < few[0]   # the repeat visit draws neither box
