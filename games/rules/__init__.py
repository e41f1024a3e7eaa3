"""Registry of the games: `get(slug)`, `all()`, `bot_for(slug, level=N)`, `package_of(slug)`.

A game is one package `games/<module>/` whose `rules/` subpackage exposes `RULES`
(ARCHITECTURE.md, "Layout"). The registry finds such packages by itself, so adding a
game touches no shared file; a package that fails to import is recorded in `BROKEN`
(a test fails on it) and left out, so one broken game never takes the site down.

The registry itself stays free of Django: rules packages and their tests import it.
"""
from __future__ import annotations

import importlib
import importlib.util
import logging
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import Any

from . import levels
from .base import IllegalAction, Ruleset  # noqa: F401  (re-exported for callers)

# Packages whose subpackages are searched for games. Tests add a root of their own to
# prove a game package elsewhere is picked up (see `use_roots`).
ROOTS: tuple[str, ...] = ("games",)

_PACKAGES: dict[str, str] | None = None  # slug -> game package, e.g. "games.rifugio"
BROKEN: dict[str, str] = {}  # game package -> the error it raised on import
log = logging.getLogger(__name__)


def _candidates(root: str) -> list[str]:
    """Subpackages of `root` that have a `rules` subpackage (without importing them)."""
    spec = importlib.util.find_spec(root)
    if spec is None or not spec.submodule_search_locations:
        return []
    names = []
    for info in pkgutil.iter_modules(spec.submodule_search_locations):
        if not info.ispkg or info.name == "rules":
            continue
        location = info.module_finder.path  # type: ignore[union-attr]
        if _has_rules(location, info.name):
            names.append(f"{root}.{info.name}")
    return names


def _has_rules(location: str, name: str) -> bool:
    return (Path(location) / name / "rules" / "__init__.py").is_file()


def _packages() -> dict[str, str]:
    """slug -> game package, found once."""
    global _PACKAGES
    if _PACKAGES is None:
        found = {}
        for root in ROOTS:
            for package in _candidates(root):
                try:
                    module = importlib.import_module(f"{package}.rules")
                except Exception as exc:  # one broken game must not take the site down
                    BROKEN[package] = repr(exc)
                    log.exception("%s failed to import", package)
                    continue
                rules = getattr(module, "RULES", None)
                if rules is not None:
                    found[rules.slug] = package
        _PACKAGES = dict(sorted(found.items()))
    return _PACKAGES


def use_roots(*roots: str) -> None:
    """Search these packages for games from now on (tests use it for a dummy game)."""
    global ROOTS, _PACKAGES
    ROOTS = tuple(roots)
    _PACKAGES = None
    BROKEN.clear()


def get(slug: str, version: str | None = None) -> Ruleset:
    """The RULES object for a slug; KeyError for an unknown game.

    With `version`, the rules a game started under (docs/rules-versions.md): the current
    RULES when the versions match, else the game's `PREVIOUS[version]` (older rules kept
    side by side); KeyError when that version is no longer kept.
    """
    module = importlib.import_module(f"{_packages()[slug]}.rules")
    if version is None or version == module.RULES.version:
        return module.RULES
    previous = getattr(module, "PREVIOUS", {})
    if version not in previous:
        raise KeyError(f"{slug} rules version {version} is not kept")
    return previous[version]


def has(slug: str, version: str | None = None) -> bool:
    """Is this game (under this rules version) served by the site?"""
    try:
        get(slug, version)
    except KeyError:
        return False
    return True


def all() -> list[Ruleset]:  # noqa: A001  (the contract names it `all`)
    return [get(slug) for slug in _packages()]


def slugs() -> list[str]:
    return list(_packages())


def package_of(slug: str) -> str:
    """The game's package (e.g. "games.rifugio"): its presenter, templates and static files."""
    return _packages()[slug]


def packages() -> list[str]:
    return list(_packages().values())


def bot_for(slug: str, version: str | None = None, level: int | None = None) -> Any:
    """The game's bot, exposing `choose(state, seat, rng) -> action`.

    Without `level` (or with level 3): the game's greedy bot module, as always; for an
    older rules version, the bot kept beside those rules (`PREVIOUS_BOTS[version]`).
    With `level` 1-5 (games/rules/levels.py): a `LevelBot` of that level; levels 4 and 5
    search under their time budget, so call them from a worker, never inside a request.
    """
    if version is not None and version != get(slug).version:
        module = importlib.import_module(f"{_packages()[slug]}.rules")
        return getattr(module, "PREVIOUS_BOTS", {})[version]
    if level is not None and levels.check_level(level) != levels.GREEDY:
        greedy = _greedy_bot(slug)
        return levels.LevelBot(get(slug), greedy.choose, level, **_search_hooks(greedy))
    return _greedy_bot(slug)


def _greedy_bot(slug: str) -> ModuleType:
    return importlib.import_module(f"{_packages()[slug]}.rules.bot")


def choose_at_level(slug: str, state: dict, seat: int, rng: Any, level: int = levels.GREEDY,
                    budget: float | None = None, iterations: int | None = None) -> dict:
    """The action a bot of `level` (1-5) takes now: games/rules/levels.py, given this game's
    rules and greedy bot."""
    greedy = _greedy_bot(slug)
    return levels.choose(get(slug), greedy.choose, state, seat, rng, level, budget, iterations,
                         **_search_hooks(greedy))


def _search_hooks(greedy: ModuleType) -> dict[str, Any]:
    """What a greedy bot module may offer the search levels: its evaluation (`leaf_value`)
    and its search policy (`search_policy`); None where it offers none."""
    return {"leaf": getattr(greedy, "leaf_value", None), "policy": getattr(greedy, "search_policy", None)}
