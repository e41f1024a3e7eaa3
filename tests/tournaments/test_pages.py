"""Organising, joining and reading a tournament; round robin pairs everybody once."""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games import engine
from tests.fixtures import client_for
from tournaments import services
from tournaments.models import Pairing, Tournament

SLUG = "roll-to-the-top"


def test_organise_join_withdraw_and_read(alice, bob, alice_client):
    starts = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    bad = alice_client.post("/tournaments/new/", {"name": "x", "format": "swiss", "game_slug": SLUG,
                                                  "players_per_game": 9, "pace": "correspondence", "rounds": 3,
                                                  "starts_at": starts})
    assert bad.status_code == 200 and "errorlist" in bad.content.decode()
    made = alice_client.post("/tournaments/new/", {"name": "Winter Swiss", "format": "swiss", "game_slug": SLUG,
                                                   "players_per_game": 2, "pace": "correspondence", "rounds": 3,
                                                   "starts_at": starts, "rated": "on"})
    tournament = Tournament.objects.get(name="Winter Swiss")
    assert made["Location"] == tournament.get_absolute_url() and tournament.days_per_move == 3
    bob_client = client_for(bob)
    bob_client.post(f"/tournaments/{tournament.pk}/join/")
    assert set(tournament.entries.values_list("user__username", flat=True)) == {"alice", "bob"}
    page = bob_client.get(tournament.get_absolute_url()).content.decode()
    assert "Withdraw" in page and "Buchholz" in page and 'hx-trigger="every 20s"' in page
    bob_client.post(f"/tournaments/{tournament.pk}/withdraw/")
    assert tournament.entries.count() == 1
    assert "Winter Swiss" in client_for(bob).get("/tournaments/").content.decode()


def test_too_few_players_cancel_the_tournament(alice):
    tournament = Tournament.objects.create(name="t", organiser=alice, game_slug=SLUG, starts_at=timezone.now())
    services.sign_up(tournament, alice)
    services.tick()
    assert Tournament.objects.get(pk=tournament.pk).status == "cancelled"


def test_round_robin_of_three_gives_each_a_bye_and_everyone_meets(alice, bob, charlie):
    tournament = Tournament.objects.create(name="rr", organiser=alice, game_slug=SLUG, format="round_robin",
                                           pace="correspondence", days_per_move=2, starts_at=timezone.now())
    for user in (alice, bob, charlie):
        services.sign_up(tournament, user)
    met = set()
    for number in (1, 2, 3):
        services.tick()
        tournament.refresh_from_db()
        assert tournament.current_round == number
        (table,) = Pairing.objects.filter(round__number=number)
        seated = [s.user for s in table.game.seats.all()]
        met.add(frozenset(u.pk for u in seated))
        engine.resign(table.game.pk, seated[0])
    services.tick()
    tournament.refresh_from_db()
    assert tournament.status == "finished" and len(met) == 3
    rows = services.standings(tournament)
    assert sum(r.row.byes for r in rows) == 3 and sum(r.row.points for r in rows) == 3 + 3  # 3 games, 3 byes


def test_one_broken_tournament_does_not_stop_the_others(alice, bob):
    from tournaments.tasks import tick_tournaments

    broken = Tournament.objects.create(name="broken", organiser=alice, game_slug="gone-game", starts_at=timezone.now())
    fine = Tournament.objects.create(name="fine", organiser=alice, game_slug=SLUG, starts_at=timezone.now())
    for t in (broken, fine):
        for user in (alice, bob):
            t.entries.create(user=user)
    assert tick_tournaments.call() == 2
    assert Tournament.objects.get(pk=fine.pk).status == "running"
    assert Tournament.objects.get(pk=broken.pk).status == "signup"
    from django_tasks_db.models import DBTaskResult
    assert DBTaskResult.objects.filter(task_path__endswith="tick_tournaments", status="READY").count() == 1


def test_the_organiser_chooses_the_games_options_and_its_games_use_them(alice, alice_client):
    starts = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    switched = alice_client.get("/tournaments/new/?refresh=1&game_slug=rifugio&name=Spring&rounds=4",
                                headers={"HX-Request": "true"}).content.decode()
    assert 'name="opt_rivers_and_rafts"' in switched and 'name="opt_board"' not in switched
    assert 'value="Spring"' in switched, "what the organiser typed is kept"
    form = {"name": "Base only", "format": "swiss", "game_slug": "rifugio", "players_per_game": 2,
            "pace": "correspondence", "rounds": 2, "starts_at": starts, "opt_rivers_and_rafts": "False"}
    alice_client.post("/tournaments/new/", form)
    assert Tournament.objects.get(name="Base only").options["rivers_and_rafts"] is False
    alice_client.post("/tournaments/new/", {**form, "name": "Default", "opt_rivers_and_rafts": "True"})
    assert Tournament.objects.get(name="Default").options["rivers_and_rafts"] is True
    alice_client.post("/tournaments/new/", {**form, "name": "Other game", "game_slug": "nanga-parbat"})
    assert "rivers_and_rafts" not in Tournament.objects.get(name="Other game").options, "only the game's own"
