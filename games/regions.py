"""Send less (issue 21, item 4): a live push carries only what changed in a panel since
the audience's previous push.

games/shell.py draws each region as a wrapper with a stable id between two sentinel
comments (`<!--r:board-->...<!--/r:board-->`): the status line and clocks (`head`), the
board, the scores, the table's actions and the history. Splitting a render is a few
`str.find`s; each region is then read as a tree of elements (one regular expression over
its tags) and fingerprinted: a hash per element, of its opening tag and of its frame.

For each audience (seat or spectators, and language) the publisher keeps, in the shared
cache, the fingerprint of its last pushed render. The next push is then

- a **delta** when that fingerprint is there and older: a `#gp-delta` marker naming the
  revision it applies on top of (`data-base`) and the new one, then records replacing the
  smallest elements that changed (or only their attributes), and the history's new entries
  alone when entries were only added;
- the **full panel** otherwise (no fingerprint: the first push to an audience, an expired
  cache entry; or a fingerprint newer than this render, written by another process).

A page applies a delta only on top of the revision it names, and only if every element it
names is where the server's tree has it; otherwise it fetches its full panel
(static/js/site.js), so a lost or reordered push costs one request, never a wrong board.
Hidden information stays per audience: a delta is cut from the audience's own render.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

REGIONS = ("head", "board", "scores", "actions", "history")
# Regions read as element trees; the others are small (or, the history, sent as its new
# entries) and go whole when they change: reading them cost more than it saved.
TREE_REGIONS = frozenset({"board"})
# The panel's own attributes a delta carries over (games/shell.py writes its opening tag).
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
    nodes: dict[str, list | None] = field(default_factory=dict)  # element trees read so far


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


# --- Element trees: which elements of a region changed ----------------------------------
#
# A region's markup is read as a tree of elements (a regular expression over its tags: the
# templates are ours and well formed). An element is remembered as (hash, tag, frame hash,
# children) where the frame is its markup with each child's replaced by a mark, so "same
# frame" means same own attributes and text and the same number of children. Only elements
# of at least KEEP_CHILDREN_FROM bytes keep their children (the fingerprint stays small);
# smaller ones are replaced whole when they change.

TAG = re.compile(r"<(/?)([A-Za-z][^\s/>]*)([^>]*)>")
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
RAW_TEXT = frozenset({"script", "style", "textarea"})
KEEP_CHILDREN_FROM = 500
MAX_DEPTH = 12
TAG_NAME, START, OPEN_END, END, CHILDREN = range(5)


def parse(html: str) -> list | None:
    """The element tree of `html`, a single element (a region's wrapper), as nested lists
    [tag, start, end of its opening tag, end, children]; None if the markup is not read as
    one element (a region that is not well formed goes whole). Tag names keep their case
    (our templates close a tag as they open it; SVG's are camelCase)."""
    root: list = ["#root", 0, 0, -1, []]
    stack = [root]
    top = root
    skip_to = 0
    for found in TAG.finditer(html):
        if skip_to and found.start() < skip_to:
            continue  # inside a raw-text element
        closing, tag, rest = found.groups()
        if closing:
            if top[0] == tag:  # the usual case: the element just opened
                top[3] = found.end()
                stack.pop()
                top = stack[-1]
                continue
            at = found.start()
            # Close up to the matching open element (an unclosed <p> or <li> is closed too).
            for depth in range(len(stack) - 2, 0, -1):
                if stack[depth][0] == tag:
                    for node in stack[depth + 1:]:
                        node[3] = at
                    stack[depth][3] = found.end()
                    del stack[depth:]
                    top = stack[-1]
                    break
            continue
        at, end = found.start(), found.end()
        node = [tag, at, end, end, []]
        top[4].append(node)
        if rest.endswith("/") or tag in VOID:
            continue
        if tag in RAW_TEXT:
            close = html.find(f"</{tag}", end)
            if close < 0:
                return None
            skip_to = node[3] = html.find(">", close) + 1
            continue
        stack.append(node)
        top = node
    if len(stack) != 1 or len(root[4]) != 1:
        return None
    return root[4][0]


def _tree(html: str, node: list, depth: int = 0) -> list[Any]:
    """[hash, tag, opening tag's hash, inner frame's hash, children] (the last two only for
    large enough elements). A large element's hash is made of its opening tag, its frame and
    its children's hashes, so each byte of the region is hashed once."""
    start, opening, end, children = node[START], node[OPEN_END], node[END], node[CHILDREN]
    if end - start < KEEP_CHILDREN_FROM or not children or depth >= MAX_DEPTH:
        return [_digest(html[start:end]), node[TAG_NAME], None, None, []]
    frame, at = [], opening
    for child in children:
        frame.append(html[at:child[START]])
        at = child[END]
    frame.append(html[at:end])
    kids = [_tree(html, child, depth + 1) for child in children]
    own, inner = _digest(html[start:opening]), _digest("\0".join(frame))
    return [_digest_bytes(own + inner + b"".join(kid[0] for kid in kids)), node[TAG_NAME], own, inner, kids]


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=8).digest()


def _digest_bytes(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=8).digest()


def tree(region: str) -> list[Any] | None:
    node = parse(region)
    return None if node is None else _tree(region, node)


def _changes(html: str, node: list, before: list[Any], now: list[Any], path: list[str], out: list[str]) -> None:
    """Records replacing the smallest changed elements of `node` (paths of child indexes);
    an element whose own attributes alone changed gets an attributes record ("=")."""
    if before[0] == now[0]:
        return
    where = "/".join(path)
    if before[3] is None or before[3] != now[3] or before[1] != now[1] or len(before[4]) != len(now[4]):
        out.append(f"{where}\n{html[node[START]:node[END]]}")
        return
    if before[2] != now[2]:
        out.append(f"{where} =\n{html[node[START]:node[OPEN_END]]}")
    for index, (child, was, is_now) in enumerate(zip(node[CHILDREN], before[4], now[4], strict=True)):
        # The step names the tag the page holds there (the old one): the client checks it.
        _changes(html, child, was, is_now, [*path, f"{index}.{was[1].lower()}"], out)


# --- The messages ----------------------------------------------------------------------
#
# A delta is the #gp-delta marker (the revision it applies on top of, the panel's new
# attributes), then records separated by RS (U+001E, never in a page's markup), each
# "REGION-ID PATH\nHTML": replace the element at PATH under the region's wrapper (PATH
# empty: the wrapper itself; each step "index.tag", checked by the page); "REGION-ID PATH =
# \nOPENING-TAG": give that element the attributes of OPENING-TAG; "gp-history +\nHTML":
# put HTML at the top of the history's list. static/js/site.js applies them.

RS = "\x1e"


def fingerprint(part: Split, before: dict | None = None) -> dict:
    """What the next push of this audience diffs against (small: hashes, not HTML). A region
    whose markup is the one `before` saw keeps its tree unread."""
    sums = {name: _digest(html) for name, html in part.regions.items()}
    trees: dict[str, list[Any] | None] = {}
    for name, html in part.regions.items():
        if name not in TREE_REGIONS:
            trees[name] = [sums[name], name, None, None, []]  # a leaf: replaced whole
            continue
        if before and before.get("sums", {}).get(name) == sums[name] and name in before.get("trees", {}):
            trees[name] = before["trees"][name]
            continue
        node = part.nodes[name] = parse(html)
        trees[name] = None if node is None else _tree(html, node)
    return {
        "revision": part.revision,
        "sums": sums,
        "trees": trees,
        "log_frame": _hash(part.log_frame),
        "log_count": len(part.entries),
        "log": _hash("".join(reversed(part.entries))),  # oldest first: a prefix stays a prefix
    }


def _is_older(revision: str, than: str) -> bool:
    try:
        return float(revision) < float(than)
    except ValueError:
        return False


def delta(part: Split, before: dict | None, now: dict | None = None) -> str | None:
    """The delta message turning the render `before` fingerprints into `part` (`now`, its
    own fingerprint, when the caller has it); None when a delta cannot be cut (send the full
    panel)."""
    if not before or not _is_older(before.get("revision", ""), part.revision) or "trees" not in before:
        return None
    now = now or fingerprint(part, before)
    records = [f'<span id="gp-delta" hidden data-base="{before["revision"]}" {part.attributes}></span>']
    for name in REGIONS:
        html, was, is_now = part.regions[name], before["trees"].get(name), now["trees"][name]
        if was is not None and is_now is not None and was[0] == is_now[0]:
            continue
        if name == "history" and (tail := _history_tail(part, now, before)) is not None:
            if tail:
                records.append(f"gp-history +\n{tail}")
            continue
        if name not in TREE_REGIONS:
            records.append(f"gp-{name} \n{html}")
            continue
        node = part.nodes[name] if name in part.nodes else parse(html)
        if was is None or is_now is None or node is None:
            records.append(f"gp-{name} \n{html}")
            continue
        changes: list[str] = []
        _changes(html, node, was, is_now, [], changes)
        if sum(map(len, changes)) > len(html) * 0.9:
            changes = [f"\n{html}"]  # most of it changed: the region whole, in one record
        records.extend(f"gp-{name} {change}" for change in changes)
    return RS.join(records)


def _history_tail(part: Split, now: dict, before: dict) -> str | None:
    """Only the new history entries, when the old ones are unchanged and nothing else in the
    history box changed (an undo or a rewritten entry sends the whole box)."""
    count = before.get("log_count", -1)
    if now["log_frame"] != before.get("log_frame") or not 0 < count <= now["log_count"]:
        return None
    old_entries = part.entries[len(part.entries) - count:]  # newest first: the oldest `count`
    if _hash("".join(reversed(old_entries))) != before.get("log"):
        return None
    return "".join(part.entries[:len(part.entries) - count])
