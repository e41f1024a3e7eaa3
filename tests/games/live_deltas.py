"""A page's side of the live deltas (games.regions), in Python: what static/js/site.js does
to its DOM, done to the panel's markup, so tests can check that a delta applied to the
previous panel gives the very panel it was cut from."""
from __future__ import annotations

import re

from games import regions

MARKER = re.compile(r'^<span id="gp-delta" hidden data-base="([^"]*)" (data-version="[^"]*" '
                    r'data-last-event="[^"]*" data-revision="([^"]*)")></span>')


class Gap(Exception):
    """The delta does not apply on top of this page (the page would fetch its panel)."""


def revision(panel: str) -> str:
    found = regions.PANEL_ATTRIBUTES.search(panel)
    assert found, "not a panel"
    return found.group(2)


def is_delta(message: str) -> bool:
    return message.startswith('<span id="gp-delta"')


def apply(panel: str, message: str) -> str:
    """The page's panel after `message`: a full panel replaces it; a delta is applied on
    top of the revision it names (Gap otherwise, or when an element is not where it says)."""
    if not is_delta(message):
        return message
    records = message.split(regions.RS)
    marker = MARKER.match(records.pop(0))
    assert marker, records
    if marker.group(1) != revision(panel):
        raise Gap(f"delta on top of {marker.group(1)}, page at {revision(panel)}")
    found = regions.PANEL_ATTRIBUTES.search(panel)
    panel = panel[:found.start(1)] + marker.group(2) + panel[found.end(1):]
    for record in records:
        head, html = record.split("\n", 1)
        name, path, *rest = head.split(" ") + [""]
        name = name.removeprefix("gp-")
        start = panel.index(f"<!--r:{name}-->") + len(f"<!--r:{name}-->")
        end = panel.index(f"<!--/r:{name}-->")
        region = panel[start:end]
        if path == "+":
            at = region.index(regions.LOG_OPEN) + len(regions.LOG_OPEN)
            region = region[:at] + html + region[at:]
        else:
            node = regions.parse(region)
            assert node is not None
            for step in filter(None, path.split("/")):
                index, tag = step.split(".", 1)
                children = node[regions.CHILDREN]
                if int(index) >= len(children) or children[int(index)][regions.TAG_NAME].lower() != tag:
                    raise Gap(f"no {step} under {node[regions.TAG_NAME]}")
                node = children[int(index)]
            if rest and rest[0] == "=":
                region = region[:node[regions.START]] + html + region[node[regions.OPEN_END]:]
            else:
                region = region[:node[regions.START]] + html + region[node[regions.END]:]
        panel = panel[:start] + region + panel[end:]
    return panel
