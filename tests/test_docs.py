"""The docs a newcomer reads stay true: the README links them, the paths they name exist,
and the add-a-game walk-through's code is the code of a game that really plays."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import rules as registry

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
WALK_THROUGH = DOCS / "adding-a-game.md"
GAME = ROOT / "tests" / "dummy_games" / "summit_dice"
BLOCK = re.compile(r"^```\w+ path=(\S+)\n(.*?)^```$", re.M | re.S)


def _blocks() -> dict[str, str]:
    """{path: code} of every fenced block the walk-through labels with `path=`."""
    return {path: code for path, code in BLOCK.findall(WALK_THROUGH.read_text())}


def test_the_readme_links_the_architecture_and_the_walk_through():
    readme = (ROOT / "README.md").read_text()
    assert "docs/architecture.md" in readme and "docs/adding-a-game.md" in readme
    assert "../shared" not in readme  # a clone has no ../shared


def test_every_block_of_the_walk_through_is_the_file_it_names():
    blocks = _blocks()
    assert len(blocks) >= 6
    for path, code in blocks.items():
        assert (ROOT / path).read_text() == code, f"docs/adding-a-game.md shows an outdated {path}: copy the file in"


def test_the_walk_through_shows_every_file_of_its_game():
    files = {str(p.relative_to(ROOT)) for p in GAME.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.read_text().strip()}
    assert files == set(_blocks())


# Paths the docs name in backticks, e.g. `games/engine.py`; placeholders (<module>) skipped.
PATH = re.compile(r"`((?:games|lobby|accounts|chat|config|tests|docs|templates|bench|\.ci)/[\w./-]*\w)`")
TARGET = re.compile(r"<!-- target shape -->.*?<!-- /target shape -->", re.S)


@pytest.mark.parametrize("doc", ["architecture.md", "adding-a-game.md", "i18n.md"])
def test_every_path_a_doc_names_exists(doc):
    text = TARGET.sub("", (DOCS / doc).read_text())  # the shape being built may name files to come
    missing = sorted({p for p in PATH.findall(text) if not (ROOT / p).exists()})
    assert not missing, f"docs/{doc} names files that do not exist: {missing}"


@pytest.fixture
def summit_dice():
    registry.use_roots("games", "tests.dummy_games")
    yield
    registry.use_roots("games")


def test_the_walk_through_game_plays_to_the_end_through_the_engine(summit_dice, start_game, alice, bob,
                                                                    alice_client):
    from games import engine

    game = start_game("summit-dice", [alice, bob], seed=5)
    page = alice_client.get(f"/play/{game.pk}/")
    assert b'class="card board summit-dice-board"' in page.content
    assert b"Roll the die" in page.content  # alice climbs first
    bot = registry.bot_for("summit-dice")
    for _ in range(500):
        game.refresh_from_db()
        if not game.is_active:
            break
        seat = game.to_act()[0]
        player = alice if seat == 0 else bob
        engine.submit(game.pk, player, bot.choose(game.state, seat, None))
    assert game.status == game.Status.FINISHED
    page = alice_client.get(f"/play/{game.pk}/")
    assert page.status_code == 200
    assert b"Game over." in page.content and b"reached the summit!" in page.content
    assert b"Roll the die" not in page.content
