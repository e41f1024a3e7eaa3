"""The Rifugio board page through Django's test client: every seat, spectators, replays,
each kind of action submitted through /act/, and nothing hidden in the HTML."""
from __future__ import annotations

import copy
import re

import pytest

from games.models import Game
from games.rules import get
from tests.fixtures import client_for, post_action

pytestmark = pytest.mark.django_db
SLUG = "rifugio"
RULES = get(SLUG)
PLAIN_IDS = re.compile(r"\b(?:[MFR]\d\d|WA\d\d)\b")


def page(client, game, sel=None) -> str:
    url = f"/play/{game.pk}/" if sel is None else f"/play/{game.pk}/panel/?sel={sel}"
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def targets(html: str, kind: str) -> list[str]:
    return re.findall(rf'<g class="target {kind}(?: sel-target)?"[^>]*data-key="([^"]+)"', html)


def set_state(game: Game, state: dict) -> Game:
    game.state = state
    game.save(update_fields=["state"])
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def two(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], seed=5)
    return game, [client_for(alice), client_for(bob)]


def test_the_page_renders_for_each_seat_with_highlights_only_for_the_active_one(two):
    game, clients = two
    active = game.state["active"]
    for seat, client in enumerate(clients):
        html = page(client, game)
        assert 'class="rf-map"' in html and "tiles left" in html
        assert "Tile to place" in html and "START" in html
        assert html.count('class="rf-player seat-') == 2
        place = targets(html, "place")
        if seat == active:
            legal = {(a["q"], a["r"]) for a in RULES.legal_actions(game.state, seat)}
            shown = {tuple(int(v) for v in k.split(",")) for k in place + targets(html, "place-other")}
            assert shown == legal and place
        else:
            assert not place and 'role="button"' not in html


def test_a_spectator_sees_the_board_without_controls(two, charlie):
    game, _ = two
    html = page(client_for(charlie), game)
    assert "You are watching" in html and 'class="rf-map"' in html
    assert '<g class="target ' not in html and "hx-post" not in html


def test_no_hidden_information_reaches_the_html(start_game, alice, bob, charlie):
    game = start_game(SLUG, [alice, bob], seed=918273645)
    for client in (client_for(alice), client_for(bob), client_for(charlie)):
        html = page(client, game)
        assert "918273645" not in html and "seed" not in html.lower()
        assert "stack" not in html.lower() and "bottom" not in html.lower()
        # plain tiles are anonymous: no tile id of the bag ever appears, only the count
        map_and_cards = html[html.index('<section class="card board rf'):html.index('<aside class="side-col">')]
        assert not PLAIN_IDS.search(map_and_cards)
        left = len(game.state["stack"]) + len(game.state["bottom"])
        assert re.search(rf'rf-tiles-left">{left}<', html)


def pass_position(state: dict) -> dict:
    """Example 1b of the spec: the pass PS1 in hand fits at (0,-3) in rotations 0 and 5 only."""
    s = copy.deepcopy(state)
    board = {"0,0": "START", "0,-1": "F01", "-1,-1": "M01", "-1,-2": "M02", "1,-2": "R01", "1,-3": "R02"}
    s["board"] = {k: {"tile": t, "rot": 0} for k, t in board.items()}
    s["stack"] = sorted(t for t in s["stack"] + ([s["hand"]] if s["hand"] else [])
                        if t not in board.values() and t != "PS1")
    s["hand"] = "PS1"
    s["phase"] = "place"
    return s


def test_rotation_is_chosen_server_side_with_sel(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], seed=5)
    game = set_state(game, pass_position(game.state))
    seat = game.state["active"]
    client = client_for([alice, bob][seat])
    html = page(client, game, "r:5")
    assert "Rotate left" in html and "sel=r:0" in html and "sel=r:4" in html
    assert "0,-3" in targets(html, "place")
    legal = [a for a in RULES.legal_actions(game.state, seat) if a["rotation"] == 5]
    assert len(targets(html, "place")) == len(legal)
    html = page(client, game, "r:1")
    assert "0,-3" in targets(html, "place-other") and "0,-3" not in targets(html, "place")
    assert re.search(r'data-key="0,-3"[^>]*sel=r:5', html)  # clicking turns the tile to the nearest fit
    response = post_action(client, game, {"type": "place_tile", "q": 0, "r": -3, "rotation": 5},
                           token="p1", version=game.version)
    assert 'class="error' not in response.content.decode()


def test_a_symmetric_tile_has_no_rotate_buttons(two):
    game, clients = two
    if game.state["hand"][:2] not in ("M0", "M1", "F0", "F1", "R0", "R1", "WA", "BR", "FL", "AN", "WF", "PK"):
        pytest.skip("first tile is a pass")
    html = page(clients[game.state["active"]], game)
    assert "Rotate left" not in html


def drive(game, clients, wanted: set[str], limit: int = 400) -> set[str]:
    """Play through the page's own action endpoint, preferring kinds not yet sent."""
    import random

    rng = random.Random(3)
    sent: set[str] = set()
    for _ in range(limit):
        game = Game.objects.get(pk=game.pk)
        if not game.is_active:
            break
        seat = game.state["active"]
        legal = RULES.legal_actions(game.state, seat)
        fresh = [a for a in legal if a["type"] in wanted - sent]
        if fresh:
            action = fresh[0]
        elif game.state["phase"] == "walk" and game.state["turn"]["steps"] > 0 and rng.random() < 0.8:
            moves = [a for a in legal if a["type"] in ("step", "sail", "build_raft")] or legal
            action = rng.choice(moves)
        else:
            action = legal[-1] if game.state["phase"] == "walk" else rng.choice(legal)
        html = page(clients[seat], game)
        if action["type"] in ("place_tile", "step", "sail"):
            to = action.get("to") or [0, 0]
            key = f'{action.get("q", to[0])},{action.get("r", to[1])}'
            assert f'data-key="{key}"' in html
        response = post_action(clients[seat], game, action, token=f"t{_}", version=game.version)
        assert response.status_code == 200, response.content[:300]
        assert 'class="error' not in response.content.decode()
        sent.add(action["type"])
        if wanted <= sent:
            break
    return sent


def test_each_common_action_kind_goes_through_the_act_endpoint(two):
    game, clients = two
    wanted = {"place_tile", "step", "build_rifugio", "end_turn", "build_raft", "sail", "use_extra_step"}
    sent = drive(game, clients, wanted)
    assert wanted <= sent


def swim_position(state: dict) -> dict:
    """Example 4 of the spec: seat 1 stranded on (2,0) with no rafts, seat 0 aboard at (1,-1)."""
    s = copy.deepcopy(state)
    s["board"] = {"0,0": {"tile": "START", "rot": 0}, "1,-1": {"tile": "WA01", "rot": 0},
                  "1,0": {"tile": "WA02", "rot": 0}, "1,1": {"tile": "WA03", "rot": 0},
                  "2,0": {"tile": "F01", "rot": 0}}
    s["stack"] = [t for t in s["stack"] if t not in ("WA01", "WA02", "WA03", "F01")]
    if s["hand"] in ("WA01", "WA02", "WA03", "F01"):
        s["hand"] = None
    elif s["hand"]:
        s["stack"].append(s["hand"])
        s["stack"].sort()
        s["hand"] = None
    s["rafts"] = [{"id": 0, "owner": 0, "at": [1, -1], "riders": [0]},
                  {"id": 1, "owner": 1, "at": [9, 9], "riders": []}]
    s["seats"][0]["walker"] = {"at": [1, -1], "raft": 0, "swim": None}
    s["seats"][1]["walker"] = {"at": [2, 0], "raft": None, "swim": None}
    s["seats"][0]["rafts_left"] = 2
    s["seats"][1]["rafts_left"] = 0
    s["seats"][1]["extra_step_cards"] = 1
    s["active"] = 1
    s["phase"] = "walk"
    s["turn"] = {"tiles_to_place": 0, "steps": 2, "visited_rifugi": [], "visited_rafts": [], "tried": [], "placed": []}
    return s


def test_swimming_through_the_page(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], seed=5)
    game = set_state(game, swim_position(game.state))
    client = client_for(bob)
    html = page(client, game)
    assert "Swim…" in html and "sel=swim" in html
    html = page(client, game, "swim")
    assert targets(html, "swim-to") == ["0,0"]
    swim = {"type": "swim", "via": [1, 0], "to": [0, 0]}
    response = post_action(client, game, swim, token="s1", version=game.version)
    html = response.content.decode()
    assert "Keep swimming (1/4)" in html and "1/4</text>" in html
    game = Game.objects.get(pk=game.pk)
    response = post_action(client, game, {"type": "continue_swim"}, token="s2", version=game.version)
    assert "Keep swimming" not in response.content.decode()  # no steps left: only cards and end turn
    game = Game.objects.get(pk=game.pk)
    response = post_action(client, game, {"type": "use_extra_step"}, token="s3", version=game.version)
    assert "Keep swimming (2/4)" in response.content.decode()


def test_a_water_cell_that_allows_sail_and_raft_opens_a_menu(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], seed=5)
    s = swim_position(game.state)
    # seat 0 aboard its raft at (1,-1) with rafts left: (1,1) allows both sailing and... not adjacent;
    # (1,0) is adjacent and on the same river: both sail and build_raft.
    s["active"] = 0
    game = set_state(game, s)
    client = client_for(alice)
    html = page(client, game)
    assert "1,0" in targets(html, "menu")
    html = page(client, game, "w:1,0")
    assert "Sail here (1 step)" in html and "Build a raft here (2 steps)" in html
    response = post_action(client, game, {"type": "build_raft", "at": [1, 0]}, token="b1", version=game.version)
    assert response.status_code == 200 and 'class="error' not in response.content.decode()


def test_replays_of_a_bot_game_render_at_several_steps(start_game, alice):
    game = start_game(SLUG, [None, None], seed=11)
    game = Game.objects.get(pk=game.pk)
    assert not game.is_active
    client = client_for(alice)
    last = game.moves.count()
    for step in (0, 1, last // 3, last // 2, last):
        response = client.get(f"/play/{game.pk}/replay/?step={step}")
        assert response.status_code == 200
        html = response.content.decode()
        assert 'class="rf-map"' in html and 'role="button"' not in html
    assert "Final scoring" in html and "Waterfall bonus" in html
    final = page(client, game)
    assert "Final scoring" in final and "hx-post" not in final.split('<aside class="side-col">')[0]


def test_a_step_can_be_taken_back_within_the_turn(two):
    game, clients = two
    for _ in range(60):     # place tiles (and end turns) until the mover can walk somewhere
        game = Game.objects.get(pk=game.pk)
        seat = game.state["active"]
        legal = RULES.legal_actions(game.state, seat)
        steps = [a for a in legal if a["type"] == "step"]
        if steps:
            break
        action = legal[0] if game.state["phase"] == "place" else {"type": "end_turn"}
        post_action(clients[seat], game, action, token=f"p{_}", version=game.version)
    else:
        pytest.fail("nobody could walk")
    client = clients[seat]
    html = post_action(client, game, steps[0], token="u1", version=game.version).content.decode()
    assert 'rf-steps-count">1<' in html and "Take back my last move" in html
    html = client.post(f"/play/{game.pk}/undo/").content.decode()
    assert 'rf-steps-count">2<' in html and f'data-key="{steps[0]["to"][0]},{steps[0]["to"][1]}"' in html


def test_odd_selections_fall_back_to_the_plain_board(two):
    game, clients = two
    client = clients[game.state["active"]]
    for sel in ("zzz", "m99,99", "swim", "swim5,5", "r9", "r-1", "r:9", "w:99,99", "swim.to:5,5",
                "place:99,99,0", "step:0,1.step:0,2"):
        html = page(client, game, sel)
        assert targets(html, "place") or targets(html, "place-other")


def test_the_base_game_has_no_water_rafts_or_raft_cards(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], options={"rivers_and_rafts": False}, seed=3)
    html = page(client_for(alice), game)
    assert "base game" in html and "Raft-point cards" not in html
    assert "raft left" not in html and "<dd>Water</dd>" not in html


def side_card_rows(html: str) -> list[str]:
    side = html[html.index('<aside class="side-col">'):]
    card = side[side.index('class="score-table score-card"'):side.index("</table>")]
    return re.findall(r'<th scope="row">([^<]*)</th>', card)


def test_the_side_score_card_names_the_final_scorings_parts_and_sums_to_the_total(start_game, alice, bob):
    """Issue 19, row 9: the live and replay "Scores" said Items (with the waterfall bonus
    folded in) and Huts, the final breakdown Items, Waterfall bonus and Rifugio cards. Now
    the side card (a row per part, so all fit) names every part as the final scoring does."""
    game = start_game(SLUG, [None, None], seed=11)
    game = Game.objects.get(pk=game.pk)
    html = page(client_for(alice), game)
    final = ["Items", "Waterfall bonus", "Complete sets", "Bears", "Rifugio cards", "Raft cards"]
    assert side_card_rows(html) == final + ["Total"]
    side = html[html.index('<aside class="side-col">'):]
    for key in ("items", "waterfall_bonus", "rifugio_cards"):
        values = "".join(f"<td>{entry['breakdown'][key]}</td>" for entry in RULES.scores(game.state))
        assert values in side.replace("\n", "")
    assert all(sum(e["breakdown"].values()) == e["total"] for e in RULES.scores(game.state))
    replay = client_for(alice).get(f"/play/{game.pk}/replay/?step=3").content.decode()
    assert side_card_rows(replay) == final + ["Total"]
    base = start_game(SLUG, [alice, bob], options={"rivers_and_rafts": False}, seed=3)
    assert side_card_rows(page(client_for(alice), base)) == ["Items", "Complete sets", "Bears", "Rifugio cards",
                                                             "Total"]


def test_how_to_play_draws_real_positions_as_pictures_without_controls(client):
    html = client.get("/games/rifugio/how-to-play/").content.decode()
    for section in ("Place a tile", "Walk (2 steps)", "Rivers &amp; Rafts", "+5 per complete set"):
        assert section in html
    assert html.count('class="rf-map rf-diagram"') == 4 and html.count('role="img" aria-label="') >= 4
    # the highlights are the rules' own legal moves, drawn as pictures: nothing to press
    assert 'class="target place' in html and 'class="target step' in html and 'class="target sail' in html
    assert 'role="button"' not in html and "hx-post" not in html and 'tabindex="0"' not in html
    assert html.count('<symbol id="rf-bear"') == 1


def test_the_board_says_when_rivers_and_rafts_is_on(start_game, alice, bob):
    """Issue 19, row 9: the expansion was invisible in the title; the board's head says it."""
    on = start_game(SLUG, [alice, bob], options={"rivers_and_rafts": True}, seed=3)
    off = start_game(SLUG, [alice, bob], options={"rivers_and_rafts": False}, seed=3)
    assert "with Rivers &amp; Rafts" in page(client_for(alice), on)
    html = page(client_for(alice), off)
    assert "with Rivers &amp; Rafts" not in html and "base game" in html
