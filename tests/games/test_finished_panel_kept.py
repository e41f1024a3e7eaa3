"""A finished game's board, History and score rows are kept in the cache (games.panel.
shown_panel_context, issue 21 item 5): the second render of a finished panel draws no board,
and every render still shows what can change after the end (rematch, ratings, a message, the
clocks) and only what its own audience may see, in its own words.

Every kept render is compared with the panel drawn in full (games.panel.seat_panel_context and
games.shell, what the page drew before), tokens aside."""
from __future__ import annotations

import re
import uuid
from unittest import mock

import pytest
from django.core.cache import cache
from django.utils import timezone, translation

from tests.fixtures import client_for, play_random_moves
from accounts.models import RatingEvent
from games import engine, panel as panel_module, presenters, shell
from games.models import Game
from games.panel import kept_key, render_panel_for_seat, seat_panel_context

pytestmark = pytest.mark.django_db

# What differs between two renders of the same panel: a move token, a CSRF token, the clocks' "now".
TOKEN = re.compile(r"\b[0-9a-f]{32}\b|\b[A-Za-z0-9]{64}\b|(?<=data-now=\")\d+")
GAMES = ["alpine-trails", "nanga-parbat", "rift-valley-reserve", "rifugio", "roll-to-the-top"]


def forget_kept_parts(monkeypatch) -> None:
    """Nothing kept so far: every kept key changes (a new KEPT_FORMAT, as a deploy's). Not
    cache.clear(): on Redis that empties the database the other test process is counting
    in (a rate-limit test there saw its counter vanish)."""
    monkeypatch.setattr(panel_module, "KEPT_FORMAT", f"{panel_module.KEPT_FORMAT}-{uuid.uuid4().hex}")


@pytest.fixture(autouse=True)
def _nothing_kept(monkeypatch):
    forget_kept_parts(monkeypatch)


def fresh(game) -> Game:
    """The game as a new request reads it (nothing remembered on the object)."""
    return Game.objects.prefetch_related("seats__user").get(pk=game.pk)


def full(game, seat, **kwargs) -> str:
    """The panel drawn in full, nothing kept: what every render showed before."""
    return TOKEN.sub("T", shell.render_panel(seat_panel_context(fresh(game), seat, **kwargs)))


def shown(game, seat, **kwargs) -> str:
    return TOKEN.sub("T", render_panel_for_seat(fresh(game), seat, **kwargs))


def region(html: str, name: str) -> str:
    return html.split(f"<!--r:{name}-->")[1].split(f"<!--/r:{name}-->")[0]


@pytest.fixture
def board_work():
    """Counts the board's and the History's drawing: the presenter's context, its History."""
    with mock.patch.object(presenters, "board_context", wraps=presenters.board_context) as boards, \
            mock.patch.object(presenters, "history", wraps=presenters.history) as histories:
        yield lambda: boards.call_count + histories.call_count


def finished(start_game, slug, users, **kwargs):
    game = play_random_moves(start_game(slug, users, **kwargs), users, 10_000)
    assert not game.is_active
    return game


@pytest.mark.parametrize("slug", GAMES)
def test_kept_panels_are_the_full_panels_every_audience_both_languages(start_game, alice, bob, charlie, board_work,
                                                                       slug):
    users = [alice, bob] if slug == "nanga-parbat" else [alice, bob, charlie]
    game = finished(start_game, slug, users)
    for language in ("en", "de"):
        with translation.override(language):
            for seat in [*range(len(users)), None]:
                expected = full(game, seat, oob=True)
                before = board_work()
                first = shown(game, seat, oob=True)          # drawn and kept
                assert board_work() == before + 2
                assert cache.get(kept_key(fresh(game), seat)) is not None
                second = shown(game, seat, oob=True)         # from what was kept
                third = shown(game, seat)                    # fetched rather than pushed
                assert board_work() == before + 2, "a kept panel draws no board and no History"
                assert first == second == expected
                assert third == full(game, seat)


def test_a_seats_kept_board_is_never_anothers_nor_a_spectators(start_game, alice, bob, charlie, monkeypatch):
    users = [alice, bob, charlie]
    game = finished(start_game, "rift-valley-reserve", users)
    mine = shown(game, 0)
    assert cache.get(kept_key(fresh(game), 0)) is not None
    for seat in (1, 2, None):
        assert kept_key(fresh(game), seat) != kept_key(fresh(game), 0)
        theirs = shown(game, seat)
        assert theirs == full(game, seat)
        assert region(theirs, "board") != region(mine, "board"), "each audience its own board"
    # and the other way round: a spectator's board kept first is not what seat 0 gets
    forget_kept_parts(monkeypatch)
    spectator = shown(game, None)
    assert shown(game, 0) == mine != spectator


def test_languages_and_time_zones_are_kept_apart(start_game, alice, bob):
    game = finished(start_game, "nanga-parbat", [alice, bob])
    english = shown(game, 0)
    with translation.override("de"):
        german = shown(game, 0)
        assert german == full(game, 0)
        assert kept_key(fresh(game), 0).split(":")[-3] == "de"
    assert region(german, "board") != region(english, "board")
    assert region(german, "history") != region(english, "history")
    assert shown(game, 0) == english
    with timezone.override("Pacific/Auckland"):
        key = kept_key(fresh(game), 0)
    assert key != kept_key(fresh(game), 0) and "Pacific/Auckland" in key


def test_a_rematch_offered_after_the_end_shows_on_a_kept_panel(start_game, alice, bob, board_work):
    game = finished(start_game, "roll-to-the-top", [alice, bob])
    stamp = fresh(game).updated
    kept = {seat: shown(game, seat) for seat in (0, 1, None)}
    assert "Offer a rematch" in kept[0]
    engine.accept_rematch(game.pk, alice)
    # The offer moves the game's stamp on (and so its key); put it back, so that only the
    # per-render reading of the offer can show it: the kept parts are the ones drawn before.
    Game.objects.filter(pk=game.pk).update(updated=stamp)
    for seat in (0, 1, None):
        before = board_work()
        html = shown(game, seat, oob=True)
        assert board_work() == before, "the kept parts were used"
        assert html == full(game, seat, oob=True)
        assert region(html, "board") == region(kept[seat], "board")
    assert "Waiting for the others to accept the rematch." in shown(game, 0)
    assert "Accept the rematch" in shown(game, 1) and "Rematch accepted by" in shown(game, 1)
    engine.accept_rematch(game.pk, bob)                      # started: both pages go to the new game
    for seat in (0, 1):
        html = shown(game, seat, oob=True)
        assert "go to the new game" in html and "data-redirect" in html
        assert html == full(game, seat, oob=True)


def test_rating_rows_written_after_a_kept_render_show_up(start_game, alice, bob, charlie, board_work):
    game = finished(start_game, "rifugio", [alice, bob, charlie])
    assert fresh(game).rated
    events = list(RatingEvent.objects.filter(game=game))
    assert events, "the game was rated"
    RatingEvent.objects.filter(game=game).delete()           # as before the worker wrote them
    kept = {seat: shown(game, seat) for seat in (0, 1, None)}
    assert 'class="rating-change">rating' not in kept[0]
    for event in events:
        event.pk = None
    RatingEvent.objects.bulk_create(events)                  # written later, the game's row untouched
    for seat in (0, 1, None):
        before = board_work()
        html = shown(game, seat)
        assert board_work() == before, "the kept parts were used"
        assert html == full(game, seat)
        assert html != kept[seat] and 'class="rating-change">rating' in html
        assert region(html, "board") == region(kept[seat], "board")


def test_what_is_drawn_per_render_on_a_kept_panel(start_game, alice, bob, board_work):
    game = finished(start_game, "roll-to-the-top", [alice, bob], clock_minutes=10, clock_increment=1)
    shown(game, 0)
    for kwargs in ({"message": "Not now & <b>never</b>.", "error": True}, {"message": "Saved"}, {"oob": True}):
        before = board_work()
        html = shown(game, 0, **kwargs)
        assert board_work() == before
        assert html == full(game, 0, **kwargs)
    assert 'class="clocks plain"' in shown(game, 0)


def test_a_renamed_player_is_drawn_again(start_game, alice, bob):
    game = finished(start_game, "nanga-parbat", [alice, bob])
    assert "alice" in shown(game, 1)
    alice.username = "alicia"
    alice.save(update_fields=["username"])
    html = shown(game, 1)
    assert html == full(game, 1) and "alicia" in region(html, "board")


def test_a_selection_in_the_address_is_drawn_in_full_and_not_kept(start_game, alice, bob, board_work):
    game = finished(start_game, "roll-to-the-top", [alice, bob])
    shown(game, 0)
    before = board_work()
    html = shown(game, 0, selection="d0")
    assert board_work() == before + 2
    assert html == full(game, 0, selection="d0")


def test_pages_of_a_finished_game_draw_the_board_once(start_game, alice, bob, client, board_work):
    game = finished(start_game, "rifugio", [alice, bob])
    before = board_work()
    pages = {}
    for name, who in (("alice", client_for(alice)), ("bob", client_for(bob)), ("visitor", client)):
        for url in (f"/play/{game.pk}/", f"/play/{game.pk}/panel/"):
            first, second = who.get(url), who.get(url)
            assert first.status_code == second.status_code == 200
            pages[name, url] = TOKEN.sub("T", first.content.decode())
            assert TOKEN.sub("T", second.content.decode()) == pages[name, url]
    assert board_work() == before + 2 * 3, "one board and one History per audience"
    panel = f"/play/{game.pk}/panel/"
    assert pages["alice", panel] == full(game, 0)
    assert pages["bob", panel] == full(game, 1)
    assert pages["visitor", panel] == full(game, None)


def test_the_kept_parts_are_read_once_per_render(start_game, alice, bob):
    game = finished(start_game, "alpine-trails", [alice, bob])
    shown(game, 0)
    with mock.patch.object(panel_module, "seat_panel_context", wraps=seat_panel_context) as drawn:
        shown(game, 0)
        shown(game, None)
    assert drawn.call_count == 1, "only the spectator's panel was drawn in full (the first of its audience)"


def test_rating_rows_are_in_each_audiences_language_from_one_game_object(start_game, alice, bob, charlie):
    """A push draws every (audience, language) from one game object: the rating rows' words,
    read once per object, are per language."""
    game = finished(start_game, "roll-to-the-top", [alice, bob, charlie])
    one = fresh(game)
    english = TOKEN.sub("T", render_panel_for_seat(one, 0))
    with translation.override("de"):
        german = TOKEN.sub("T", render_panel_for_seat(one, 0))
        assert german == full(game, 0)
    assert english == full(game, 0)
    assert 'class="rating-change">' in german and region(german, "head") != region(english, "head")
