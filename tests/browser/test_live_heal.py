"""In a browser: a game page whose socket drops while a move is made shows that move as
soon as its socket reconnects (issue 18: live pages heal). The move is made by the test
process, whose in-memory channel layer cannot reach the server's sockets: only the
reconnect can bring it."""
from __future__ import annotations

import pytest

SLUG = "roll-to-the-top"
KEEP_SOCKET = """document.addEventListener("htmx:wsOpen", (event) => {
  window.gameSocket = event.detail.socketWrapper;
  window.gameSocketsOpened = (window.gameSocketsOpened || 0) + 1;
});"""


@pytest.mark.browser
def test_a_page_whose_socket_reconnects_shows_the_moves_it_missed(live_site, browser, start_game, alice, bob):
    from games import engine
    from games.consumers import revision
    from games.models import Game

    game = start_game(SLUG, [alice, bob])
    page = browser.new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.add_init_script(KEEP_SOCKET)
    page.goto(f"{live_site}/play/{game.pk}/")
    page.wait_for_function("() => window.gameSocketsOpened >= 1")
    shown = page.locator("#game-panel").get_attribute("data-revision")
    assert shown == revision(game.updated)
    seat = game.to_act()[0]
    engine.submit(game.pk, [alice, bob][seat], game.rules.legal_actions(game.state, seat)[0])
    current = revision(Game.objects.get(pk=game.pk).updated)
    assert page.locator("#game-panel").get_attribute("data-revision") == shown  # the push could not arrive
    page.evaluate("() => window.gameSocket.reconnect()")
    page.wait_for_function(f"() => document.getElementById('game-panel').dataset.revision === '{current}'",
                           timeout=10_000)
    assert any(f"r={shown}" in url for url in sockets)
