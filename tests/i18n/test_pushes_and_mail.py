"""Text made without a request (issue 23): live panels, badges and chat lines in each
socket's language, mails and pushes in their recipient's language and time zone, and the
daily digest at each player's own morning."""
from __future__ import annotations

import email
from datetime import UTC, datetime

import pytest
from asgiref.sync import async_to_sync
from django.utils import timezone, translation

from games import audiences, notify

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"


def a_move(game):
    import random

    from games.rules import bot_for

    seat = game.to_act()[0]
    return seat, bot_for(SLUG).choose(game.state, seat, random.Random(0))


@pytest.mark.django_db(transaction=True)
def test_each_listened_language_gets_its_own_render(start_game, alice, bob, monkeypatch, settings):
    from games import engine, panel

    settings.REDIS_URL = ""  # this process's own registry
    game = start_game(SLUG, [alice, bob])
    seat, action = a_move(game)
    group = notify.seat_group(game.pk, seat)
    async_to_sync(audiences.join)(group, "an-english-page")
    async_to_sync(audiences.join)(group, "a-dutch-page", "nl")
    async_to_sync(audiences.join)(notify.spectator_group(game.pk), "a-german-spectator", "de")
    drawn: list[tuple[int | None, str]] = []
    real = panel.seat_panel_context
    monkeypatch.setattr(panel, "seat_panel_context",
                        lambda g, s, **kw: drawn.append((s, translation.get_language())) or real(g, s, **kw))
    pushed: dict[str, dict] = {}
    monkeypatch.setattr(notify, "send_many", lambda messages: pushed.update(messages))
    try:
        outcome = engine.submit(game.pk, [alice, bob][seat], action)
    finally:
        async_to_sync(audiences.leave)(group, "an-english-page")
        async_to_sync(audiences.leave)(group, "a-dutch-page", "nl")
        async_to_sync(audiences.leave)(notify.spectator_group(game.pk), "a-german-spectator", "de")
    assert sorted(drawn, key=str) == sorted([(seat, "en"), (seat, "nl"), (None, "de")], key=str)
    assert set(outcome.panels) == {(seat, "en"), (seat, "nl"), (None, "de")}
    message = pushed[group]
    assert set(message["html_by_language"]) == {"en", "nl"} and message["html"] == message["html_by_language"]["en"]
    assert set(pushed[notify.spectator_group(game.pk)]["html_by_language"]) == {"de"}


def test_listeners_are_counted_per_language(settings):
    settings.REDIS_URL = ""
    group = notify.seat_group(999, 0)
    async_to_sync(audiences.join)(group, "page", "it")
    try:
        assert audiences.listened_languages(999, [0, None]) == [(0, "it")]
        assert audiences.listened_to(999, [0, None]) == [0]
        assert audiences.seat_is_watched(999, 0)
    finally:
        async_to_sync(audiences.leave)(group, "page", "it")
    assert audiences.listened_languages(999, [0, None]) == []


def test_a_socket_forwards_the_render_of_its_language():
    from games.consumers import GameConsumer

    sent: list[str] = []

    class Page(GameConsumer):
        async def send(self, text_data=None, bytes_data=None, close=False):
            sent.append(text_data)

    dutch = Page()
    dutch.language = "nl"
    event = {"type": "game.panel", "html": "english", "html_by_language": {"en": "english", "nl": "nederlands"}}
    async_to_sync(dutch.game_panel)(event)
    dutch.language = "it"  # nobody rendered Italian: the default language's
    async_to_sync(dutch.game_panel)(event)
    assert sent == ["nederlands", "english"]


def test_badges_are_drawn_in_each_players_language(alice, bob, monkeypatch):
    from django.template import loader

    alice.language = "de"
    alice.save()
    languages: list[str] = []
    real = loader.render_to_string
    monkeypatch.setattr(notify, "render_to_string", lambda *a, **k: languages.append(translation.get_language())
                        or real(*a, **k))
    notify.badge_messages({alice.pk, bob.pk})  # drawn in user id order
    assert languages == (["de", "en"] if alice.pk < bob.pk else ["en", "de"])


def test_in_users_language_sets_language_and_zone(make_user):
    from config.i18n import in_users_language

    dora = make_user("dora", language="nl", time_zone="Europe/Amsterdam")
    with in_users_language(dora):
        assert translation.get_language() == "nl"
        assert timezone.get_current_timezone_name() == "Europe/Amsterdam"
    with in_users_language(None):
        assert translation.get_language() == "en" and timezone.get_current_timezone_name() == "UTC"


# --- Mail: a Dutch player's "your turn" (issue 23's mail check) -----------------------------

class KeepingSMTP:
    def __init__(self):
        self.messages: list[email.message.Message] = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 2.0.0 OK"


@pytest.fixture
def smtp_server(settings):
    from aiosmtpd.controller import Controller

    from tests.browser.fixtures import _free_port

    handler = KeepingSMTP()
    controller = Controller(handler, hostname="127.0.0.1", port=_free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", controller.port, False
    yield handler
    controller.stop()


def _text(message: email.message.Message) -> tuple[str, str]:
    from email.header import decode_header, make_header

    body = message.get_payload(decode=True).decode(message.get_content_charset() or "utf-8")
    return str(make_header(decode_header(message["Subject"]))), body


def test_a_dutch_player_gets_a_dutch_turn_mail_in_local_time(start_game, make_user, alice, run_tasks, smtp_server,
                                                             monkeypatch):
    """The mail is written under the recipient's language and zone whoever moved (an English
    player here): the deadline in Amsterdam's time with the zone named, and no sentence the
    catalogues translate into Dutch left in English."""
    from games import mail as mail_module
    from tests.i18n.po import untranslated

    from django.core.cache import caches

    caches["presence"].clear()
    dora = make_user("dora", language="nl", time_zone="Europe/Amsterdam")
    rendered_in: list[tuple[str, str]] = []
    real = mail_module.render_to_string
    monkeypatch.setattr(mail_module, "render_to_string", lambda *a, **k: rendered_in.append(
        (translation.get_language(), timezone.get_current_timezone_name())) or real(*a, **k))
    game = start_game(SLUG, [dora, alice], pace="correspondence", days_per_move=2)
    if game.to_act() != [0]:  # make it Dora's turn: Alice moves
        seat, action = a_move(game)
        from games import engine

        engine.submit(game.pk, alice, action)
        game.refresh_from_db()
    assert game.to_act() == [0]
    with translation.override("en"):  # the worker's own language is English
        run_tasks(only="send_turn_mail")
    [message] = [m for m in smtp_server.messages if m["To"] == dora.email]
    subject, body = _text(message)
    assert set(rendered_in) == {("nl", "Europe/Amsterdam")}
    deadline = game.seats.get(index=0).deadline.astimezone(timezone.get_default_timezone())
    local = deadline.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Amsterdam"))
    assert f"{local:%H:%M} {local.tzname()}" in body, body  # local time, zone named
    assert "UTC" not in body
    lines = [subject] + [line for line in body.splitlines() if line.strip()]
    assert untranslated(lines, "nl") == [], "left in English in a Dutch mail"


# --- The digest at each player's local morning -------------------------------------------

def test_the_hourly_digest_run_mails_the_players_whose_morning_it_is(start_game, make_user, settings):
    from games.mail import daily_digests
    from games.models import MailLog

    settings.DIGEST_HOUR = 7
    amsterdam = make_user("anna", email_digest=True, time_zone="Europe/Amsterdam")
    tokyo = make_user("taro", email_digest=True, time_zone="Asia/Tokyo")
    for player, other in ((amsterdam, make_user("o1")), (tokyo, make_user("o2"))):
        start_game(SLUG, [player, other], pace="correspondence", days_per_move=3)
    winter_morning_in_amsterdam = datetime(2026, 1, 15, 6, 0, tzinfo=UTC)  # 07:00 CET, 15:00 in Tokyo
    waiting = {u.pk for u in (amsterdam, tokyo)}
    sent = daily_digests(at=winter_morning_in_amsterdam)
    mailed = set(MailLog.objects.filter(kind="digest").values_list("user_id", flat=True))
    assert mailed <= waiting and tokyo.pk not in mailed
    assert sent == len(mailed)
    daily_digests(at=datetime(2026, 1, 14, 22, 0, tzinfo=UTC))  # 07:00 in Tokyo
    again = set(MailLog.objects.filter(kind="digest").values_list("user_id", flat=True)) - mailed
    assert amsterdam.pk not in again
    from games.mail import zones_at_hour

    assert zones_at_hour(["Europe/Amsterdam", "Asia/Tokyo", "UTC"], winter_morning_in_amsterdam, 7) == [
        "Europe/Amsterdam"]
    assert zones_at_hour(["Europe/Amsterdam", "Asia/Tokyo", "UTC"], datetime(2026, 7, 15, 5, 0, tzinfo=UTC), 7) == [
        "Europe/Amsterdam"]  # summer: 07:00 CEST is 05:00 UTC
