"""The catalogues are complete (issue 23's first check): for every root that owns one (each
app, each game, the site: update_catalogues.catalogue_roots), the messages marked in its
sources are exactly the catalogue's, and nl, de and it translate every one of them: no
empty or fuzzy entry, every plural form, and msgfmt --check passes.

The sources are read the way `make messages` reads them, in a copy of the tree (the
working tree is never touched): the copy's catalogues are updated by makemessages and
compared with the real ones."""
from __future__ import annotations

import contextlib
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from games.management.commands.update_catalogues import TRANSLATED, catalogue_roots
from tests.i18n.po import Entry, parse

LEFT_OUT = shutil.ignore_patterns(".git", ".venv", "staticfiles", "node_modules", "__pycache__", "*.sqlite3*",
                                  ".presence-cache", "test-artifacts", "*.mo", ".pytest_cache", ".mypy_cache",
                                  ".import_linter_cache", ".grimp_cache", "*.egg-info")
BASE = Path(settings.BASE_DIR)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Path:
    """A copy of the tree whose catalogues makemessages updated from the sources."""
    copy = tmp_path_factory.mktemp("catalogues") / "tree"
    shutil.copytree(BASE, copy, ignore=LEFT_OUT, symlinks=True)
    for root, ignore in catalogue_roots(copy):
        (root / "locale").mkdir(exist_ok=True)
        with contextlib.chdir(root):
            call_command("makemessages", locale=TRANSLATED, ignore_patterns=ignore, no_obsolete=True,
                         add_location="file", verbosity=0)
    return copy


def roots() -> list[str]:
    return [str(root.relative_to(BASE)) or "." for root, _ignore in catalogue_roots()]


def catalogue(tree: Path, root: str, language: str) -> Path:
    return tree / root / "locale" / language / "LC_MESSAGES" / "django.po"


def keys(entries: list[Entry]) -> set[tuple[str | None, str]]:
    return {entry.key for entry in entries if not entry.obsolete}


def problems(entry: Entry, plurals: int) -> list[str]:
    found = []
    if "fuzzy" in entry.flags:
        found.append("fuzzy")
    forms = [entry.msgstr.get(i, "") for i in range(plurals if entry.msgid_plural else 1)]
    if not all(form.strip() for form in forms):
        found.append("empty" if not any(forms) else "a plural form empty")
    return found


@pytest.mark.parametrize("root", roots())
@pytest.mark.parametrize("language", TRANSLATED)
def test_every_marked_message_is_translated(root, language, extracted):
    """Each root's catalogue holds exactly the messages its sources mark, all translated."""
    fresh = catalogue(extracted, root, language)
    real = catalogue(BASE, root, language)
    if not fresh.exists():
        assert not real.exists() or not keys(parse(real)), f"{root}: a catalogue for messages nobody marks"
        return  # nothing marked in this root (yet)
    assert real.exists(), (f"{root} marks messages but has no {language} catalogue: "
                           f"run `make messages` and translate {real.relative_to(BASE)}")
    wanted, have = keys(parse(fresh)), keys(parse(real))
    missing, stale = sorted(wanted - have, key=str), sorted(have - wanted, key=str)
    assert not missing, f"{real.relative_to(BASE)} lacks {len(missing)} message(s) (run `make messages`): {missing[:8]}"
    assert not stale, f"{real.relative_to(BASE)} holds {len(stale)} message(s) no source marks: {stale[:8]}"
    plurals = 2  # nl, de, it: nplurals=2
    bad = {entry.msgid[:70]: problems(entry, plurals) for entry in parse(real) if not entry.obsolete}
    bad = {msgid: found for msgid, found in bad.items() if found}
    assert not bad, f"{real.relative_to(BASE)}: {len(bad)} entries not translated: {list(bad.items())[:8]}"
    header = real.read_text(encoding="utf-8").split("\n\n", 1)[0]
    assert "#, fuzzy" not in header, f"{real.relative_to(BASE)}: the header is still makemessages' fuzzy template"


@pytest.mark.parametrize("language", TRANSLATED)
def test_msgfmt_checks_every_catalogue(language):
    """Placeholders kept (python-format), plural forms, header: GNU msgfmt's own checks."""
    for root in roots():
        po = catalogue(BASE, root, language)
        if po.exists():
            result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
            assert result.returncode == 0, f"{po.relative_to(BASE)}: {result.stderr[-2000:]}"


def test_the_working_tree_is_left_alone(extracted):
    """The extraction ran in a copy: no catalogue of the working tree was written."""
    assert extracted != BASE and not str(extracted).startswith(str(BASE))
