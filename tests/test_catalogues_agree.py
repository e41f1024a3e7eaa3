"""The catalogues of every app and game are merged into one per language at run time (a
game's catalogue wins over the platform's: LOCALE_PATHS come first), so one English msgid
must read the same in every catalogue that holds it; a game that needs its own word uses a
context (pgettext). Otherwise the platform's "Final result" reads as one game's word on
every game's page."""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIELD = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$')


def entries(path: Path) -> dict[tuple[str | None, str], tuple[str, ...]]:
    found: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            if line.startswith("#"):
                continue
            match = FIELD.match(line)
            if match:
                key, fields[key] = match.group(1), match.group(2)
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        if fields.get("msgid"):
            found[(fields.get("msgctxt"), fields["msgid"])] = tuple(v for k, v in sorted(fields.items())
                                                                    if k.startswith("msgstr"))
    return found


def catalogues(language: str) -> list[Path]:
    return [p for p in ROOT.glob(f"**/locale/{language}/LC_MESSAGES/django.po") if ".venv" not in p.parts]


@pytest.mark.parametrize("language", ["nl", "de", "it"])
def test_one_msgid_reads_the_same_in_every_catalogue(language):
    readings: dict[tuple[str | None, str], dict[str, tuple[str, ...]]] = defaultdict(dict)
    for path in catalogues(language):
        owner = str(path.relative_to(ROOT)).split("/locale/")[0]
        for key, translation in entries(path).items():
            readings[key][owner] = translation
    clashes = {key: owners for key, owners in readings.items() if len(set(owners.values())) > 1}
    assert not clashes, "\n".join(f"{key}: {owners}" for key, owners in clashes.items())
