"""Table chat: who reads and writes, escaping, limits, mutes, moderation, live delivery."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.db import transaction

from chat.models import ChatMessage, ChatReport
from games import notify
from lobby.models import Table
from tests.fixtures import client_for

SLUG = "roll-to-the-top"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def sent(monkeypatch):
    """Every (group, message) sent through the channel layer (after-commit work runs at once:
    these tests run inside one transaction that never commits)."""
    from chat import services

    messages: list[tuple[str, dict]] = []
    monkeypatch.setattr(notify, "send_many", lambda batch: messages.extend(batch))
    monkeypatch.setattr(services, "transaction",
                        SimpleNamespace(atomic=transaction.atomic, on_commit=lambda callback: callback()))
    return messages


@pytest.fixture
def game(start_game, alice, bob):
    return start_game(SLUG, [alice, bob])


def say(client, game, text):
    return client.post(f"/chat/game/{game.pk}/post/", {"text": text})


def public_table(game, host, public=True):
    return Table.objects.create(game_slug=SLUG, host=host, seats_count=2, status=Table.Status.STARTED, game=game,
                                chat_public=public)


@pytest.mark.django_db
def test_a_seat_talks_and_the_text_is_escaped(game, alice_client, bob_client, sent):
    response = say(alice_client, game, "<script>alert('x')</script> gg")
    assert response.status_code == 200
    html = bob_client.get(f"/chat/game/{game.pk}/").content.decode()
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; gg" in html and "<script>alert" not in html
    [(_, event)] = sent[:1]
    assert "&lt;script&gt;" in event["html"] and "<script>" not in event["html"]


@pytest.mark.django_db
def test_a_line_longer_than_the_limit_or_empty_is_refused(game, alice_client):
    assert say(alice_client, game, "x" * 201).status_code == 400
    assert say(alice_client, game, "   ").status_code == 400
    assert not ChatMessage.objects.exists()
    assert say(alice_client, game, "x" * 200).status_code == 200


@pytest.mark.django_db
def test_posting_is_rate_limited_per_user(game, alice_client, bob_client, monkeypatch, settings):
    import django_ratelimit.core

    settings.RATELIMIT_ENABLE = True
    settings.RATELIMITS = {**settings.RATELIMITS, "chat": "8/m"}
    settings.RATELIMIT_IP_FACTOR = 100
    # One fixed window (ending in 2100), so the posts never straddle a minute boundary.
    monkeypatch.setattr(django_ratelimit.core, "_get_window", lambda value, period: 4_102_444_800)
    codes = [say(alice_client, game, f"line {i}").status_code for i in range(9)]
    assert codes == [200] * 8 + [429]
    assert ChatMessage.objects.count() == 8
    assert say(bob_client, game, "my turn to talk").status_code == 200


@pytest.mark.django_db
def test_spectators_read_only_where_the_table_allows_it(game, alice, alice_client, charlie, client):
    say(alice_client, game, "hello")
    spectator = client_for(charlie)
    assert spectator.get(f"/chat/game/{game.pk}/").status_code == 403
    assert "hello" not in client.get(f"/chat/game/{game.pk}/").content.decode()
    public_table(game, alice)
    assert "hello" in spectator.get(f"/chat/game/{game.pk}/").content.decode()
    assert say(spectator, game, "can I talk?").status_code == 403, "spectators never write"


@pytest.mark.django_db
def test_a_new_line_goes_only_to_the_seats_groups_unless_the_table_is_public(game, alice, alice_client, sent):
    say(alice_client, game, "private")
    groups = sorted(group for group, _ in sent)
    assert groups == sorted(notify.audience_group(game.pk, seat) for seat in (0, 1))
    assert len({event["html"] for _, event in sent}) == 1, "rendered once for every group"
    sent.clear()
    public_table(game, alice)
    say(alice_client, game, "public")
    assert notify.spectator_group(game.pk) in {group for group, _ in sent}


@pytest.mark.django_db
def test_a_reader_mutes_a_player(game, alice, bob, alice_client, bob_client, sent):
    say(bob_client, game, "annoying")
    alice_client.post(f"/chat/game/{game.pk}/mute/{bob.pk}/", {"on": "1"})
    assert "annoying" not in alice_client.get(f"/chat/game/{game.pk}/").content.decode()
    assert "annoying" in bob_client.get(f"/chat/game/{game.pk}/").content.decode()
    assert {"type": "chat.mute", "reader": alice.pk, "muted": bob.pk, "on": True} in [e for _, e in sent]
    alice_client.post(f"/chat/game/{game.pk}/mute/{bob.pk}/", {"on": "0"})
    assert "annoying" in alice_client.get(f"/chat/game/{game.pk}/").content.decode()


def test_a_socket_drops_live_lines_from_muted_authors_and_foreign_readers():
    from games.consumers import forward_chat, update_mutes

    class Socket:
        def __init__(self, user_id):
            self.scope = {"user": type("U", (), {"pk": user_id})()}
            self.sent: list[str] = []

        async def send(self, text_data):
            self.sent.append(text_data)

    alice = Socket(1)
    update_mutes(alice, {"reader": 1, "muted": 2, "on": True})
    asyncio.run(forward_chat(alice, {"html": "from bob", "author": 2, "readers": None}))
    asyncio.run(forward_chat(alice, {"html": "from dora", "author": 4, "readers": None}))
    asyncio.run(forward_chat(alice, {"html": "table only", "author": 4, "readers": [3, 4]}))
    assert alice.sent == ["from dora"]


@pytest.mark.django_db
def test_moderators_hide_lines_and_see_reports(game, alice_client, bob_client, admin_client):
    say(bob_client, game, "rude words")
    line = ChatMessage.objects.get()
    alice_client.post(f"/chat/game/{game.pk}/report/{line.pk}/")
    assert ChatReport.objects.filter(message=line).count() == 1
    assert "rude words" in admin_client.get("/admin/chat/chatreport/").content.decode()
    admin_client.post("/admin/chat/chatmessage/", {"action": "hide", "_selected_action": [line.pk]})
    line.refresh_from_db()
    assert line.hidden and ChatReport.objects.get().resolved
    assert "rude words" not in alice_client.get(f"/chat/game/{game.pk}/").content.decode()
    assert "rude words" in admin_client.get(f"/chat/game/{game.pk}/").content.decode()


@pytest.mark.django_db
def test_phone_players_get_canned_phrases(game, alice_client):
    html = alice_client.get(f"/chat/game/{game.pk}/").content.decode()
    for phrase in ("Good game", "Thanks", "Sorry, misclick"):
        assert phrase in html
    assert say(alice_client, game, "Good game").status_code == 200


@pytest.mark.django_db
def test_players_at_a_table_talk_before_it_starts(alice, bob, charlie, alice_client, sent):
    table = Table.objects.create(game_slug=SLUG, host=alice, seats_count=3)
    table.seats.create(user=alice, position=0)
    assert alice_client.post(f"/chat/table/{table.pk}/post/", {"text": "waiting for one more"}).status_code == 200
    [(group, event)] = sent
    assert group == notify.table_group(table.pk) and event["readers"] == [alice.pk]
    assert client_for(charlie).post(f"/chat/table/{table.pk}/post/", {"text": "hi"}).status_code == 403


@pytest.mark.django_db
def test_an_unknown_room_is_a_404(alice_client):
    assert alice_client.get("/chat/game/999/").status_code == 404
    assert alice_client.get("/chat/forum/1/").status_code == 404


@pytest.mark.django_db
def test_the_game_and_table_pages_load_their_chat_box(game, alice, alice_client):
    assert f'hx-get="/chat/game/{game.pk}/"' in alice_client.get(f"/play/{game.pk}/").content.decode()
    table = Table.objects.create(game_slug=SLUG, host=alice, seats_count=3)
    table.seats.create(user=alice, position=0)
    assert f'hx-get="/chat/table/{table.pk}/"' in alice_client.get(f"/tables/{table.pk}/").content.decode()


@pytest.mark.django_db
def test_a_live_line_carries_mute_and_report_controls_for_any_reader(game, bob, bob_client, sent):
    say(bob_client, game, "live words")
    line = ChatMessage.objects.get()
    [html] = {event["html"] for _, event in sent}
    assert f'data-author="{bob.pk}"' in html
    assert f'hx-post="/chat/game/{game.pk}/mute/{bob.pk}/"' in html
    assert f'hx-post="/chat/game/{game.pk}/report/{line.pk}/"' in html


@pytest.mark.django_db
def test_a_live_line_at_a_table_points_its_controls_at_the_table(alice, alice_client, sent):
    table = Table.objects.create(game_slug=SLUG, host=alice, seats_count=3)
    table.seats.create(user=alice, position=0)
    alice_client.post(f"/chat/table/{table.pk}/post/", {"text": "anyone?"})
    [(_, event)] = sent
    assert f'hx-post="/chat/table/{table.pk}/mute/{alice.pk}/"' in event["html"]


@pytest.mark.django_db
def test_the_chat_box_names_its_reader_so_own_lines_lose_their_controls(game, alice, alice_client, client):
    public_table(game, alice)
    say(alice_client, game, "mine")
    own = alice_client.get(f"/chat/game/{game.pk}/").content.decode()
    assert f'data-reader="{alice.pk}"' in own and "/mute/" not in own
    anonymous = client.get(f"/chat/game/{game.pk}/").content.decode()
    assert 'data-reader=""' in anonymous and "/mute/" not in anonymous
