"""Arena: present players are paired at once, again as soon as their game ends; points with
a streak bonus; the arena closes at its end time once its last games ended."""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games import engine
from games.models import Game
from tests.fixtures import client_for
from tournaments import services
from tournaments.models import Pairing, Tournament

SLUG = "roll-to-the-top"


def _arena(organiser, **extra):
    now = timezone.now()
    return Tournament.objects.create(name="Blitz arena", organiser=organiser, format="arena", game_slug=SLUG,
                                     pace="live", clock_minutes=3, starts_at=now - timedelta(minutes=1),
                                     ends_at=now + timedelta(minutes=30), **extra)


def _active(tournament, user) -> Game:
    return Game.objects.get(tournament_pairing__tournament=tournament, status="active", seats__user=user)


def test_arena_pairs_again_at_once_with_a_streak_bonus(alice, bob, charlie, make_user):
    dave = make_user("dave")
    arena = _arena(alice)
    for user in (alice, bob, charlie, dave):
        services.sign_up(arena, user)
        services.arena_seen(arena, user)
    services.advance(arena.pk)
    assert Pairing.objects.filter(tournament=arena).count() == 2
    first = _active(arena, alice)
    opponent = next(s.user for s in first.seats.all() if s.user != alice)
    for _ in range(3):  # alice wins three in a row: 2, 2, then 4 (on fire)
        loser = next(s.user for s in _active(arena, alice).seats.all() if s.user != alice)
        engine.resign(_active(arena, alice).pk, loser)
        services.advance(arena.pk)  # recorded, and the two are paired again at once
    assert Pairing.objects.filter(tournament=arena).count() == 5
    leaders = services.arena_leaderboard(arena)
    assert (leaders[0].user, leaders[0].arena_points, leaders[0].streak) == (alice, 8, 3)
    assert {e.user: e.arena_points for e in leaders}[opponent] == 0


def test_absent_players_are_not_paired_and_the_arena_ends(alice, bob, charlie):
    arena = _arena(alice)
    for user in (alice, bob, charlie):
        services.sign_up(arena, user)
    services.arena_seen(arena, alice)
    services.advance(arena.pk)
    assert not Pairing.objects.filter(tournament=arena).exists()  # only alice is on the page
    poll = client_for(bob).get(f"/tournaments/{arena.pk}/arena/", HTTP_HX_REQUEST="true")
    game = _active(arena, bob)
    assert poll["HX-Redirect"] == game.get_absolute_url()  # bob's poll paired him with alice
    Tournament.objects.filter(pk=arena.pk).update(ends_at=timezone.now())
    services.advance(arena.pk)
    assert Tournament.objects.get(pk=arena.pk).status == "running"  # a game still runs
    engine.resign(game.pk, bob)
    services.advance(arena.pk)
    assert Tournament.objects.get(pk=arena.pk).status == "finished"
    page = client_for(charlie).get(f"/tournaments/{arena.pk}/")
    assert "Leaderboard" in page.content.decode()
