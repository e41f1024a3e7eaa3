"""In a browser: two players at a game chat live; a line that arrives over the socket has
its "mute" and "report" controls at once (not only after a reload), the author's own lines
do not, and muting an author hides their lines, past and live."""
from __future__ import annotations

import pytest

from tests.browser.checks import check_widths
from tests.browser.fixtures import sign_up
from tests.browser.live import click_after_live_swap

SLUG = "roll-to-the-top"

# Counts the game page's socket openings (htmx's ws extension fires htmx:wsOpen on the
# element carrying ws-connect), so the test speaks only once both players listen.
COUNT_GAME_SOCKETS = """document.addEventListener("htmx:wsOpen", (event) => {
  const url = event.target.getAttribute && event.target.getAttribute("ws-connect") || "";
  if (url.startsWith("/ws/play/")) window.gameSocketsOpened = (window.gameSocketsOpened || 0) + 1;
});"""


def open_game(page, base: str, game_id: int) -> None:
    page.add_init_script(COUNT_GAME_SOCKETS)
    page.goto(f"{base}/play/{game_id}/")
    page.locator("#chat-box[data-reader]").wait_for()
    page.wait_for_function("() => window.gameSocketsOpened >= 1")


def say(page, text: str) -> None:
    page.get_by_label("Message").fill(text)
    page.get_by_role("button", name="Send").click()


@pytest.mark.browser
def test_players_chat_live_and_one_mutes_the_other(live_site, browser, start_game):
    from accounts.models import User

    pages = {}
    for name in ("ann", "ben"):
        page = browser.new_context().new_page()
        sign_up(page, live_site, name)
        pages[name] = page
    game = start_game(SLUG, [User.objects.get(username="ann"), User.objects.get(username="ben")])
    ann, ben = pages["ann"], pages["ben"]
    for page in (ann, ben):
        open_game(page, live_site, game.pk)

    say(ben, "hello from ben")
    live_line = ann.locator(".chat-line", has_text="hello from ben")
    live_line.wait_for()
    assert live_line.get_by_role("button", name="mute").is_visible(), "a live line can be muted at once"
    assert live_line.get_by_role("button", name="report").is_visible()
    own_line = ben.locator(".chat-line", has_text="hello from ben")
    own_line.wait_for()
    assert own_line.count() == 1, "the author's echo does not add the line twice"
    assert not own_line.get_by_role("button", name="mute").is_visible(), "no muting oneself"

    say(ann, "hi ben")
    ben_view = ben.locator(".chat-line", has_text="hi ben")
    ben_view.wait_for()
    assert ben_view.get_by_role("button", name="report").is_visible()
    check_widths(ann, "chat-live")

    click_after_live_swap(ann, live_line.get_by_role("button", name="mute"))
    ann.locator(".chat-line", has_text="hello from ben").wait_for(state="detached")
    say(ben, "are you still there")
    ben.locator(".chat-line", has_text="are you still there").wait_for()
    say(ann, "quiet now")
    ben.locator(".chat-line", has_text="quiet now").wait_for()
    ann.locator(".chat-line", has_text="quiet now").wait_for()
    assert ann.locator(".chat-line", has_text="are you still there").count() == 0, "muted live lines stay out"
    check_widths(ann, "chat-muted")
