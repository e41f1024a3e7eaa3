"""Live updates go to audiences: each seat hears only its own panel, spectators share one,
and the notifier renders once per audience (never once per socket)."""
from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async

from games import engine, rules
from tests.games.test_sockets import connect

pytestmark = [pytest.mark.django_db(transaction=True)]
TOKEN = re.compile(r"[0-9a-f]{32}")


@pytest.fixture
def marked_panels(monkeypatch):
    """Every render carries a marker of its audience in the panel's message line, the
    part a seat's own hidden information would take: whoever gets it heard that audience."""
    from games import panel

    real = panel.seat_panel_context
    renders = []

    def marked(game, seat, **kwargs):
        renders.append(seat)
        kwargs["message"] = f"audience-marker-{'spectators' if seat is None else f'seat-{seat}'}"
        return real(game, seat, **kwargs)

    monkeypatch.setattr(panel, "seat_panel_context", marked)
    return renders


def first_move(game):
    seat = game.to_act()[0]
    return seat, game.rules.legal_actions(game.state, seat)[0]


@pytest.mark.asyncio
@pytest.mark.parametrize("slug", [r.slug for r in rules.all()])
async def test_each_socket_hears_only_its_own_audiences_panel(slug, start_game, alice, bob, charlie, marked_panels):
    game = await sync_to_async(start_game)(slug, [alice, bob])
    sockets = {}
    for name, user in (("seat-0", alice), ("seat-1", bob), ("watcher", charlie), ("anonymous", None)):
        sockets[name], connected = await connect(f"/ws/play/{game.pk}/", user)
        assert connected, name
    seat, action = first_move(game)
    marked_panels.clear()
    await sync_to_async(engine.submit)(game.pk, [alice, bob][seat], action)
    heard = {name: await ws.receive_from(timeout=10) for name, ws in sockets.items()}
    markers = {name: set(re.findall(r"audience-marker-[\w-]+", html)) for name, html in heard.items()}
    assert markers == {"seat-0": {"audience-marker-seat-0"}, "seat-1": {"audience-marker-seat-1"},
                       "watcher": {"audience-marker-spectators"}, "anonymous": {"audience-marker-spectators"}}
    assert all('hx-swap-oob="true"' in html for html in heard.values())
    # Two seats and one spectator render, whatever the number of sockets.
    assert sorted(marked_panels, key=str) == [0, 1, None]
    for ws in sockets.values():
        await ws.disconnect()


@pytest.mark.asyncio
async def test_spectators_share_one_render_however_many_watch(start_game, alice, bob, marked_panels):
    game = await sync_to_async(start_game)("nanga-parbat", [alice, bob])
    watchers = [(await connect(f"/ws/play/{game.pk}/"))[0] for _ in range(5)]
    seat, action = first_move(game)
    marked_panels.clear()
    await sync_to_async(engine.submit)(game.pk, [alice, bob][seat], action)
    pages = [TOKEN.sub("", await ws.receive_from(timeout=10)) for ws in watchers]
    assert len(set(pages)) == 1 and "audience-marker-spectators" in pages[0]
    assert marked_panels.count(None) == 1
    for ws in watchers:
        await ws.disconnect()


@pytest.mark.asyncio
async def test_a_table_page_hears_its_own_table_but_not_others(alice, bob):
    from lobby import services

    def two_tables():
        make = dict(game_slug="rifugio", seats_count=3, options=rules.get("rifugio").default_options(),
                    is_private=False, pace="live", days_per_move=None)
        return services.create_table(alice, **make), services.create_table(alice, **make)

    mine, other = await sync_to_async(two_tables)()
    ws, connected = await connect(f"/ws/tables/{mine.pk}/", bob)
    assert connected
    await sync_to_async(services.join)(other.pk, bob)
    assert await ws.receive_nothing(timeout=0.5)
    await sync_to_async(services.join)(mine.pk, bob)
    html = await ws.receive_from(timeout=5)
    assert "bob" in html
    await ws.disconnect()
