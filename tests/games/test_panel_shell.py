"""The panel's shell written in Python (games.shell, issue 21) draws what games/_panel.html drew.

The template is kept here (tests/games/reference/panel.html, with the clocks and table actions
it included written in place) and rendered beside games.shell on the same panel context:
every game at several points and at its end, every seat and a spectator, in English and in
German, pushed (out of band) and fetched, then the shell's rarer branches on real games: clocks
and a deadline, a resigned seat played by a bot, a vacation, a message and an error, a move
that can be taken back, a rated result, and every state of a rematch. The HTML must be the
same character for character: the live deltas (games.regions) cut pushes by these bytes."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.template import engines
from django.utils import timezone, translation

from tests.fixtures import play_random_moves
from games import engine, shell
from games.models import RematchOffer
from games.panel import seat_panel_context

pytestmark = pytest.mark.django_db

REFERENCE = Path(__file__).parent / "reference" / "panel.html"


def template_panel(panel: dict) -> str:
    return engines["django"].from_string(REFERENCE.read_text()).render(panel)


def assert_same_panel(game, seat, **kwargs):
    panel = seat_panel_context(game, seat, **kwargs)
    new = shell.render_panel(panel)
    assert new == template_panel(panel), first_difference(new, template_panel(panel))
    return new


def first_difference(new: str, old: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(new, old, strict=False)) if a != b), min(len(new), len(old)))
    return f"differs at {at}:\n shell:    {new[at - 120:at + 120]!r}\n template: {old[at - 120:at + 120]!r}"


@pytest.mark.parametrize("slug", ["alpine-trails", "nanga-parbat", "rift-valley-reserve", "rifugio",
                                  "roll-to-the-top"])
def test_every_game_at_start_middle_and_end(start_game, alice, bob, charlie, slug):
    users = [alice, bob] if slug == "nanga-parbat" else [alice, bob, charlie]
    game = start_game(slug, users)
    done = 0
    for stop in (0, 9, 10_000):
        game = play_random_moves(game, users, stop - done)
        done = stop
        for seat in [*range(len(users)), None]:
            for language in ("en", "de"):
                with translation.override(language):
                    assert_same_panel(game, seat, oob=seat != 1)
    assert not game.is_active, "the game was played to its end"
    html = assert_same_panel(game, 0)
    assert "final-result" in html and 'class="rating-change"' in html, "a rated result with its rating rows"


def test_clocks_deadline_vacation_and_a_bot_standing_in(start_game, alice, bob, charlie):
    game = start_game("roll-to-the-top", [alice, bob, charlie], pace="correspondence", days_per_move=2)
    game = play_random_moves(game, [alice, bob, charlie], 4)
    engine.resign(game.pk, alice)
    bob.vacation_until = timezone.now() + timedelta(days=3)
    bob.save(update_fields=["vacation_until"])
    game.refresh_from_db()
    game = type(game).objects.prefetch_related("seats__user").get(pk=game.pk)
    assert game.has_clock and game.turn_deadline
    for language in ("en", "de"):
        with translation.override(language):
            for seat in (0, 1, 2, None):
                html = assert_same_panel(game, seat, oob=True)
            assert 'class="clocks plain"' in html and "bot-note" in html
            assert_same_panel(game, 1, message="Not your turn & not now.", error=True)
            assert_same_panel(game, 2, message="<b>Saved</b>")


def test_a_move_that_can_be_taken_back(start_game, alice, bob):
    game = start_game("rift-valley-reserve", [alice, bob])
    mover = game.to_act()[0]
    game = play_random_moves(game, [alice, bob], 1)
    html = assert_same_panel(game, mover)
    assert_same_panel(game, 1 - mover)
    assert "undo-card" in html and "Take back my draw" in html


def test_every_state_of_a_rematch(start_game, alice, bob):
    game = start_game("roll-to-the-top", [alice, bob], clock_minutes=10, clock_increment=1)
    engine.resign(game.pk, alice)
    game.refresh_from_db()
    assert_same_panel(game, 0)                               # nothing offered yet
    engine.accept_rematch(game.pk, alice)
    game = type(game).objects.prefetch_related("seats__user").get(pk=game.pk)
    for seat in (0, 1, None):                                 # offered: accepted by one, asked of the other
        assert_same_panel(game, seat)
    RematchOffer.objects.filter(game=game).update(created=timezone.now() - timedelta(hours=25))
    game = type(game).objects.prefetch_related("seats__user").get(pk=game.pk)
    assert "expired" in assert_same_panel(game, 1)
    RematchOffer.objects.filter(game=game).update(created=timezone.now())
    engine.decline_rematch(game.pk, bob)
    game = type(game).objects.prefetch_related("seats__user").get(pk=game.pk)
    assert "declined" in assert_same_panel(game, 0)
    RematchOffer.objects.filter(game=game).update(status="open", declined_by=None)
    engine.accept_rematch(game.pk, bob)
    game = type(game).objects.prefetch_related("seats__user").get(pk=game.pk)
    for seat in (0, 1):
        for oob in (True, False):
            html = assert_same_panel(game, seat, oob=oob)
            assert "go to the new game" in html and ("data-redirect" in html) == oob


def test_an_aborted_game(start_game, alice, bob):
    game = start_game("roll-to-the-top", [alice, bob], pace="correspondence", days_per_move=1)
    engine.abort(game.pk, alice)
    game = type(game).objects.prefetch_related("seats__user").get(pk=game.pk)
    assert "aborted" in assert_same_panel(game, 0)
    assert_same_panel(game, None)
