"""The Rift Valley Reserve board page through Django's test client: every seat, spectators
and replays render; every kind of action can be submitted from it; nobody sees another
seat's pending draw."""
from __future__ import annotations

import json
import random
import re

import pytest

from games import engine
from games.models import Game
from games.rift_valley_reserve.rules.bot import choose

from tests.fixtures import client_for, post_action

pytestmark = pytest.mark.django_db
SLUG = "rift-valley-reserve"


def html(response) -> str:
    assert response.status_code == 200, response.content[:2000]
    return response.content.decode()


def panel(client, game, sel: str = "") -> str:
    return html(client.get(f"/play/{game.pk}/panel/" + (f"?sel={sel}" if sel else "")))


def big_map(page: str) -> str:
    """The SVG of the held map drawn whole (phones get halves of it as well)."""
    return page.split('class="rvr-map big"')[1].split("</svg>")[0]


def users_by_seat(game, alice, bob, charlie=None):
    people = {alice.pk: alice, bob.pk: bob}
    if charlie:
        people[charlie.pk] = charlie
    return [people.get(s.user_id) for s in game.ordered_seats()]


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def act(client, game, action) -> str:
    return html(post_action(client, game, action, version=fresh(game).version))


# --- Rendering --------------------------------------------------------------------------

@pytest.mark.parametrize("boards", ["identical", "asymmetrical"])
def test_the_page_renders_for_every_seat_and_a_spectator(start_game, alice, bob, charlie, client, boards):
    game = start_game(SLUG, [alice, bob, charlie], options={"boards": boards})
    view = game.rules.view(game.state, None)
    for i, user in enumerate([alice, bob, charlie]):
        page = html(client_for(user).get(f"/play/{game.pk}/"))
        assert 'class="card board rvr"' in page
        held = view["maps"][i]["name"]
        assert f"<h2>{held} <span class=\"tag\">your map</span>" in page    # turn 1: everyone on their own map
        assert page.count('class="rvr-map thumb"') == 3
        assert 'class="cell t-ground legal clickable sel-target"' in page                 # legal Stops highlighted
        assert "First turn: Stops only" in page
    watcher = html(client.get(f"/play/{game.pk}/"))
    assert "legal clickable sel-target" not in watcher and "rvr-controls" not in watcher
    assert "Waiting for alice, bob, charlie" in watcher


def test_the_map_shows_areas_terrain_and_the_rift_in_its_owners_colour(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob], options={"boards": "asymmetrical"})
    page = panel(client_for(alice), game)
    m = game.state["maps"][0]
    terrain = "".join(m["terrain"])
    main = page.split('class="rvr-map big"')[1].split("</svg>")[0]
    assert main.count('data-r=') >= m["rows"] * m["cols"]
    assert main.count('href="#rvr-paw"') == terrain.count("A")
    assert main.count('href="#rvr-tree"') == terrain.count("T")
    assert main.count('href="#rvr-wave"') == terrain.count("W")
    assert main.count("t-rift") == sum(terrain.count(ch) for ch in "|-#")
    assert '<g class="rift-outline" stroke="#c62828">' in main             # seat 0 is red (D24)
    assert main.count("<line") > 20                                      # thick area borders
    # Thumbnails show every map's holder and where it goes next.
    assert "held by alice (you)" in page and "→ bob" in page


def test_owner_sees_crossing_arrows_and_others_do_not(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    assert 'class="cross"' in panel(client_for(alice), game)
    page = panel(client_for(alice), game, "v:1")                        # viewing bob's map
    assert 'class="cross"' not in page and "Viewing only" in page
    assert "legal clickable sel-target" not in page.split('class="rvr-map big"')[1].split("</svg>")[0]


def test_replay_of_a_bot_game_renders_at_several_steps(start_game, client):
    game = start_game(SLUG, [None, None, None], seed=5)
    game = fresh(game)
    assert game.status == "finished"
    last = game.moves.count()
    for step in (0, 1, 3, last // 2, last):
        page = html(client.get(f"/play/{game.pk}/replay/?step={step}"))
        assert 'class="card board rvr"' in page and 'data-replay="1"' in page
        assert "rvr-controls" not in page and "hx-post" not in page.split('class="card board rvr"')[1]
    final = html(client.get(f"/play/{game.pk}/"))
    assert "Final result" in final and "Game over" in final
    assert "Unconnected Stops" in final and "Scores per map" in final


def test_the_map_labels_rows_and_columns_and_every_sentence_names_a_square_by_them(start_game, alice, bob):
    """Issue 19, row 8: one name per square. Column letters and row numbers are drawn round
    the large map, and the History's name for a square is the one its edges give it."""
    game = start_game(SLUG, [alice, bob])
    clients = [client_for(u) for u in users_by_seat(game, alice, bob)]
    act(clients[0], game, {"type": "stop", "cell": [6, 3]})
    act(clients[1], game, {"type": "stop", "cell": [8, 4]})
    page = panel(clients[0], game)
    svg = big_map(page)
    coords = svg.split('<g class="coords"')[1].split("</g></g>")[0]
    cols = {float(x): text for x, text in re.findall(r'<text x="([\d.]+)" y="-[\d.]+">([A-Z])</text>', coords)}
    rows = {float(y): text for y, text in re.findall(r'<text x="-[\d.]+" y="([\d.]+)">(\d+)</text>', coords)}
    assert sorted(cols.values()) == list("ABCDEFGHI")
    assert sorted(rows.values(), key=int) == [str(n) for n in range(1, 10)]
    history = page.split('class="rvr-history"')[1]
    name = re.search(r"drew a Stop at ([A-Z]\d+) on \w+&#x27;s map", history).group(1)
    x, y = re.search(r'data-r="6" data-c="3"[^>]*><rect class="bg" x="([\d.]+)" y="([\d.]+)"', svg).groups()
    half = 44 / 2
    assert name == cols[float(x) + half] + rows[float(y) + half] == "D7"
    assert "<title>D7, area 8</title>" in svg                      # the square's tooltip says the same
    # A square that is a button names its square so too.
    r, c, label = re.search(r'data-r="(\d)" data-c="(\d)" data-sel-focus="[^"]+" role="button" tabindex="0" '
                            r'aria-label="Place a (?:Stop|Tent) on ([A-Z]\d) of the', svg).groups()
    x, y = re.search(rf'data-r="{r}" data-c="{c}"[^>]*><rect class="bg" x="([\d.]+)" y="([\d.]+)"', svg).groups()
    assert label == cols[float(x) + half] + rows[float(y) + half]


# --- Acting ---------------------------------------------------------------------------

def test_a_stop_goes_through_ghost_then_confirm(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    c = client_for(alice)
    page = panel(c, game, "m:stop.c:0-3")
    assert 'class="cell t-ground legal clickable sel-target ghosted"' in page
    assert "Confirm Stop on D1" in page
    assert 'aria-label="Confirm the Stop on D1 of the Open Plain map"' in page
    assert re.search(r'data-r="1" data-c="1"\s*hx-get="/play/\d+/panel/\?sel="', page)   # elsewhere cancels
    page = act(c, game, {"type": "stop", "cell": [0, 3]})
    assert "drawn — waiting for the others" in page and 'data-kind="pending-stop"' in page
    assert "rvr-controls" not in page


def test_tent_trail_and_pass_can_be_submitted(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    seat_users = users_by_seat(game, alice, bob)
    clients = [client_for(u) for u in seat_users]
    # Turn 1: Stops; turn 2: a Tent in Tent mode; turn 3: a second own Stop; turn 5: a Trail.
    act(clients[0], game, {"type": "stop", "cell": [0, 3]})
    act(clients[1], game, {"type": "stop", "cell": [8, 4]})
    page = panel(clients[0], game, "m:tent")
    assert 'aria-pressed="true"' in page and "▲ Tent</button>" in page
    assert 'class="cell t-ground legal clickable sel-target"' in page
    assert "Confirm Tent" in panel(clients[0], game, "m:tent.c:4-0")
    act(clients[0], game, {"type": "tent", "cell": [4, 0]})
    act(clients[1], game, {"type": "tent", "cell": [4, 8]})
    act(clients[0], game, {"type": "stop", "cell": [2, 5]})
    act(clients[1], game, {"type": "stop", "cell": [8, 2]})
    act(clients[0], game, {"type": "tent", "cell": [5, 0]})
    act(clients[1], game, {"type": "tent", "cell": [5, 8]})
    # Turn 5, seat 0 on its own map: start a Trail, then see both routes.
    page = panel(clients[0], game)
    assert 'class="stop unconnected clickable sel-target role-start"' in page
    assert 'aria-label="Start a Trail at your Stop on D1"' in page
    page = panel(clients[0], game, "a:0-3")
    assert "role-first" in page and "role-partner" in page
    assert 'aria-label="End the Trail at your Stop on F3"' in page
    page = panel(clients[0], game, "a:0-3.b:2-5")
    corners = re.findall(r'data-corner="([^"]+)"', big_map(page))
    assert sorted(corners) == ["0,5", "2,3"]                               # one route bridges the Rift
    assert 'aria-label="Draw the L-shaped Trail turning on D3, from D1 to F3"' in page
    act(clients[0], game, {"type": "trail", "from": [0, 3], "to": [2, 5], "corner": [2, 3]})
    page = act(clients[1], game, {"type": "tent", "cell": [0, 0]})
    assert 'data-kind="trail"' in panel(clients[1], game) and 'class="plank"' in panel(clients[1], game)
    # Play on with the bot's choices until the end is triggered; then Pass is offered.
    rng = random.Random(3)
    for _ in range(400):
        g = fresh(game)
        if g.status != "active":
            break
        legal = {s: g.rules.legal_actions(g.state, s) for s in g.to_act()}
        if any({"type": "pass"} in acts for acts in legal.values()):
            break
        seat = g.to_act()[0]
        engine.submit(g.pk, seat_users[seat], choose(g.state, seat, rng))   # filler turns: straight to the engine
    g = fresh(game)
    seat = g.to_act()[0]
    assert {"type": "pass"} in g.rules.legal_actions(g.state, seat)
    page = panel(clients[seat], g)
    assert ">Pass</button>" in page and "Final stage:" in page and "you may pass" in page
    page = act(clients[seat], g, {"type": "pass"})
    assert "a pass" in page or fresh(game).state["turn"] > g.state["turn"] or fresh(game).status != "active"


def test_pass_is_not_offered_before_the_end_is_triggered(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    assert ">Pass</button>" not in panel(client_for(alice), game)


def test_nonsense_selections_are_ignored(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    c = client_for(alice)
    for sel in ("zz", "m:stop.c:99-99", "a:0-3.b:1-1", "v:9", "m:tent", "c:-1-2", "x" * 300, "a.b.g.v.m",
                "k:none", "m:stop.m:stop.c:0-3"):
        page = panel(c, game, sel)
        assert 'class="card board rvr"' in page and "data-corner" not in page
        assert "ghosted" not in page, sel
        assert 'data-sel=""' in page or 'data-sel="m:stop"' in page


# --- Hidden information ---------------------------------------------------------------

def test_a_pending_draw_is_seen_only_by_its_drawer(start_game, alice, bob, charlie, client):
    game = start_game(SLUG, [alice, bob, charlie])
    seat_users = users_by_seat(game, alice, bob, charlie)
    drawer = client_for(seat_users[0])
    page = act(drawer, game, {"type": "stop", "cell": [0, 3]})
    assert 'data-kind="pending-stop"' in page and "You drew a Stop at D1" in page
    for other in [client_for(seat_users[1]), client_for(seat_users[2]), client]:
        page = panel(other, game)
        assert 'data-kind="pending' not in page
        assert 'data-kind="stop"' not in page                           # nothing drawn anywhere yet
        assert "You drew" not in page and "waiting for the others" not in page
        chip = re.search(r'<li class="seat-chip done" data-seat="0">.*?</li>', page, re.S)
        assert chip and "drawn" in chip.group(0)                        # only *that* it drew
    # The drawer's view of someone else's map stays empty of others' pending draws too.
    act(client_for(seat_users[1]), game, {"type": "stop", "cell": [8, 4]})
    page = panel(drawer, game, "v:1")
    assert 'data-kind="stop"' not in page and 'data-kind="pending' not in page


def test_the_create_table_form_offers_both_board_sets(alice_client):
    page = html(alice_client.get(f"/tables/new/?game={SLUG}"))
    assert "Identical: everyone gets the same 9×9 Open Plain" in page
    assert "Asymmetrical: five different 10×10 maps" in page


def test_the_replay_draws_every_map_full_size(start_game, client):
    """A replay has no ?sel= to enlarge a thumbnail, so every map is drawn large, with its
    own drawn elements, owner, holder and next holder."""
    game = fresh(start_game(SLUG, [None, None, None], seed=7, options={"boards": "asymmetrical"}))
    steps = list(engine.replay_states(game))
    for step in (0, 4, len(steps) // 2, len(steps) - 1):
        state = steps[step][1]
        page = html(client.get(f"/play/{game.pk}/replay/?step={step}"))
        board = page.split('class="card board rvr"')[1]
        bigs = board.split('<svg class="rvr-map big"')[1:]
        assert len(bigs) == 3
        view = game.rules.view(state, None)
        for b, svg in enumerate(bigs):
            svg = svg.split("</svg>")[0]
            m = state["maps"][b]
            assert f'data-map="{b}" data-owner="{m["owner"]}"' in svg
            assert svg.count('data-r=') >= m["rows"] * m["cols"]
            kinds = [d["kind"] for d in m["cells"].values()]
            assert svg.count('data-kind="stop"') == kinds.count("stop")
            assert svg.count('data-kind="tent"') == kinds.count("tent")
            assert svg.count('data-kind="trail"') == len(m["trails"])
            assert "clickable" not in svg and "hx-" not in svg
        if not view["over"]:
            holder = view["maps"][1]["holder"]
            assert f"held by {seat_names_of(game)[holder]}" in board
        assert 'class="rvr-legend' in board


def seat_names_of(game) -> list[str]:
    from games.panel import seat_names
    return seat_names(game)


def test_thumbnails_are_one_link_each_not_a_grid_of_buttons(start_game, alice, bob):
    """Only the thumbnail's link enlarges it: its cells and Stops are not focusable buttons
    (a cell dict without a "get" key once rendered as hx-get="?sel=" on every square)."""
    game = start_game(SLUG, [alice, bob])
    seat_users = users_by_seat(game, alice, bob)
    for seat, user in enumerate(seat_users):
        act(client_for(user), game, {"type": "stop", "cell": [0, 3] if seat == 0 else [8, 3]})
    page = panel(client_for(alice), game)
    strip = page.split('class="rvr-strip"')[1].split("</div>")[0]
    assert strip.count("<svg") == 2 and strip.count('data-kind="stop"') == 2
    assert 'role="button"' not in strip and "tabindex" not in strip
    assert strip.count("hx-get") == 2          # one link per map (the held one goes back to it)
    assert strip.count('class="thumb-link"') == 2


# --- Stale pages (issue 11): the maps rotate, so a page of an older turn is refused ------

def post_under(client, game, action, turn_key: str):
    return client.post(f"/play/{game.pk}/act/", {"action": json.dumps(action), "token": "",
                                                   "version": fresh(game).version, "turn": turn_key})


def test_a_draw_from_a_page_of_an_earlier_turn_is_refused_with_409(start_game, alice, bob):
    """Issue 11's repro: both draw in turn 1; seat 0's turn-1 page sends a Stop that is legal
    now, on the map it holds in turn 2, which its page never showed."""
    game = start_game(SLUG, [alice, bob])
    clients = [client_for(u) for u in users_by_seat(game, alice, bob)]
    old_key = game.rules.seat_turn(game.state, 0)
    act(clients[0], game, {"type": "stop", "cell": [0, 3]})
    act(clients[1], game, {"type": "stop", "cell": [8, 4]})
    game = fresh(game)
    stop = {"type": "stop", "cell": [0, 5]}
    assert game.version == 2 and stop in game.rules.legal_actions(game.state, 0)
    response = post_under(clients[0], game, stop, old_key)
    assert response.status_code == 409
    assert fresh(game).version == 2 and not fresh(game).state["pending"]
    assert post_under(clients[0], game, stop, game.rules.seat_turn(game.state, 0)).status_code == 200


def test_a_page_drawn_before_another_seat_drew_this_turn_is_not_refused(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    clients = [client_for(u) for u in users_by_seat(game, alice, bob)]
    key_before = game.rules.seat_turn(game.state, 0)
    act(clients[1], game, {"type": "stop", "cell": [8, 4]})
    response = post_under(clients[0], game, {"type": "stop", "cell": [0, 3]}, key_before)
    assert response.status_code == 200
    assert fresh(game).state["turn"] == 2


def test_the_page_carries_the_seats_turn_key(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    seat = users_by_seat(game, alice, bob).index(alice)
    page = panel(client_for(alice), game, "m:stop.c:0-3")        # the Confirm button posts it
    assert f"&quot;turn&quot;: &quot;{game.rules.seat_turn(game.state, seat)}&quot;" in page


# --- Taking a draw back (spec 15.2) -----------------------------------------------------

def without_per_render_noise(page: str) -> str:
    """A panel with what differs between two renders of the same board blanked out:
    the submission token, the time of the last change and the clocks' "now"."""
    page = re.sub(r'name="token" value="[0-9a-f]+"|"token": "[0-9a-f]+"', "token", page)
    return re.sub(r'data-(revision|now)="[^"]*"', "", page)


def test_a_pending_draw_can_be_taken_back_with_the_boards_button(start_game, alice, bob, charlie):
    game = start_game(SLUG, [alice, bob, charlie])
    c = client_for(alice)
    page = act(c, game, {"type": "stop", "cell": [0, 3]})
    assert "Take back my draw" in page
    page = html(c.post(f"/play/{game.pk}/undo/"))
    assert "Move taken back." in page
    assert 'data-kind="pending-stop"' not in page and "rvr-controls" in page
    assert fresh(game).state["pending"] == {} and fresh(game).moves.count() == 0
    page = act(c, game, {"type": "stop", "cell": [0, 5]})          # a different draw now
    assert fresh(game).state["pending"] == {"0": {"type": "stop", "cell": [0, 5]}}


def test_the_draw_that_ends_the_turn_offers_no_take_back(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    act(client_for(alice), game, {"type": "stop", "cell": [0, 3]})
    page = act(client_for(bob), game, {"type": "stop", "cell": [8, 4]})
    assert "Take back my draw" not in page
    assert client_for(bob).post(f"/play/{game.pk}/undo/").status_code == 409
    assert fresh(game).state["turn"] == 2


def test_a_take_back_tells_the_other_seats_and_spectators_nothing(start_game, alice, bob, charlie, client):
    game = start_game(SLUG, [alice, bob, charlie])
    watchers = {"bob": client_for(bob), "spectator": client}
    before = {who: without_per_render_noise(panel(w, game)) for who, w in watchers.items()}
    act(client_for(alice), game, {"type": "stop", "cell": [0, 3]})
    for w in watchers.values():
        assert "Take back" not in panel(w, game)
    html(client_for(alice).post(f"/play/{game.pk}/undo/"))
    after = {who: without_per_render_noise(panel(w, game)) for who, w in watchers.items()}
    assert after == before                   # as if Alice had never drawn
    assert "0-3" not in json.dumps(list(fresh(game).moves.values_list("action", flat=True)))


def test_another_seat_cannot_take_back_a_pending_draw(start_game, alice, bob, charlie):
    game = start_game(SLUG, [alice, bob, charlie])
    act(client_for(alice), game, {"type": "stop", "cell": [0, 3]})
    assert client_for(bob).post(f"/play/{game.pk}/undo/").status_code == 409
    assert fresh(game).state["pending"] == {"0": {"type": "stop", "cell": [0, 3]}}


# --- Phones: half a map at a time ----------------------------------------------------------

def zoomed(page: str) -> str:
    return page.split('class="rvr-map zoom"')[1].split("</svg>")[0]


def test_a_seat_that_can_draw_also_gets_the_west_half_for_phones(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])                                # 9 x 9: columns 0-5, then 3-8
    page = panel(client_for(alice), game)
    half = zoomed(page)
    assert 'viewBox="-14.1 -14.1 284.1' in page and "West half, columns A–F" in page
    cols = {int(c) for c in re.findall(r'data-r="\d+" data-c="(\d+)"', half)}
    assert cols == set(range(6))                                          # no control out of sight
    assert "Show the east half" in page
    east = panel(client_for(alice), game, "z:e")
    assert "East half, columns D–I" in east
    assert {int(c) for c in re.findall(r'data-r="\d+" data-c="(\d+)"', zoomed(east))} == set(range(3, 9))


def test_the_half_follows_the_square_being_chosen_and_the_switch_keeps_the_choice(start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    act(client_for(alice), game, {"type": "stop", "cell": [0, 3]})
    act(client_for(bob), game, {"type": "stop", "cell": [8, 4]})
    page = panel(client_for(alice), game, "m:tent.c:0-7")                # turn 2: a Tent in the east
    assert "East half" in page and 'legal clickable sel-target ghosted"' in zoomed(page)
    assert f'hx-get="/play/{game.pk}/panel/?sel=z:w.m:tent.c:0-7"' in page      # "Show the west half"


def test_spectators_and_seats_that_wait_get_no_half_view(start_game, alice, bob, client):
    game = start_game(SLUG, [alice, bob])
    act(client_for(alice), game, {"type": "stop", "cell": [0, 3]})
    assert 'rvr-map zoom' not in panel(client_for(alice), game)
    assert 'rvr-map zoom' not in panel(client, game)


def test_take_back_is_offered_only_while_the_draw_is_the_games_last_move(start_game, alice, bob, charlie):
    """The engine's undo takes back the game's last move only: once another seat has drawn
    after Alice (the turn still open), her draw stands, as the panel says by not offering it."""
    game = start_game(SLUG, [alice, bob, charlie])
    act(client_for(alice), game, {"type": "stop", "cell": [0, 3]})
    act(client_for(bob), game, {"type": "stop", "cell": [0, 3]})
    assert "Take back my draw" not in panel(client_for(alice), game)
    assert "Take back my draw" in panel(client_for(bob), game)
    assert client_for(alice).post(f"/play/{game.pk}/undo/").status_code == 409
