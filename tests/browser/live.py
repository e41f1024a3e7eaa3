"""The click after a live swap (issue 17): HTML pushed over a socket is rendered without the
reader's request, so anything it carries that depends on that request (a CSRF token above
all) is missing, and the next button pressed on it is refused. Every live browser test
presses its next button through `click_after_live_swap`:

    page = watch_live_swaps(browser.new_context().new_page())   # before the first goto
    ...                                                         # someone else acts
    click_after_live_swap(page, page.get_by_role("button", name="Add a bot"))

It waits until the page has taken a live swap (a socket message, counted by an init
script), clicks, and asserts that the request the click sent was answered, not refused
(no 403, no CSRF failure page, no 5xx).
"""
from __future__ import annotations

# htmx's ws extension fires htmx:wsAfterMessage on the socket's element after each message
# has been swapped in (out-of-band swaps included). Installed twice, it still counts once.
COUNT_LIVE_SWAPS = """if (!window.countingLiveSwaps) {
  window.countingLiveSwaps = true;
  document.addEventListener("htmx:wsAfterMessage", () => { window.liveSwaps = (window.liveSwaps || 0) + 1; });
}"""

_SENT_BY_A_CLICK = ("document", "xhr", "fetch")


def watch_live_swaps(page):
    """Count the page's live swaps from its next navigation on; returns the page."""
    page.add_init_script(COUNT_LIVE_SWAPS)
    return page


def live_swaps(page) -> int:
    """Live swaps the page has taken since it was loaded."""
    return page.evaluate("() => window.liveSwaps || 0")


def click_after_live_swap(page, locator, *, after: int = 0, timeout: float = 10_000):
    """Once the page has taken more than `after` live swaps, click `locator` and return the
    response to the request the click sent, asserting it was not refused. For a form post
    answered by a redirect, that is the post's own answer (the 302)."""
    page.wait_for_function(f"() => (window.liveSwaps || 0) > {int(after)}", timeout=timeout)
    origin = page.evaluate("() => location.origin")

    def sent_by_the_click(response) -> bool:
        request = response.request
        return request.url.startswith(origin) and request.resource_type in _SENT_BY_A_CLICK

    with page.expect_response(sent_by_the_click, timeout=timeout) as answer:
        locator.click()
    response = answer.value
    status, request = response.status, response.request
    body = "" if 300 <= status < 400 else (response.text() or "")
    refused = status == 403 or status >= 500 or "CSRF verification failed" in body
    assert not refused, f"{request.method} {request.url} after a live swap was refused: {status} {body[:300]!r}"
    return response



def as_the_worker(live_site, *command: str) -> str:
    """Run `manage.py <command>` as the worker does: another process, on the test database
    and the server's channel layer settings. With Redis its live pushes reach the pages;
    with the in-memory layer (make run) they cannot, and the pages must poll (lobby.live).
    Returns what the command printed."""
    import subprocess
    import sys

    from tests.browser.fixtures import ROOT

    done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=live_site.env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout
