"""Lobby filters are remembered per player and apply to the page and the live list."""
from __future__ import annotations

from lobby import services as lobby
from lobby.views import lobby_context


def _table(host, slug, pace="live", seats=2):
    return lobby.create_table(host, game_slug=slug, seats_count=seats, options={}, is_private=False, pace=pace,
                              days_per_move=3 if pace == "correspondence" else None)


def test_filters_are_remembered_and_applied(alice, bob, charlie, alice_client):
    _table(bob, "rifugio", seats=3)
    _table(charlie, "nanga-parbat", pace="correspondence")
    alice_client.get("/?filter=1&game=nanga-parbat&pace=correspondence&seats=&rated=")
    page = alice_client.get("/").content.decode()  # a later visit, no parameters
    listed = page.split('id="table-list"')[1].split("</table>")[0]
    assert "Nanga Parbat" in listed and "Rifugio" not in listed
    assert 'value="nanga-parbat" selected' in page
    assert [t.game_slug for t in lobby_context(alice)["tables"]] == ["nanga-parbat"]  # the WebSocket push too
    assert len(lobby_context(bob)["tables"]) == 2  # bob's own filters: none
    alice_client.get("/?filter=1&game=bogus&seats=99")  # nonsense is ignored, not a 500
    assert len(lobby_context(alice)["tables"]) == 2
