"""The live panel's board written in Python (issue 21): what board.html (and the _map.html it
includes) draws outside a replay, character for character (whitespace included), so a pushed
panel, a fetched one and the deltas cut from them (games.regions) are the template's. As Rift
Valley Reserve's and Nanga Parbat's (games/rift_valley_reserve/board_html.py), with the same
rules:

- every outside text (names, selections, labels, URLs) escaped once, as auto-escape did; a
  `{% translate %}` literal is not (Django marks it safe); a `{% blocktranslate %}`'s msgid is
  the template's own (the catalogues' entries), its values escaped;
- numbers print as Python prints them (the board was rendered under `localize off`);
- the map's layers and the players' cards the presenter already writes (map_svg,
  players_html) go in as they are; the one include with no context (_defs.html) is rendered
  once per language and kept.

The template stays: the replay and the "how to play" diagrams draw from it, and
tests/games/test_rifugio_board_html.py renders it beside this on real panels.
"""
from __future__ import annotations

from html import escape
from typing import Any

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from games.rules.base import _, ngettext, pgettext
from games.shell import kept_include

SWAP = 'hx-target="#live" hx-swap="innerHTML"'
PEAK_STROKE = ' stroke="#889"'
HEX16 = "8,1 14,4.5 14,11.5 8,15 2,11.5 2,4.5"     # the legend's small hexagon


def _esc(value: Any) -> str:
    """What auto-escape printed: a safe string as it is (not copied), a number as Python prints
    it (the final table's cells), anything else escaped."""
    if type(value) is int:
        return str(value)
    return value if isinstance(value, SafeString) else escape(str(value))


def board_html(panel: dict) -> str | None:
    """board.html for a live panel; None for the replay (drawn from the template)."""
    if panel.get("replay"):
        return None
    from games.panel import action_vals

    game, board = panel["game"], panel["board"]
    urls = {"panel": _esc(reverse("games:panel", args=[game.pk])), "act": _esc(reverse("games:act", args=[game.pk])),
            "vals": lambda action: _esc(action_vals(panel, action))}
    over = board["over"]
    if over:
        scroll = ' fit" data-whole="1'
        region = pgettext("rifugio", "The map")
    else:
        scroll, region = "", _("The map (on a phone it scrolls: swipe to see the rest)")
    out = [f'\n<section class="card board rf{" acting" if board["acting"] else ""}" '
           f'data-phase="{_esc(panel["view"]["phase"])}" data-sel-root data-sel="{_esc(board["selection"])}" '
           f'data-sel-key="{_esc(panel["seat_turn"])}" data-panel-url="{urls["panel"]}">\n',
           _head(board),
           '\n  <div class="rf-layout">\n    <div class="rf-map-wrap">\n      \n'
           f'      <div class="rf-map-scroll{scroll}" tabindex="0" role="region" aria-label="{region}">\n      ']
    _map(out, board, urls)
    out += ["\n      </div>\n      ", _hint(board), "\n    </div>\n\n    <div class=\"rf-turn\">\n      ",
            _steps(board), "\n\n      ", _hand(board, urls), "\n\n      ", _menu(board, urls), "\n\n      ",
            _buttons(board, urls), "\n\n      ", _legend(board), "\n    </div>\n  </div>\n\n  "]
    _final(out, board)
    out += ['\n\n  <div class="rf-players">', _esc(board["players_html"]), "</div>\n</section>\n"]
    return mark_safe("".join(out))


def _head(board: dict) -> str:
    if board["over"]:
        heading = _("The map at the end")
    else:
        two = (" <small>" + _("(2 tiles this turn)") + "</small>"
               if board["place_mode"] and board["tiles_to_place"] > 1 else "")
        heading = (f'<span class="swatch seat-{_esc(board["active"])}" aria-hidden="true"></span>'
                   f'{_esc(board["active_name"])} ({_esc(board["active_letter"])}) · {_esc(board["phase_label"])}{two}')
    n = board["tiles_left"]
    left = ngettext('<strong class="rf-tiles-left">%(n)s</strong> tile left',
                    '<strong class="rf-tiles-left">%(n)s</strong> tiles left', n) % {"n": _esc(n)}
    if board["removed"]:
        left += " · " + _("%(n)s removed as unplaceable") % {"n": _esc(board["removed"])}
    if board["expansion"]:
        left += ' · <strong class="rf-edition">' + _("with Rivers &amp; Rafts") + "</strong>"
    else:
        left += " · " + _("base game")
    return ('  <div class="row spread rf-head">\n'
            f"    <h2>{heading}</h2>\n"
            '    <button type="button" class="button secondary small rf-zoom" aria-pressed="false" hidden>'
            + pgettext("rifugio", "Whole map") + "</button>\n"
            '    <span class="muted rf-bag" title="' + _("Tiles left in the bag (their order is secret)") + '">'
            '<svg class="mini" viewBox="-12 -12 24 24" aria-hidden="true"><use href="#rf-bag" x="-12" y="-12" '
            f'width="24" height="24"/></svg> {left}</span>\n  </div>\n')


def _map(out: list[str], board: dict, urls: dict) -> None:
    """_map.html for the board (no `label`: a group of controls, with its symbols)."""
    svg = board["svg"]
    n = len(board["tiles"])
    label = ngettext("The Rifugio map, %(n)s tile", "The Rifugio map, %(n)s tiles", n) % {"n": n}
    out += [f'\n\n<svg class="rf-map" viewBox="{_esc(board["viewbox"])}" role="group" aria-label="{label}" '
            f'style="--rf-cols: {_esc(board["columns"])}">\n  ',
            kept_include("games/rifugio/_defs.html"),
            '\n  <g class="frontier">', _esc(svg["frontier"]), '</g>\n  <g class="tiles">', _esc(svg["tiles"]),
            '</g>\n  <g class="outlines">', _esc(svg["outlines"]), '</g>\n  <g class="placed-now">',
            _esc(svg["placed"]), '</g>\n  <g class="icons">', _esc(svg["icons"]), '</g>\n  <g class="huts">',
            _esc(svg["huts"]), '</g>\n  <g class="rafts">', _esc(svg["rafts"]), '</g>\n  <g class="hikers">',
            _esc(svg["hikers"]), '</g>\n  <g class="swimmers">', _esc(svg["swimmers"]),
            '</g>\n  \n  <g class="coords" aria-hidden="true">', _esc(svg["coords"]),
            '</g>\n  <g class="targets">\n  ']
    out += [_target(t, urls) for t in board["targets"]]
    out += ['\n  </g>\n  \n  <g class="badges" aria-hidden="true">', _esc(svg["badges"]), "</g>\n</svg>\n"]


def _target(t: dict, urls: dict) -> str:
    key, label, action, sel = _esc(t["key"]), _esc(t.get("label", "")), t.get("action"), t.get("sel")
    if action:
        control = (f'role="button" tabindex="0" aria-label="{label}" hx-post="{urls["act"]}" '
                   f'hx-vals="{urls["vals"](action)}" {SWAP}\n       ')
    elif sel:
        control = (f'role="button" tabindex="0" aria-label="{label}" hx-get="{urls["panel"]}?sel={_esc(sel)}" '
                   f"{SWAP}")
    else:
        control = ""
    title = f"<title>{label}</title>" if label else ""
    ghost = f'<g class="ghost">{_esc(t["ghost_svg"])}</g>' if t.get("ghost") else ""
    return (f'\n    <g class="target {_esc(t["kind"])}{" sel-target" if action or sel else ""}" data-key="{key}" '
            f'data-sel-focus="{key}"\n       {control}>\n      {title}\n      {ghost}\n'
            f'      <polygon class="hl" points="{_esc(t["hex"])}"/>\n    </g>\n  ')


def _hint(board: dict) -> str:
    if not board["acting"]:
        return ""
    if board["place_mode"]:
        hint = _("Solid gold cells take the tile as it is turned now; dotted cells take it after a turn "
                 "(click one to turn the tile).") + "\n        "
    elif board["swim_mode"]:
        hint = _("Swimming: pick a shore beyond the water.") + "\n        "
    else:
        hint = _("Ringed cells: walk or board a raft. Blue dotted: sail. “+ raft (2)”: build a raft.")
    return f'\n      <p class="rf-hint muted">\n        {hint}\n      </p>\n      '


def _steps(board: dict) -> str:
    if board["over"]:
        return ""
    pips = ('<span class="pip" aria-hidden="true"></span>' * len(board["pips"]) if board["pips"]
            else '<span class="muted">' + pgettext("steps", "none") + "</span>")
    return ('\n      <div class="rf-steps">\n        <span>' + _("Steps left") + '<span class="sr-only"> '
            + _("this turn:") + "</span></span>\n"
            f'        <span class="pips">{pips}</span>\n'
            f'        <strong class="rf-steps-count">{_esc(board["steps"])}</strong>\n      </div>\n      ')


def _hand(board: dict, urls: dict) -> str:
    hand = board["hand"]
    if not hand:
        return ""
    title = _esc(hand["title"])
    if hand["sides"]:
        label = _("%(title)s, sides: %(sides)s") % {"title": title, "sides": _esc(hand["sides"])}
    else:
        label = title
    icon = hand["icon"]
    use = (f'<use href="#rf-{_esc(icon)}" x="40" y="38" width="40" height="40"/>' if icon else "")
    bear = '<text class="bear-value" x="60" y="92">−3</text>' if icon == "bear" else ""
    rotate = ""
    if board["place_mode"] and not hand["tile"]["symmetric"]:
        left, right = _("Rotate left"), _("Rotate right")
        no_spot = ('<p class="muted">' + _("It fits nowhere turned like this: turn it or click a dotted cell.")
                   + "</p>" if hand["no_spot"] else "")
        rotate = ('\n        <div class="row rf-rotate">\n'
                  f'          <button type="button" class="button secondary small" '
                  f'hx-get="{urls["panel"]}?sel={_esc(hand["left"])}" {SWAP} aria-label="{left}">⟲ {left}</button>\n'
                  f'          <button type="button" class="button secondary small" '
                  f'hx-get="{urls["panel"]}?sel={_esc(hand["right"])}" {SWAP} aria-label="{right}">{right} ⟳</button>\n'
                  f"        </div>\n        {no_spot}\n        ")
    return ('\n      <div class="rf-hand">\n        <h3>' + _("Tile to place") + "</h3>\n"
            f'        <svg class="rf-hand-svg" viewBox="0 0 120 120" role="img" aria-label="{label}">\n'
            f"          <title>{title}</title>\n          {_esc(hand['tris_svg'])}\n"
            f'          <polygon class="hand-outline" points="{_esc(hand["hex"])}"/>\n'
            f"          {use}\n          {bear}\n        </svg>\n"
            f'        <p class="rf-hand-name">{title}</p>\n        {rotate}\n      </div>\n      ')


def _menu(board: dict, urls: dict) -> str:
    menu = board["menu"]
    if not menu:
        return ""
    at = {"q": _esc(menu["q"]), "r": _esc(menu["r"])}
    return ('\n      <div class="rf-menu notice message" role="group" aria-label="'
            + _("Water at (%(q)s,%(r)s)") % at + '">\n        <strong>' + _("Water at (%(q)s,%(r)s):") % at
            + "</strong>\n"
            f'        <button class="button small" hx-post="{urls["act"]}" hx-vals="{urls["vals"](menu["sail"])}" '
            f'{SWAP}>' + _("Sail here (1 step)") + "</button>\n"
            f'        <button class="button small" hx-post="{urls["act"]}" hx-vals="{urls["vals"](menu["build"])}" '
            f'{SWAP}>' + _("Build a raft here (2 steps)") + "</button>\n"
            f'        <button class="button secondary small" data-sel-cancel '
            f'hx-get="{urls["panel"]}?sel={_esc(board["cancel_sel"])}" {SWAP}>'
            + pgettext("rifugio", "Cancel") + "</button>\n      </div>\n      ")


def _post(urls: dict, action: dict) -> str:
    return f'hx-post="{urls["act"]}" hx-vals="{urls["vals"](action)}" {SWAP}'


def _buttons(board: dict, urls: dict) -> str:
    b = board["buttons"]
    if not b:
        return ""
    swim = keep = build = extra = end = ""
    if b["continue_swim"]:
        keep = (f'<button class="button" {_post(urls, b["continue_swim"])}>'
                + _("Keep swimming (%(stage)s/4)") % {"stage": _esc(b["swim_stage"])} + "</button>")
    if b["show_build_rifugio"]:
        build = (f'<button class="button" {_post(urls, b["build_rifugio"]) if b["build_rifugio"] else "disabled"}>'
                 + _("Build Rifugio (1 step)") + "</button>")
    if b["extra_cards"]:
        extra = (f'<button class="button" {_post(urls, b["use_extra_step"]) if b["use_extra_step"] else "disabled"}>'
                 + _("Use extra step (%(n)s left)") % {"n": _esc(b["extra_cards"])} + "</button>")
    if b["swim"]:
        if board["swim_mode"]:
            swim = (f'<button class="button secondary" data-sel-cancel '
                    f'hx-get="{urls["panel"]}?sel={_esc(board["cancel_sel"])}" {SWAP}>'
                    + _("Cancel swim") + "</button>")
        else:
            swim = (f'<button class="button" hx-get="{urls["panel"]}?sel={_esc(board["swim_sel"])}" {SWAP}>'
                    + _("Swim…") + "</button>")
    if b["end_turn"]:
        confirm = f' hx-confirm="{_esc(b["end_confirm"])}"' if b["end_confirm"] else ""
        end = (f'<button class="button end-turn" {_post(urls, b["end_turn"])}{confirm}>'
               + pgettext("rifugio", "End turn") + "</button>")
    return (f'\n      <div class="rf-actions">\n        {keep}\n        {build}\n        {extra}\n        {swim}\n'
            f"        {end}\n      </div>\n      ")


def _legend(board: dict) -> str:
    def row(fill: str, word: str, textured: bool = True, stroke: str = "") -> str:
        texture = f'<polygon points="{HEX16}" fill="url(#rf-tex-{fill[0]})"/>' if textured else ""
        return (f'<dt><svg viewBox="0 0 16 16" aria-hidden="true"><polygon points="{HEX16}" fill="{fill[1:]}"{stroke}/>'
                f"{texture}</svg></dt><dd>{word}</dd>")

    water = row("W#4b95d6", pgettext("terrain", "Water"), False) if board["expansion"] else ""
    meadow, forest = row("M#b5d97a", pgettext("terrain", "Meadow")), row("F#3f8a4f", pgettext("terrain", "Forest"))
    rock = row("R#a3a19a", pgettext("terrain", "Rock"))
    peak = row("P#eef2f5", pgettext("terrain", "Mountaintop"), False, PEAK_STROKE)
    return ('<dl class="rf-legend">\n'
            f'        {meadow}\n'
            f'        {forest}\n'
            f'        {rock}\n'
            f'        {peak}\n'
            f"        {water}\n      </dl>")


def _cell(c: dict) -> str:
    note = f'<small class="muted"> ({_esc(c["note"])})</small>' if c["note"] else ""
    return f"<td>{_esc(c['value'])}{note}</td>"


def _final(out: list[str], board: dict) -> None:
    final = board["final"]
    if not final:
        return
    heads = []
    for p in final["rows"]:
        seat, rank, name = _esc(p["seat"]), p["info"]["rank"], _esc(p["name"])
        trophy = ' <span aria-hidden="true">&#127942;</span>' if rank == 1 else ""
        heads.append(f'<th scope="col" class="seat-{seat}{" winner" if rank == 1 else ""}">{_esc(rank)}{trophy}<br>'
                     f'<span class="rf-letter seat-{seat}" aria-hidden="true">{_esc(p["letter"])}</span> '
                     f'<span class="rf-final-name" title="{name}">{name}</span></th>')
    lines = "".join(f'\n        <tr><th scope="row">{_esc(line["label"])}</th>{"".join(map(_cell, line["cells"]))}'
                    "</tr>\n      " for line in final["lines"])
    totals = "".join(f"<td><strong>{_esc(p['info']['score'])}</strong></td>" for p in final["rows"])
    notes = "".join('<p class="rf-tiebreak">' + _("Tie-break: %(note)s") % {"note": _esc(note)} + "</p>"
                    for note in final["notes"])
    waterfalls = ('<p class="muted">' + _("Waterfalls score 1 point plus 1 for every water tile next to them. "
                                          "Ties go to the player with more raft points.") + "</p>"
                  if board["expansion"] else "")
    out += ['\n  <section class="rf-final">\n    <h3>', _("Final scoring"), '</h3>\n    <div class="rf-final-fit">\n'
            '    <table class="score-table rf-final-table">\n      <caption class="visually-hidden">',
            _("Final scores, players in rank order"), '</caption>\n      <thead><tr><th scope="col">',
            pgettext("rifugio", "Rank"), "</th>", *heads, "</tr></thead>\n      <tbody>\n      ", lines,
            '\n        <tr class="rf-final-total"><th scope="row">', pgettext("rifugio", "Total"), "</th>", totals,
            "</tr>\n      </tbody>\n    </table>\n    </div>\n    ", notes, "\n    ", waterfalls,
            "\n  </section>\n  "]
