"""Worker-made changes reach open pages on `make run` (issue 17, build 4): with the
in-memory channel layer (one per process) pages poll a fingerprint of what they show
(lobby.live) and fetch their fragment again when it changes; with Redis they never poll."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import RematchOffer, Seat
from lobby import services
from lobby.models import Table

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"


def fingerprint(client, url: str) -> str:
    answer = client.get(url)
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    return answer.content.decode()


def test_pages_poll_only_with_the_in_memory_layer(alice_client, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    assert 'data-live-poll="4000"' in alice_client.get("/").content.decode()
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer"}}
    assert 'data-live-poll="0"' in alice_client.get("/").content.decode()


def test_a_games_fingerprint_changes_when_the_worker_hands_a_seat_to_a_bot(start_game, alice, bob, alice_client,
                                                                             run_tasks):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    page = alice_client.get(f"/play/{game.pk}/").content.decode()
    assert f'data-live-version="/live/games/{game.pk}/"' in page
    url = f"/live/games/{game.pk}/"
    before = fingerprint(alice_client, url)
    assert fingerprint(Client(), url) == before, "the same for every reader, and unchanged while nothing happens"
    [waiting] = game.to_act()
    Seat.objects.filter(game=game, index=waiting).update(running_since=timezone.now() - timedelta(days=1, hours=1))
    after_clock = fingerprint(alice_client, url)   # the test's own update: a seat row changed
    run_tasks(only="expire_clock")
    assert Seat.objects.get(game=game, index=waiting).bot_since is not None
    assert len({before, after_clock, fingerprint(alice_client, url)}) == 3


def test_a_games_fingerprint_changes_with_its_rematch_offer(start_game, alice, bob, alice_client):
    game = start_game(SLUG, [alice, bob])
    url = f"/live/games/{game.pk}/"
    before = fingerprint(alice_client, url)
    offer = RematchOffer.objects.create(game=game)
    offered = fingerprint(alice_client, url)
    RematchOffer.objects.filter(pk=offer.pk).update(status=RematchOffer.Status.EXPIRED)
    assert len({before, offered, fingerprint(alice_client, url)}) == 3


def test_an_expired_table_changes_the_tables_and_the_lobbys_fingerprints(alice, alice_client, bob_client):
    table = services.create_table(alice, game_slug=SLUG, seats_count=3, options={}, is_private=False,
                                  pace="live", days_per_move=None)
    page = alice_client.get(f"/tables/{table.pk}/").content.decode()
    assert f'data-live-version="/live/tables/{table.pk}/"' in page
    table_before = fingerprint(alice_client, f"/live/tables/{table.pk}/")
    lobby_before = fingerprint(bob_client, "/live/lobby/")
    Table.objects.filter(pk=table.pk).update(last_activity=timezone.now() - timedelta(days=30))
    assert services.expire_idle_tables() == 1
    assert fingerprint(alice_client, f"/live/tables/{table.pk}/") != table_before
    assert fingerprint(bob_client, "/live/lobby/") != lobby_before
    card = alice_client.get(f"/tables/{table.pk}/", headers={"HX-Request": "true"}).content.decode()
    assert card.lstrip().startswith('<section class="card narrow" id="table-card"') and "Expired" in card


def test_a_private_table_or_an_unknown_thing_has_no_fingerprint_for_outsiders(alice, alice_client, bob_client):
    table = services.create_table(alice, game_slug=SLUG, seats_count=3, options={}, is_private=True,
                                  pace="live", days_per_move=None)
    fingerprint(alice_client, f"/live/tables/{table.pk}/")
    assert bob_client.get(f"/live/tables/{table.pk}/").status_code == 404
    assert bob_client.get("/live/games/987654/").status_code == 404
    assert bob_client.get("/live/tables/987654/").status_code == 404


def test_an_expired_table_is_pushed_to_its_own_page_as_well_as_to_the_lobby(alice, monkeypatch,
                                                                            django_capture_on_commit_callbacks):
    """With Redis the worker's push is what tells an open table page it expired."""
    from games import notify

    sent: list = []
    monkeypatch.setattr(notify, "send_many", lambda batch: sent.extend(batch))
    table = services.create_table(alice, game_slug=SLUG, seats_count=3, options={}, is_private=False,
                                  pace="live", days_per_move=None)
    sent.clear()
    Table.objects.filter(pk=table.pk).update(last_activity=timezone.now() - timedelta(days=30))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.expire_idle_tables() == 1
    assert (notify.table_group(table.pk), {"type": "table.update"}) in sent
    assert (notify.LOBBY_GROUP, {"type": "lobby.update"}) in sent


def test_the_badges_fingerprint_follows_the_games_waiting_for_me(start_game, alice, bob, alice_client, client):
    page = alice_client.get("/").content.decode()
    assert 'data-live-version="/live/me/"' in page and 'data-live-src="/live/me/badge/"' in page
    before = fingerprint(alice_client, "/live/me/")
    game = start_game(SLUG, [alice, bob])
    waiting_for_alice = 0 in game.to_act()
    assert (fingerprint(alice_client, "/live/me/") != before) == waiting_for_alice
    badge = alice_client.get("/live/me/badge/", headers={"HX-Request": "true"}).content.decode()
    assert badge.startswith('<span id="turn-badge" data-count="{}"'.format(1 if waiting_for_alice else 0))
    assert client.get("/live/me/").status_code == 404, "nobody's badge for anonymous readers"
