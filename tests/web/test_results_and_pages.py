"""Results, history and the small dead ends of issue 13, as the server draws them."""
from __future__ import annotations

import re

import pytest

from tests.accounts.test_rated_games import finish
from tests.web.test_flow import create_table

pytestmark = pytest.mark.django_db
SLUG = "roll-to-the-top"


def ranking_names(html: str) -> list[str]:
    block = html.split('class="ranking"', 1)[1].split("</ol>", 1)[0]
    return re.findall(r'class="name" title="([^"]+)"', block)


def test_the_final_result_lists_players_by_rank_with_medals_and_rating_reasons(client, start_game, alice, bob):
    game = finish(start_game(SLUG, [alice, bob]), {0: alice, 1: bob})
    seats = sorted(game.ordered_seats(), key=lambda s: (s.rank, s.index))
    html = client.get(f"/play/{game.pk}/").content.decode()
    assert ranking_names(html) == [s.user.username for s in seats]
    assert 'class="medal medal-1"' in html and "1st" in html
    assert not set("🥇🥈🥉") & set(html), "medals are drawn in CSS: no emoji font needed"
    assert "rating " in html.split('class="ranking"', 1)[1].split("</ol>", 1)[0]


def test_the_final_result_links_back_to_the_lobby_the_replay_and_a_new_table(client, start_game, alice, bob):
    game = finish(start_game(SLUG, [alice, bob]), {0: alice, 1: bob})
    html = client.get(f"/play/{game.pk}/").content.decode()
    results = html.split('class="card final-result"', 1)[1].split("</section>", 1)[0]
    assert 'href="/"' in results and f"/play/{game.pk}/replay/" in results and f"?game={SLUG}" in results


def test_the_score_card_has_a_column_per_player_and_the_total_under_its_categories(alice_client, start_game,
                                                                                  alice, bob):
    """Issue 19, row 3: a column per player (not per category) keeps every category in view."""
    game = start_game(SLUG, [alice, bob])
    html = alice_client.get(f"/play/{game.pk}/").content.decode()
    table = html.split('class="score-table score-card"', 1)[1].split("</table>", 1)[0]
    head, body = table.split("</thead>", 1)
    assert head.count('scope="col"') == 1 + 2
    rows = re.findall(r'<th scope="row">([^<]*)</th>', body)
    assert rows == ["Filled boxes", "Total", "Empty boxes"]  # empty boxes are not in the total


def test_the_history_lists_every_event_numbered_in_a_focusable_scroll_box(client, start_game, alice, bob):
    game = finish(start_game(SLUG, [alice, bob]), {0: alice, 1: bob})
    html = client.get(f"/play/{game.pk}/").content.decode()
    box = html.split('class="log-scroll"', 1)[1].split("</ol>", 1)[0]
    assert 'tabindex="0"' in box and 'aria-label="Game history' in box
    numbers = [int(n) for n in re.findall(r'<li value="(\d+)"', box)]
    events = game.rules.view(game.state, None)["events"]
    assert numbers == list(range(len(events), 0, -1))  # every event the view keeps, newest first


def test_the_panel_carries_the_last_event_for_the_announcer(client, start_game, alice, bob):
    game = finish(start_game(SLUG, [alice, bob]), {0: alice, 1: bob})
    html = client.get(f"/play/{game.pk}/").content.decode()
    assert 'id="announcer"' in html and 'aria-live="polite"' in html
    assert re.search(r'data-last-event="[^"]+"', html)


def test_the_replay_slider_keeps_its_step_in_the_address(client, start_game, alice, bob):
    game = finish(start_game(SLUG, [alice, bob]), {0: alice, 1: bob})
    html = client.get(f"/play/{game.pk}/replay/?step=2").content.decode()
    slider = re.search(r'<input type="range"[^>]*>', html).group(0)
    assert 'hx-push-url="true"' in slider and 'aria-valuetext="Move 2 of' in slider
    assert "data-replay-prev" in html and "data-replay-next" in html


def test_the_invite_link_has_a_label_and_a_copy_button(alice_client):
    table_url = create_table(alice_client, is_private="on")["Location"]
    html = alice_client.get(table_url).content.decode()
    assert '<label for="invite-link">' in html and 'id="invite-link"' in html
    assert 'data-copy="#invite-link"' in html


def test_the_create_form_marks_each_pace_s_own_fields(alice_client):
    html = alice_client.get(f"/tables/new/?game={SLUG}").content.decode()
    assert re.search(r'field-days_per_move"\s+data-pace="correspondence"', html)
    assert re.search(r'field-clock"\s+data-pace="live"', html)


def test_a_used_password_reset_link_says_so_and_offers_a_new_mail(client):
    response = client.get("/accounts/reset/MQ/set-password/", follow=True)
    html = response.content.decode()
    assert "This link no longer works" in html
    assert 'href="/accounts/password_reset/"' in html
    assert "<button" not in html.split("<main", 1)[1].split("</main>", 1)[0]


def test_get_on_a_post_only_url_is_a_page_not_a_blank(client, start_game, alice, bob):
    game = start_game(SLUG, [alice, bob])
    response = client.get(f"/play/{game.pk}/resign/")
    assert response.status_code == 405
    assert "Use the page" in response.content.decode()


def test_a_long_name_is_clipped_with_the_whole_name_in_its_title(client, make_user):
    from tests.fixtures import client_for

    long_name = "trailblazer_" + "x" * 138
    host = client_for(make_user(long_name))
    create_table(host)
    html = client.get("/").content.decode()
    assert f'<span class="name" title="{long_name}">{long_name}</span>' in html


def test_a_game_without_a_clock_shows_no_clock_block_and_one_final_result(client, start_game, alice, bob):
    """Issue 19, row 10: with "No clock" an unlabelled list of names sat under the status
    line (the clock block with no times), and a finished page had two "Final result"s."""
    game = start_game(SLUG, [alice, bob])
    assert not game.has_clock
    assert 'class="clocks' not in client.get(f"/play/{game.pk}/").content.decode()
    game = finish(game, {0: alice, 1: bob})
    html = client.get(f"/play/{game.pk}/").content.decode()
    assert len(re.findall(r"<h2[^>]*>\s*Final result\s*</h2>", html)) == 1


def test_take_back_my_last_move_sits_in_a_card(start_game, alice, bob):
    """Issue 19, row 12: the button floated outside any card in the side column."""
    from games import engine
    from games.models import Game
    from tests.fixtures import client_for

    game = start_game("rifugio", [alice, bob], seed=3)
    users = {0: alice, 1: bob}
    for _ in range(12):
        seat = game.to_act()[0]
        engine.submit(game.pk, users[seat], game.rules.legal_actions(game.state, seat)[0])
        game = Game.objects.get(pk=game.pk)
        last = game.moves.order_by("-seq").first()
        if last.undoable and game.to_act() == [last.seat]:
            break
    html = client_for(users[last.seat]).get(f"/play/{game.pk}/").content.decode()
    assert re.search(r'<section class="card[^"]*"[^>]*><button[^>]*>Take back my last move</button></section>', html)
