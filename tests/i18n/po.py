"""Reading the catalogues for the i18n checks: a small .po parser (no dependency), every
catalogue of every root (games.management.commands.update_catalogues.catalogue_roots), and
the English sentences they hold as patterns to look for in rendered pages and mails."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from django.conf import settings

TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


@dataclass
class Entry:
    msgid: str
    msgid_plural: str = ""
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return self.msgctxt, self.msgid


def _unquote(text: str) -> str:
    return ast.literal_eval(text) if text.startswith('"') else ""


def parse(path: Path) -> list[Entry]:
    """The entries of a .po file, its header (msgid "") left out."""
    entries: list[Entry] = []
    current = Entry(msgid="")
    pending_flags: set[str] = set()
    target: tuple[str, int] = ("msgid", 0)
    started = False

    def begin(obsolete: bool) -> None:
        nonlocal current, pending_flags, started
        if started and current.msgid:
            entries.append(current)
        current = Entry(msgid="", flags=pending_flags, obsolete=obsolete)
        pending_flags, started = set(), True

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        elif line.startswith("#,"):
            pending_flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        elif line.startswith("#") or not line:
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgctxt" or (keyword == "msgid" and not (started and current.msgctxt is not None
                                                               and not current.msgid and not current.msgstr)):
            begin(obsolete)
        target = _apply(current, keyword, rest, line, target)
    begin(False)
    return entries


def _apply(entry: Entry, keyword: str, rest: str, line: str, target: tuple[str, int]) -> tuple[str, int]:
    """One keyword line (or a continued string) into `entry`; returns what a continuation adds to."""
    if keyword in ("msgctxt", "msgid", "msgid_plural"):
        setattr(entry, keyword, _unquote(rest))
        return keyword, 0
    if keyword.startswith("msgstr"):
        index = int(keyword[7:-1]) if "[" in keyword else 0
        entry.msgstr[index] = _unquote(rest)
        return "msgstr", index
    if line.startswith('"'):
        part = _unquote(line)
        name, index = target
        if name == "msgstr":
            entry.msgstr[index] += part
        else:
            setattr(entry, name, (getattr(entry, name) or "") + part)
    return target


def catalogue_files(language: str) -> list[Path]:
    """Every root's django.po for `language` that exists."""
    from games.management.commands.update_catalogues import catalogue_roots

    found = []
    for root, _ignore in catalogue_roots():
        po = root / "locale" / language / "LC_MESSAGES" / "django.po"
        if po.exists():
            found.append(po)
    return found


TAG = re.compile(r"<[^>]+>")
PLACEHOLDER = re.compile(r"%(?:\([^)]+\))?[-+ #0]*\d*(?:\.\d+)?[sdifr%]|\{[^{}]*\}")


def pattern(msgid: str) -> re.Pattern[str] | None:
    """A msgid as a pattern for rendered text (placeholders match anything), or None when
    it holds no word a reader would notice left in English (no word of three letters)."""
    if not re.search(r"[A-Za-z]{3,}", PLACEHOLDER.sub(" ", msgid)):
        return None
    text = " ".join(msgid.split())
    parts = PLACEHOLDER.split(text)
    return re.compile(r"\s*" + r".+?".join(re.escape(part) for part in parts) + r"\s*", re.DOTALL)


@lru_cache(maxsize=None)
def english_sentences(language: str) -> tuple[re.Pattern[str], ...]:
    """The English sentences the catalogues of `language` translate into something else:
    what must not be left in English on a page in that language."""
    found = []
    for po in catalogue_files(language):
        for entry in parse(po):
            if entry.obsolete or "fuzzy" in entry.flags:
                continue
            for index, english in enumerate([entry.msgid] + ([entry.msgid_plural] if entry.msgid_plural else [])):
                translated = entry.msgstr.get(index, entry.msgstr.get(0, ""))
                if translated and translated != english:
                    # A message with markup shows as several text nodes: each piece is one.
                    for piece in TAG.split(english):
                        if piece.strip() in translated:
                            continue  # a piece the translation keeps ("<strong>Live</strong>")
                        compiled = pattern(piece)
                        if compiled is not None:
                            found.append(compiled)
    return tuple(found)


def untranslated(texts: list[str], language: str) -> list[str]:
    """The texts that are, whole, one of the English sentences `language` translates."""
    sentences = english_sentences(language)
    return [text for text in texts if any(s.fullmatch(" ".join(text.split())) for s in sentences)]
