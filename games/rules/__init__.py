"""Registry of the games' rules modules: `get(slug)`, `all()`, `bot_for(slug)`.

Every subpackage of games/rules that exposes `RULES` is a game; discovering them keeps
each game's package self-contained (adding a game touches no shared file).
"""
from __future__ import annotations

import importlib
import logging
import pkgutil
from types import ModuleType

from .base import IllegalAction, Ruleset  # noqa: F401  (re-exported for callers)

_PACKAGES: dict[str, str] | None = None
BROKEN: dict[str, str] = {}  # package -> error, for packages that failed to import
log = logging.getLogger(__name__)


def _packages() -> dict[str, str]:
    """slug -> package name, found once."""
    global _PACKAGES
    if _PACKAGES is None:
        found = {}
        for info in pkgutil.iter_modules(__path__):
            if not info.ispkg:
                continue
            try:
                module = importlib.import_module(f"{__name__}.{info.name}")
            except Exception as exc:  # one broken game must not take the site down
                BROKEN[info.name] = repr(exc)
                log.exception("games.rules.%s failed to import", info.name)
                continue
            rules = getattr(module, "RULES", None)
            if rules is not None:
                found[rules.slug] = module.__name__
        _PACKAGES = dict(sorted(found.items()))
    return _PACKAGES


def get(slug: str) -> Ruleset:
    """The RULES object for a slug; KeyError for an unknown game."""
    return importlib.import_module(_packages()[slug]).RULES


def all() -> list[Ruleset]:  # noqa: A001  (the contract names it `all`)
    return [get(slug) for slug in _packages()]


def slugs() -> list[str]:
    return list(_packages())


def bot_for(slug: str) -> ModuleType:
    """The game's bot module, exposing `choose(state, seat, rng) -> action`."""
    return importlib.import_module(f"{_packages()[slug]}.bot")
