"""Replays of finished games start from cached checkpoints: any step costs a bounded
number of rule applications, whatever the game's length, and gives the exact state."""
from __future__ import annotations

import pytest

from games import engine

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"


@pytest.fixture
def finished_bot_game(start_game):
    game = start_game(SLUG, [None, None, None])
    assert not game.is_active and game.version > 3 * engine.REPLAY_CHECKPOINT
    return game


@pytest.fixture
def counted_applies(monkeypatch, finished_bot_game):
    ruleset = finished_bot_game.rules
    calls = []
    real = ruleset.apply

    def counting(state, seat, action):
        calls.append(1)
        return real(state, seat, action)

    monkeypatch.setattr(ruleset, "apply", counting)
    return calls


def brute_force(game, upto):
    state = game.rules.setup(game.players, game.options, game.seed)
    for move in game.moves.filter(seq__lte=upto).order_by("seq"):
        state = game.rules.apply(state, move.seat, move.action)
    return state


def test_every_replay_step_gives_the_exact_state(finished_bot_game):
    game = finished_bot_game
    for step in sorted({0, 1, 24, 25, 26, 50, 51, game.version - 1, game.version}):
        assert engine.replay_state(game, upto=step) == brute_force(game, step), step
    assert engine.replay_state(game) == game.state


def test_a_late_step_applies_at_most_one_checkpoints_worth_of_moves(finished_bot_game, counted_applies):
    game = finished_bot_game
    engine.replay_state(game)  # the first full replay leaves the checkpoints behind
    for step in (game.version, game.version - 1, 3 * engine.REPLAY_CHECKPOINT + 1):
        counted_applies.clear()
        engine.replay_state(game, upto=step)
        assert len(counted_applies) < engine.REPLAY_CHECKPOINT, step


def test_an_active_game_replays_from_the_start_since_moves_may_be_taken_back(start_game, alice, bob, counted_applies):
    game = start_game(SLUG, [alice, bob])
    assert engine.replay_state(game) == game.state


def test_a_replay_step_seen_before_comes_from_the_cache(client, finished_bot_game, counted_applies):
    url = f"/play/{finished_bot_game.pk}/replay/?step=60"
    first = client.get(url, headers={"HX-Request": "true"})
    applied_first = len(counted_applies)
    again = client.get(url, headers={"HX-Request": "true"})
    assert first.status_code == again.status_code == 200
    assert applied_first > 0 and len(counted_applies) == applied_first
    assert again.content == first.content and b'id="replay-body"' in again.content


def test_a_replay_page_seen_before_replays_nothing_and_each_language_has_its_own(client, finished_bot_game,
                                                                                 counted_applies):
    url = f"/play/{finished_bot_game.pk}/replay/?step=60"
    first = client.get(url)
    applied_first = len(counted_applies)
    again = client.get(url)
    assert first.status_code == again.status_code == 200 and b'id="replay-body"' in again.content
    assert applied_first > 0 and len(counted_applies) == applied_first, "the page reuses the cached step"
    client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert len(counted_applies) > applied_first, "a German reader does not get the English step"


def test_a_replay_step_seen_before_reads_only_the_game(client, finished_bot_game):
    """A finished game's steps (folded corrections included) are kept, and a step seen before
    needs no seat and no move: the session, the game's row, nothing else (issue 21)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = f"/play/{finished_bot_game.pk}/replay/?step=60"
    first = client.get(url, headers={"HX-Request": "true"})
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, headers={"HX-Request": "true"})
    assert again.content == first.content
    tables = " ".join(q["sql"] for q in queries.captured_queries).lower()
    assert "games_move" not in tables and "games_seat" not in tables
    assert len(queries.captured_queries) == 1, [q["sql"] for q in queries.captured_queries]


def test_kept_steps_are_the_steps_the_moves_give(finished_bot_game):
    from django.core.cache import cache

    from games.replay import step_seqs

    first = step_seqs(finished_bot_game)
    cache.clear()
    assert step_seqs(finished_bot_game) == first and first == step_seqs(finished_bot_game)
    assert len(first) <= finished_bot_game.version


# --- Checkpoints written by the worker when the game ends (issue 21) ----------------------

COLD_VISIT_QUERIES = 9
REPEAT_PAGE_QUERIES = 3


def cached_checkpoints(game):
    from django.core.cache import cache

    from games.replay import _checkpoint_key

    seqs = range(engine.REPLAY_CHECKPOINT, game.version + 1, engine.REPLAY_CHECKPOINT)
    return cache.get_many([_checkpoint_key(game, seq) for seq in seqs]), len(seqs)


def test_the_games_end_queues_the_checkpoints_and_a_cold_visit_then_applies_few_moves(
        alice_client, finished_bot_game, counted_applies, django_assert_max_num_queries):
    from games.replay import _checkpoint_key
    from tests.fixtures import run_due_tasks, tasks_done

    game = finished_bot_game
    assert cached_checkpoints(game)[0] == {}, "nothing is written before the worker runs"
    run_due_tasks()
    assert tasks_done("write_replay_checkpoints") == 1
    kept, expected = cached_checkpoints(game)
    assert len(kept) == expected
    for seq in (engine.REPLAY_CHECKPOINT, expected * engine.REPLAY_CHECKPOINT):
        assert kept[_checkpoint_key(game, seq)] == brute_force(game, seq)
    counted_applies.clear()
    # The first visit of a middle step (the first and last are drawn by the task): the
    # session, the user, the game, its seats and their users, the moves after the checkpoint
    # (one read, not one per move), the step's move, and the header's badge and bell.
    with django_assert_max_num_queries(COLD_VISIT_QUERIES):
        page = alice_client.get(f"/play/{game.pk}/replay/?step=60")
    assert page.status_code == 200 and b'id="replay-body"' in page.content
    assert 0 < len(counted_applies) <= engine.REPLAY_CHECKPOINT


def test_writing_the_checkpoints_again_writes_nothing_and_applies_nothing(finished_bot_game, counted_applies):
    from games.replay import write_checkpoints

    game = finished_bot_game
    assert write_checkpoints(game) == cached_checkpoints(game)[1]
    counted_applies.clear()
    assert write_checkpoints(game) == 0  # a second run, or a second worker after the first
    assert counted_applies == []


def test_a_run_cut_short_is_finished_by_the_next_from_the_last_kept_checkpoint(finished_bot_game, counted_applies):
    """A killed worker leaves the checkpoints it wrote; its task re-run (run_worker's sweep)
    writes the rest, replaying from the last kept one, not from the start."""
    from django.core.cache import cache

    from games.replay import _checkpoint_key, write_checkpoints

    game = finished_bot_game
    engine.replay_state(game, upto=2 * engine.REPLAY_CHECKPOINT)  # a visit (or a cut run) kept the first two
    counted_applies.clear()
    written = write_checkpoints(game)
    assert written == cached_checkpoints(game)[1] - 2
    assert len(counted_applies) == game.version - game.version % engine.REPLAY_CHECKPOINT - 2 * engine.REPLAY_CHECKPOINT
    cache.delete(_checkpoint_key(game, 3 * engine.REPLAY_CHECKPOINT))  # one lost (evicted)
    counted_applies.clear()
    assert write_checkpoints(game) == 1 and len(counted_applies) == engine.REPLAY_CHECKPOINT
    third = 3 * engine.REPLAY_CHECKPOINT
    assert engine.replay_state(game, upto=third) == brute_force(game, third)


def test_the_task_twice_on_one_game_is_harmless(finished_bot_game):
    from games.replay_page import write_replay_checkpoints
    from tests.fixtures import run_due_tasks, tasks_done

    write_replay_checkpoints.enqueue(finished_bot_game.pk)  # a duplicate (two workers, a re-run)
    assert run_due_tasks() >= 2
    assert tasks_done("write_replay_checkpoints") == 2
    from django_tasks_db.models import DBTaskResult

    results = DBTaskResult.objects.filter(task_path__endswith=".write_replay_checkpoints")
    assert sorted(r.status for r in results) == ["SUCCESSFUL", "SUCCESSFUL"]
    assert sorted(r.return_value for r in results) == [0, cached_checkpoints(finished_bot_game)[1]]


def test_an_active_game_gets_no_checkpoints(start_game, alice, bob):
    from games.replay import write_checkpoints
    from tests.fixtures import tasks_done

    game = start_game(SLUG, [alice, bob])
    assert write_checkpoints(game) == 0 and cached_checkpoints(game)[0] == {}
    from django_tasks_db.models import DBTaskResult

    assert not DBTaskResult.objects.filter(task_path__endswith=".write_replay_checkpoints").exists()
    assert tasks_done("write_replay_checkpoints") == 0


# --- The whole page seen again: the site's page kept too, the visitor's header drawn (issue 21) ---

def tokens_blanked(response) -> str:
    import re

    return re.sub(r"[A-Za-z0-9]{64}", "T", response.content.decode())  # a CSRF token is masked anew per page


@pytest.mark.parametrize("who", ["alice", "a visitor"])
def test_the_replay_page_kept_for_everyone_is_the_page_drawn_in_full(who, request, client, finished_bot_game,
                                                                     monkeypatch):
    from django.shortcuts import render

    from games import views

    reader = request.getfixturevalue("alice_client") if who == "alice" else client
    if who == "alice":  # a bell with unread lines and her own tab preferences in the header
        from notifications.models import Notification, Preferences

        alice = request.getfixturevalue("alice")
        for read in (False, False, True):
            Notification.objects.create(user=alice, kind="turn", text="Your move", url="/", read=read)
        Preferences.objects.create(user=alice, sound=True, theme="dark")
    reader.get(f"/play/{finished_bot_game.pk}/replay/?step=60")  # keeps the page around every step
    url = f"/play/{finished_bot_game.pk}/replay/?step=61"
    kept = reader.get(url)
    monkeypatch.setattr(views, "shell_page", lambda request, template, context, key, seconds, parts:
                        render(request, template, {**context(), **parts}))
    full = reader.get(url)
    assert kept.status_code == full.status_code == 200
    assert b"<!--shell:" not in kept.content and b'id="replay-body"' in kept.content
    assert (b"alice" in kept.content) == (who == "alice") and b"Move <strong>61</strong>" in kept.content
    assert (b'data-unread="2"' in kept.content and b'data-theme="dark"' in kept.content) == (who == "alice")
    assert tokens_blanked(kept) == tokens_blanked(full)


def test_the_replay_page_seen_before_draws_only_the_visitors_header(alice_client, bob_client, finished_bot_game,
                                                                    django_assert_max_num_queries):
    """The page kept by one reader serves another (the account corner is each one's own),
    and a repeat visit reads the session, the user and the game: the header's values (turn
    badge, bell, tab preferences) are the reader's record (config.header), kept by any page
    that drew their header (the lobby here)."""
    url = f"/play/{finished_bot_game.pk}/replay/?step=60"
    alice_client.get(url)
    bob_client.get("/")
    with django_assert_max_num_queries(REPEAT_PAGE_QUERIES):
        page = bob_client.get(url)
    assert b"bob" in page.content and b">alice<" not in page.content
    import re

    token = r'csrf(?:-token" content="|middlewaretoken" value=")([A-Za-z0-9]{64})'
    tokens = set(re.findall(token, page.content.decode()))
    assert len(tokens) == 1, "the page's meta and its forms carry the visitor's one token"


def test_the_games_end_draws_the_last_step_for_each_player_so_their_first_visit_draws_no_board(
        client, alice, alice_client, finished_bot_game, counted_applies, monkeypatch):
    from config import shell
    from games.models import Seat
    from tests.fixtures import run_due_tasks

    game = finished_bot_game
    Seat.objects.filter(game=game, index=0).update(user=alice)  # a player who reads German
    alice.language = "de"
    alice.save(update_fields=["language"])
    run_due_tasks()
    counted_applies.clear()
    pages_drawn = []
    real_keep_shell = shell.keep_shell
    monkeypatch.setattr(shell, "keep_shell", lambda *args, **kwargs: pages_drawn.append(1) or real_keep_shell(
        *args, **kwargs))
    german = alice_client.get(f"/play/{game.pk}/replay/")  # the replay opens on its last step
    first = alice_client.get(f"/play/{game.pk}/replay/?step=0")
    visitor = client.get(f"/play/{game.pk}/replay/")  # the site's language and clock
    assert german.status_code == first.status_code == visitor.status_code == 200
    assert counted_applies == [] and pages_drawn == [], "the first and last steps were drawn when the game ended"
    assert german.content.decode().count('lang="de"') and 'lang="en"' in visitor.content.decode()
    client.get(f"/play/{game.pk}/replay/?step=60")
    assert counted_applies, "a middle step is drawn on its first visit"
    assert pages_drawn == [], "in the page kept around all the game's steps"


def test_a_visitor_with_a_message_waiting_gets_it_on_a_kept_replay_page(alice_client, finished_bot_game):
    """The kept page has no messages: a visitor with one waiting gets the page drawn in full,
    the message shown once; the next visit is the kept page again."""
    url = f"/play/{finished_bot_game.pk}/replay/"
    alice_client.get(url)  # the page is kept
    alice_client.post("/accounts/settings/vacation/", {"end": "1"})  # "You are not on vacation.", for the next page
    with_message = alice_client.get(url).content.decode()
    after = alice_client.get(url).content.decode()
    assert 'class="flash"' in with_message and "not on vacation" in with_message
    assert 'class="flash"' not in after and 'id="replay-body"' in after
