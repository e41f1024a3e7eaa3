"""Correspondence players hear by e-mail when a game starts waiting for them."""
from __future__ import annotations

import pytest
from django.core import mail

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"


def test_a_correspondence_turn_mails_the_player_whose_turn_begins(start_game, alice, bob,
                                                                   django_capture_on_commit_callbacks):
    from games import engine

    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=2)
    first = game.to_act()[0]
    users = {0: alice, 1: bob}
    assert [m.to for m in mail.outbox] == [[users[first].email]]
    assert "Your move in Nanga Parbat" in mail.outbox[0].subject
    assert f"/play/{game.pk}/" in mail.outbox[0].body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        while game.to_act() == [first]:
            engine.submit(game.pk, users[first], game.rules.legal_actions(game.state, first)[0])
            game.refresh_from_db()
    assert [m.to for m in mail.outbox] == [[users[1 - first].email]]


def test_live_games_and_opted_out_players_get_no_mail(start_game, alice, bob, django_capture_on_commit_callbacks):
    alice.email_turn_notifications = False
    alice.save()
    bob.email = ""
    bob.save()
    with django_capture_on_commit_callbacks(execute=True):
        start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
        start_game(SLUG, [alice, bob])
    assert mail.outbox == []
