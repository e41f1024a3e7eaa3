"""The live panel's board written in Python (issue 21): what board.html draws outside its
`{% if replay %}` branch, character for character (whitespace included), so a pushed panel,
a fetched one and the deltas cut from them (games.regions) are the template's.

The template stays: the replay draws from it, and tests/games/test_boards_in_python.py
renders it beside this on real panels (every seat and a spectator, several points of a
5-player and a 2-player game, half-made selections, another seat's map, waiting and pending
states, English and German, a name holding `<`, `&` and quotes). The rules it followed:

- every outside text (names, selections, URLs, numbers) escaped once, as auto-escape did; a
  `{% translate %}` literal is not (Django marks it safe); a `{% blocktranslate %}`'s msgid is
  the template's own (the catalogues' entries), its values escaped;
- numbers print as Python prints them (the board was rendered under `localize off`);
- the two includes (_defs.html, _legend.html) hold no context: rendered once per language.
"""
from __future__ import annotations

from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from games.shell import game_url, kept_include
from games.rules.base import _, ngettext

TOTAL = ' class="total"'


def _esc(value: Any) -> str:
    """What auto-escape printed: a safe string as it is (not copied), anything else escaped
    (a number's digits have nothing to escape)."""
    if type(value) is int:
        return str(value)
    return value if isinstance(value, SafeString) else escape(str(value))


def _include(name: str) -> str:
    return kept_include(f"games/rift-valley-reserve/{name}")


def _person(name: Any) -> str:
    shown = _esc(name)
    return f'<span class="name" title="{shown}">{shown}</span>'


def board_html(panel: dict) -> str | None:
    """board.html for a live panel; None for the replay (drawn from the template)."""
    if panel.get("replay"):
        return None
    from games.panel import action_vals

    view, board = panel["view"], panel["board"]
    hx = board["hx"]     # the URLs the presenter reversed for the maps (escaped)
    urls = {"panel": hx.panel_url, "act": hx.act_url, "vals": lambda action: _esc(action_vals(panel, action))}
    turn = _esc(view["turn"])
    strip, round_table = _("All maps and where they go next"), _("Maps round the table")
    out = [f'\n<section class="card board rvr" data-turn="{turn}" data-sel-root data-sel="{_esc(board["selection"])}" '
           f'data-sel-key="{turn}" data-panel-url="{urls["panel"]}"\n'
           f'         data-acting="{"1" if board["acting"] else "0"}" '
           f'data-viewing="{"1" if board["viewing_other"] else "0"}">\n'
           f'  {_include("_defs.html")}\n\n', _status(view, board),
           '  \n  <div class="rvr-play">\n    <div class="rvr-main">\n', _maphead(board, urls),
           "      ", _controls(panel, board, urls), "\n\n      "]
    # The large parts (the maps' SVG, the thumbnails, the tables) go into `out` as they are,
    # not through an f-string: each would be copied once more.
    _zoom(out, board, urls)
    out += ["\n      ", _esc(board["svg"]), f'\n      {_include("_legend.html")}\n    </div>\n\n'
            f'    <div class="rvr-strip" aria-label="{strip}">\n      <h3>{round_table}</h3>\n      ',
            _esc(board["thumbs_html"]), "\n    </div>\n  </div>\n  \n\n"]
    _scores(out, view, board)
    _history(out, board)
    out.append("\n</section>\n")
    return mark_safe("".join(out))


def _status(view: dict, board: dict) -> str:
    turn = _("Turn %(turn)s") % {"turn": _esc(view["turn"])}
    full = _("Full maps %(full)s / %(needed)s") % {"full": _esc(view["full_maps"]),
                                                    "needed": _esc(view["full_maps_needed"])}
    last = ""
    if view["final_turn"] and not view["over"]:
        last = " · " + _("last turn: %(turn)s") % {"turn": _esc(view["final_turn"])}
    waiting = ""
    if not board["acting"] and board["waiting"]:
        names = ", ".join(_esc(name) for name in board["waiting"])
        waiting = '<p class="muted rvr-waiting">' + _("Waiting for %(names)s.") % {"names": names} + "</p>"
    title = _("The end is triggered when this many maps have no empty square")
    players = _("Players this turn")
    return ('  <div class="rvr-status">\n'
            f'    <div class="rvr-turn"><strong>{turn}</strong> · <span class="stage stage-{_esc(view["stage"])}">'
            f'{_esc(board["stage_text"])}</span>\n'
            f'      · <span title="{title}">{full}</span>\n'
            f'      {last}</div>\n'
            f'    <ul class="rvr-seats" aria-label="{players}">\n'
            f'      {_esc(board["seat_chips_html"])}\n    </ul>\n    {waiting}\n  </div>\n\n')


def _maphead(board: dict, urls: dict) -> str:
    own = ' <span class="tag">' + _("your map") + "</span>" if board["own_map"] else ""
    rift_of = (_('Rift of <span class="num" style="background: %(colour)s">%(num)s</span> %(name)s')
               % {"colour": _esc(board["owner_colour"]), "num": _esc(board["owner_num"]),
                  "name": _esc(board["owner_name"])})
    held = ""
    if board["holder_name"]:
        held = " · " + _("held by %(name)s") % {"name": _esc(board["holder_name"])}
    after = ""
    if board["next_name"]:
        after = " · " + (_('goes to <strong style="color: %(colour)s">%(name)s</strong> next')
                         % {"colour": _esc(board["next_colour"]), "name": _esc(board["next_name"])})
    viewing = ""
    if board["viewing_other"]:
        only, back = _("Viewing only."), _("Back to the map you hold")
        viewing = (f'<p class="viewing">{only} <a href="#" hx-get="{urls["panel"]}?sel='
                   f'{_esc(board["back_sel"])}" hx-target="#live" hx-swap="innerHTML" data-back data-sel-cancel>'
                   f'{back}</a></p>')
    return ('      <div class="rvr-maphead">\n'
            f'        <h2>{_esc(board["map"]["name"])}{own}</h2>\n        <p>\n'
            f'          <span class="rift-of" style="border-color: {_esc(board["owner_colour"])}">{rift_of}</span>\n'
            f'          {held}\n          {after}\n        </p>\n        {viewing}\n      </div>\n\n')


def _controls(panel: dict, board: dict, urls: dict) -> str:
    """The acting seat's toolbar and hint, or its own draw waiting for the others."""
    if board["acting"]:
        return "\n" + _toolbar(board, urls) + _hint(board) + "      "
    if board["my_pending"]:
        undo = ""
        if panel["can_undo"]:
            url = _esc(game_url(panel["game"], "games:undo"))
            undo = (f'<button type="button" class="button secondary take-back" hx-post="{url}" hx-target="#live" '
                    'hx-swap="innerHTML">' + _("Take back my draw") + "</button>")
        drew = _("You drew %(draw)s — drawn — waiting for the others.") % {"draw": _esc(board["my_pending_text"])}
        return (f'\n        <div class="rvr-pending notice message"><p>{drew}</p>\n'
                f'          {undo}\n        </div>\n      ')
    return ""


def _mode_button(board: dict, urls: dict, mode: str, can: bool, sel: Any, label: str) -> str:
    on = board["mode"] == mode
    return (f'        <button type="button" class="button mode{" on" if on else ""}" '
            f'aria-pressed="{"true" if on else "false"}"\n'
            f'                {"" if can else "disabled"} hx-get="{urls["panel"]}?sel={_esc(sel)}" '
            f'hx-target="#live" hx-swap="innerHTML">{label}</button>\n')


def _toolbar(board: dict, urls: dict) -> str:
    ghost = cancel = passing = ""
    if board["ghost_action"]:
        words = "Confirm Tent on %(square)s" if board["mode"] == "tent" else "Confirm Stop on %(square)s"
        confirm = _(words) % {"square": _esc(board["ghost_square"])}
        ghost = (f'\n          <button type="button" class="button confirm" hx-post="{urls["act"]}" '
                 f'hx-vals="{urls["vals"](board["ghost_action"])}" hx-target="#live" hx-swap="innerHTML">'
                 f'{confirm}</button>\n        ')
    if board["selecting"]:
        cancel = (f'\n          <button type="button" class="button secondary" data-sel-cancel hx-get="{urls["panel"]}'
                  f'?sel={_esc(board["cancel_sel"])}" hx-target="#live" hx-swap="innerHTML">' + _("Cancel")
                  + '</button>\n        ')
    if board["pass_action"]:
        passing = (f'\n          <button type="button" class="button secondary pass" hx-post="{urls["act"]}" '
                   f'hx-vals="{urls["vals"](board["pass_action"])}" hx-target="#live" hx-swap="innerHTML">'
                   + _("Pass") + '</button>\n        ')
    return ('      <div class="rvr-controls" role="toolbar" aria-label="' + _("What to draw") + '">\n'
            + _mode_button(board, urls, "stop", board["can_stop"], board["mode_stop_sel"], "● " + _("Stop"))
            + _mode_button(board, urls, "tent", board["can_tent"], board["mode_tent_sel"], "▲ " + _("Tent"))
            + f"        {ghost}\n        {cancel}\n        {passing}\n      </div>\n")


_HINTS = {
    "route": "Click a dashed route to draw that Trail. Click the first Stop again or press Escape to cancel.",
    "first": "Now click one of your highlighted Stops to end the Trail.",
    "ghost-tent": "Click the tent again or press Confirm to draw it.",
    "ghost": "Click the stop again or press Confirm to draw it.",
    "tent-trails": "Click a highlighted square to draw a Tent, or click one of your ringed Stops to start a Trail.",
    "tent": "Click a highlighted square to draw a Tent.",
    "trails": "Click a highlighted square to draw a Stop, or click one of your ringed Stops to start a Trail.",
    "stop": "Click a highlighted square to draw a Stop.",
}


def _hint_key(board: dict) -> str:
    tent = board["mode"] == "tent"
    if board["routes"]:
        return "route"
    if board["first"]:
        return "first"
    if board["ghost"]:
        return "ghost-tent" if tent else "ghost"
    if tent:
        return "tent-trails" if board["has_trails"] else "tent"
    return "trails" if board["has_trails"] else "stop"


def _hint(board: dict) -> str:
    """The hint under the toolbar; as the template's chain of branches, each but the last
    followed by the newline and indentation before the next `{% elif %}`."""
    count = len(board["routes"])
    if count > 1:
        text = _("Click a dashed route to draw that Trail (%(count)s routes; the dot marks the corner). "
                 "Click the first Stop again or press Escape to cancel.") % {"count": count}
        text += "\n        "
    else:
        key = _hint_key(board)
        text = _(_HINTS[key]) + ("" if key == "stop" else "\n        ")
    return f'      <p class="rvr-hint" aria-live="polite">\n        {text}\n      </p>\n'


def _zoom(out: list[str], board: dict, urls: dict) -> None:
    zoom = board["zoom"]
    if not zoom:
        return
    out += [f'\n      <div class="rvr-zoom" data-half="{_esc(zoom["half"])}">\n'
            f'        <p class="rvr-zoom-bar"><span>{_esc(zoom["bar"])}</span>\n'
            f'          <button type="button" class="button secondary" hx-get="{urls["panel"]}?sel='
            f'{_esc(zoom["other_sel"])}" hx-target="#live" hx-swap="innerHTML">{_esc(zoom["switch"])}</button></p>\n'
            "        ", _esc(zoom["svg"]), "\n      </div>\n      "]


def _scores(out: list[str], view: dict, board: dict) -> None:
    over = view["over"]
    star = '<span class="winner-star" title="' + _("winner") + '">★</span>' if over else ""
    heads = "".join(
        f'\n        <th scope="col" class="seat-{_esc(row["seat"])}{" leader" if row["rank"] == 1 else ""}" '
        f'data-seat="{_esc(row["seat"])}"><span class="rank">{_esc(row["rank"])}.</span>'
        f'{star if row["rank"] == 1 else ""} <span class="num" style="background: {_esc(row["colour"])}">'
        f'{_esc(row["num"])}</span> {_person(row["name"])}</th>' for row in board["scores"])
    lines = "".join(
        f'\n        <tr{TOTAL if line["total"] else ""}><th scope="row">{_esc(line["label"])}</th>'
        f'{_esc(line["strong_tds"])}</tr>\n      ' for line in board["score_lines"])
    notes = "".join(f'<p class="tie-break muted">{_esc(note)}</p>' for note in board["tie_breaks"])
    heading, category, per_map = _("Final scoring") if over else _("Live scores"), _("Category"), _("Scores per map")
    out += ['  <section class="rvr-scores">\n'
            f'    <h3>{heading}</h3>\n    \n'
            '    <table class="score-table rvr-score-table">\n'
            f'      <thead><tr><th scope="col"><span class="visually-hidden">{category}</span></th>{heads}'
            f'</tr></thead>\n      <tbody>\n      {lines}\n      </tbody>\n    </table>\n    {notes}\n'
            f'    <details class="per-map">\n      <summary>{per_map}</summary>\n      ',
            _esc(board["per_map_html"]), "\n    </details>\n  </section>\n\n"]


def _history(out: list[str], board: dict) -> None:
    history = board["history"]
    if not history:
        out.append("  ")
        return
    turns = len(history)
    summary = ngettext("Turn by turn (%(turns)s turn)", "Turn by turn (%(turns)s turns)", turns) % {"turns": turns}
    out += [f'  \n  <details class="rvr-history">\n    <summary>{summary}</summary>\n    <ol reversed>',
            _esc(board["history_html"]), "</ol>\n  </details>\n  "]
