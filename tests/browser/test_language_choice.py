"""The header's language chooser and times in the reader's zone, in a real browser (issue 23):
a visitor picks Nederlands and the site answers in Dutch from then on; a moment pushed in
UTC (as a live panel is drawn) is shown in the browser's zone, named, in the page's language."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser]

PUSHED = """() => {
  const t = document.createElement('time');
  t.setAttribute('datetime', '2026-01-15T12:00:00Z');
  t.dataset.zone = 'UTC';
  t.dataset.shows = 'datetime';
  t.id = 'pushed-time';
  t.textContent = 'Jan 15, 12:00 UTC';
  document.querySelector('main').appendChild(t);
}"""


def test_a_visitor_chooses_a_language_and_reads_times_in_their_zone(live_site, browser):
    context = browser.new_context(timezone_id="Europe/Amsterdam", locale="en-GB")
    page = context.new_page()
    page.goto(f"{live_site}/help/")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    page.select_option("#language-choice", "nl")
    page.wait_for_function("() => document.documentElement.lang === 'nl'")
    assert page.url == f"{live_site}/help/"
    assert "Hoe een spel op Switchback verloopt" in page.inner_text("h1")
    assert not page.is_visible(".language-go")  # the script submits on change
    page.evaluate(PUSHED)
    page.wait_for_function("() => document.getElementById('pushed-time').dataset.zone === 'Europe/Amsterdam'")
    shown = page.inner_text("#pushed-time")
    assert "13:00" in shown and "jan" in shown.lower() and "CET" in shown, shown
    page.goto(f"{live_site}/accounts/signup/")
    assert page.input_value("input[name=time_zone]") == "Europe/Amsterdam"  # the sign-up's guess
    context.close()
