"""HTML pushed over a socket is rendered without the reader's request (issue 17, row 1): it
must not depend on one. The table card and the lobby list a socket pushes are the ones the
page drew; no template rendered live asks for a CSRF token (it would come out empty, and
the form refused); every page carries its token for csrf.js and htmx to send."""
from __future__ import annotations

import re

import pytest
from django.template import engines
from django.template.defaulttags import CsrfTokenNode
from django.template.loader_tags import IncludeNode
from django.test import Client

from lobby import services
from lobby.consumers import LobbyConsumer, TableConsumer

SLUG = "roll-to-the-top"
# Every template whose HTML a socket carries (lobby.consumers, games.notify, the boards the
# panel draws (games.shell writes the rest of it in Python, with no token), chat.services),
# and "my games", which the page refetches when the live badge changes.
LIVE_TEMPLATES = ["lobby/table.html", "lobby/index.html", "chat/_live_line.html", "games/_turn_badge.html",
                  "games/_my_games.html",
                  *(f"games/{slug}/board.html" for slug in ("alpine-trails", "nanga-parbat", "rift-valley-reserve",
                                                            "rifugio", "roll-to-the-top")),
                  "games/generic/board.html"]


def table_for(host, seats=4):
    return services.create_table(host, game_slug=SLUG, seats_count=seats, options={}, is_private=False,
                                 pace="live", days_per_move=None)


def element(html: str, element_id: str) -> str:
    """The element with that id, as text (its start tag to the matching end tag), with
    the live copy's hx-swap-oob attribute taken out."""
    start = re.search(rf'<(\w+)[^>]*\bid="{element_id}"', html)
    assert start, f"no #{element_id} in the page"
    tag, depth, pos = start.group(1), 0, start.start()
    for match in re.finditer(rf"<(/?){tag}\b[^>]*>", html[pos:]):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            found = html[pos:pos + match.end()].replace('hx-swap-oob="true"', "")
            return re.sub(r"\s+>", ">", found)
    raise AssertionError(f"#{element_id} is not closed")


def consumer(cls, user, **attrs):
    made = cls()
    made.scope = {"user": user}
    for name, value in attrs.items():
        setattr(made, name, value)
    return made


@pytest.mark.django_db
def test_the_table_card_a_socket_pushes_is_the_card_the_page_drew(alice, bob, alice_client):
    table = table_for(alice)
    services.join(table.pk, bob)
    page = alice_client.get(f"/tables/{table.pk}/").content.decode()
    live = consumer(TableConsumer, alice, table_id=table.pk).render()
    assert "Add a bot" in live and "Start now" in live
    assert element(live, "table-card") == element(page, "table-card")
    assert "csrfmiddlewaretoken" not in element(page, "table-card")


@pytest.mark.django_db
def test_the_lobby_list_a_socket_pushes_is_the_list_the_page_drew(alice, bob, alice_client):
    table_for(bob)
    page = alice_client.get("/").content.decode()
    live = consumer(LobbyConsumer, alice).render()
    assert element(live, "table-list") == element(page, "table-list")


def _csrf_nodes(template, seen: set[str]) -> list[str]:
    """Where {% csrf_token %} appears in a template and the templates it includes by name."""
    found = []
    if template.origin.name in seen:
        return found
    seen.add(template.origin.name)
    if template.nodelist.get_nodes_by_type(CsrfTokenNode):
        found.append(template.origin.template_name)
    for include in template.nodelist.get_nodes_by_type(IncludeNode):
        name = include.template.var
        if isinstance(name, str):   # a constant name; a variable one is resolved at render time
            found += _csrf_nodes(engines["django"].engine.get_template(name), seen)
    return found


def test_no_template_rendered_live_asks_for_a_csrf_token():
    engine = engines["django"].engine
    found = [name for template in LIVE_TEMPLATES for name in _csrf_nodes(engine.get_template(template), set())]
    assert not found, f"{{% csrf_token %}} in HTML rendered without a request: {found}"


@pytest.mark.django_db
def test_the_token_a_page_carries_is_accepted_for_a_form_on_its_live_card(alice, bob):
    """What static/js/csrf.js does on submit: a form of the card posts the page's <meta> token."""
    table = table_for(alice)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)
    services.join(table.pk, bob)
    refused = client.post(f"/tables/{table.pk}/bots/add/")
    assert refused.status_code == 403, "a post without it is refused"
    assert "The form could not be sent" in refused.content.decode(), "the site's 403_csrf.html, not Django's"
    answer = client.post(f"/tables/{table.pk}/bots/add/", {"csrfmiddlewaretoken": token})
    assert answer.status_code == 302 and answer.url == f"/tables/{table.pk}/"
    assert table.seats.filter(is_bot=True).count() == 1
