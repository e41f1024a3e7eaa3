"""The Alpine Trails board page through Django's test client: every seat, spectators,
replays, each kind of action, and no hidden information in the HTML."""
from __future__ import annotations

import random
import re

import pytest
from django.template.loader import render_to_string
from django.test import Client

from games.models import Game
from games.alpine_trails import presenter as P
from games.rules import get as get_rules
from games.alpine_trails.rules.bot import choose
from games.alpine_trails.rules.data import GOALS

from tests.fixtures import client_for, post_action

pytestmark = pytest.mark.django_db
SLUG = "alpine-trails"
RULES = get_rules(SLUG)


def page(client, game, sel="") -> str:
    response = client.get(f"/play/{game.pk}/panel/" + (f"?sel={sel}" if sel else ""))
    assert response.status_code == 200
    return response.content.decode()


def map_section(html: str, seat: int) -> str:
    start = html.index(f'id="at-map-{seat}"')
    return html[start: html.index("</figure>", start)]


def highlight_cells(html: str, faint: bool = False) -> set[tuple[int, int]]:
    cls = "hl faint" if faint else "hl"
    return {(int(x), int(y)) for x, y in re.findall(rf'<g class="{cls} sel-target" data-xy="(-?\d+),(-?\d+)"', html)}


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def legal(game, seat=0) -> list[dict]:
    return RULES.legal_actions(fresh(game).state, seat)


def submit(client, game, action):
    response = post_action(client, game, action)
    assert response.status_code == 200, response.content.decode()[:500]
    assert 'class="error' not in response.content.decode(), response.content.decode()[:2000]
    return response.content.decode()


def drive_until(client, game, kind, seat=0, prefer=(), limit=200):
    """Play the bot's moves through the page until `kind` is legal for the seat."""
    for n in range(limit):
        actions = legal(game, seat)
        assert actions, f"the game ended before a {kind} action came up"
        if any(a["type"] == kind for a in actions):
            return [a for a in actions if a["type"] == kind]
        pick = next((a for p in (*prefer, "done") for a in actions if a["type"] == p), None)
        submit(client, game, pick or choose(fresh(game).state, seat, random.Random(n)))
    raise AssertionError(f"no {kind} action came up")


# --- rendering ------------------------------------------------------------------------------

def test_the_page_renders_for_each_seat_with_its_own_hand_and_goal(alice, bob, start_game):
    game = start_game(SLUG, [alice, bob])
    state = game.state
    for seat, user in enumerate([alice, bob]):
        html = client_for(user).get(f"/play/{game.pk}/").content.decode()
        assert "Round 1 of 16" in html and "Your drawn tiles" in html
        assert GOALS[state["seats"][seat]["goal"]]["name"] in html
        assert highlight_cells(html), "the first drawn tile's legal squares are highlighted"
        assert f'id="at-map-{seat}"' in html and f'id="at-map-{1 - seat}"' in html


def test_the_html_hides_the_other_seats_goal_and_hand(alice, bob, start_game):
    game = start_game(SLUG, [alice, bob])
    state = game.state
    html = client_for(alice).get(f"/play/{game.pk}/").content.decode()
    assert GOALS[state["seats"][1]["goal"]]["name"] not in html
    for tile in state["seats"][1]["hand"]:
        assert tile not in html
    assert "?" in html  # the pad's goal cell for Bob


def test_a_placement_stays_hidden_from_others_until_the_round_resolves(alice, bob, start_game):
    game = start_game(SLUG, [alice, bob])
    bob_client, alice_client = client_for(bob), client_for(alice)
    place = next(a for a in legal(game, 1) if a["type"] == "place")
    submit(bob_client, game, place)
    key = f'data-xy="{place["x"]},{place["y"]}"'
    assert key in map_section(page(bob_client, game), 1)
    assert key not in map_section(page(alice_client, game), 1)
    assert key not in map_section(page(Client(), game), 1)
    place = next(a for a in legal(game, 1) if a["type"] == "place")
    submit(bob_client, game, place)
    submit(bob_client, game, {"type": "done"})
    html = page(alice_client, game)
    assert key not in map_section(html, 1)
    assert "status-done" in map_section(html, 1)
    for _ in range(2):
        submit(alice_client, game, next(a for a in legal(game, 0) if a["type"] == "place"))
    submit(alice_client, game, {"type": "done"})
    html = page(alice_client, game)
    assert "Round 2 of 16" in html
    assert key in map_section(html, 1) and "as of round 1" in map_section(html, 1)


def test_a_spectator_sees_every_map_and_no_controls_or_goals(alice, bob, start_game):
    game = start_game(SLUG, [alice, bob])
    for client in (Client(), client_for(_charlie())):
        html = client.get(f"/play/{game.pk}/").content.decode()
        assert 'id="at-map-0"' in html and 'id="at-map-1"' in html
        assert not highlight_cells(html) and "Your drawn tiles" not in html and "Finish round" not in html
        for s in game.state["seats"]:
            assert GOALS[s["goal"]]["name"] not in html
            for tile in s["hand"]:
                assert tile not in html


def _charlie():
    from django.contrib.auth import get_user_model
    return get_user_model().objects.create_user("charlie", "charlie@example.com", "charlie-pass-123")


def test_the_replay_of_a_bot_game_renders_at_several_steps(start_game):
    game = start_game(SLUG, [None, None, None])
    game = fresh(game)
    assert not game.is_active
    client = Client()
    last = game.version
    for step in (0, 1, last // 2, last - 1, last):
        response = client.get(f"/play/{game.pk}/replay/?step={step}")
        assert response.status_code == 200
        html = response.content.decode()
        assert "at-board" in html and 'class="hl' not in html
    assert "lake +2" in html and "Goal card" in html and "Rank" in html
    assert "mi path" in html  # the longest path is marked at the end


def test_the_final_page_shows_the_full_score_pad_and_every_goal(alice, start_game):
    game = fresh(start_game(SLUG, [None, None]))
    html = client_for(alice).get(f"/play/{game.pk}/").content.decode()
    for s in game.state["seats"]:
        assert GOALS[s["goal"]]["name"] in html
    for label in ("Forest", "Rock", "Meadow", "Wetland", "Waterfalls", "Lakes", "Tents", "Animals",
                  "Longest path", "Goal", "Total", "Rank"):
        assert f"{label}</th>" in html
    for score in RULES.scores(game.state):
        assert f"<strong>{score['total']}</strong>" in html


def test_a_solo_game_ends_with_its_rank_title(start_game):
    game = fresh(start_game(SLUG, [None], seed=2))
    html = Client().get(f"/play/{game.pk}/").content.decode()
    title = RULES.view(game.state, None)["result"]["title"]
    assert ("Solo rank: <strong>" + title) in html if title else "No title this time" in html


# --- the selection ---------------------------------------------------------------------------

def test_side_and_rotation_choose_the_highlighted_squares(alice, bob, start_game):
    game = start_game(SLUG, [alice, bob])
    client = client_for(alice)
    actions = legal(game, 0)
    tile = game.state["seats"][0]["hand"][1]
    for r in range(4):
        html = page(client, game, f"tile:{tile}.side:trail.rot:{r}")
        want = {(a["x"], a["y"]) for a in actions
                if a["type"] == "place" and a["tile"] == tile and a["side"] == "trail" and a["rotation"] == r}
        assert highlight_cells(html) == want
        assert 'aria-pressed="true"' in html
    html = page(client, game, f"tile:{tile}.side:terrain.rot:0")
    assert highlight_cells(html) == {(a["x"], a["y"]) for a in actions if a["type"] == "place"
                                     and a["tile"] == tile and a["side"] == "terrain"}
    assert "terrain side" in html
    # a nonsense selection falls back to the first tile, never an error
    fallback = page(client, game, "tile:T999.side:trail.rot:9")
    assert highlight_cells(fallback) and 'data-explicit="0"' in fallback


# --- each action kind through POST /play/<id>/act/ ------------------------------------------

def test_place_on_either_side_and_done_go_through_the_page(alice, bob, start_game):
    game = start_game(SLUG, [alice, bob])
    client = client_for(alice)
    hand = game.state["seats"][0]["hand"]
    trail = next(a for a in legal(game) if a["type"] == "place" and a["side"] == "trail" and a["tile"] == hand[0])
    html = page(client, game, f"tile:{hand[0]}.side:trail.rot:{trail['rotation']}")
    assert (trail["x"], trail["y"]) in highlight_cells(html)
    html = submit(client, game, trail)
    assert f'data-xy="{trail["x"]},{trail["y"]}"' in map_section(html, 0)
    terrain = next(a for a in legal(game) if a["type"] == "place" and a["side"] == "terrain")
    terrain_page = page(client, game, f"tile:{terrain['tile']}.side:terrain.rot:0")
    assert (terrain["x"], terrain["y"]) in highlight_cells(terrain_page)
    html = submit(client, game, terrain)
    assert "done-button" in html
    html = submit(client, game, {"type": "done"})
    assert "You have finished round 1" in html


def test_waterfall_and_campsite_go_through_the_page(alice, start_game):
    game = start_game(SLUG, [alice], seed=3)
    client = client_for(alice)
    falls = drive_until(client, game, "waterfall")
    html = page(client, game)
    assert "Loop closed" in html and highlight_cells(html) == {(a["x"], a["y"]) for a in falls}
    html = submit(client, game, falls[0])
    assert "k-waterfall" in map_section(html, 0)
    camps = drive_until(client, game, "campsite")
    html = page(client, game, f"camp:{camps[0]['discard']}")
    assert (camps[0]["x"], camps[0]["y"]) in highlight_cells(html) and "returns to the box" in html
    assert re.search(r"\d+ mi</text>", html)
    html = submit(client, game, camps[0])
    assert "k-campsite" in map_section(html, 0)


def test_solo_trade_and_animal_go_through_the_page(alice, start_game):
    game = start_game(SLUG, [alice], seed=3)
    client = client_for(alice)
    trades = drive_until(client, game, "trade_fork")
    html = page(client, game, f"tile:{trades[0]['tile']}.side:trail.rot:0")
    assert "Trade for a" in html
    html = submit(client, game, trades[0])
    assert "Held animals" in html
    animals = drive_until(client, game, "animal", prefer=("trade_fork",))
    html = page(client, game, f"animal:{animals[0]['animal']}")
    assert (animals[0]["x"], animals[0]["y"]) in highlight_cells(html)
    html = submit(client, game, animals[0])
    assert "animal a-" in map_section(html, 0)


def test_discard_is_offered_only_for_a_tile_that_fits_nowhere(alice, bob, start_game):
    game = start_game(SLUG, [alice, bob])
    client = client_for(alice)
    tile = game.state["seats"][0]["hand"][0]
    assert "Discard it" not in page(client, game)
    response = post_action(client, game, {"type": "discard", "tile": tile})
    assert "still fits" in response.content.decode()
    # The board offers the button as soon as the rules list a discard for the chosen tile.
    panel = _panel_for(game, alice, legal=[{"type": "discard", "tile": tile}])
    html = render_to_string("games/alpine-trails/board.html", panel)
    assert "fits nowhere on your map" in html and "Discard it" in html


def _panel_for(game, user, legal):
    from games.panel import panel_context
    panel = panel_context(fresh(game), user)
    panel["legal"] = legal
    panel.update(P.board_context(panel))
    return panel


@pytest.mark.parametrize("rotation", ["12", "123", "01", "-1", "", "ab"])
def test_a_rotation_outside_0_to_3_in_the_selection_never_breaks_the_page(alice, bob, start_game, rotation):
    """`?sel=tile:<drawn tile>.side:trail.rot:12` once reached the drawing code as rotation 12 (a
    substring test let "12" and "123" through) and raised a KeyError: a 500."""
    game = start_game(SLUG, [alice, bob])
    client = client_for(alice)
    tile = game.state["seats"][0]["hand"][0]
    html = page(client, game, f"tile:{tile}.side:trail.rot:{rotation}")
    assert "Your drawn tiles" in html
    sel = P.parse_selection(f"tile:{tile}.side:trail.rot:{rotation}", legal(game), game.state["seats"][0]["hand"])
    assert sel.get("rotation") in (None, 0, 1, 2, 3)


def test_a_human_solo_game_ends_with_title_and_an_unsecret_goal(alice, start_game):
    """The player's own final page: the title banner, the goal no longer called secret,
    and the game-over history line under the player's name (not "Seat 0")."""
    game = start_game(SLUG, [alice])
    client = client_for(alice)
    n = 0
    while fresh(game).state["phase"] != "over":
        submit(client, game, choose(fresh(game).state, 0, random.Random(n)))
        n += 1
    html = page(client, game)
    assert "Your goal" in html and "(secret)" not in html
    assert "Solo rank: <strong>" in html or "No title this time" in html
    assert "Game over: alice scores" in html


def test_a_placement_can_be_taken_back_within_the_round(alice, start_game):
    game = start_game(SLUG, [alice])
    client = client_for(alice)
    place = next(a for a in legal(game) if a["type"] == "place")
    html = submit(client, game, place)
    assert "Take back my last move" in html
    html = client.post(f"/play/{game.pk}/undo/").content.decode()
    assert "Move taken back." in html
    assert len(fresh(game).state["seats"][0]["hand"]) == 2
    assert f'data-xy="{place["x"]},{place["y"]}"' in html  # the cell is offered again
