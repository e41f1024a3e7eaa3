"""Issue 21: the mover does not wait for the other audiences (games.deferred), and pushes
carry only what changed in the panel (games.regions), with a full panel on a gap."""
from __future__ import annotations

import random
import re
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from games import audiences, deferred, engine, notify, publisher, regions
from games.models import Game
from tests.games.live_deltas import Gap, apply, is_delta, revision
from tests.games.test_sockets import connect

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r"[0-9a-f]{32}")
NOW = re.compile(r'data-now="\d+"')
PLAYERS = {"alpine-trails": 5, "nanga-parbat": 2, "rift-valley-reserve": 5, "rifugio": 5, "roll-to-the-top": 5}


@pytest.fixture
def every_audience_watched(settings):
    """A page open for every seat and the spectators of the games a test names (this
    process's own registry)."""
    settings.REDIS_URL = ""
    joined = []

    def watch(game, players):
        for seat in [*range(players), None]:
            group = notify.audience_group(game.pk, seat)
            async_to_sync(audiences.join)(group, f"page-{group}")
            joined.append(group)

    yield watch
    for group in joined:
        async_to_sync(audiences.leave)(group, f"page-{group}")


@pytest.fixture
def pushes(monkeypatch):
    """Each push's renders (what it was cut from) and what each audience was sent."""
    log: list[tuple[dict, dict]] = []
    real = publisher.pushed_messages

    def recorded(game, renders):
        out = real(game, renders)
        log.append((dict(renders), dict(out)))
        return out

    monkeypatch.setattr(publisher, "pushed_messages", recorded)
    return log


@pytest.fixture
def submit(django_capture_on_commit_callbacks):
    """engine.submit with its after-commit pushes run (a test's transaction never commits)."""
    def run(game, user, action):
        with django_capture_on_commit_callbacks(execute=True):
            return engine.submit(game.pk, user, action).game
    return run


def random_move(game, rng):
    seat = game.to_act()[0]
    return seat, rng.choice(game.rules.legal_actions(game.state, seat))


@pytest.mark.parametrize("slug", sorted(PLAYERS))
def test_deltas_applied_to_the_previous_panel_give_the_full_render(slug, start_game, make_user, every_audience_watched,
                                                                   pushes, submit):
    players = PLAYERS[slug]
    users = [make_user(f"{slug[:3]}{i}") for i in range(players)]
    game = start_game(slug, users)
    every_audience_watched(game, players)
    rng = random.Random(3)
    pages: dict = {}
    full_bytes = sent_bytes = deltas = 0
    for _ in range(12):
        if not game.is_active:
            break
        seat, action = random_move(game, rng)
        game = submit(game, users[seat], action)
        renders, sent = pushes[-1]
        assert set(sent) == {(s, "en") for s in [*range(players), None]}
        for audience, message in sent.items():
            if audience in pages:
                assert is_delta(message), audience  # the audience's previous push is known
                deltas += 1
            # The page's panel after the message is the very panel the push was cut from.
            pages[audience] = apply(pages.get(audience, ""), message)
            assert pages[audience] == renders[audience], audience
            full_bytes += len(renders[audience])
            sent_bytes += len(message)
    assert deltas > 0
    assert sent_bytes < full_bytes / 2, (sent_bytes, full_bytes)


def test_a_delta_names_the_revision_it_applies_on_top_of_and_a_gap_gets_the_full_panel(
        start_game, alice, bob, every_audience_watched, pushes, submit):
    from django.core.cache import cache

    game = start_game("rifugio", [alice, bob])
    every_audience_watched(game, 2)
    rng = random.Random(5)
    seat, action = random_move(game, rng)
    game = submit(game, [alice, bob][seat], action)
    first = pushes[-1][1][(None, "en")]
    assert not is_delta(first)  # nobody was sent this audience's panel before
    seat, action = random_move(game, rng)
    game = submit(game, [alice, bob][seat], action)
    second = pushes[-1][1][(None, "en")]
    assert is_delta(second) and f'data-base="{revision(first)}"' in second
    # A page that missed `first` (its revision is older) cannot take `second`: it fetches.
    with pytest.raises(Gap):
        apply(first.replace(f'data-revision="{revision(first)}"', 'data-revision="1.0"'), second)
    # The audience's fingerprint lost (an expired cache, a flushed Redis): the full panel.
    cache.delete(publisher.regions_key(game, None, "en"))
    seat, action = random_move(game, rng)
    game = submit(game, [alice, bob][seat], action)
    assert not is_delta(pushes[-1][1][(None, "en")])


def test_an_older_render_than_the_audiences_last_push_goes_whole_and_keeps_the_newer_fingerprint(
        start_game, alice, bob, every_audience_watched, submit):
    from django.core.cache import cache

    from games.panel import render_panel_for_seat

    game = start_game("rifugio", [alice, bob])
    every_audience_watched(game, 2)
    old = render_panel_for_seat(game, None, oob=True)
    seat, action = random_move(game, random.Random(1))
    game = submit(game, [alice, bob][seat], action)
    key = publisher.regions_key(game, None, "en")
    newer = cache.get(key)
    # Another process pushed a later move first: this older render is sent whole.
    assert publisher.pushed_messages(game, {(None, "en"): old})[(None, "en")] == old
    assert cache.get(key) == newer


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_gets_region_updates_that_rebuild_the_panel_and_hidden_information_stays_per_audience(
        start_game, alice, bob, charlie, settings):
    from games.panel import render_panel_for_seat

    settings.REDIS_URL = ""
    game = await sync_to_async(start_game)("rifugio", [alice, bob])
    sockets = {"seat-0": (await connect(f"/ws/play/{game.pk}/", alice))[0],
               "seat-1": (await connect(f"/ws/play/{game.pk}/", bob))[0],
               "watcher": (await connect(f"/ws/play/{game.pk}/", charlie))[0]}
    who = {"seat-0": 0, "seat-1": 1, "watcher": None}
    pages: dict[str, str] = {}
    kinds: dict[str, list[bool]] = {name: [] for name in sockets}
    rng = random.Random(9)
    for _ in range(6):
        game = await sync_to_async(Game.objects.get)(pk=game.pk)
        seat, action = random_move(game, rng)
        await sync_to_async(engine.submit)(game.pk, [alice, bob][seat], action)
        for name, ws in sockets.items():
            message = await ws.receive_from(timeout=10)
            kinds[name].append(is_delta(message))
            pages[name] = apply(pages.get(name, ""), message)
    for name, ws in sockets.items():
        assert kinds[name][0] is False and all(kinds[name][1:]), kinds[name]  # full first, then deltas
        fresh = await sync_to_async(lambda s=who[name]: render_panel_for_seat(
            Game.objects.prefetch_related("seats__user").get(pk=game.pk), s, oob=True))()
        page, full = regions.split(pages[name]), regions.split(fresh)
        assert page and full and page.revision == full.revision
        for region in regions.REGIONS:  # the same regions as a fresh render, tokens and clock aside
            same = [TOKEN.sub("T", NOW.sub("", split.regions[region])) for split in (page, full)]
            assert same[0] == same[1], (name, region)
        await ws.disconnect()
    # Each seat's rack is its own: the seat boards differ from each other and from the spectators'.
    boards = {name: regions.split(pages[name]).regions["board"] for name in pages}
    assert len({TOKEN.sub("T", board) for board in boards.values()}) == 3


# --- The deferred path ----------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_the_movers_answer_does_not_wait_for_the_other_audiences(start_game, alice, bob, every_audience_watched,
                                                                 settings, monkeypatch):
    from games import panel
    from tests.fixtures import client_for, post_action

    settings.LIVE_PUSHES = "line"
    game = start_game("rifugio", [alice, bob])
    every_audience_watched(game, 2)
    assert deferred.drain(30)
    seat = game.to_act()[0]
    action = game.rules.legal_actions(game.state, seat)[0]
    release, drawn = threading.Event(), []
    real = panel.seat_panel_context

    def slow_for_the_others(g, s, **kwargs):
        drawn.append((s, threading.current_thread().name))
        if s != seat:
            assert release.wait(30), "never released"
        return real(g, s, **kwargs)

    monkeypatch.setattr(panel, "seat_panel_context", slow_for_the_others)
    sent: list = []
    monkeypatch.setattr(notify, "send_many", lambda messages, **kw: sent.extend(messages))
    try:
        response = post_action(client_for([alice, bob][seat]), game, action, token="d1", version=game.version)
        # Answered while the other seat's and the spectators' renders still wait.
        assert response.status_code == 200 and 'id="game-panel"' in response.content.decode()
        assert sent == []
        assert drawn[0] == (seat, threading.current_thread().name)  # the mover's own, in its request
    finally:
        release.set()
    assert deferred.drain(30)
    audiences_drawn = sorted((s for s, _ in drawn), key=str)
    assert audiences_drawn == sorted([0, 1, None], key=str)  # one render per audience, the mover's reused
    assert all(thread == "live-pushes" for s, thread in drawn if s != seat)
    groups = [group for group, message in sent if message["type"] == "game.panel"]
    assert sorted(groups) == sorted(notify.audience_group(game.pk, s) for s in [0, 1, None])


@pytest.mark.django_db(transaction=True)
def test_deferred_pushes_keep_each_games_order_and_a_failed_render_loses_nothing(
        start_game, alice, bob, every_audience_watched, settings, monkeypatch, caplog, pushes):
    from games import panel

    settings.LIVE_PUSHES = "line"
    game = start_game("rifugio", [alice, bob])
    every_audience_watched(game, 2)
    assert deferred.drain(30)
    real = panel.seat_panel_context
    failures = {"left": 1}

    def spectators_fail_once(g, s, **kwargs):
        if s is None and failures["left"]:
            failures["left"] -= 1
            raise RuntimeError("a render that fails")
        return real(g, s, **kwargs)

    monkeypatch.setattr(panel, "seat_panel_context", spectators_fail_once)
    sent: list = []
    monkeypatch.setattr(notify, "send_many", lambda messages, **kw: sent.extend(messages))
    rng = random.Random(2)
    for _ in range(4):
        game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
        seat, action = random_move(game, rng)
        engine.submit(game.pk, [alice, bob][seat], action)
    assert deferred.drain(30)
    assert "rendering game" in caplog.text and "a render that fails" in caplog.text
    spectators = [m for g, m in sent if g == notify.spectator_group(game.pk)]
    assert len(spectators) == 3  # the failed one missing, the other moves there
    seat_0 = [m["html"] for g, m in sent if g == notify.seat_group(game.pk, 0)]
    assert len(seat_0) == 4
    revisions = [float(re.search(r'data-revision="([^"]*)"', html).group(1)) for html in seat_0]
    assert revisions == sorted(revisions) and len(set(revisions)) == 4  # in the game's order
    # The spectators' next delta applies on top of the last panel they were sent.
    page = ""
    for message in spectators:
        page = apply(page, message["html"])
    fresh = pushes[-1][0][(None, "en")]
    assert page == fresh


def test_outside_a_server_request_the_pushes_go_at_once(settings):
    """The task worker or a management command: nobody waits for an answer, and a process
    about to exit could not send any more, so "deferred" runs the job in the caller."""
    settings.LIVE_PUSHES = "deferred"
    ran: list[str] = []
    assert deferred.server_loop() is None
    deferred.defer(lambda: ran.append(threading.current_thread().name))
    assert ran == [threading.current_thread().name]


def _panel(revision: str, board: str) -> str:
    regions_html = "".join(f"<!--r:{name}--><div id=\"gp-{name}\">{board if name == 'board' else name}</div>"
                           f"<!--/r:{name}-->" for name in regions.REGIONS)
    return (f'<div id="game-panel" class="game-panel" data-version="1" data-last-event="" '
            f'data-revision="{revision}">{regions_html}</div>')


def test_an_element_that_changes_its_tag_is_named_by_the_tag_the_page_holds():
    """Nanga Parbat's guide token (a <g>) moves among the regions' <polygon>s: the same
    number of children, other tags at some places. A record's path names what the page has
    there; naming the new tag made every page fetch its panel (found by the delta test)."""
    shapes = [f'<polygon points="{i},0 1,1 0,1" class="region r{i}"/>' for i in range(40)]
    guide = '<g class="guide"><use href="#g"/></g>'
    before = _panel("1.0", f'<svg viewBox="0 0 9 9">{guide}{"".join(shapes)}</svg>')
    after = _panel("2.0", f'<svg viewBox="0 0 9 9">{shapes[0]}{guide}{"".join(shapes[1:])}</svg>')
    old, new = regions.split(before), regions.split(after)
    message = regions.delta(new, regions.fingerprint(old))
    assert message is not None and is_delta(message)
    assert apply(before, message) == after
