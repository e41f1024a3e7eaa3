"""The board layers written in Python (issue 21) draw what their template partials draw.

The partials stay (the how-to-play pages include them), so each Python writer is compared
with its partial on real panels: every seat and a spectator, at several points of a game,
in English and in German, with a half-made selection where the game has one. Only the
whitespace between tags may differ (the writers leave out the templates' indentation)."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import engine
from games.panel import seat_panel_context

pytestmark = pytest.mark.django_db


def same_markup(html: str) -> str:
    html = re.sub(r">\s+<", "><", str(html))
    html = re.sub(r"\s+", " ", html)
    return re.sub(r"\s+(/?>)", r"\1", html).strip()


def positions(start_game, users, slug, stops=(0, 9, 40, 10_000), seed=5):
    """(moves played, game) at a few points of one game with random legal moves."""
    game = start_game(slug, users)
    rng = random.Random(seed)
    by_seat = dict(enumerate(users))
    played = 0
    for stop in stops:
        while game.is_active and played < stop:
            seat = game.to_act()[0]
            game = engine.submit(game.pk, by_seat[seat], rng.choice(game.rules.legal_actions(game.state, seat))).game
            played += 1
        yield played, game


def partial(name: str, panel: dict, **extra) -> str:
    return render_to_string(name, {**panel, **extra})


@pytest.mark.parametrize("language", ["en", "de"])
def test_roll_to_the_top_sheets(start_game, alice, bob, charlie, language):
    from games.roll_to_the_top.presenter import pgettext

    for _played, game in positions(start_game, [alice, bob, charlie], "roll-to-the-top"):
        for seat in (0, 1, 2, None):
            with translation.override(language):
                panel = seat_panel_context(game, seat)
                board = panel["board"]
                if board["main"] is not None:
                    label = pgettext("roll to the top", "Your sheet")
                    drawn = partial("games/roll-to-the-top/_sheet.html", panel, sheet=board["main"], small=False,
                                    label=label)
                    assert same_markup(board["main"]["svg"]) == same_markup(drawn)
                for other in board["others"]:
                    drawn = partial("games/roll-to-the-top/_sheet.html", panel, sheet=other["sheet"], small=True,
                                    label=other["name"])
                    assert same_markup(other["svg"]) == same_markup(drawn)


def test_roll_to_the_top_sheet_with_picked_dice(start_game, alice):
    game = start_game("roll-to-the-top", [alice])
    while game.state["phase"] != "write":
        game = engine.submit(game.pk, alice, game.rules.legal_actions(game.state, 0)[0]).game
    die = next(iter(game.state["roll"]))
    panel = seat_panel_context(game, 0, selection=f"dice:{die}")
    main = panel["board"]["main"]
    drawn = partial("games/roll-to-the-top/_sheet.html", panel, sheet=main, small=False, label="Your sheet")
    assert "hx-post" in main["svg"] and same_markup(main["svg"]) == same_markup(drawn)


@pytest.mark.parametrize("language", ["en", "de"])
def test_alpine_trails_maps(start_game, alice, bob, charlie, language):
    for _played, game in positions(start_game, [alice, bob, charlie], "alpine-trails"):
        for seat in (0, 1, 2, None):
            with translation.override(language):
                panel = seat_panel_context(game, seat)
                board = panel["board"]
                if board["main"] is not None:
                    ghost = (board.get("ctl") or {}).get("ghost")
                    drawn = partial("games/alpine-trails/_map.html", panel, geo=board["main"], small=False,
                                    seat_index=board["main"]["seat"], label=translation.gettext("Your map"),
                                    ghost=ghost)
                    assert same_markup(board["main"]["svg"]) == same_markup(drawn)
                for m in board["maps"]:
                    drawn = partial("games/alpine-trails/_map.html", panel, geo=m["geo"], small=True,
                                    seat_index=m["seat"], label=m["name"], ghost=None)
                    assert same_markup(m["svg"]) == same_markup(drawn)


def test_alpine_trails_map_with_a_tile_picked(start_game, alice, bob):
    from games.alpine_trails import presenter

    game = start_game("alpine-trails", [alice, bob])
    legal = game.rules.legal_actions(game.state, 0)
    place = next(a for a in legal if a["type"] == "place" and a["side"] == "trail")
    sel = presenter.tile_sel(place["tile"], place.get("side", "trail"), place.get("rotation", 0))
    panel = seat_panel_context(game, 0, selection=sel)
    main = panel["board"]["main"]
    drawn = partial("games/alpine-trails/_map.html", panel, geo=main, small=False, seat_index=0, label="Your map",
                    ghost=panel["board"]["ctl"]["ghost"])
    assert 'class="ghost"' in main["svg"] and same_markup(main["svg"]) == same_markup(drawn)


@pytest.mark.parametrize("language", ["en", "de"])
def test_nanga_parbat_mountain_chart_and_path(start_game, alice, bob, language):
    for _played, game in positions(start_game, [alice, bob], "nanga-parbat"):
        for seat in (0, 1, None):
            with translation.override(language):
                panel = seat_panel_context(game, seat)
                board = panel["board"]
                for name, key in (("_mountain", "mountain_svg"), ("_chart", "chart_svg"), ("_path", "path_svg")):
                    drawn = partial(f"games/nanga-parbat/{name}.html", panel)
                    assert same_markup(board[key]) == same_markup(drawn), name


def test_nanga_parbat_in_a_choice_mode(start_game, alice, bob):
    """A half-made choice: the mountain's and chart's controls ask the panel again (hx-get)."""
    from games.nanga_parbat import presenter

    game = start_game("nanga-parbat", [alice, bob])
    users = {0: alice, 1: bob}
    rng = random.Random(2)
    for _ in range(60):
        seat = game.to_act()[0]
        legal = game.rules.legal_actions(game.state, seat)
        for action in legal:
            picks = presenter.picks(action)
            if picks and action["type"] != "place_guide":
                sel = picks[0] if isinstance(picks[0], str) else ",".join(picks[0])
                panel = seat_panel_context(game, seat, selection=sel)
                if panel["board"].get("in_mode"):
                    for name, key in (("_mountain", "mountain_svg"), ("_chart", "chart_svg")):
                        drawn = partial(f"games/nanga-parbat/{name}.html", panel)
                        assert same_markup(panel["board"][key]) == same_markup(drawn), name
                    assert "hx-get" in panel["board"]["mountain_svg"] + panel["board"]["chart_svg"]
                    return
        game = engine.submit(game.pk, users[seat], rng.choice(legal)).game
    pytest.fail("no choice mode reached")


def test_score_card_is_the_card_the_template_drew(start_game, alice, bob):
    """games/_scores.html is now one tag; compare it with the loop it replaced, kept here."""
    loop = (
        '{% load game_tags people i18n %}{% if scores %}<table class="score-table score-card"><thead><tr>'
        '<th scope="col"><span class="visually-hidden">{% translate "Category" %}</span></th>'
        '{% for row in scores %}<th scope="col" class="seat-{{ row.index }}{% if row.rank == 1 %} winner{% endif %}">'
        '{% if row.rank %}<span class="rank">{% if row.rank == 1 %}<span class="star" aria-hidden="true">★</span>'
        '{% endif %}{{ row.rank }}.</span> {% endif %}<span class="swatch seat-{{ row.index }}" aria-hidden="true">'
        '</span>{{ row.name|person }}</th>{% endfor %}</tr></thead><tbody>'
        '{% for line in scores|score_grid:game.game_slug %}<tr class="{% if line.key == \'total\' %}total'
        '{% elif line.aside %}aside{% endif %}"><th scope="row">{{ line.label }}</th>{% for value in line.values %}'
        '<td>{% if line.key == \'total\' %}<strong>{{ value }}</strong>{% else %}{{ value }}{% endif %}</td>'
        '{% endfor %}</tr>{% endfor %}{% if game.rated and not game.is_active %}<tr class="rating"><th scope="row">'
        '{% translate "Rating" %}</th>{% for row in scores %}<td class="rating-change">{% if row.rating_reason %}'
        '{{ row.rating_after }} <small>{{ row.rating_reason }}</small>{% endif %}</td>{% endfor %}</tr>{% endif %}'
        '</tbody></table><svg class="score-bars" viewBox="0 0 220 {{ scores|chart_height }}" role="img" '
        'aria-label="{% translate "Scores as bars" %}">{% for row in scores %}<g transform="translate(0,'
        '{{ row.bar_y }})"><text x="0" y="12" font-size="9">{{ row.name|truncatechars:14 }}</text><rect '
        'class="bar seat-{{ row.index }}" x="70" y="3" height="11" rx="2" width="{{ row.bar_width }}"></rect>'
        '<text x="{{ row.bar_width|add:74 }}" y="12" font-size="9">{{ row.total }}</text></g>{% endfor %}</svg>'
        '{% else %}<p class="muted">{% translate "Scores appear as the game goes on." %}</p>{% endif %}')
    from django.template import Context, Template

    bob.username = "Bob with a rather long name <b>"
    bob.save()
    for slug in ("nanga-parbat", "alpine-trails"):
        for _played, game in positions(start_game, [alice, bob], slug, stops=(0, 20, 10_000)):
            for language in ("en", "de"):
                with translation.override(language):
                    panel = seat_panel_context(game, 0)
                    card = render_to_string("games/_scores.html", panel)
                    assert same_markup(card) == same_markup(Template(loop).render(Context(panel)))


REFERENCE = Path(__file__).parent / "reference"


def reference_render(name: str, panel: dict) -> str:
    """A loop the board template drew, kept in tests/games/reference, rendered as the board
    is (under `localize off`, with the panel as its context)."""
    from django.template import Context, Template

    return Template((REFERENCE / name).read_text()).render(Context(panel, use_l10n=False))


def assert_nanga_parbat_cards(panel: dict) -> str:
    board = panel["board"]
    assert board["players_html"] == reference_render("nanga-parbat-players.html", panel)
    assert board["boards_html"] == reference_render("nanga-parbat-animal-boards.html", panel)
    return board["boards_html"]


@pytest.mark.parametrize("language", ["en", "de"])
def test_nanga_parbat_player_cards_and_animal_boards(start_game, alice, bob, language):
    """The cards and animal boards (board.html's loops, with a token include per animal) are
    written by the presenter; the same HTML character for character, names escaped once."""
    bob.username = "Bob <b>& 'co'"
    bob.save()
    for _played, game in positions(start_game, [alice, bob], "nanga-parbat"):
        for seat in (0, 1, None):
            with translation.override(language):
                assert_nanga_parbat_cards(seat_panel_context(game, seat))


def test_nanga_parbat_animal_tokens_as_controls(start_game, alice, bob):
    """A choice that picks animals: the seat's tokens are buttons asking the panel again."""
    from games.nanga_parbat import presenter

    game = start_game("nanga-parbat", [alice, bob])
    users = {0: alice, 1: bob}
    rng = random.Random(4)
    for _ in range(200):
        if not game.is_active:
            break
        seat = game.to_act()[0]
        legal = game.rules.legal_actions(game.state, seat)
        for action in legal:
            for pick in presenter.picks(action)[:1]:
                sel = pick if isinstance(pick, str) else ",".join(pick)
                html = assert_nanga_parbat_cards(seat_panel_context(game, seat, selection=sel))
                if '<button type="button" class="np-token' in html:
                    return
        game = engine.submit(game.pk, users[seat], rng.choice(legal)).game
    pytest.fail("no animal token was a control")


def assert_rift_valley_reserve_loops(panel: dict) -> dict:
    board = panel["board"]
    for name, key in (("seat-chips", "seat_chips_html"), ("thumbs", "thumbs_html"), ("per-map", "per_map_html"),
                      ("history", "history_html")):
        assert board[key] == reference_render(f"rift-valley-reserve-{name}.html", panel), name
    return board


@pytest.mark.parametrize("language", ["en", "de"])
def test_rift_valley_reserve_chips_thumbnails_score_tables_and_turns(start_game, alice, bob, charlie, language):
    """board.html's loops over the seats, the thumbnails, the per-map score tables and the
    turn-by-turn list are written by the presenter; the same HTML character for character."""
    bob.username = "Bob <b>& 'co'"
    bob.save()
    for _played, game in positions(start_game, [alice, bob, charlie], "rift-valley-reserve"):
        for seat in (0, 1, 2, None):
            with translation.override(language):
                assert_rift_valley_reserve_loops(seat_panel_context(game, seat))
        with translation.override(language):          # viewing another seat's map
            board = assert_rift_valley_reserve_loops(seat_panel_context(game, 0, selection="v:1"))
        assert board["history_html"] or not game.version


@pytest.mark.parametrize("language", ["en", "de"])
def test_alpine_trails_chips_score_pad_and_other_maps(start_game, alice, bob, charlie, language):
    """board.html's loops over the seat chips, the score pad's cells and the other seats' maps
    are written by the presenter; the same HTML character for character."""
    bob.username = "Bob <b>& 'co'"
    bob.save()
    for _played, game in positions(start_game, [alice, bob, charlie], "alpine-trails"):
        for seat in (0, 1, 2, None):
            with translation.override(language):
                panel = seat_panel_context(game, seat)
                board = panel["board"]
                for name, key in (("status", "status_html"), ("pad", "pad_html"), ("other-maps", "maps_html")):
                    assert board[key] == reference_render(f"alpine-trails-{name}.html", panel), name
    assert board["over"] and "row-rank" in board["pad_html"], "the finished pad was compared"


def written_as_drawn(panel: dict, writer) -> str:
    """The board `writer` wrote for `panel`, checked equal byte for byte to what board.html
    draws, and the board the panel's shell shows (each game's board-in-Python test)."""
    from games import shell

    drawn, written = shell.board_template(panel), writer(panel)
    assert same_markup(written) == same_markup(drawn)
    assert written == drawn
    assert shell.board(panel) == written            # the panel's board is the written one
    return written
