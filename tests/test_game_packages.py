"""A game is one package: the registry finds it, the site uses it, and its rules stay pure."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import rules as registry

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def with_dummy_games():
    """Search tests/dummy_games too, as if its packages were folders under games/."""
    registry.use_roots("games", "tests.dummy_games")
    yield
    registry.use_roots("games")


def test_every_game_is_one_folder_with_its_parts():
    for package in registry.packages():
        folder = ROOT / package.replace(".", "/")
        slug = next(s for s in registry.slugs() if registry.package_of(s) == package)
        assert (folder / "rules" / "__init__.py").is_file()
        assert (folder / "presenter.py").is_file()
        assert (folder / "templates" / "games" / slug / "board.html").is_file()
        assert (folder / "tests").is_dir()


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_rules_module_imports_django():
    rules_files = sorted(ROOT.glob("games/*/rules/**/*.py")) + sorted((ROOT / "games" / "rules").glob("*.py"))
    assert rules_files
    for path in rules_files:
        offending = {name for name in _imports(path) if name.split(".")[0] in {"django", "channels"}}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}"


def test_loading_every_rules_package_leaves_django_unimported():
    code = ("import sys; from games import rules; "
            "[rules.get(s) and rules.bot_for(s) for s in rules.slugs()]; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'channels')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.replace("'", '"')) == []


def test_a_dummy_game_folder_is_registered(with_dummy_games):
    assert "coin-race" in registry.slugs()
    assert registry.get("coin-race").title == "Coin Race"
    assert registry.bot_for("coin-race").choose({}, 0, None) == {"type": "add", "n": 2}


def test_a_broken_game_package_is_reported_and_left_out(with_dummy_games):
    registry.slugs()
    assert "tests.dummy_games.broken_game" in registry.BROKEN
    assert "roll-to-the-top" in registry.slugs()


def test_the_lobby_form_offers_a_dummy_game(with_dummy_games, alice_client):
    page = alice_client.get("/tables/new/?game=coin-race")
    assert page.status_code == 200
    assert b'value="coin-race"' in page.content


def test_the_play_page_draws_a_dummy_games_board_and_history(with_dummy_games, start_game, alice, bob,
                                                              alice_client):
    from games import engine

    game = start_game("coin-race", [alice, bob])
    engine.submit(game.pk, alice, {"type": "add", "n": 2})
    page = alice_client.get(f"/play/{game.pk}/")
    assert page.status_code == 200
    assert b"Counter at 2" in page.content
    assert b"alice added 2" in page.content


def test_a_game_whose_package_was_removed_leaves_the_site_up(start_game, alice, bob, alice_client):
    game = start_game("roll-to-the-top", [alice, bob])
    registry.use_roots("tests.dummy_games")
    try:
        assert alice_client.get("/").status_code == 200
        assert alice_client.get("/games/").status_code == 200
        page = alice_client.get(f"/play/{game.pk}/")
        assert page.status_code == 404
        assert b"no longer" in page.content
    finally:
        registry.use_roots("games")
