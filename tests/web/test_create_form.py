"""The create-table form (issue 17, row 10): switching game neither counts toward the
tables-an-hour limit nor forgets the pace, privacy, rating and chat already chosen."""
from __future__ import annotations

import re

import pytest
from django.core.cache import cache

from lobby.models import Table

pytestmark = pytest.mark.django_db


def switch(client, **fields):
    """What the page's game <select> sends when changed (its hx-get or hx-post, with the
    form's fields and refresh=1)."""
    page = client.get("/tables/new/").content.decode()
    select = re.search(r'<select name="game"[^>]*>', page).group(0)
    method, url = re.search(r'hx-(get|post)="([^"]+)"', select).groups()
    return getattr(client, method)(url, {"refresh": "1", **fields}, headers={"HX-Request": "true"})


def complete_form(slug: str) -> dict:
    """A create-table post with every field at its initial value."""
    from lobby.forms import TableForm

    form = TableForm(game_slug=slug)
    data = {name: field.initial for name, field in form.fields.items() if field.initial not in (None, False)}
    return {**data, "game": slug}


def checked(html: str, name: str, value: str | None = None) -> bool:
    for tag in re.findall(r"<input[^>]*>", html):
        if f'name="{name}"' in tag and (value is None or f'value="{value}"' in tag):
            return " checked" in tag
    raise AssertionError(f"no input {name}={value}")


def test_switching_game_does_not_count_toward_the_tables_limit(settings, alice_client):
    settings.RATELIMIT_ENABLE = True
    settings.RATELIMITS = {**settings.RATELIMITS, "tables": "2/h"}
    settings.RATELIMIT_IP_FACTOR = 100
    cache.clear()
    for slug in ["nanga-parbat", "rifugio", "alpine-trails", "roll-to-the-top"] * 3:
        assert switch(alice_client, game=slug, pace="live").status_code == 200
    form = complete_form("roll-to-the-top")
    assert [alice_client.post("/tables/new/", form).status_code for _ in range(2)] == [302, 302]
    assert Table.objects.count() == 2
    cache.clear()


def test_switching_game_keeps_pace_privacy_rating_and_chat(alice_client):
    html = switch(alice_client, game="rifugio", seats="3", pace="correspondence", days_per_move="7",
                  is_private="on", rated="casual", chat_public="on").content.decode()
    assert html.lstrip().startswith('<form id="table-form"')
    assert re.search(r'<option value="rifugio"\s+selected', html)
    assert checked(html, "pace", "correspondence") and not checked(html, "pace", "live")
    assert checked(html, "rated", "casual") and not checked(html, "rated", "rated")
    assert checked(html, "is_private") and checked(html, "chat_public")
    assert re.search(r'<option value="7" selected>', html), "the time per move is kept"
    assert re.search(r'name="seats" value="3"', html)
    assert 'class="error"' not in html, "a redrawn form shows no errors"


def test_a_seat_count_the_new_game_cannot_seat_falls_back_to_its_default(alice_client):
    html = switch(alice_client, game="nanga-parbat", seats="8").content.decode()
    assert not re.search(r'name="seats" value="8"', html)
    assert not checked(html, "is_private") and not checked(html, "chat_public")


def test_the_game_select_asks_with_a_get_of_the_whole_form(alice_client):
    page = alice_client.get("/tables/new/").content.decode()
    select = re.search(r'<select name="game"[^>]*>', page).group(0)
    assert 'hx-get="/tables/new/"' in select and 'hx-include="closest form"' in select and "hx-post" not in select
