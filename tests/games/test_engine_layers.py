"""The engine's modules import one way (issue 20 build 2): each imports only the layers
below it, at module level (a function-level import hiding a circle counts as a circle).

models -> clocks -> core -> finishing -> moves -> rematch -> panel -> publisher -> engine
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "games"
LAYERS = ["models", "signals", "clocks", "core", "finishing", "moves", "rematch", "panel", "publisher", "engine"]
# Modules of the games app each layer may use besides the layers below it (low-level helpers
# with no path back up): the rules registry, the presenters, the channel groups, the mail tasks.
HELPERS = {"rules", "rules.base", "presenters", "notify", "tasks"}


def games_imports(module: str, *, top_level_only: bool) -> set[str]:
    tree = ast.parse((GAMES / f"{module}.py").read_text())
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                found |= {node.module} if node.module else {alias.name for alias in node.names}
            elif (node.module or "").startswith("games."):
                found.add(node.module.removeprefix("games."))
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix("games.") for a in node.names if a.name.startswith("games.")}
    return found


@pytest.mark.parametrize("module", LAYERS)
def test_each_engine_layer_imports_only_the_layers_below_it(module):
    below = set(LAYERS[:LAYERS.index(module)])
    imported = games_imports(module, top_level_only=False)
    upward = {name for name in imported if name.split(".")[0] in LAYERS and name not in below}
    assert not upward, f"games.{module} imports {upward} from above it (or itself)"
    others = {name for name in imported if name.split(".")[0] not in LAYERS} - HELPERS
    assert not others, f"games.{module} imports {others}, outside the engine's layers"


@pytest.mark.parametrize("module", ["clocks", "core", "finishing", "moves", "rematch", "publisher", "engine"])
def test_the_engine_modules_have_no_function_level_imports(module):
    assert games_imports(module, top_level_only=False) == games_imports(module, top_level_only=True)


def test_helpers_do_not_reach_back_into_the_engine():
    for helper in ("notify", "tasks"):
        back = games_imports(helper, top_level_only=False) & set(LAYERS[2:])
        assert not back, f"games.{helper} imports {back}"
