"""Lobby filters are remembered per player and apply to the page and the live list."""
from __future__ import annotations

from lobby import services as lobby
from lobby.views import lobby_context


def _table(host, slug, pace="live", seats=2):
    return lobby.create_table(host, game_slug=slug, seats_count=seats, options={}, is_private=False, pace=pace,
                              days_per_move=3 if pace == "correspondence" else None)


def test_filters_are_remembered_and_applied(alice, bob, charlie, alice_client):
    _table(bob, "rifugio", seats=3)
    _table(charlie, "nanga-parbat", pace="correspondence")
    alice_client.get("/?filter=1&game=nanga-parbat&pace=correspondence&seats=&rated=")
    page = alice_client.get("/").content.decode()  # a later visit, no parameters
    listed = page.split('id="table-list"')[1].split("</table>")[0]
    assert "Nanga Parbat" in listed and "Rifugio" not in listed
    assert 'value="nanga-parbat" selected' in page
    assert [t.game_slug for t in lobby_context(alice)["tables"]] == ["nanga-parbat"]  # the WebSocket push too
    assert len(lobby_context(bob)["tables"]) == 2  # bob's own filters: none
    alice_client.get("/?filter=1&game=bogus&seats=99")  # nonsense is ignored, not a 500
    assert len(lobby_context(alice)["tables"]) == 2


def _ranged(host, low=None, high=None, slug="nanga-parbat"):
    return lobby.create_table(host, game_slug=slug, seats_count=2, options={}, is_private=False, pace="live",
                              days_per_move=None, min_rating=low, max_rating=high)


def _rate(user, slug, shown):
    from accounts.models import Rating

    Rating.objects.update_or_create(user=user, game_slug=slug, defaults={"ordinal": (shown - 1000) / 40})


def test_a_host_sets_a_rating_range_from_the_form_and_it_is_shown(alice_client):
    from lobby.models import Table

    form = {"game": "nanga-parbat", "seats": 2, "pace": "live", "clock": "10+1", "rated": "rated",
            "min_rating": 1100, "max_rating": 1000}
    answer = alice_client.post("/tables/new/", form)
    assert "must not be below the lowest" in answer.content.decode() and not Table.objects.exists()
    alice_client.post("/tables/new/", {**form, "max_rating": 1400})
    table = Table.objects.get()
    assert (table.min_rating, table.max_rating) == (1100, 1400)
    assert "ratings 1100–1400" in alice_client.get("/").content.decode()
    assert "ratings 1100–1400" in alice_client.get(f"/tables/{table.pk}/").content.decode()


def test_a_player_outside_the_range_is_refused_with_the_reason(alice, bob, bob_client):
    table = _ranged(alice, low=1100)
    answer = bob_client.post(f"/tables/{table.pk}/join/", follow=True).content.decode()
    assert "This table is for ratings 1100+; your rating in this game is 1000." in answer
    assert table.seats.count() == 1
    _rate(bob, "nanga-parbat", 1150)
    bob_client.post(f"/tables/{table.pk}/join/")
    assert table.seats.filter(user=bob).exists()


def test_open_seats_for_me_leaves_out_full_blocked_and_out_of_range_tables(alice, bob, charlie, make_user,
                                                                            django_assert_max_num_queries):
    from social import blocks

    dora = make_user("dora")
    fits = _ranged(bob, low=900, high=1100)
    too_strong = _ranged(bob, low=1300)
    blocked_host = _ranged(charlie)
    blocks.block(charlie, alice)
    full = _ranged(dora)
    lobby.join(full.pk, bob)
    assert full.free == 0 or full.status != "open"
    mine = _ranged(alice, low=1500)   # her own table stays listed whatever the filter says
    from django.test import RequestFactory

    request = RequestFactory().get("/?filter=1&for_me=1")
    request.user = alice
    from social import filters

    filters.remember(request)
    listed = {t.pk for t in lobby_context(alice)["tables"]}
    assert fits.pk in listed and mine.pk in listed
    assert not listed & {too_strong.pk, blocked_host.pk, full.pk}
    assert {fits.pk, too_strong.pk, blocked_host.pk} <= {t.pk for t in lobby_context(bob)["tables"]}
    for _ in range(10):
        _ranged(make_user(f"host{_}"), low=1300)
    with django_assert_max_num_queries(12):
        lobby_context(alice)
