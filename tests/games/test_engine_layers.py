"""The engine's modules import one way (issue 20 build 2): each imports only the layers
below it, at module level (a function-level import hiding a circle counts as a circle).

models -> clocks -> replay -> core -> finishing -> moves -> rematch -> panel -> publisher -> engine
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "games"
LAYERS = [
    "models", "signals", "clocks", "replay", "core", "finishing", "moves", "rematch", "panel", "publisher", "engine",
]
# Modules of the games app each layer may use besides the layers below it (low-level helpers
# with no path back up): the rules registry, the presenters, the channel groups, the push line
# and the panel's regions, shell and per-language translations (issue 21; none imports an
# engine layer). The mail tasks hear started clocks through games.signals instead of being
# imported.
HELPERS = {"rules", "rules.base", "presenters", "notify", "deferred", "regions", "shell", "translations"}


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
    for helper in ("notify", "tasks", "deferred", "regions", "shell", "translations"):
        back = games_imports(helper, top_level_only=False) & set(LAYERS[2:])
        assert not back, f"games.{helper} imports {back}"


PLATFORM = {"games", "lobby", "accounts", "chat", "config"}


def platform_modules() -> dict[str, Path]:
    """The platform's modules (not the rules packages, tests or migrations) by dotted name."""
    root, found = GAMES.parent, {}
    for path in root.glob("*/**/*.py"):
        rel = path.relative_to(root)
        if rel.parts[0] in PLATFORM and not {"tests", "migrations", "rules"} & set(rel.parts):
            found[".".join(rel.with_suffix("").parts).removesuffix(".__init__")] = path
    return found


def imported_names(name: str, path: Path) -> set[str]:
    """Every module name `name` imports, anywhere in the file, relative imports resolved."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            names |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
    return names


def circles_from(start: str, graph: dict[str, set[str]]) -> list[str]:
    seen, frontier, found = set(), [(start, (start,))], []
    while frontier:
        node, trail = frontier.pop()
        for nxt in graph[node]:
            if nxt == start:
                found.append(" -> ".join((*trail, start)))
            elif nxt not in seen:
                seen.add(nxt)
                frontier.append((nxt, (*trail, nxt)))
    return found


def test_no_import_circle_among_the_projects_modules():
    """Every import of the platform's modules, function-level ones included: no circle."""
    modules = platform_modules()
    graph = {name: {t for t in imported_names(name, path) if t in modules and t != name}
             for name, path in modules.items()}
    circles = [circle for start in graph for circle in circles_from(start, graph)]
    assert not circles, circles[:5]
