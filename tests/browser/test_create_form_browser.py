"""In a browser: choosing another game on the create-table form redraws its options and
keeps the pace, privacy, rating and chat already chosen (issue 17, row 10)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import sign_up


@pytest.mark.browser
def test_switching_game_keeps_the_choices_made(live_site, browser):
    page = browser.new_context().new_page()
    sign_up(page, live_site, "cora")
    page.goto(f"{live_site}/tables/new/?game=roll-to-the-top")
    page.get_by_role("radio", name="Correspondence").check()
    page.get_by_label("Private (only people with the invite link can join)").check()
    page.get_by_role("radio", name="Casual").check()
    page.get_by_label("Spectators may read the chat").check()
    with page.expect_response(lambda r: "refresh=1" in r.url) as answer:
        page.select_option("#id_game", "nanga-parbat")
    assert answer.value.request.method == "GET" and "csrfmiddlewaretoken" not in answer.value.url
    expect(page.locator("#table-form")).to_contain_text("Area scoring variant")
    expect(page.get_by_role("radio", name="Correspondence")).to_be_checked()
    expect(page.get_by_label("Private (only people with the invite link can join)")).to_be_checked()
    expect(page.get_by_role("radio", name="Casual")).to_be_checked()
    expect(page.get_by_label("Spectators may read the chat")).to_be_checked()
    expect(page.locator("[data-pace=live]").first).to_be_hidden()
    page.click("text=Create table")
    page.wait_for_url(f"{live_site}/tables/**")
    expect(page.locator("#table-card")).to_contain_text("private")


@pytest.mark.browser
def test_the_custom_clock_fields_show_only_for_a_custom_clock(live_site, browser):
    """Issue 19, row 10: with a preset clock chosen, the custom minutes and increment hide."""
    page = browser.new_context().new_page()
    sign_up(page, live_site, "cleo")
    page.goto(f"{live_site}/tables/new/?game=nanga-parbat")
    page.get_by_role("radio", name="Live").check()
    expect(page.locator(".field-clock")).to_be_visible()
    expect(page.locator(".field-clock_minutes")).to_be_hidden()
    expect(page.locator(".field-clock_increment")).to_be_hidden()
    page.select_option("#id_clock", "custom")
    expect(page.locator(".field-clock_minutes")).to_be_visible()
    expect(page.locator(".field-clock_increment")).to_be_visible()
    page.select_option("#id_clock", "10+1")
    expect(page.locator(".field-clock_minutes")).to_be_hidden()
