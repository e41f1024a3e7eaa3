"""A blocked player is refused at the lobby's tables, in chat and in tournament pairing."""
from __future__ import annotations

import pytest

from chat import services as chat
from games.engine import Rejected
from lobby import services as lobby
from social import blocks
from tournaments import pairing
from tournaments.services import _blocked_pairs

SLUG = "roll-to-the-top"


def _table(host):
    return lobby.create_table(host, game_slug=SLUG, seats_count=3, options={}, is_private=False,
                              pace="live", days_per_move=None)


def test_a_blocked_player_cannot_join_your_table(alice, bob, charlie):
    table = _table(alice)
    blocks.block(alice, bob)
    with pytest.raises(Rejected, match="blocked"):
        lobby.join(table.pk, bob)
    lobby.join(table.pk, charlie)  # others still can
    blocks.unblock(alice, bob)
    lobby.join(table.pk, bob)


def test_a_blocked_player_cannot_chat_with_you(start_game, alice, bob, charlie):
    game = start_game(SLUG, [alice, bob, charlie])
    room = chat.game_room(game)
    chat.post(room, bob, "hello")
    blocks.block(alice, bob)
    with pytest.raises(Rejected, match="blocked"):
        chat.post(room, bob, "again")
    assert [m.text for m in chat.history(room, alice)] == []  # bob's old line is gone for alice
    assert [m.text for m in chat.history(room, charlie)] == ["hello"]


def test_tournament_pairing_keeps_blocked_players_apart(alice, bob, charlie, make_user):
    dave = make_user("dave")
    blocks.block(alice, bob)
    avoid = _blocked_pairs([u.pk for u in (alice, bob, charlie, dave)])
    entrants = [pairing.Entrant(u.pk, rating=r) for u, r in ((alice, 4), (bob, 3), (charlie, 2), (dave, 1))]
    tables = pairing.pair_round(entrants, 2, avoid).tables
    assert {frozenset(t) for t in tables} == {frozenset((alice.pk, charlie.pk)), frozenset((bob.pk, dave.pk))}
