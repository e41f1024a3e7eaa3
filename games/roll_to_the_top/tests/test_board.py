"""Roll to the Top's board page (spec §18, checklist item 33)."""
from __future__ import annotations

import html
import json
import re

import pytest

from games.models import Game, Move

from tests.fixtures import client_for

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"


def page(client, game) -> str:
    return client.get(f"/play/{game.pk}/").content.decode()


def panel(client, game, sel: str) -> str:
    return client.get(f"/play/{game.pk}/panel/?sel={sel}").content.decode()


def boxes(text: str) -> dict[str, dict | None]:
    """data-key of every box on the player's own sheet -> the action it posts (None: not highlighted)."""
    found = {}
    for tag in re.findall(r'<g class="box[^"]*"[^>]*>', text):
        key = re.search(r'data-key="([^"]+)"', tag)
        if key:
            vals = re.search(r'hx-vals="([^"]*)"', tag)
            found[key.group(1)] = json.loads(json.loads(html.unescape(vals.group(1)))["action"]) if vals else None
    return found


def button_action(text: str, label: str) -> dict:
    match = re.search(r"<button[^>]*hx-vals='([^']*)'[^>]*>\s*" + re.escape(label), text)
    assert match, f"no {label!r} button"
    return json.loads(html.unescape(match.group(1)))


@pytest.fixture
def game(start_game, alice, bob):
    return start_game(SLUG, [alice, bob], seed=12, options={"start_pool": "all"})


def test_every_box_of_the_board_is_drawn(game, alice):
    view = game.rules.view(game.state, 0)
    assert set(boxes(page(client_for(alice), game))) == {b["key"] for b in view["board_data"]["boxes"]}


def _key(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def test_highlights_match_the_legal_placements_exactly(game, alice):
    """For every set of dice the writer can pick, the highlighted boxes post exactly the
    legal placements with those dice (and nothing is highlighted before a pick)."""
    client = client_for(alice)
    legal = [a for a in game.rules.legal_actions(game.state, 0) if a["type"] == "place"]
    assert not any(boxes(page(client, game)).values())
    for dice in {tuple(a["dice"]) for a in legal}:
        drawn = [a for a in boxes(panel(client, game, "dice:" + ",".join(dice))).values() if a]
        expected = [a for a in legal if tuple(a["dice"]) == dice]
        assert sorted(map(_key, drawn)) == sorted(map(_key, expected))


def test_picked_dice_show_pressed_with_their_sum_and_toggle_off(game, alice):
    roll = game.state["roll"]
    text = panel(client_for(alice), game, "dice:d4,d12")
    pressed = re.findall(r'data-die="(d\d+)"[^>]*\s+aria-pressed="true"', text)
    assert pressed == ["d4", "d12"] and f"d4 + d12 = {roll['d4'] + roll['d12']}" in text
    assert "?sel=dice:d12\"" in text and "?sel=dice:d4,d6,d12\"" in text


@pytest.mark.parametrize("sel", ["dice:d12,d4", "dice:d4,d4", "dice:d7", "dice:d4;d6", "box:0-0.with:d4", "x" * 500])
def test_a_forged_or_garbled_dice_choice_is_ignored(game, alice, sel):
    response = client_for(alice).get(f"/play/{game.pk}/panel/?sel={sel}")
    assert response.status_code == 200
    assert 'aria-pressed="true"' not in response.content.decode()


def test_used_dice_cannot_be_picked_again(game, alice):
    client = client_for(alice)
    place = next(a for a in game.rules.legal_actions(game.state, 0) if a["type"] == "place" and a["dice"] == ["d4"])
    client.post(f"/play/{game.pk}/act/", {"action": json.dumps(place), "token": "p1"})
    text = panel(client, game, "dice:d4")
    assert 'aria-pressed="true"' not in text and not any(boxes(text).values())


def test_the_board_carries_the_shared_selection_root(game, alice):
    text = panel(client_for(alice), game, "dice:d6")
    turn = game.rules.seat_turn(game.state, 0)
    assert 'data-sel-root data-sel="dice:d6"' in text and f'data-sel-key="{turn}"' in text
    assert "board.js" not in page(client_for(alice), game)


def test_undo_reset_and_done_buttons_send_their_actions(game, alice):
    client = client_for(alice)
    place = next(a for a in game.rules.legal_actions(game.state, 0) if a["type"] == "place")
    client.post(f"/play/{game.pk}/act/", {"action": json.dumps(place), "token": "p1"})
    text = page(client, game)
    assert json.loads(button_action(text, "Undo last number")["action"]) == {"type": "unplace"}
    assert json.loads(button_action(text, "Start over")["action"]) == {"type": "reset"}
    done = button_action(text, "Done")
    assert json.loads(done["action"]) == {"type": "done"}
    assert client.post(f"/play/{game.pk}/act/", done).status_code == 200
    assert Move.objects.filter(game=game).last().action == {"type": "done"}


def test_pending_numbers_show_with_their_dice_to_their_writer_only(game, alice, bob, client):
    place = next(a for a in game.rules.legal_actions(game.state, 0) if a["type"] == "place")
    client_for(alice).post(f"/play/{game.pk}/act/", {"action": json.dumps(place), "token": "p1"})
    assert "+".join(place["dice"]) in page(client_for(alice), game)
    for other in (client_for(bob), client):
        text = page(other, game)
        assert "pending-num" not in text and "dice-caption" not in text


def test_spectators_see_every_sheet_and_no_controls(game, client):
    text = page(client, game)
    assert "Your sheet" not in text and "hx-post" not in text
    assert text.count('class="other seat-') == 2


def test_a_finished_game_shows_winners_and_its_replay(start_game, alice, client):
    game = start_game(SLUG, [None, None], seed=4)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    text = page(client, game)
    assert "Game over." in text and f"/play/{game.pk}/replay/" in text
    replay = client.get(f"/play/{game.pk}/replay/?step=1").content.decode()
    assert "Your sheet" not in replay and "Move <strong>1</strong>" in replay


def test_a_highlighted_box_says_which_number_goes_where(game, alice):
    """Screen readers hear what a click does ("Place 7 in row 1, box 3"), counting boxes
    from the left of their row; other boxes are images that say what they hold."""
    view = game.rules.view(game.state, 0)
    die = next(d for d in view["pool"])
    text = panel(client_for(alice), game, f"dice:{die}")
    value = view["roll"][die]
    tags = re.findall(r'<g class="box[^"]*"[^>]*>', text)
    legal = [t for t in tags if "sel-target" in t]
    assert legal
    for tag in legal:
        r, x = (int(n) for n in re.search(r'data-key="(\d+),(\d+)"', tag).groups())
        row_xs = sorted(b["x"] for b in view["board_data"]["boxes"] if b["r"] == r)
        assert f'aria-label="Place {value} in row {r + 1}, box {row_xs.index(x) + 1}"' in tag
        assert 'role="button"' in tag
    for tag in tags:
        if "data-key" in tag and "sel-target" not in tag:
            assert 'role="img"' in tag and re.search(r'aria-label="Row \d+, box \d+, ', tag), tag
