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
    # The site's own: templates/ and config/ (its messages: refusals, the language chooser).
    roots.append((base, NEVER + [f"{name}/*" for name in everything_else] + ["manage.py", "conftest.py"]))
    return roots


HEADER_FIELDS = {
    "Project-Id-Version": "Switchback",
    "PO-Revision-Date": None,  # the POT-Creation-Date of the run that wrote it
    "Last-Translator": "Switchback translators",
    "Language-Team": "Switchback translators",
    "Language": None,  # the catalogue's language
}


def tidy_header(po: Path, language: str) -> None:
    """makemessages writes a new catalogue's header as a fuzzy template ("#, fuzzy",
    "Language: ", PACKAGE VERSION...): msgfmt skips a fuzzy header and warns about the
    defaults. Fill it in once; later runs keep it (msgmerge keeps a catalogue's header)."""
    text = po.read_text(encoding="utf-8")
    head, sep, rest = text.partition("\n\n")
    if not head.lstrip("# \n").startswith("SOME DESCRIPTIVE TITLE") and "#, fuzzy\nmsgid \"\"" not in head:
        return
    template = ("DESCRIPTIVE", "COPYRIGHT", "PACKAGE", "FIRST AUTHOR")
    lines = [line for line in head.splitlines() if line != "#, fuzzy" and not (
        line.startswith("# ") and any(word in line for word in template))]
    lines = [line for line in lines if line != "#"]
    created = next((line.split(": ", 1)[1][:-3] for line in lines if line.startswith('"POT-Creation-Date:')), "")
    for name, value in HEADER_FIELDS.items():
        value = value or (language if name == "Language" else created)
        lines = [f'"{name}: {value}\\n"' if line.startswith(f'"{name}:') else line for line in lines]
    header = "\n".join([f"# Switchback: {language} catalogue (docs/i18n.md)."] + lines)
    po.write_text(header + sep + rest, encoding="utf-8")


class Command(BaseCommand):
    help = "Update the nl, de and it catalogues of every app, every game and the site from the sources."

    def handle(self, *args, **options) -> None:
        for root, ignore in catalogue_roots():
            (root / "locale").mkdir(exist_ok=True)
            with contextlib.chdir(root):
                call_command("makemessages", locale=TRANSLATED, ignore_patterns=ignore, no_obsolete=True,
                             add_location="file", verbosity=0)
            for language in TRANSLATED:
                po = root / "locale" / language / "LC_MESSAGES" / "django.po"
                if po.exists():
                    tidy_header(po, language)
            self.stdout.write(f"updated {os.path.relpath(root, settings.BASE_DIR)}/locale")
