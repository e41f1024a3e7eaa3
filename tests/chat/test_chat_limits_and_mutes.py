"""Chat refusals stay inside the chat box, and a mute can be undone (issue 17, row 9;
issue 18, row 9: a mute of an unknown or huge id was a 500)."""
from __future__ import annotations

import pytest
from django.core.cache import cache

from chat.models import ChatMessage, ChatMute

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def game(start_game, alice, bob):
    return start_game(SLUG, [alice, bob])


def say(client, game, text):
    return client.post(f"/chat/game/{game.pk}/post/", {"text": text}, headers={"HX-Request": "true"})


def test_over_the_rate_limit_the_answer_is_the_chat_box_with_the_reason(game, alice_client, monkeypatch, settings):
    import django_ratelimit.core

    settings.RATELIMIT_ENABLE = True
    settings.RATELIMITS = {**settings.RATELIMITS, "chat": "2/m"}
    monkeypatch.setattr(django_ratelimit.core, "_get_window", lambda value, period: 4_102_444_800)
    assert [say(alice_client, game, f"line {i}").status_code for i in range(2)] == [200, 200]
    refused = say(alice_client, game, "one too many")
    html = refused.content.decode()
    assert refused.status_code == 429
    assert html.lstrip().startswith('<section class="card chat" id="chat-box"'), "it replaces the box by a box"
    assert 'id="game-panel"' not in html, "no second #game-panel on the page"
    assert "writing too fast" in html and 'role="alert"' in html
    assert "line 0" in html and "line 1" in html and 'aria-label="Message"' in html, "lines and form kept"
    assert ChatMessage.objects.count() == 2


@pytest.mark.parametrize("user_id", ["987654", "999999999999999999"])
def test_muting_an_unknown_player_is_a_clear_404_in_the_box(game, alice_client, user_id):
    answer = alice_client.post(f"/chat/game/{game.pk}/mute/{user_id}/", {"on": "1"})
    assert answer.status_code == 404
    assert "no such player" in answer.content.decode()
    assert not ChatMute.objects.exists()


def test_an_id_too_long_to_be_one_is_not_found(game, alice_client):
    assert alice_client.post(f"/chat/game/{game.pk}/mute/{'9' * 40}/", {"on": "1"}).status_code == 404


def test_the_settings_page_lists_muted_players_and_unmutes_them(game, alice, bob, alice_client, bob_client):
    say(bob_client, game, "annoying")
    alice_client.post(f"/chat/game/{game.pk}/mute/{bob.pk}/", {"on": "1"})
    assert "annoying" not in alice_client.get(f"/chat/game/{game.pk}/").content.decode()
    settings_page = alice_client.get("/accounts/settings/").content.decode()
    assert "Muted in chat" in settings_page and f'action="/chat/muted/{bob.pk}/unmute/"' in settings_page
    answer = alice_client.post(f"/chat/muted/{bob.pk}/unmute/", follow=True)
    assert "Unmuted" in answer.content.decode()
    assert "annoying" in alice_client.get(f"/chat/game/{game.pk}/").content.decode()
    assert f"/chat/muted/{bob.pk}/unmute/" not in alice_client.get("/accounts/settings/").content.decode()
    assert alice_client.get(f"/chat/muted/{bob.pk}/unmute/").status_code == 405
