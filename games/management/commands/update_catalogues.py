"""Update every translation catalogue from the sources: `manage.py update_catalogues`
(`make messages`). Each app keeps its catalogue in <app>/locale, each game in
games/<game>/locale (so a game stays one folder), and the site's own templates and config
in ./locale. Messages are found where they are marked: `{% translate %}` and
`{% blocktranslate %}` in templates, `_`/`gettext`/`ngettext`/`pgettext` (and their lazy
forms) in Python, the rules' and presenters' `_` from games.rules.base included.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
APPS = ["accounts", "lobby", "games", "chat", "notifications", "social", "tournaments"]
NEVER = ["tests", "tests/*", "*/tests/*", "migrations/*", "*/migrations/*", "bench*", "static/*", "*/static/*"]


def catalogue_roots(base: Path | None = None) -> list[tuple[Path, list[str]]]:
    """Every folder that owns a catalogue, with what makemessages leaves out there."""
    base = base or Path(settings.BASE_DIR)
    games = sorted(p.parent.name for p in (base / "games").glob("*/rules"))
    roots = [(base / app, NEVER + ([f"{g}/*" for g in games] if app == "games" else [])) for app in APPS]
    roots += [(base / "games" / game, NEVER) for game in games]
    everything_else = [p.name for p in base.iterdir() if p.is_dir() and p.name not in ("templates", "config")]
    roots.append((base, NEVER + [f"{name}/*" for name in everything_else] + ["*.py"]))
    return roots


class Command(BaseCommand):
    help = "Update the nl, de and it catalogues of every app, every game and the site from the sources."

    def handle(self, *args, **options) -> None:
        for root, ignore in catalogue_roots():
            (root / "locale").mkdir(exist_ok=True)
            with contextlib.chdir(root):
                call_command("makemessages", locale=TRANSLATED, ignore_patterns=ignore, no_obsolete=True,
                             add_location="file", verbosity=0)
            self.stdout.write(f"updated {os.path.relpath(root, settings.BASE_DIR)}/locale")
