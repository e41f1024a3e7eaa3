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


def box_sums(text: str) -> dict[str, set[int]]:
    """data-key -> the sums the page highlights that box for."""
    found = {}
    for attrs in re.findall(r'<g class="box[^"]*"([^>]*)>', text):
        key = re.search(r'data-key="([^"]+)"', attrs)
        if key:
            sums = re.search(r'data-sums="([^"]*)"', attrs)
            found[key.group(1)] = {int(s) for s in sums.group(1).split()} if sums else set()
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
    assert set(box_sums(page(client_for(alice), game))) == {b["key"] for b in view["board_data"]["boxes"]}


def test_highlights_match_the_legal_placements_exactly(game, alice):
    roll = game.state["roll"]
    legal = {}
    for action in game.rules.legal_actions(game.state, 0):
        if action["type"] == "place":
            key = f"{action['box'][0]},{action['box'][1]}"
            legal.setdefault(key, set()).add(sum(roll[d] for d in action["dice"]))
    drawn = {key: sums for key, sums in box_sums(page(client_for(alice), game)).items() if sums}
    assert drawn == legal


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
