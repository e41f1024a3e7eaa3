"""In a browser: every button of a table card redrawn live still works (issue 17, row 1).
The live card is rendered without the reader's request: its forms used to carry an empty
CSRF token, so the host's "Add a bot" after a guest joined answered 403."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import sign_up
from tests.browser.live import as_the_worker, click_after_live_swap

SLUG = "roll-to-the-top"


@pytest.mark.browser
def test_the_buttons_of_a_table_card_redrawn_live_keep_working(live_site, browser):
    host, guest = browser.new_context().new_page(), browser.new_context().new_page()
    sign_up(host, live_site, "hana")   # sign_up makes the page count its live swaps
    sign_up(guest, live_site, "gus")

    host.goto(f"{live_site}/tables/new/?game={SLUG}")
    host.fill("#id_seats", "4")
    host.click("text=Create table")
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_url = host.url
    host.wait_for_function("() => document.querySelector('[ws-connect^=\"/ws/tables/\"]')")
    host.wait_for_timeout(300)   # the table socket is open before the guest joins

    guest.goto(table_url)
    guest.get_by_role("button", name="Join this table").click()
    guest.wait_for_url(table_url)
    # The host's card is redrawn live with the guest in it; "Add a bot" must still work.
    expect(host.locator("#table-card .seat", has_text="gus")).to_be_visible(timeout=10_000)
    click_after_live_swap(host, host.get_by_role("button", name="Add a bot"))
    expect(host.locator("#table-card .seat .tag", has_text="bot")).to_have_count(1)

    # The guest's card is redrawn live with the bot; leaving works from it.
    expect(guest.locator("#table-card .seat .tag", has_text="bot")).to_have_count(1, timeout=10_000)
    click_after_live_swap(guest, guest.get_by_role("button", name="Leave table"))
    expect(guest.get_by_role("button", name="Join this table")).to_be_visible()

    # And the host's redrawn card: remove the bot, then close the table.
    expect(host.locator("#table-card .seat", has_text="gus")).to_have_count(0, timeout=10_000)
    click_after_live_swap(host, host.get_by_role("button", name="Remove a bot"))
    expect(host.locator("#table-card .seat .tag", has_text="bot")).to_have_count(0)
    expect(host.get_by_role("button", name="Close table")).to_be_visible()


@pytest.mark.browser
def test_a_table_the_worker_expires_leaves_its_page_and_the_lobby_without_a_reload(live_site, browser):
    """The worker is another process: with Redis its push reaches the pages; with the
    in-memory layer (make run) the server never hears it, and the pages poll (lobby.live)."""
    from datetime import timedelta

    from django.utils import timezone

    from lobby.models import Table

    host, watcher = browser.new_context().new_page(), browser.new_context().new_page()
    sign_up(host, live_site, "hana")
    sign_up(watcher, live_site, "wes")
    host.goto(f"{live_site}/tables/new/?game={SLUG}")
    host.fill("#id_seats", "3")
    host.click("text=Create table")
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    watcher.goto(f"{live_site}/")
    expect(watcher.locator("#table-list")).to_contain_text("Roll to the Top")
    host.wait_for_timeout(500)   # both pages have taken their first fingerprint

    Table.objects.update(last_activity=timezone.now() - timedelta(days=30))
    closed = as_the_worker(live_site, "shell", "-c", "from lobby.services import expire_idle_tables as e; print(e())")
    assert closed.strip().splitlines()[-1] == "1"   # (the shell first lists its automatic imports)
    expect(host.locator("#table-card")).to_contain_text("Expired", timeout=15_000)
    expect(host.get_by_role("button", name="Add a bot")).to_have_count(0)
    expect(watcher.locator("#table-list")).not_to_contain_text("Roll to the Top", timeout=15_000)


@pytest.mark.browser
def test_a_join_clicked_before_the_deferred_scripts_have_run_is_accepted(live_site, browser):
    """A quick finger (or a slow phone) clicks "Join this table" while htmx and site.js are still
    on their way: the post carries the page's token all the same (csrf.js is not deferred).
    Deferred scripts are held here until the click's answer has come; without csrf.js in
    <head> that answer was Django's 403."""
    host, guest = browser.new_context().new_page(), browser.new_context().new_page()
    sign_up(host, live_site, "hal")
    sign_up(guest, live_site, "gil")
    host.goto(f"{live_site}/tables/new/?game={SLUG}")
    host.fill("#id_seats", "4")
    host.click("text=Create table")
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_url = host.url

    held, released = [], []

    def hold(route):
        (route.continue_() if released else held.append(route))

    guest.route(re.compile(r"/static/.*(htmx|hx-ws|site)[^/]*\.js"), hold)
    guest.goto(table_url, wait_until="commit")
    guest.get_by_role("button", name="Join this table").click()
    # Still held: the page the join's answer redirected to is drawn by the server alone.
    expect(guest.locator("#table-card .seat", has_text="gil")).to_be_visible(timeout=10_000)
    assert held, "the deferred scripts were not held: the test would not see an early click"
    released.append(True)
    for route in held:
        route.continue_()
    guest.get_by_role("button", name="Leave table").click()   # and the page works once they ran
    expect(guest.get_by_role("button", name="Join this table")).to_be_visible()
