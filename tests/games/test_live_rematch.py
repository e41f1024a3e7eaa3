"""Rematch offers, accepts, declines and expiry reach the other player's open page, and the
pages are sent to the new game (issue 17 row 5 / build 4).

The page skips a pushed panel no newer than the one it shows (static/js/site.js compares
`data-revision`, the game's `updated`): a rematch change must move that revision on, or
the other player's page drops it, which is what happened before.
"""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine, notify
from games.models import Game, RematchOffer
from tests.fixtures import client_for, tasks_done

SLUG = "nanga-parbat"
REVISION = re.compile(r'data-revision="([0-9.]+)"')


def revision(html: str) -> float:
    return float(REVISION.search(html).group(1))


@pytest.fixture
def finished(start_game, alice, bob, monkeypatch):
    """A finished game with both players' pages open; returns (game, pushes by group)."""
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    monkeypatch.setattr(notify, "listened_languages",  # both players' pages open, in English
                        lambda game_id, audiences: [(a, "en") for a in audiences if a is not None])
    pushed: dict[str, list[str]] = {}
    monkeypatch.setattr(notify, "send_many", lambda messages: [
        pushed.setdefault(group, []).append(message.get("html", "")) for group, message in messages])
    return Game.objects.get(pk=game.pk), pushed


def page_of(user, game) -> str:
    return client_for(user).get(f"/play/{game.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_an_offer_reaches_the_other_players_open_page_as_a_newer_panel(finished, alice, bob):
    game, pushed = finished
    bobs_page = page_of(bob, game)
    response = client_for(alice).post(f"/play/{game.pk}/rematch/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    [panel] = pushed[notify.seat_group(game.pk, 1)]
    assert "Accept the rematch" in panel and "Rematch accepted by alice" in panel
    assert revision(panel) > revision(bobs_page), "the page would skip a panel no newer than its own"


@pytest.mark.django_db(transaction=True)
def test_an_accept_sends_both_pages_to_the_new_game(finished, alice, bob):
    game, pushed = finished
    engine.accept_rematch(game.pk, alice)
    alices_page = page_of(alice, game)
    pushed.clear()
    response = client_for(bob).post(f"/play/{game.pk}/rematch/", HTTP_HX_REQUEST="true")
    new_game = RematchOffer.objects.get(game=game).new_game
    assert new_game is not None and new_game.is_active
    assert response["HX-Redirect"] == new_game.get_absolute_url(), "the accepting player goes there at once"
    [panel] = pushed[notify.seat_group(game.pk, 0)]
    assert f'data-redirect="/play/{new_game.pk}/"' in panel, "the offerer's open page follows"
    assert revision(panel) > revision(alices_page)
    assert "data-redirect" not in page_of(alice, game), "a later visit to the old game stays there"


@pytest.mark.django_db(transaction=True)
def test_a_decline_reaches_the_offerer(finished, alice, bob):
    game, pushed = finished
    engine.accept_rematch(game.pk, alice)
    alices_page = page_of(alice, game)
    pushed.clear()
    engine.decline_rematch(game.pk, bob)
    [panel] = pushed[notify.seat_group(game.pk, 0)]
    assert "The rematch was declined by bob" in panel and revision(panel) > revision(alices_page)


@pytest.mark.django_db(transaction=True)
def test_an_expiry_by_the_worker_reaches_both_pages(finished, alice, bob, run_tasks):
    game, pushed = finished
    engine.accept_rematch(game.pk, alice)
    bobs_page = page_of(bob, game)
    pushed.clear()
    RematchOffer.objects.filter(game=game).update(created=timezone.now() - timedelta(hours=25))
    run_tasks(only="expire_rematch")
    assert tasks_done("expire_rematch") == 1
    for seat, before in ((1, bobs_page), (0, None)):
        [panel] = pushed[notify.seat_group(game.pk, seat)]
        assert "The rematch offer expired" in panel
        if before:
            assert revision(panel) > revision(before)
