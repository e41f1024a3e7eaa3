"""Send less (issue 21, item 4): a live push carries only the regions of a panel that
changed since the audience's previous push, as htmx out-of-band swaps.

games/_panel.html draws each region as a wrapper with a stable id between two sentinel
comments (`<!--r:board-->...<!--/r:board-->`): the status line and clocks (`head`), the
board, the scores, the table's actions and the history. Splitting a render is a few
`str.find`s, no HTML parsing.

For each audience (seat or spectators, and language) the publisher keeps, in the shared
cache, a fingerprint of its last pushed render: the panel's revision, a hash per region and
the history's entries. The next push is then

- a **delta** when that fingerprint is there and older: a `#gp-delta` marker naming the
  revision it applies on top of (`data-base`) and the new one, then only the regions whose
  hash changed; the history, when entries were only added, as its new entries alone
  (`afterbegin` into its list);
- the **full panel** otherwise (no fingerprint: the first push to an audience, an expired
  cache entry; or a fingerprint newer than this render, written by another process).

A page applies a delta only on top of the revision it names; on any other revision it
fetches its full panel (static/js/site.js), so a lost or reordered push costs one request,
never a wrong board. Hidden information stays per audience: a delta is cut from the
audience's own render.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

REGIONS = ("head", "board", "scores", "actions", "history")
OOB = ' hx-swap-oob="true"'
# The panel's own attributes a delta carries over (games/_panel.html's opening tag).
PANEL_ATTRIBUTES = re.compile(r'<div id="game-panel" class="game-panel" (data-version="[^"]*" '
                              r'data-last-event="[^"]*" data-revision="([^"]*)")')
LOG_OPEN, LOG_CLOSE = '<ol class="log">', "</ol>"
ENTRY = re.compile(r"<li[ >].*?</li>", re.S)


def _hash(text: str) -> str:
    # Stable across processes (a str's hash() is salted per process): both workers diff.
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


@dataclass
class Split:
    """One render cut into its regions."""

    revision: str
    attributes: str  # data-version=".." data-last-event=".." data-revision=".."
    regions: dict[str, str]  # name: the region's outer HTML
    log_frame: str = ""  # the history region with its list's entries taken out
    entries: list[str] = field(default_factory=list)  # the history's <li>s, newest first


def split(html: str) -> Split | None:
    """The regions of a rendered panel; None if it is not a panel drawn with regions."""
    found = PANEL_ATTRIBUTES.search(html)
    if found is None:
        return None
    regions = {}
    for name in REGIONS:
        start, end = f"<!--r:{name}-->", f"<!--/r:{name}-->"
        i = html.find(start)
        j = html.find(end, i)
        if i < 0 or j < 0:
            return None
        regions[name] = html[i + len(start):j]
    result = Split(found.group(2), found.group(1), regions)
    history = regions["history"]
    i, j = history.find(LOG_OPEN), history.rfind(LOG_CLOSE)
    if i >= 0 and j > i:
        body = history[i + len(LOG_OPEN):j]
        result.entries = ENTRY.findall(body)
        result.log_frame = history[:i] + history[j:]
    return result


def fingerprint(part: Split) -> dict:
    """What the next push of this audience diffs against (small: hashes, not HTML)."""
    return {
        "revision": part.revision,
        "regions": {name: _hash(html) for name, html in part.regions.items()},
        "log_frame": _hash(part.log_frame),
        "log_count": len(part.entries),
        "log": _hash("".join(reversed(part.entries))),  # oldest first: a prefix stays a prefix
    }


def _is_older(revision: str, than: str) -> bool:
    try:
        return float(revision) < float(than)
    except ValueError:
        return False


def delta(part: Split, before: dict | None) -> str | None:
    """The delta message turning the render `before` fingerprints into `part`; None when a
    delta cannot be cut (send the full panel)."""
    if not before or not _is_older(before.get("revision", ""), part.revision):
        return None
    now = fingerprint(part)
    pieces = [f'<span id="gp-delta" hidden data-base="{before["revision"]}" {part.attributes}{OOB}></span>']
    for name in REGIONS:
        if now["regions"][name] == before["regions"].get(name):
            continue
        if name == "history" and (tail := _history_tail(part, now, before)) is not None:
            pieces.append(tail)
            continue
        pieces.append(_oob(part.regions[name]))
    return "".join(pieces)


def _history_tail(part: Split, now: dict, before: dict) -> str | None:
    """Only the new history entries, when the old ones are unchanged and nothing else in the
    history box changed (an undo or a rewritten entry sends the whole box)."""
    count = before.get("log_count", -1)
    if now["log_frame"] != before.get("log_frame") or not 0 < count <= now["log_count"]:
        return None
    old_entries = part.entries[len(part.entries) - count:]  # newest first: the oldest `count`
    if _hash("".join(reversed(old_entries))) != before.get("log"):
        return None
    new = part.entries[:len(part.entries) - count]
    return f'<ol hx-swap-oob="afterbegin:#gp-history ol.log">{"".join(new)}</ol>' if new else ""


def _oob(region: str) -> str:
    """A region's wrapper, marked for an out-of-band swap (its opening tag carries the id)."""
    close = region.find(">")
    return region[:close] + OOB + region[close:]
