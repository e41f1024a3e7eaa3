"""Checks every browser test can run on a page it has open (issue 13): nothing wider than
the viewport, no critical or serious axe-core violation, and a screenshot to look at.

    from tests.browser.checks import DESKTOP, PHONE, at_width, check_page, check_widths

    page.goto(url)
    check_widths(page, "lobby")                  # 390 and 1366, each checked
    at_width(page, SMALL_PHONE); check_page(page, "lobby")   # one width, current state

Screenshots go to test-artifacts/screenshots/<name>-<width>.png (git-ignored; .ci/run
leaves the folder in place), so a reviewer can look at every page type and board.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"

SMALL_PHONE, PHONE, DESKTOP = 360, 390, 1366
WIDTHS = (PHONE, DESKTOP)
HEIGHTS = {SMALL_PHONE: 740, PHONE: 844, DESKTOP: 900}
FAILING_IMPACTS = ("critical", "serious")

_axe = Axe()

# The elements sticking out past the right edge, deepest first: names the culprit when a
# page is wider than the viewport (its tag, id, classes and how far it reaches).
_OVERFLOWING = """() => {
  const limit = window.innerWidth;
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= limit + 0.5) continue;
    let clipped = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' && p.getBoundingClientRect().right <= limit + 0.5) { clipped = true; break; }
    }
    if (clipped) continue;
    const names = typeof el.className === 'string' ? el.className.trim() : '';
    const cls = names ? '.' + names.split(/\\s+/).join('.') : '';
    out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls} reaches ${Math.round(r.right)} px`);
  }
  return out.slice(-8);
}"""


def at_width(page, width: int) -> None:
    """Resize the page's viewport (phones are a little taller than wide, desktops not)."""
    page.set_viewport_size({"width": width, "height": HEIGHTS.get(width, 900)})


def page_width(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def overflow_report(page) -> str:
    """'' when nothing is wider than the viewport, else what sticks out and by how much."""
    width, viewport = page_width(page), page.evaluate("() => window.innerWidth")
    if width <= viewport:
        return ""
    culprits = "\n  ".join(page.evaluate(_OVERFLOWING)) or "(no single element found)"
    return f"the page is {width} px wide in a {viewport} px viewport:\n  {culprits}"


def axe_violations(page, impacts: Iterable[str] = FAILING_IMPACTS) -> list[dict]:
    """axe-core's violations of these impacts on the page as it is now."""
    results = _axe.run(page)
    wanted = set(impacts)
    return [v for v in results.response["violations"] if v.get("impact") in wanted]


def describe_violations(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} node(s))")
        for node in v["nodes"][:5]:
            lines.append(f"    {', '.join(map(str, node['target']))}: {_squeeze(node.get('html', ''))}")
    return "\n".join(lines)


def _squeeze(html: str, limit: int = 160) -> str:
    html = re.sub(r"\s+", " ", html)
    return html if len(html) <= limit else html[:limit] + "…"


def screenshot(page, name: str) -> Path:
    """test-artifacts/screenshots/<name>-<width>.png of the whole page."""
    width = page.viewport_size["width"] if page.viewport_size else page.evaluate("() => window.innerWidth")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '-', name)}-{width}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def check_page(page, name: str) -> None:
    """At the page's current state and width: screenshot, no overflow, no critical or
    serious axe violation. Both failures are reported together, readably."""
    screenshot(page, name)
    problems = []
    overflow = overflow_report(page)
    if overflow:
        problems.append(overflow)
    violations = axe_violations(page)
    if violations:
        problems.append("axe-core:\n" + describe_violations(violations))
    assert not problems, f"{name} at {page.evaluate('() => window.innerWidth')} px: " + "\n".join(problems)


def check_widths(page, name: str, widths: Iterable[int] = WIDTHS) -> None:
    """check_page at each width (the page is resized, not reloaded)."""
    for width in widths:
        at_width(page, width)
        page.wait_for_timeout(50)  # one layout pass after the resize
        check_page(page, name)
