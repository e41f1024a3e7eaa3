"""One account of how a game ended (issue 17 build 1, rows 3, 4 and 6): the engine records
every ending with its reason, who and when; the result screen, ratings, the record and the
profile read it."""
from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.models import RatingEvent
from games import engine
from games.models import Game, Seat
from games.record import RecordError, export_record, import_record, load_record
from games.rules import bot_for
from games.signals import game_finished
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"


def play(game, users: dict, until, limit=3000) -> Game:
    """Each waiting player plays its bot's choice until `until(game)`."""
    for step in range(limit):
        game = Game.objects.get(pk=game.pk)
        if until(game) or not game.is_active:
            return game
        seat = game.to_act()[0]
        engine.submit(game.pk, users[seat], bot_for(game.game_slug).choose(game.state, seat, random.Random(step)))
    raise AssertionError("never reached")


def both_moved(game, users):
    return play(game, users, lambda g: set(g.seats_moved) == set(users))


def time_out_waiting_seat(game) -> int:
    [late] = game.to_act()
    Seat.objects.filter(game=game, index=late).update(running_since=game.seats.get(index=late).running_since
                                                     - timedelta(days=30))
    assert engine.expire(game.pk, late)
    return late


def as_downloaded(record):
    return json.loads(json.dumps(record))


# --- resignation: ranked last, said so, rated so ---------------------------------------

def test_a_resignation_is_recorded_with_who_and_when_and_the_result_screen_never_shows_the_resigner_first(
        start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    game = both_moved(game, {0: alice, 1: bob})
    moves_before = game.version
    engine.resign(game.pk, alice)
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED and game.ending == Game.Ending.RESIGNED
    assert game.ended_by == alice and game.ended_by_seat == 0 and game.ended_on_move == moves_before
    page = client_for(bob).get(f"/play/{game.pk}/").content.decode()
    assert f"alice resigned on move {moves_before}." in page
    assert "bob win" in page and "alice win" not in page
    ranking = page[page.index('class="ranking"'):page.index("</ol>", page.index('class="ranking"'))]
    assert ranking.index("1st") < ranking.index("bob") < ranking.index("2nd") < ranking.index("alice"), \
        "the winner is listed first, the resigner last"


def test_ratings_read_the_ending_through_the_game_finished_signal(start_game, alice, bob):
    heard = []
    game_finished.connect(lambda sender, game, **kw: heard.append((game.pk, game.ending)), weak=False,
                          dispatch_uid="test-heard")
    try:
        game = start_game(SLUG, [alice, bob])
        game = both_moved(game, {0: alice, 1: bob})
        engine.resign(game.pk, alice)
    finally:
        game_finished.disconnect(dispatch_uid="test-heard")
    assert heard == [(game.pk, Game.Ending.RESIGNED)], "one signal, once, carrying the ending"
    events = {e.user_id: e for e in RatingEvent.objects.filter(game=game)}
    assert events[alice.pk].rank == 2 and events[bob.pk].rank == 1
    assert Game.objects.get(pk=game.pk).rated


def test_accounts_rate_as_a_receiver_not_called_by_the_engine():
    import ast
    import inspect

    from games import core, finishing, moves, publisher, rematch

    for module in (core, finishing, moves, rematch, publisher):
        imported = {node.module or "" for node in ast.walk(ast.parse(inspect.getsource(module)))
                    if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(ast.parse(inspect.getsource(module)))
                     if isinstance(node, ast.Import) for alias in node.names}
        assert not any(name.startswith("accounts") for name in imported), module.__name__
    assert any("rate_finished_game" in repr(receiver) for receiver in game_finished.receivers)


# --- timeout with a bot finishing the seat ------------------------------------------

def test_a_timeout_the_bot_finished_is_the_ending_and_the_sentence(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    users = {0: alice, 1: bob}
    game = both_moved(game, users)
    late = time_out_waiting_seat(game)
    since = Seat.objects.get(game=game, index=late).bot_since
    game = play(game, users, lambda g: not g.is_active)
    assert game.ending == Game.Ending.TIMEOUT and game.ended_by_seat == late and game.ended_on_move == since
    name = users[late].username
    assert engine.ending_sentences(game) == [f"{name} ran out of time on move {since}; a bot finished the seat."]
    seats = {s.index: s for s in game.seats.all()}
    assert seats[late].rank == 2 and seats[1 - late].rank == 1
    page = client_for(users[1 - late]).get(f"/play/{game.pk}/").content.decode()
    assert f"{name} ran out of time on move {since}; a bot finished the seat." in page
    assert f"{name} win" not in page


# --- no-show: aborted, unrated (row 4) --------------------------------------------------

def test_a_rated_game_nobody_moved_in_is_aborted_unrated_not_finished_by_bots(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], clock_minutes=1)
    assert game.is_rated
    [first] = game.to_act()
    Seat.objects.filter(game=game, index=first).update(running_since=game.seats.get(index=first).running_since
                                                      - timedelta(minutes=2))
    assert engine.expire(game.pk, first)
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.ABORTED and game.ending == Game.Ending.NO_SHOW
    assert game.ended_by_seat == first and game.version == 0, "no bot finished the game"
    assert not game.rated and not RatingEvent.objects.filter(game=game).exists()
    assert all(s.rank is None for s in game.seats.all())
    assert not game.seats.filter(running_since__isnull=False).exists(), "no clock left running"
    page = client_for(alice).get(f"/play/{game.pk}/").content.decode()
    assert "never moved before the clock ran out: the game was aborted, unrated" in page


def test_a_player_who_never_moved_is_a_no_show_even_after_the_other_moved(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], clock_minutes=1)
    users = {0: alice, 1: bob}
    [first] = game.to_act()
    game = play(game, users, lambda g: first in g.seats_moved and g.to_act() == [1 - first])
    time_out_waiting_seat(game)
    game = Game.objects.get(pk=game.pk)
    assert game.ending == Game.Ending.NO_SHOW and game.ended_by == users[1 - first]


def test_the_help_page_states_the_no_show_rule(client):
    page = client.get("/help/").content.decode()
    assert 'id="no-show-rule"' in page and "aborted, unrated" in page


# --- aborts -------------------------------------------------------------------------

def test_an_abort_by_a_player_and_by_the_staff_are_told_apart(start_game, alice, bob, admin_user):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    engine.abort(game.pk, by_user=bob, reason="changed my mind")
    game = Game.objects.get(pk=game.pk)
    assert game.ending == Game.Ending.ABORTED and game.ended_by == bob and game.ended_by_seat == 1
    assert engine.ending_sentences(game) == ["bob aborted the game on move 0; it counts for nobody."]
    other = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    engine.abort_game(other.pk, by=admin_user, reason="admin")
    other = Game.objects.get(pk=other.pk)
    assert other.ending == Game.Ending.STAFF and other.ended_by == admin_user and other.ended_by_seat is None


def test_a_game_played_to_the_end_says_so(start_game):
    game = start_game(SLUG, [None, None])
    game = Game.objects.get(pk=game.pk)
    assert game.ending == Game.Ending.NORMAL and game.ended_by is None
    assert engine.ending_sentences(game) == ["The game was played to the end."]


# --- records (row 6) ------------------------------------------------------------------

def test_a_resigned_game_exports_its_ending_and_imports(start_game, alice, bob):
    game = both_moved(start_game(SLUG, [alice, bob]), {0: alice, 1: bob})
    engine.resign(game.pk, bob)
    game = Game.objects.get(pk=game.pk)
    record = as_downloaded(export_record(game))
    assert record["ending"]["kind"] == "resigned" and record["ending"]["name"] == "bob"
    assert record["seats"][1]["left"] == {"how": "resigned", "move": game.ended_on_move}
    assert record["result"]["ranking"] == [1, 2]
    replayed = import_record(record)
    assert replayed.ranking == [1, 2] and replayed.ending == "resigned"
    record["result"]["ranking"] = [2, 1]
    with pytest.raises(RecordError, match="differs"):
        import_record(record)


def test_a_timed_out_game_exports_its_ending_and_imports(start_game, alice, bob):
    users = {0: alice, 1: bob}
    game = both_moved(start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1), users)
    late = time_out_waiting_seat(game)
    game = play(game, users, lambda g: not g.is_active)
    record = as_downloaded(export_record(game))
    assert record["ending"]["kind"] == "timeout" and record["seats"][late]["left"]["how"] == "timeout"
    assert record["result"]["ranking"][late] == 2
    assert import_record(record).ranking == [s.rank for s in game.ordered_seats()]


def test_an_aborted_game_exports_its_ending_and_imports_without_a_result(start_game, alice, bob, tmp_path, capsys):
    game = start_game(SLUG, [alice, bob], pace="correspondence", days_per_move=1)
    [first] = game.to_act()
    game = play(game, {0: alice, 1: bob}, lambda g: g.version > 0)
    engine.abort(game.pk, by_user=alice)
    record = as_downloaded(export_record(Game.objects.get(pk=game.pk)))
    assert record["status"] == "aborted" and record["ending"]["kind"] == "aborted" and "result" not in record
    path = tmp_path / "aborted.json"
    path.write_text(json.dumps(record))
    call_command("import_game", str(path))
    assert "ended: aborted" in capsys.readouterr().out


def test_deeply_nested_json_is_refused_with_a_clear_error_not_a_recursion_error(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(RecordError, match="nests deeper"):
        load_record(deep)
    path = tmp_path / "deep.json"
    path.write_text('{"format": ' + deep + "}")
    with pytest.raises(CommandError, match="nests deeper"):
        call_command("import_game", str(path))
    nested: list = []
    for _ in range(5000):
        nested = [nested]
    with pytest.raises(RecordError, match="nests deeper"):
        import_record({"format": nested})


# --- the profile and the replay read the same account ----------------------------------

def test_the_profile_and_the_replay_tell_how_a_resigned_game_ended(start_game, alice, bob, client):
    game = both_moved(start_game(SLUG, [alice, bob]), {0: alice, 1: bob})
    engine.resign(game.pk, alice)
    game = Game.objects.get(pk=game.pk)
    sentence = f"alice resigned on move {game.ended_on_move}."
    assert sentence in client.get(reverse("accounts:profile", args=["bob"])).content.decode()
    assert sentence in client.get(f"/play/{game.pk}/replay/").content.decode()
    assert sentence not in client.get(f"/play/{game.pk}/replay/?step=1").content.decode()
