"""The live panel's board written in Python (issue 21): what board.html draws outside a
replay, character for character (whitespace included), so a pushed panel, a fetched one and
the deltas cut from them (games.regions) are the template's. As Rift Valley Reserve's
(games/rift_valley_reserve/board_html.py), with the same rules:

- every outside text (names, selections, URLs, numbers) escaped once, as auto-escape did; a
  `{% translate %}` literal is not (Django marks it safe); a `{% blocktranslate %}`'s msgid is
  the template's own (the catalogues' entries), its values escaped;
- numbers print as Python prints them (the board was rendered under `localize off`);
- the SVGs and HTML the presenter already writes (mountain_svg, chart_svg, path_svg,
  players_html, animal_boards_html) go in as they are; the one include (_defs.html) holds no
  context: rendered once per language.

The template stays: the replay draws from it, and tests/games/test_np_board_html.py renders
it beside this on real panels.
"""
from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.safestring import SafeString, mark_safe

from games.shell import kept_include
from games.rules.base import _, ngettext, pgettext

SWAP = 'hx-target="#live" hx-swap="innerHTML"'


def _esc(value: Any) -> str:
    """What auto-escape printed: a safe string as it is (not copied), anything else escaped."""
    return value if isinstance(value, SafeString) else escape(str(value))


def game_urls(pk: int) -> tuple[str, str]:
    """The game's act and panel URLs, escaped: reversed once per game, not five times per
    render (the key holds what `reverse` reads besides the pk: the script prefix, a request's
    urlconf and the settings' ROOT_URLCONF)."""
    return _game_urls(pk, get_script_prefix(), get_urlconf(), settings.ROOT_URLCONF)


@lru_cache(maxsize=1024)
def _game_urls(pk: int, _prefix: str, urlconf: str | None, _root: str) -> tuple[str, str]:
    return (_esc(reverse("games:act", args=[pk], urlconf=urlconf)),
            _esc(reverse("games:panel", args=[pk], urlconf=urlconf)))


def _include(name: str) -> str:
    return kept_include(f"games/nanga-parbat/{name}")


def board_html(panel: dict) -> str | None:
    """board.html for a live panel; None for the replay (drawn from the template)."""
    board = panel["board"]
    if panel.get("replay") or board.get("replay"):
        return None
    game = panel["game"]
    act_url, panel_url = game_urls(game.pk)
    urls = {"panel": panel_url, "act": act_url}
    in_mode = " in-mode" if board["in_mode"] else ""
    chart, mountain = _("Points chart"), _("The mountain: 6 regions of 6 sections")
    out = [f'\n<section class="card board np{in_mode}" data-phase="{_esc(board["phase"])}" '
           f'data-mode="{_esc(board["mode"])}" data-sel-root data-sel="{_esc(board["selection"])}" '
           f'data-sel-key="{_esc(panel["seat_turn"])}" data-panel-url="{urls["panel"]}">\n',
           _head(panel, board, urls), "\n\n  ", _end(board), "\n\n  \n",
           '  <svg class="np-defs" width="0" height="0" aria-hidden="true" focusable="false" '
           f'xmlns="http://www.w3.org/2000/svg">{_include("_defs.html")}</svg>\n\n'
           '  <div class="np-layout">\n    <div class="np-left">\n      \n'
           f'      <svg class="np-svg np-chart" viewBox="8 0 {board["chart_w"] - 14} {board["chart_h"]}" '
           f'role="group" aria-label="{chart}" xmlns="http://www.w3.org/2000/svg">\n        ',
           _esc(board["chart_svg"]), "\n      </svg>\n\n      \n      <div class=\"np-players\">\n        ",
           _esc(board["players_html"]), "\n      </div>\n\n      \n",
           f'      <svg class="np-svg np-path" viewBox="0 0 {board["path_w"]} {board["path_h"]}" role="img" '
           f'aria-label="{_path_label(board)}" xmlns="http://www.w3.org/2000/svg">\n        ',
           _esc(board["path_svg"]), "\n      </svg>\n    </div>\n\n    \n", _views(board),
           f'      <div class="np-window" data-view-window>\n'
           f'        <svg class="np-svg np-mountain" viewBox="0 0 {board["mountain_size"]} {board["mountain_size"]}" '
           f'role="group" aria-label="{mountain}" '
           'xmlns="http://www.w3.org/2000/svg">\n          ',
           _esc(board["mountain_svg"]), "\n        </svg>\n      </div>\n    </div>\n  </div>\n\n  \n"
           '  <div class="np-aboards">\n  ', _esc(board["boards_html"]), "\n  </div>\n",
           _legend(board), "</section>\n"]
    return mark_safe("".join(out))


def _head(panel: dict, board: dict, urls: dict) -> str:
    turn = area = events = hint = ""
    if board["turn"]:
        turn = ' <span class="muted">· ' + _("Turn %(turn)s") % {"turn": _esc(board["turn"])} + "</span>"
    if board["area_scoring"]:
        title = _("At the end, each region scores 1/2/3 for 4/5/6 of a player's pieces")
        area = f' <span class="tag" title="{title}">' + pgettext("nanga parbat variant", "Area scoring") + "</span>"
    if board["events"]:
        pills = "".join(f'<span class="np-event">{_esc(e)}</span>' for e in board["events"])
        events = f'<p class="np-events">{pills}</p>'
    if board["summary_hint"]:
        hint = f'<p class="np-hint muted">{_esc(board["summary_hint"])}</p>'
    return ('  <div class="np-head">\n'
            f'    <p class="np-status" role="status"><strong>{_esc(board["status"])}</strong>{turn}{area}</p>\n'
            f"    {events}\n    {hint}\n    {_mode(panel, board, urls)}\n  </div>")


def _mode(panel: dict, board: dict, urls: dict) -> str:
    from games.panel import action_vals

    if board["in_mode"]:
        counter = f'<span class="np-counter chip">{_esc(board["counter"])}</span>' if board["counter"] else ""
        if board["confirm"]:
            confirm = ('\n          <button type="button" class="button np-confirm sel-target" '
                       f'data-sel-focus="confirm" hx-post="{urls["act"]}" '
                       f'hx-vals="{_esc(action_vals(panel, board["confirm"]))}" {SWAP}>'
                       + _("Confirm") + "</button>\n        ")
        else:
            confirm = ('\n          <button type="button" class="button np-confirm" disabled>' + _("Confirm")
                       + "</button>\n        ")
        return ('\n      <div class="np-mode" role="group" aria-label="' + _("Current choice") + '">\n'
                f'        <span class="np-mode-text">{_esc(board["mode_text"])}</span>\n'
                f"        {counter}\n        {confirm}\n"
                f'        <button type="button" class="button secondary np-cancel" hx-get="{urls["panel"]}" {SWAP} '
                "data-sel-cancel>" + _("Cancel") + "</button>\n      </div>\n    ")
    if board["end_turn"]:
        return ('\n      <div class="np-mode">\n'
                '        <button type="button" class="button np-end-turn sel-target" data-sel-focus="end-turn" '
                f'hx-post="{urls["act"]}" hx-vals="{_esc(action_vals(panel, board["end_turn"]))}" {SWAP}>'
                + _("End turn") + "</button>\n      </div>\n    ")
    return ""


def _end(board: dict) -> str:
    end = board["end"]
    if not end:
        return ""
    if end["winner"]:
        who = "▲ " + _("%(name)s wins!") % {"name": _esc(end["winner"])}
    else:
        who = _("A draw.")
    why = _("The game ended because %(why)s.") % {"why": _esc(end["ended_by"])}
    labels = "".join(f"<th>{_esc(label)}</th>" for label in end["labels"])
    player, total = _("Player"), _("Total")
    rows = "".join(
        f'<tr><td><span class="np-dot" style="background:{_esc(r["colour"])}">{_esc(r["mark"])}</span></td>'
        f'<td>{_esc(r["name"])}</td>' + "".join(f"<td>{_esc(v)}</td>" for _label, v in r["breakdown"])
        + f'<td><strong>{_esc(r["total"])}</strong></td></tr>' for r in end["rows"])
    area = ""
    if end["area"]:
        area = ('<p class="np-area">' + _("Area scoring, in region order: %(awards)s.")
                % {"awards": _esc(end["area_text"])} + "</p>\n      ")
    elif board["area_scoring"]:
        area = ('<p class="np-area muted">' + _("Area scoring: no region held 4 or more pieces of one player.")
                + "</p>")
    return ('\n    <div class="np-end">\n'
            f'      <h2>{who} <small class="muted">{why}</small></h2>\n'
            '      <table class="score-table np-end-table">\n'
            f'        <thead><tr><th></th><th>{player}</th>{labels}<th>{total}</th></tr></thead>\n'
            f"        <tbody>{rows}</tbody>\n      </table>\n      {area}\n    </div>\n  ")


def _path_label(board: dict) -> str:
    points = ", ".join(
        ngettext("%(name)s %(n)s point", "%(name)s %(n)s points", m["score"])
        % {"name": _esc(m["name"]), "n": _esc(m["score"])} for m in board["markers"])
    return _("Scoring path:") + " " + points


def _views(board: dict) -> str:
    labels = "".join(
        f'<label><input type="radio" name="np-view" value="{_esc(v["key"])}"{" checked" if v["checked"] else ""}> '
        f'{_esc(v["label"])}</label>' for v in board["views"])
    legend = _("Show on the mountain")
    return ('    <div class="np-right">\n      <fieldset class="np-views">\n'
            f'        <legend>{legend}</legend>\n        {labels}\n      </fieldset>\n')


def _legend(board: dict) -> str:
    seats = []
    for i, p in enumerate(board["players"]):
        values = {"name": _esc(p["name"]), "mark": _esc(p["mark"])}
        words = (_("%(name)s (orange, letter %(mark)s)") if i == 0 else _("%(name)s (green, letter %(mark)s)")) % values
        seats.append(f'<span class="np-dot" style="background:{_esc(p["colour"])}" aria-hidden="true">'
                     f'{_esc(p["mark"])}</span> {words} · ')
    animals = _("Animals: S snow leopard, T tahr, M musk deer, Y yak, B bharal (wild), R red panda · G the guide · "
                "dotted lines are paths between regions.")
    return f'  <p class="np-legend muted">\n    {"".join(seats)}\n    {animals}\n  </p>\n'
