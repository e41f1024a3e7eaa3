"""Issue 19 row 8: History names a cell "(4,-12)"; the map shows the same name on that cell, so
a player can match a History line to the board (and the controls' names use it too)."""
from __future__ import annotations

import html
import re

import pytest

from games.models import Game
from games.rifugio import presenter
from games.rifugio.rules import RULES
from tests.fixtures import client_for, post_action

pytestmark = pytest.mark.django_db
CELL = re.compile(r"\((-?\d+),(-?\d+)\)")
LABEL = re.compile(r'<text(?: class="frontier-coord")? x="([^"]+)" y="([^"]+)">(-?\d+,-?\d+)</text>')


def coord_labels(page: str) -> dict[str, tuple[float, float]]:
    """The map's cell names and where they stand: {"4,-12": (x, y)}."""
    layer = page[page.index('<g class="coords"'):]
    layer = layer[:layer.index("</g>")]
    return {name: (float(x), float(y)) for x, y, name in LABEL.findall(layer)}


def at_cell(name: str, spot: tuple[float, float]) -> bool:
    q, r = (int(v) for v in name.split(","))
    cx, cy = presenter.centre(q, r)
    return abs(spot[0] - cx) < 0.01 and abs(spot[1] - (cy + presenter.COORD_DY)) < 0.01


def test_a_history_sentence_names_a_cell_the_map_labels_at_that_cell(start_game, alice, bob):
    game = start_game("rifugio", [alice, bob], seed=5)
    seat = game.to_act()[0]
    player = (alice, bob)[seat]
    action = RULES.legal_actions(game.state, seat)[0]
    client = client_for(player)
    panel = client.get(f"/play/{game.pk}/").content.decode()
    token = re.search(r'"token": "([0-9a-f]{32})"', html.unescape(panel)).group(1)
    assert post_action(client, game, action, token=token, version=game.version).status_code in (200, 204)
    page = client.get(f"/play/{game.pk}/").content.decode()
    log = html.unescape(page[page.index('class="log"'):])
    placed = f"({action['q']},{action['r']})"
    assert placed in log                                   # History: "... placed a ... at (q,r)."
    labels = coord_labels(page)
    name = placed[1:-1]
    assert name in labels and at_cell(name, labels[name])  # ... and the map says "q,r" on that cell
    # every cell the map shows is named once, where it is; the tiles' titles start with the same name
    state = Game.objects.get(pk=game.pk).state
    assert set(labels) >= set(state["board"]) and all(at_cell(n, spot) for n, spot in labels.items())
    assert f"<title>({name}) " in page


def test_every_cell_named_by_a_sentence_is_labelled_on_the_map():
    """Any event, move or control that names a cell uses the "(q,r)" the map shows as "q,r"."""
    state = RULES.setup(2, None, 3)
    while state["phase"] == "place" and len(state["board"]) < 4:
        state = RULES.apply(state, state["active"], RULES.legal_actions(state, state["active"])[0])
    view = RULES.view(state, state["active"])
    panel = {"view": view, "names": ["Ada", "Bea"], "legal": RULES.legal_actions(state, state["active"]),
             "seat": state["active"]}
    board = presenter.board_context(panel)["board"]
    svg = str(board["svg"]["coords"])
    sentences = [presenter.describe(e, ["Ada", "Bea"]) for e in view["events"]] + [t["label"] for t in board["targets"]]
    named = {f"{q},{r}" for text in sentences for q, r in CELL.findall(text)}
    assert named and all(f">{name}</text>" in svg for name in named)
