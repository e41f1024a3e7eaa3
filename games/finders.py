"""Templates and static files found in the game packages the registry knows.

A game package keeps its board partials in `templates/games/<slug>/` and its board.css /
board.js in `static/games/<slug>/` (ARCHITECTURE.md, "Layout"). These two finders ask the
registry for the packages, so a new game folder needs no entry in settings.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

from django.contrib.staticfiles.finders import FileSystemFinder
from django.core.files.storage import FileSystemStorage
from django.template.loaders.filesystem import Loader as FileSystemLoader

from . import rules as registry


def game_folders(subfolder: str) -> list[Path]:
    """`subfolder` of every registered game package that has one."""
    folders = []
    for package in registry.packages():
        spec = importlib.util.find_spec(package)
        if spec and spec.submodule_search_locations:
            folder = Path(next(iter(spec.submodule_search_locations))) / subfolder
            if folder.is_dir():
                folders.append(folder)
    return folders


class GameTemplatesLoader(FileSystemLoader):
    """Board partials from each game package's `templates/` folder."""

    def get_dirs(self):
        return game_folders("templates")


class GameStaticFinder(FileSystemFinder):
    """Board styles and scripts from each game package's `static/` folder."""

    def __init__(self, app_names=None, *args, **kwargs):
        super().__init__(app_names, *args, **kwargs)
        self.locations = [("", str(folder)) for folder in game_folders("static")]
        self.storages = {}
        for prefix, root in self.locations:
            storage = FileSystemStorage(location=root)
            storage.prefix = prefix  # type: ignore[attr-defined]  # as FileSystemFinder does; the stubs lack it
            self.storages[root] = storage

    def check(self, **kwargs):
        return []
