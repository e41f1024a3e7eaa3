"""In a browser (issue 21, items 2 and 4): two players in two contexts play by clicking; each
move reaches the other page as a delta (only the elements that changed, applied by
static/js/site.js) rendered after the mover's answer (games.deferred, the server's default).
After several moves the opponent's board is the board a fresh page load draws, and a button
on it still works. On PostgreSQL + Redis: the server's pushes cross its processes."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.boards import _click_first, signed_in
from tests.browser.checks import DESKTOP
from tests.browser.live import click_after_live_swap

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]
SLUG = "nanga-parbat"
PREFER = (".np button.np-confirm", ".np .np-spot.sel-target", ".np .np-sec.sel-target",
          ".np .np-token.sel-target:not(.picked)", ".np button.np-end-turn", ".np button[hx-post]:not(.secondary)")
TIMEOUT = 15_000

# Each region of the panel as the page has it, with what differs between two renders of the
# same position taken out: the per-render move token, the clock's "now", what site.js adds.
REGIONS = """() => {
  const out = {};
  for (const id of ["gp-head", "gp-board", "gp-scores", "gp-actions", "gp-history"]) {
    const el = document.getElementById(id);
    if (!el) { out[id] = null; continue; }
    const copy = el.cloneNode(true);
    copy.querySelectorAll("[data-drawn-at]").forEach((e) => e.removeAttribute("data-drawn-at"));
    copy.querySelectorAll(".clock").forEach((e) => { e.textContent = ""; });
    out[id] = copy.outerHTML.replace(/[0-9a-f]{32}/g, "T").replace(/data-now="\\d+"/g, "")
      .replace(/ class=""/g, "");
  }
  return out;
}"""
COUNT_DELTAS = """if (!window.countingDeltas) {
  window.countingDeltas = true;
  document.addEventListener("htmx:wsBeforeMessage", (event) => {
    if (String(event.detail.message).startsWith('<span id="gp-delta"')) window.deltas = (window.deltas || 0) + 1;
  });
  document.addEventListener("htmx:beforeRequest", (event) => {
    const path = event.detail.pathInfo.requestPath || "";
    if (path.endsWith("/panel/")) window.panelFetches = (window.panelFetches || 0) + 1;
  });
}"""


def revision_now(game) -> str:
    from games.consumers import revision
    from games.models import Game

    return revision(Game.objects.get(pk=game.pk).updated)


@pytest.mark.django_db(transaction=True)
def test_after_live_deltas_the_opponents_board_is_a_fresh_page_and_its_buttons_work(
        live_site, browser, start_game, make_user):
    from games.models import Game

    ann, ben = make_user("ann"), make_user("ben")
    users = [ann, ben]
    game = start_game(SLUG, users, seed=3)
    pages, errors = [], []
    for user in users:
        page = signed_in(browser, live_site, user, width=DESKTOP)
        page.add_init_script(COUNT_DELTAS)
        page.on("dialog", lambda dialog: dialog.accept())
        page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
        page.goto(f"{live_site}/play/{game.pk}/")
        page.wait_for_function("() => document.getElementById('live') && window.htmx")
        pages.append(page)
    pages[0].wait_for_timeout(500)  # both sockets open before the first move
    start_version, clicks = game.version, 0
    while Game.objects.get(pk=game.pk).version < start_version + 6:
        game = Game.objects.get(pk=game.pk)
        mover = game.to_act()[0]
        assert _click_first(pages[mover], PREFER), "nothing to click"
        clicks += 1
        assert clicks < 120, "no progress"
        now = revision_now(game)
        for page in pages:  # each page shows the game as it is now: its answer, or a push
            page.wait_for_function(f"() => document.getElementById('game-panel').dataset.revision === '{now}'",
                                   timeout=TIMEOUT)
    game = Game.objects.get(pk=game.pk)
    assert game.version >= start_version + 6
    for seat, page in enumerate(pages):
        live = page.evaluate(REGIONS)
        fresh = signed_in(browser, live_site, users[seat], width=DESKTOP)
        fresh.goto(f"{live_site}/play/{game.pk}/")
        assert fresh.locator("#game-panel").get_attribute("data-revision") == revision_now(game)
        loaded = fresh.evaluate(REGIONS)
        for region in loaded:
            assert live[region] == loaded[region], f"seat {seat}: {region} differs from a fresh page"
        fresh.context.close()
    # The pushes were deltas, and none of them needed the whole panel fetched again.
    assert sum(page.evaluate("() => window.deltas || 0") for page in pages) >= 3
    assert all(page.evaluate("() => window.panelFetches || 0") == 0 for page in pages)
    assert not [e for e in errors if "htmx" in e.lower()], errors
    # A button of the page whose board the deltas drew still works; the other page, made to
    # miss a push (its revision is not the one the next delta names), fetches its panel.
    mover = game.to_act()[0]
    other = pages[1 - mover]
    other.evaluate("() => { document.getElementById('game-panel').dataset.revision = '1.0'; }")
    target = None
    for selector in PREFER:
        found = pages[mover].locator(selector).locator("visible=true")
        if found.count():
            target = found.first
            break
    assert target is not None
    version = game.version
    click_after_live_swap(pages[mover], target)
    while Game.objects.get(pk=game.pk).version == version:
        assert _click_first(pages[mover], PREFER), "nothing to click"
        clicks += 1
        assert clicks < 160, "no progress"
    now = revision_now(game)
    other.wait_for_function(f"() => document.getElementById('game-panel').dataset.revision === '{now}'",
                            timeout=TIMEOUT)
    assert other.evaluate("() => window.panelFetches || 0") >= 1
    expect(other.locator("#gp-board")).to_have_count(1)
