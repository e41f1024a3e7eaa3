"""The Nanga Parbat board page through Django's test client: every seat, spectators,
replays, each kind of action, select-then-Confirm choices, and nothing secret in the HTML."""
from __future__ import annotations

import json
import re
from html import unescape

import pytest

from games.models import Game
from games.rules import get as get_rules

from tests.fixtures import client_for, post_action
from .helpers import animal, camp, held, hiker, position

pytestmark = pytest.mark.django_db
SLUG = "nanga-parbat"
RULES = get_rules(SLUG)


def page(client, game) -> str:
    response = client.get(f"/play/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def panel(client, game, sel="") -> str:
    response = client.get(f"/play/{game.pk}/panel/", {"sel": sel} if sel else {})
    assert response.status_code == 200
    return response.content.decode()


def clickable(html: str, kind: str) -> list[str]:
    """data-<kind> values of elements that carry a control (role=button)."""
    found = []
    for tag in re.findall(r"<(?:g|button) [^>]*>", html):
        if 'role="button"' in tag:
            match = re.search(rf'data-{kind}="([^"]+)"', tag)
            if match:
                found.append(match.group(1))
    return found


def posted_actions(html: str) -> list[dict]:
    return [json.loads(json.loads(unescape(v))["action"]) for v in re.findall(r'hx-vals="([^"]+)"', html)]


def sels(html: str) -> list[str]:
    from urllib.parse import unquote
    return [unquote(unescape(v)) for v in re.findall(r'\?sel=([^"]+)"', html)]


def set_state(game: Game, state: dict) -> None:
    game.state = state
    game.save(update_fields=["state"])


@pytest.fixture
def game(alice, bob, start_game):
    return start_game(SLUG, [alice, bob], seed=424242)


def clients_by_seat(game, alice, bob):
    """(client of the seat to act, client of the other seat)."""
    actor = RULES.to_act(game.state)[0]
    users = [alice, bob]
    return client_for(users[actor]), client_for(users[1 - actor]), actor


# --- rendering -------------------------------------------------------------------------------

def test_the_board_shows_the_whole_mountain_for_each_seat_and_a_spectator(game, alice, bob, charlie):
    for user in (alice, bob, charlie):
        html = page(client_for(user), game)
        assert 'class="np-svg np-mountain"' in html
        assert len(re.findall(r'<g class="np-sec[^"]*" data-section="\d\d"', html)) == 36
        assert len(re.findall(r'<g class="np-flag', html)) == 6
        assert html.count('class="np-dots"') == 9
        assert len(re.findall(r'<g class="np-spot', html)) == 15
        assert len(re.findall(r'<section class="np-aboard', html)) == 2
        assert len(re.findall(r'<g class="np-marker', html)) == 2
        assert len(re.findall(r'data-piece="animal"', html)) == 36
        assert "Region 1, section 1 (11):" in html
        for name in ("alice", "bob"):
            assert name in html


def test_only_the_seat_to_act_gets_controls(game, alice, bob, charlie):
    mine, theirs, actor = clients_by_seat(game, alice, bob)
    assert game.state["phase"] == "place_guide"
    html = page(mine, game)
    actions = posted_actions(html)
    assert sorted({a["region"] for a in actions if a["type"] == "place_guide"}) == [1, 2, 3, 4, 5, 6]
    assert len(clickable(html, "section")) == 36          # any section of a region places the guide
    assert html.count('class="np-flag legal"') == 6
    for other in (theirs, client_for(charlie)):
        html = page(other, game)
        board = html.split('<section class="card board np')[1].split("</section>")[0]   # the site's own
        assert 'role="button"' not in board and "hx-post" not in board                  # buttons aside
        assert "np-flag legal" not in html


def test_the_glowing_sections_are_exactly_the_legal_traps_and_a_click_traps(game, alice, bob):
    mine, _, actor = clients_by_seat(game, alice, bob)
    post_action(mine, game, {"type": "place_guide", "region": 3})
    game.refresh_from_db()
    trapper = client_for([alice, bob][game.state["current"]])
    html = page(trapper, game)
    legal = {a["section"] for a in RULES.legal_actions(game.state, game.state["current"]) if a["type"] == "trap"}
    assert {int(s) for s in clickable(html, "section")} == legal == {31, 32, 33, 34, 35, 36}
    assert "Trap an animal in region 3" in html
    traps = [a for a in posted_actions(html) if a["type"] == "trap"]
    assert {a["section"] for a in traps} == legal
    species = game.state["board"]["35"]["species"]
    response = post_action(trapper, game, traps[[a["section"] for a in traps].index(35)])
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.state["board"]["35"]["piece"] == "hiker"
    assert game.version == 2
    assert species in {a["species"] for a in game.state["seats"][1 - actor]["animals"]}


def test_relocating_the_guide_from_an_empty_region(game, alice, bob):
    state = position(phase="trap", current=0, guide=4,
                     board={41: hiker(0), 42: hiker(0), 43: hiker(0), 44: hiker(1), 45: hiker(1), 46: camp(1)})
    set_state(game, state)
    html = page(client_for(alice), game)
    assert "Region 4 is empty: choose a region for the guide" in html
    relocs = [a for a in posted_actions(html) if a["type"] == "relocate_guide"]
    assert sorted({a["region"] for a in relocs}) == [1, 2, 3, 5, 6]
    post_action(client_for(alice), game, {"type": "relocate_guide", "region": 2})
    game.refresh_from_db()
    assert game.state["guide"] == 2 and game.state["phase"] == "trap"


# --- select, then Confirm --------------------------------------------------------------------

def activation_position():
    return position(phase="act", current=0, guide=2,
                    board={21: hiker(0), 22: hiker(1), 23: animal("yak"), 14: hiker(0), 15: animal("tahr")},
                    seats={0: {"animals": held("tahr", "snow_leopard", "musk_deer", "yak", "bharal"),
                               "hikers": 12}})


def test_an_animal_on_the_own_board_opens_its_mode(game, alice, bob):
    set_state(game, activation_position())
    html = page(client_for(alice), game)
    own = html.split('class="np-aboard own"')[1]
    assert set(re.findall(r'\?sel=a%3A(\w+)"', own)) == {"tahr", "snow_leopard", "musk_deer", "yak"}
    assert "End turn" in html
    # bob's page shows the same animals, but nothing to click
    other = page(client_for(bob), game)
    assert "?sel=" not in other and 'role="button"' not in other


def test_a_tahr_swap_needs_a_hiker_then_an_animal_then_confirm(game, alice):
    set_state(game, activation_position())
    client = client_for(alice)
    html = panel(client, game, "a:tahr")
    hikers = {a["a"] for a in RULES.legal_actions(game.state, 0)
              if a["type"] == "activate" and a["animal"] == "tahr"}
    assert {int(s) for s in clickable(html, "section")} == hikers
    assert "np-confirm" in html and "Confirm</button>" in html and "disabled>Confirm" in html
    assert not [a for a in posted_actions(html) if a["type"] == "activate"]
    html = panel(client, game, "a:tahr.s:21")
    partners = {a["b"] for a in RULES.legal_actions(game.state, 0)
                if a["type"] == "activate" and a["animal"] == "tahr" and a["a"] == 21}
    assert {int(s) for s in clickable(html, "section")} == partners | {21}
    html = panel(client, game, "a:tahr.s:21.s:23")
    assert posted_actions(html) == [{"type": "activate", "animal": "tahr", "a": 21, "b": 23}]
    # the preview shows the swap before it is sent
    assert re.search(r'data-section="21" data-piece="animal" data-species="yak"', html)
    assert re.search(r'class="np-sec picked preview( sel-target)?"', html)
    # Cancel goes back to no selection and sends nothing
    assert re.search(r'class="button secondary np-cancel" hx-get="/play/\d+/panel/"', html)
    assert game.version == Game.objects.get(pk=game.pk).version
    post_action(client, game, posted_actions(html)[0])
    game.refresh_from_db()
    assert game.state["board"]["21"] == animal("yak") and game.state["board"]["23"] == hiker(0)


def test_snow_leopard_and_musk_deer_and_yak_are_sent_in_canonical_form(game, alice):
    set_state(game, activation_position())
    client = client_for(alice)
    html = panel(client, game, "a:snow_leopard.s:22.s:21")
    assert posted_actions(html) == [{"type": "activate", "animal": "snow_leopard", "a": 21, "b": 22}]
    html = panel(client, game, "a:musk_deer.s:23.s:15")
    assert posted_actions(html) == [{"type": "activate", "animal": "musk_deer", "a": 15, "b": 23}]
    html = panel(client, game, "a:yak")
    assert sorted(int(r) for r in set(re.findall(r'\?sel=a%3Ayak\.r%3A(\d)"', html))) == [1, 3, 4, 5, 6]
    html = panel(client, game, "a:yak.r:5")
    assert posted_actions(html) == [{"type": "activate", "animal": "yak", "region": 5}]
    post_action(client, game, posted_actions(html)[0])
    game.refresh_from_db()
    assert game.state["guide"] == 5
    assert game.state["seats"][0]["animals"][3] == {"species": "yak", "activated": True}


def test_a_selection_that_is_not_legal_is_dropped(game, alice):
    set_state(game, activation_position())
    html = panel(client_for(alice), game, "a:tahr:66:11")
    assert not [a for a in posted_actions(html) if a["type"] == "activate"]
    html = panel(client_for(alice), game, "c:same:0:1,2")
    assert "np-mode-text" not in html
    html = panel(client_for(alice), game, "garbage:::")
    assert "End turn" in html


def claim_position():
    return position(phase="act", current=0, guide=1,
                    board={21: hiker(0), 22: hiker(0), 23: hiker(0), 15: hiker(0), 44: hiker(0)},
                    seats={0: {"animals": held("tahr", "yak", "bharal", "red_panda", "red_panda"), "hikers": 10}})


def test_a_camp_claim_toggles_hikers_and_confirms_the_sorted_list(game, alice):
    set_state(game, claim_position())
    client = client_for(alice)
    html = page(client, game)
    spots = set(sels(html))
    assert "c:camps-3" in spots and "c:camps-4" in spots and "c:camps-2" in spots
    assert "c:camps:0" not in spots
    html = panel(client, game, "c:camps-3")
    assert "0 / 3 chosen" in html
    assert {int(s) for s in clickable(html, "section")} == {15, 21, 22, 23}
    html = panel(client, game, "i:23,15.c:camps-3")
    assert "2 / 3 chosen" in html and "disabled>Confirm" in html
    assert {int(s) for s in clickable(html, "section")} == {15, 21, 22, 23}
    html = panel(client, game, "i:23,15,21.c:camps-3")
    assert "3 / 3 chosen" in html
    assert posted_actions(html) == [{"type": "claim", "row": "camps", "col": 3, "sections": [15, 21, 23]}]
    post_action(client, game, posted_actions(html)[0])
    game.refresh_from_db()
    assert game.state["board"]["15"] == camp(0) and game.state["chart"]["camps"][3] == 0
    html = page(client, game)
    assert re.search(r'<g class="np-spot owned" data-row="camps" data-col="3"', html)


def test_a_trade_claim_picks_animals_on_the_own_board(game, alice):
    set_state(game, claim_position())
    client = client_for(alice)
    html = panel(client, game, "c:same-3")
    own = html.split('class="np-aboard own"')[1]
    assert {int(i) for i in clickable(own, "index")} == {2, 3, 4}
    html = panel(client, game, "i:2,3,4.c:same-3")
    assert posted_actions(html) == [{"type": "claim", "row": "same", "col": 3, "animals": [2, 3, 4]}]
    post_action(client, game, posted_actions(html)[0])
    game.refresh_from_db()
    assert [a["species"] for a in game.state["seats"][0]["animals"]] == ["tahr", "yak"]
    assert game.state["seats"][0]["score"] == 4


def test_end_turn_is_a_button(game, alice, bob):
    set_state(game, claim_position())
    html = page(client_for(alice), game)
    assert {"type": "end_turn"} in posted_actions(html)
    post_action(client_for(alice), game, {"type": "end_turn"})
    game.refresh_from_db()
    assert game.state["current"] == 1 and game.state["phase"] == "trap"
    assert "Trap an animal in region 1" in page(client_for(bob), game)


def test_a_refused_action_shows_the_message_and_changes_nothing(game, alice):
    set_state(game, claim_position())
    before = Game.objects.get(pk=game.pk).state
    response = post_action(client_for(alice), game, {"type": "claim", "row": "camps", "col": 3,
                                                     "sections": [15, 22, 44]})
    html = response.content.decode()
    assert "not all connected" in html and 'role="alert"' in html
    assert Game.objects.get(pk=game.pk).state == before
    assert 'class="np-svg np-mountain"' in html


# --- hidden information, spectators, replays ---------------------------------------------------

def test_the_page_shows_no_seed_and_the_same_public_board_to_everyone(game, alice, bob, charlie):
    pages = [page(client_for(u), game) for u in (alice, bob, charlie)]
    assert all("424242" not in html for html in pages)
    boards = [re.findall(r'data-section="(\d\d)" data-piece="(\w+)"(?: data-species="(\w+)")?', h) for h in pages]
    assert boards[0] == boards[1] == boards[2] and len(boards[0]) == 36
    # the spectator's status line speaks about the player to act, never to "you"
    assert "You" not in pages[2].split('class="np-status"')[1][:200]


def test_log_lines_name_the_players(game, alice, bob):
    html = page(client_for(alice), game)
    first = ["alice", "bob"][game.state["first_player"]]
    assert f"{first} was drawn to play first" in html
    assert "Seat 0" not in html


def test_replays_of_a_bot_game_render_at_several_steps(start_game, alice):
    game = start_game(SLUG, [None, None], seed=7, options={"area_scoring": True})
    assert not game.is_active
    client = client_for(alice)
    last = game.version
    for step in (0, 1, 2, last // 2, last - 1, last):
        response = client.get(f"/play/{game.pk}/replay/", {"step": step})
        assert response.status_code == 200
        html = response.content.decode()
        assert 'class="np-svg np-mountain"' in html and 'role="button"' not in html
        assert len(re.findall(r'data-section="\d\d"', html)) >= 36
    assert "wins!" in html or "A draw." in html
    assert "Area scoring" in html
    final = page(client, game)
    assert "np-end" in final and "Total" in final


def test_a_red_panda_point_and_its_bump_are_announced(game, alice):
    state = position(phase="trap", current=0, guide=3, board={35: animal("red_panda")},
                     seats={0: {"score": 4, "hikers": 10, "animals": held("yak")}, 1: {"score": 5}})
    set_state(game, state)
    post_action(client_for(alice), game, {"type": "trap", "section": 35})
    html = page(client_for(alice), game)
    assert "alice — Red panda: +1 · Bump! +1" in html
    # the section of the latest trap is marked for everyone
    assert 'class="np-sec last" data-section="35" data-piece="hiker"' in html


def test_the_create_table_form_offers_the_area_scoring_variant(alice):
    html = client_for(alice).get("/tables/new/", {"game": SLUG}).content.decode()
    assert "Area scoring variant" in html and 'name="opt_area_scoring"' in html


def test_picked_pieces_carry_a_check_badge_not_only_a_colour(game, alice):
    """Chosen sections, animals and the chart spot in use get a check mark as well as the
    green frame, so a colour-blind player can tell chosen from merely clickable."""
    set_state(game, claim_position())
    client = client_for(alice)
    html = panel(client, game, "c:camps-3")
    assert html.count('href="#np-check"') == 1          # only the chart spot being claimed
    html = panel(client, game, "i:15,23.c:camps-3")
    assert html.count('href="#np-check"') == 3          # the spot and the two chosen hikers
    checked = re.findall(r'data-section="(\d+)"(?:(?!</g>).)*?href="#np-check"', html, re.S)
    assert sorted(map(int, checked)) == [15, 23]
    html = panel(client, game, "c:different-4")
    sel = next(s for s in sels(html) if s.startswith("i:") and s.endswith(".c:different-4"))
    html = panel(client, game, sel)
    assert html.count('href="#np-check"') == 2          # the spot and the chosen animal


def test_dotted_paths_are_drawn_under_the_squares_so_no_piece_is_covered(game, alice):
    html = page(client_for(alice), game)
    mountain = html.split('class="np-svg np-mountain"')[1]
    assert mountain.count('class="np-dots"') == 9
    assert mountain.index('class="np-dots"') < mountain.index('class="np-sec')
    assert mountain.rindex('class="np-dots"') < mountain.index('class="np-sec')


def test_guide_chart_owners_markers_and_animal_boards_are_drawn_from_the_state(game, alice, bob):
    """Checklist 30: the guide token, each claimed spot's cube with its owner's letter, both
    score markers (with a lap badge past 49) and both animal boards, activated apart."""
    state = position(phase="trap", current=0, guide=4, board={41: animal("yak"), 12: hiker(0), 13: camp(1)},
                     seats={0: {"score": 53, "animals": held("tahr", "yak", "tahr", activated=(0,))},
                            1: {"score": 7, "animals": held("bharal")}},
                     chart={("camps", 3): 1, ("same", 0): 0})
    set_state(game, state)
    html = page(client_for(bob), game)
    assert re.findall(r'<g class="np-guide-token" data-region="(\d)"', html) == ["4"]
    owned = re.findall(r'<g class="np-spot owned" data-row="(\w+)" data-col="(\d)"', html)
    assert sorted(owned) == [("camps", "3"), ("same", "0")]
    names = ["alice", "bob"]
    spot = html.split('data-row="camps" data-col="3"')[1].split("</g>\n")[0]
    assert f"claimed by {names[1]}" in spot and 'class="np-cube"' in spot
    assert f"{names[0]}: 53 points" in html and f"{names[1]}: 7 points" in html
    assert html.count('class="np-lap"') == 1 and "+1×50" in html
    assert 'class="np-sec" data-section="13" data-piece="camp" data-owner="1"' in html
    boards = {int(m.group(1)): m.group(0) for m in
              re.finditer(r'<section class="np-aboard[^"]*" data-seat="(\d)".*?</section>', html, re.S)}
    assert len(re.findall(r'class="np-token used', boards[0])) == 1
    assert boards[0].count('class="np-token"') == 2       # tahr and yak, ready (bob sees no controls)
    assert "1 ready · 1 used" in boards[0]
    assert boards[1].count('class="np-token"') == 1 and "1 held" in boards[1]


def test_the_board_svg_is_a_group_so_its_buttons_reach_assistive_technology(game, alice, bob):
    """role="img" makes an element's children presentational in ARIA, which would hide the
    clickable sections, spots and animals from screen readers; the board is a group."""
    mine, _, _ = clients_by_seat(game, alice, bob)
    html = page(mine, game)
    svg = re.search(r'<svg class="np-svg np-mountain"[^>]*>', html).group(0)
    assert 'role="group"' in svg and 'role="img"' not in svg and "aria-label=" in svg
    assert 'role="button" tabindex="0"' in html.split(svg)[1]


def test_section_tooltips_of_the_guide_region_say_the_guide_is_there(game, alice):
    """The flag and the guide token let pointer events through to the squares, so their
    own tooltips never show; the squares of the guide's region carry that fact instead."""
    set_state(game, position(phase="trap", current=0, guide=3, board={35: animal("yak")}))
    html = page(client_for(alice), game)
    titles = dict(re.findall(r'data-section="(\d\d)"[^>]*>\s*<title>([^<]*)</title>', html))
    assert len(titles) == 36
    assert {s for s, t in titles.items() if "the guide is in region 3" in t} == {str(30 + k) for k in range(1, 7)}
