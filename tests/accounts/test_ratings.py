"""Ratings: openskill's Plackett-Luce maths, the provisional mark, inactivity, the stored
events with their reasons, and `manage.py rerate`."""
from __future__ import annotations

import math
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import PROVISIONAL_SIGMA, Rating, RatingEvent
from accounts.ratings import PARAMETERS, Standing, rate_table, rerate

from .helpers import finished_game

BETA, TAU, KAPPA = PARAMETERS["beta"], PARAMETERS["tau"], PARAMETERS["kappa"]


def weng_lin_plackett_luce(players, ranks):
    """Weng & Lin (2011), Algorithm 4, written out by hand for one player per team (tau added
    to sigma first, ties share the 1/A weight): the values openskill must give."""
    players = [(mu, math.sqrt(s * s + TAU * TAU)) for mu, s in players]
    c = math.sqrt(sum(s * s + BETA * BETA for _, s in players))
    e = [math.exp(mu / c) for mu, _ in players]
    n = len(players)
    sum_q = [sum(e[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    a = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
    out = []
    for i, (mu, s) in enumerate(players):
        omega = delta = 0.0
        for q in (q for q in range(n) if ranks[q] <= ranks[i]):
            p = e[i] / sum_q[q]
            omega += ((1 - p) if q == i else -p) / a[q]
            delta += p * (1 - p) / a[q]
        out.append((mu + s * s / c * omega, s * math.sqrt(max(1 - (s / c) * s * s / (c * c) * delta, KAPPA))))
    return out


def flat(pairs):
    return [x for pair in pairs for x in pair]


def rated(players, ranks):
    changes, _ = rate_table([Standing(mu, s) for mu, s in players], ranks, timezone.now())
    return [x for c in changes for x in (c.mu_after, c.sigma_after)]


def test_a_two_player_win_moves_both_ratings_by_the_hand_computed_amount():
    players = [(25.0, 25 / 3), (25.0, 25 / 3)]
    got = rated(players, [1, 2])
    assert got == pytest.approx(flat(weng_lin_plackett_luce(players, [1, 2])), rel=1e-12)
    assert got[0] == pytest.approx(27.6353894931, rel=1e-9) and got[2] == pytest.approx(22.3646105069, rel=1e-9)


def test_a_four_player_game_with_a_tie_matches_the_hand_computed_values():
    players = [(25.0, 25 / 3), (30.0, 5.0), (20.0, 7.0), (27.0, 3.0)]
    ranks = [1, 2, 2, 4]
    got = rated(players, ranks)
    assert got == pytest.approx(flat(weng_lin_plackett_luce(players, ranks)), rel=1e-12)
    assert got[0] > 25 and got[6] < 27, "the winner gains, the last loses"


def test_inactivity_widens_sigma_by_the_documented_amount_per_day():
    now = timezone.now()
    standing = Standing(25.0, 4.0, now - timedelta(days=100))
    changes, _ = rate_table([standing, Standing()], [1, 2], now)
    assert changes[0].sigma_rated == pytest.approx(math.sqrt(16 + 100 * PARAMETERS["inactivity_sigma_per_day"] ** 2))


@pytest.mark.django_db
def test_a_newcomer_is_provisional_until_sigma_falls_below_the_threshold(alice, bob):
    start = timezone.now() - timedelta(hours=1)
    games = 0
    while Rating.objects.get(user=alice).provisional if games else True:
        finished_game([alice, bob], [1 + games % 2, 2 - games % 2], finished_at=start + timedelta(minutes=games))
        games += 1
        assert games < 30
    rating = Rating.objects.get(user=alice)
    assert rating.sigma < PROVISIONAL_SIGMA and not rating.display_label.endswith("?")
    previous = RatingEvent.objects.filter(user=alice).order_by("-id")[1]
    assert previous.sigma_after >= PROVISIONAL_SIGMA, "provisional exactly while sigma >= the threshold"


@pytest.mark.django_db
def test_a_long_absence_makes_a_steady_rating_provisional_again(alice, bob):
    long_ago = timezone.now() - timedelta(days=400)
    for i in range(14):
        finished_game([alice, bob], [1 + i % 2, 2 - i % 2], finished_at=long_ago + timedelta(hours=i))
    rating = Rating.objects.get(user=alice)
    assert rating.sigma < PROVISIONAL_SIGMA
    assert rating.provisional and rating.display_label.endswith("?")


@pytest.mark.django_db
def test_each_seat_gets_an_event_that_explains_its_change(alice, bob, charlie, make_user):
    dave = make_user("dave")
    game = finished_game([alice, bob, charlie, dave], [1, 2, 2, 4])
    events = {e.user_id: e for e in RatingEvent.objects.filter(game=game)}
    assert len(events) == 4
    first = events[alice.pk]
    assert (first.mu_before, first.sigma_before) == (25.0, 25 / 3)
    assert first.model == "PlackettLuce" and first.parameters == PARAMETERS
    assert first.table_average == 1000 and first.expected_rank in (1, 2, 3, 4)
    assert first.reason == f"{first.change:+d}: 1st of 4; table average 1000; you were expected " \
                           f"{['1st', '2nd', '3rd', '4th'][first.expected_rank - 1]}"
    assert first.change > 0 > events[dave.pk].change


@pytest.mark.django_db
def test_casual_and_bot_games_store_no_rating(alice, bob):
    finished_game([alice, bob], [1, 2], rated=False)
    assert not Rating.objects.exists() and not RatingEvent.objects.exists()


def snapshot():
    ratings = sorted((r.user_id, r.game_slug, r.mu, r.sigma, r.games_played) for r in Rating.objects.all())
    events = sorted((e.id, e.mu_before, e.sigma_before, e.mu_after, e.sigma_after, e.expected_rank)
                    for e in RatingEvent.objects.all())
    return ratings, events


@pytest.fixture
def rated_history(alice, bob, charlie):
    start = timezone.now() - timedelta(days=200)
    tables = [([alice, bob], [1, 2]), ([bob, charlie], [2, 1]), ([alice, bob, charlie], [1, 1, 3]),
              ([charlie, alice], [1, 2]), ([alice, charlie, bob], [3, 2, 1])]
    for i, (users, ranks) in enumerate(tables * 3):
        finished_game(users, ranks, finished_at=start + timedelta(days=9 * i))
    finished_game([alice, bob], [2, 1], slug="rifugio", finished_at=start)


@pytest.mark.django_db
def test_rerate_reproduces_the_stored_values_exactly(rated_history):
    before = snapshot()
    report = rerate()
    assert (report.events, report.changed_events, report.changed_ratings) == (len(before[1]), 0, 0)
    assert snapshot() == before


@pytest.mark.django_db
def test_rerate_repairs_a_tampered_rating_and_event(rated_history, alice):
    before = snapshot()
    Rating.objects.filter(user=alice, game_slug="roll-to-the-top").update(mu=40.0, games_played=1)
    RatingEvent.objects.filter(pk=RatingEvent.objects.order_by("id")[3].pk).update(mu_after=1.0)
    call_command("rerate", "--game", "roll-to-the-top", verbosity=0)
    assert snapshot() == before


@pytest.mark.django_db
def test_rerate_check_only_reports_without_writing(rated_history, alice, capsys):
    Rating.objects.filter(user=alice, game_slug="rifugio").update(mu=40.0)
    call_command("rerate", "--check")
    assert "1 rating" in capsys.readouterr().out
    assert Rating.objects.get(user=alice, game_slug="rifugio").mu == 40.0
