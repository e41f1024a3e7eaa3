"""Players: search, follow, block, challenges (accept/decline/expiry), quick pairing,
reliability; every game through the engine."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import engine
from games.models import Game
from social import blocks, services
from social.models import Challenge, Seek
from social.tasks import expire_challenges, pair_pools
from tests.fixtures import client_for

SLUG = "roll-to-the-top"
TERMS = {"game_slug": SLUG, "options": {}, "seats": 2, "pace": "live", "rated": True,
         "days_per_move": None, "clock_minutes": 10, "clock_increment": 5}


def _queries(fn) -> int:
    with CaptureQueriesContext(connection) as captured:
        fn()
    return len(captured.captured_queries)


def test_search_is_a_case_insensitive_prefix_in_constant_queries(django_user_model, alice_client):
    django_user_model.objects.bulk_create(django_user_model(username=f"Hiker{i:03}") for i in range(100))
    django_user_model.objects.create(username="mountaingoat")
    page = alice_client.get("/players/?q=hIKER00")
    assert page.status_code == 200
    assert all(f"Hiker00{i}" in page.content.decode() for i in range(10))
    assert "Hiker010" not in page.content.decode() and "mountaingoat" not in page.content.decode()
    ten = _queries(lambda: alice_client.get("/players/?q=hiker00"))   # 10 matches
    hundred = _queries(lambda: alice_client.get("/players/?q=hiker"))  # 100 matches (30 shown)
    assert ten == hundred
    assert alice_client.get("/players/?q=").status_code == 200


def test_follow_block_and_the_profile_actions(alice, bob, alice_client):
    assert alice_client.get("/players/bob/follow/").status_code == 405  # POST only
    alice_client.post("/players/bob/follow/")
    assert services.friends_now(alice) == []  # bob is neither online nor playing
    engine.start_game(SLUG, [engine.SeatPlan(bob), engine.SeatPlan(is_bot=True)], {})
    assert [f.user for f in services.friends_now(alice)] == [bob]
    home = alice_client.get("/")
    assert "Friends online / playing now" in home.content.decode() and "bob" in home.content.decode()
    alice_client.post("/players/bob/block/")
    assert blocks.is_blocked(bob, alice) and blocks.is_blocked(alice, bob)
    assert services.friends_now(alice) == []  # blocking ends the follow
    alice_client.post("/players/bob/unblock/")
    assert not blocks.is_blocked(alice, bob)


def test_challenge_accept_starts_the_game_through_the_engine(alice, bob, charlie):
    challenge = services.create_challenge(alice, [bob, charlie], {**TERMS, "seats": 4})
    assert challenge.bots == 1 and len(mail.outbox) == 2
    services.accept(challenge.pk, bob)
    assert Challenge.objects.get(pk=challenge.pk).status == "open"  # charlie has not answered
    challenge = services.accept(challenge.pk, charlie)
    game = Game.objects.get(pk=challenge.game_id)
    seats = game.ordered_seats()
    assert {s.user for s in seats if s.user} == {alice, bob, charlie} and sum(s.is_bot for s in seats) == 1
    assert (game.clock_minutes, game.clock_increment, game.is_rated) == (10, 5, False)  # a bot: never rated
    with pytest.raises(services.SocialError, match="no longer open"):
        services.decline(challenge.pk, bob)


def test_decline_and_expiry_tell_the_sender(alice, bob, charlie):
    declined = services.create_challenge(alice, [bob], TERMS)
    services.decline(declined.pk, bob)
    assert Challenge.objects.get(pk=declined.pk).status == "declined"
    assert mail.outbox[-1].to == ["alice@example.com"] and "declined" in mail.outbox[-1].subject
    old = services.create_challenge(alice, [charlie], TERMS)
    Challenge.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert expire_challenges.call() == 1
    assert Challenge.objects.get(pk=old.pk).status == "expired"
    assert "expired" in mail.outbox[-1].subject
    with pytest.raises(services.SocialError):
        services.accept(old.pk, charlie)


def test_a_blocked_player_is_refused_everywhere(alice, bob, bob_client):
    blocks.block(alice, bob)
    with pytest.raises(services.SocialError, match="blocked"):
        services.create_challenge(bob, [alice], TERMS)
    page = bob_client.post("/challenges/new/", {"game_slug": SLUG, "seats": 2, "pace": "live", "invitees": "alice",
                                                "clock_minutes": 10, "clock_increment": 0})
    assert page.status_code == 400 and "blocked" in page.content.decode()
    with pytest.raises(services.SocialError):
        services.follow(bob, alice)
    # quick pairing: both wait in the same pool for a long time, never paired
    a = services.seek(alice, {**TERMS, "rated": True})
    b = services.seek(bob, {**TERMS, "rated": True})
    Seek.objects.update(created=timezone.now() - timedelta(minutes=5))
    assert services.pair_pool(SLUG, "live", 2) == 0
    assert Seek.objects.get(pk=a.pk).status == Seek.objects.get(pk=b.pk).status == "waiting"


def test_quick_pairing_pairs_the_closest_and_can_be_cancelled(alice, bob, charlie, make_user):
    first = services.seek(alice, TERMS)
    assert first.status == "waiting"
    services.cancel_seek(first.pk, alice)
    assert Seek.objects.get(pk=first.pk).status == "cancelled"
    services.seek(alice, TERMS)
    paired = services.seek(bob, TERMS)
    assert paired.status == "paired" and {s.user for s in paired.game.seats.all()} == {alice, bob}
    # correspondence seeks wait for days and are paired by the worker's pass
    services.seek(charlie, {**TERMS, "pace": "correspondence", "clock_minutes": None, "days_per_move": 3})
    dave = make_user("dave")
    Seek.objects.create(user=dave, rating=1000, **{**TERMS, "pace": "correspondence", "clock_minutes": None,
                                                    "days_per_move": 3})
    assert pair_pools.call() == 1
    assert Game.objects.filter(pace="correspondence").count() == 1


def test_quick_pairing_pages(alice, bob):
    a, b = client_for(alice), client_for(bob)
    waiting = a.post("/play-now/", {"game_slug": SLUG, "seats": 2, "pace": "live"})
    assert waiting.status_code == 302 and "/play-now/" in waiting["Location"]
    assert "Looking for players" in a.get(waiting["Location"]).content.decode()
    started = b.post("/play-now/", {"game_slug": SLUG, "seats": 2, "pace": "live"})
    assert started["Location"].startswith("/play/")
    poll = a.get(waiting["Location"], HTTP_HX_REQUEST="true")
    assert poll["HX-Redirect"] == started["Location"]


def test_reliability_counts_the_last_games(alice, bob, start_game):
    game = start_game(SLUG, [alice, bob])
    engine.resign(game.pk, alice)
    other = start_game(SLUG, [alice, bob])
    engine.resign(other.pk, bob)
    mine = services.reliability(alice)
    assert (mine.games, mine.finished, mine.resigned, mine.timed_out) == (2, 1, 1, 0)
    assert mine.finished_share == 50
    page = client_for(bob).get(alice.get_absolute_url())
    assert "50%</strong> played to the end" in page.content.decode()


@pytest.mark.postgres
def test_search_uses_the_username_index_on_postgresql(django_user_model):
    django_user_model.objects.bulk_create(django_user_model(username=f"walker{i}") for i in range(2000))
    query = django_user_model.objects.filter(username__istartswith="walker19", is_active=True).order_by("username")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE accounts_user")
    plan = query.explain()
    assert "social_username_upper" in plan, plan


def test_play_again_with_the_players_of_a_finished_game(alice, bob, charlie, start_game, alice_client):
    game = start_game(SLUG, [alice, bob, charlie, None], pace="correspondence", days_per_move=2)
    engine.resign(game.pk, charlie)
    engine.resign(game.pk, bob)
    engine.resign(game.pk, alice)
    Game.objects.filter(pk=game.pk).update(status="finished", finished_at=timezone.now())
    inbox = alice_client.get("/challenges/").content.decode()
    assert f"/challenges/new/?game={game.pk}" in inbox
    form = alice_client.get(f"/challenges/new/?game={game.pk}").content.decode()
    assert 'value="bob, charlie"' in form and 'value="correspondence" required id="id_pace_1" checked' in form
    assert 'value="bob, charlie"' not in client_for(charlie).get("/challenges/new/?game=999999").content.decode()
