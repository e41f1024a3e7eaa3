"""The live panel's board written in Python (issue 21): what board.html draws outside a
replay, character for character (whitespace included), so a pushed panel, a fetched one and
the deltas cut from them (games.regions) are the template's. As Rift Valley Reserve's and
Nanga Parbat's (games/rift_valley_reserve/board_html.py), with the same rules:

- every outside text (names, selections, URLs, numbers) escaped once, as auto-escape did; a
  `{% translate %}` literal is not (Django marks it safe); a `{% blocktranslate %}`'s msgid is
  the template's own (the catalogues' entries), its values escaped;
- numbers print as Python prints them (the board was rendered under `localize off`);
- the maps, the seat chips, the score pad and the other seats' maps the presenter already
  writes (map_svg, status_html, pad_html, other_maps_html) go in as they are; the sprite holds
  no context (rendered once per language); a drawn tile in the tray is _tile.html as the
  include drew it, rendered once per language and face and kept.

The template stays: the replay draws from it, and tests/games/test_at_board_html.py renders
it beside this on real panels.
"""
from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

from django.template import Context
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.rules.base import _, ngettext, pgettext
from games.shell import _django_engine, kept_include

SWAP = 'hx-target="#live" hx-swap="innerHTML"'
BUTTON = '<button type="button" class="button small secondary"'
WHOLE = ' data-whole="1"'


def _esc(value: Any) -> str:
    """What auto-escape printed: a safe string as it is (not copied), anything else escaped."""
    return value if isinstance(value, SafeString) else escape(str(value))


def _sel(value: Any) -> str:
    """`{{ value|urlencode }}` under auto-escape."""
    return escape(quote(str(value), safe="/"))


# A drawn tile's face as _tile.html drew it inside the tray's button, per language and face.
_TRAY_TILES: dict[tuple, str] = {}


def _tray_tile(face: dict) -> str:
    key = (get_language(), tuple(sorted(face.items())))
    html = _TRAY_TILES.get(key)
    if html is None:
        if len(_TRAY_TILES) > 4000:
            _TRAY_TILES.clear()
        template = _django_engine().get_template("games/alpine-trails/_tile.html")
        html = _TRAY_TILES[key] = str(template.render(Context({"f": face}, use_l10n=False)))
    return html


def board_html(panel: dict) -> str | None:
    """board.html for a live panel; None for the replay (drawn from the template)."""
    board = panel["board"]
    if panel.get("replay") or board.get("replay"):
        return None
    from games.panel import action_vals

    game, view, ctl = panel["game"], panel["view"], board["ctl"]
    urls = {"panel": _esc(reverse("games:panel", args=[game.pk])), "act": _esc(reverse("games:act", args=[game.pk])),
            "vals": lambda action: _esc(action_vals(panel, action))}
    explicit = bool(ctl and ctl["explicit"])
    out = [f'\n<section class="card board at-board" data-explicit="{"1" if explicit else "0"}"\n'
           f'         data-sel-root data-sel="{_esc(ctl["current"]) if explicit else ""}" '
           f'data-sel-key="{_esc(panel.get("seat_turn", ""))}" data-panel-url="{urls["panel"]}">\n'
           f'  {kept_include("games/alpine-trails/_sprite.html")}\n\n', _head(view, board), "\n  ",
           "".join(f'<p class="notice message at-notice">{_esc(n)}</p>' for n in board["notices"]), "\n  ",
           _title(board["pad"]), "\n\n", f'  <div class="at-layout{"" if board["main"] else " no-main"}">\n    ']
    if board["main"]:
        _main(out, panel, board, urls)
    big = "" if board["main"] else " big"
    prov = ""
    if not board["pad"]["over"]:
        prov = ' <small class="muted">' + _("(provisional: lakes and paths as if the game ended now)") + "</small>"
    pad = _("Score pad")
    out += ["\n  </div>\n\n", f'  <div class="at-lower{big}">\n  \n'
            f'  <div class="at-pad-wrap" role="region" aria-label="{pad}" tabindex="0">\n'
            f"    <h3>{pad}{prov}</h3>\n    ", _esc(board["pad_html"]), "\n  </div>\n  \n\n  "]
    if board["maps"]:
        out += [f'\n  <div class="at-others{big}">\n    ', _esc(board["maps_html"]), "\n  </div>\n  "]
    out.append("\n  </div>\n</section>\n")
    return mark_safe("".join(out))


def _head(view: dict, board: dict) -> str:
    if board["over"]:
        title = _("Final maps")
    else:
        title = _("Round %(round)s of %(rounds)s") % {"round": _esc(view["round"]), "rounds": _esc(view["rounds"])}
    bag = ngettext("%(n)s tile left in the bag", "%(n)s tiles left in the bag", view["bag_left"]) % {
        "n": _esc(view["bag_left"])}
    solo = " · " + pgettext("Alpine Trails", "solo") if view.get("solo") else ""
    status = _("Players this round")
    return ('  <header class="at-head">\n'
            f"    <h2>{title}</h2>\n"
            f'    <span class="muted">{bag}{solo}</span>\n'
            f'    <span class="at-status" aria-label="{status}">\n'
            f'      {_esc(board["status_html"])}\n    </span>\n    \n  </header>\n')


def _title(pad: dict) -> str:
    """A solo game's rank, at its end."""
    if not pad["has_title"]:
        return ""
    if pad["title"]:
        rank = _("Solo rank: <strong>%(title)s</strong>") % {"title": _esc(pad["title"])}
    else:
        rank = _("No title this time (85 points earn “Weekend Wanderer”).")
    total = pad["cols"][0]["total"]
    points = ngettext("%(points)s point", "%(points)s points", total) % {"points": _esc(total)}
    return f'<p class="at-title-banner">{rank} · {points}</p>'


def _main(out: list, panel: dict, board: dict, urls: dict) -> None:
    """The seat's own map and, beside it, its controls, held animals and goal."""
    main, ctl, over = board["main"], board["ctl"], panel["view"]["phase"] == "over"
    your_map = _("Your map")
    fit = "" if over else ('<button type="button" class="button small secondary at-fit" aria-pressed="false" '
                           "data-fit-map>" + _("Whole map") + "</button>")
    hint = ""
    if ctl and ctl["message"]:
        hint = f' — <span class="at-hint" aria-live="polite">{_esc(ctl["message"])}</span>'
    out += [f'\n    <figure class="at-main" id="at-map-{_esc(main["seat"])}">\n      \n      \n'
            f'      <div class="at-map-frame{" fit" if over else ""}"{WHOLE if over else ""} '
            f'role="region" aria-label="{your_map}" tabindex="0">\n      ', _esc(main["svg"]),
            f"\n      </div>\n      {fit}\n      <figcaption>{your_map}{hint}</figcaption>\n    </figure>\n"
            '    <aside class="at-controls">\n      ']
    if ctl:
        out.append("\n        ")
        if ctl["sel"]["mode"] == "waterfall":
            out += ['\n          <p class="at-banner" role="alert">', _waterfall(board["me"]), "</p>\n        "]
        out.append("\n        ")
        if ctl["tray"]:
            _tray(out, ctl, urls)
        out.append("\n      ")
    elif board["finished_round"]:
        round_ = panel["view"]["round"]
        waiting = ""
        if board["waiting"]:
            names = ", ".join(_esc(n) for n in board["waiting"])
            waiting = " " + _("Waiting for %(names)s…") % {"names": names}
        out.append('\n        <p class="at-banner soft">' + _("You have finished round %(round)s.")
                   % {"round": _esc(round_)} + waiting + "</p>\n      ")
    out.append("\n\n      ")
    if (board["me"] or {}).get("animals") or (ctl and ctl["held"]):
        _animals(out, board, ctl, urls)
    out.append("\n\n      ")
    if ctl:
        out += ['\n      <div class="at-done">\n        ', _done(ctl, urls, panel), "\n      </div>\n      "]
    out.append("\n\n      ")
    if board["goal"]:
        out.append(_goal(board))
    out.append("\n      ")
    if ctl:
        out.append('<p class="muted at-keys">'
                   + _("Keys: 1/2 tile · F flip · R rotate · arrows + Enter · Esc · D finish") + "</p>")
    out.append("\n    </aside>\n    ")


def _waterfall(me: dict) -> str:
    pending = me.get("waterfalls_pending", 0)
    if pending > 1:
        return (_("Loop closed: place your waterfall (%(count)s to place). Click a highlighted square.")
                % {"count": _esc(pending)})
    return _("Loop closed: place your waterfall. Click a highlighted square.")


def _tray(out: list, ctl: dict, urls: dict) -> None:
    """The drawn tiles, then the buttons that turn, flip, trade or give up the chosen one."""
    disabled = "disabled" if ctl["sel"]["mode"] == "waterfall" else ""
    out.append("\n        <h3>" + _("Your drawn tiles") + '</h3>\n        <div class="at-tray" role="group" '
               'aria-label="' + _("Drawn tiles") + '">\n          ')
    fork = " · " + pgettext("Alpine Trails trail shape", "fork")
    for t in ctl["tray"]:
        key, trail = _esc(t["key"]), t["side"] == "trail"
        side = _("trail side") if trail else _("terrain side")
        boxed = " · " + _("returns to the box") if t["boxed"] else ""
        rotation = ('<span class="vh">' + _(", rotation %(rotation)s") % {"rotation": _esc(t["rotation"])}
                    + "</span>") if trail else ""
        out += [f'\n          <button type="button" class="at-tile{" selected" if t["selected"] else ""}'
                f'{" boxed" if t["boxed"] else ""}" data-hotkey="{key}"\n'
                f'                  aria-pressed="{"true" if t["selected"] else "false"}"\n'
                f"                  {disabled}\n"
                f'                  hx-get="{urls["panel"]}?sel={_sel(t["sel"])}" {SWAP}>\n'
                '            <svg viewBox="0 0 72 72" class="tray-svg" aria-hidden="true">', _tray_tile(t["face"]),
                f'</svg>\n            <span class="tile-caption"><kbd>{key}</kbd> {_esc(t["label"])}'
                f'{fork if t["fork"] else ""}<br><small>{side}{boxed}</small>{rotation}</span>\n'
                "          </button>\n          "]
    out += ["\n        </div>\n        ", _buttons(ctl, urls), "\n        "]


def _buttons(ctl: dict, urls: dict) -> str:
    b = ctl["buttons"]
    panel_url = urls["panel"]
    flip = rotate = camp = cancel = trade = discard = ""
    if b.get("flip"):
        flip = (f'{BUTTON} data-hotkey="f" hx-get="{panel_url}?sel={_sel(b["flip"])}" {SWAP}>⇋ '
                + _("Flip") + " <kbd>F</kbd></button>")
    if b.get("rotate"):
        rotate = (f'{BUTTON} data-hotkey="r" hx-get="{panel_url}?sel={_sel(b["rotate"])}" {SWAP}>↻ '
                  + _("Rotate") + " <kbd>R</kbd></button>\n          "
                  f'{BUTTON} data-hotkey="R" hx-get="{panel_url}?sel={_sel(b["rotate_back"])}" {SWAP} >↺ '
                  + pgettext("Alpine Trails: rotate back", "Back") + " <kbd>⇧R</kbd></button>")
    if ctl["sel"]["mode"] == "tile":
        if b.get("campsite"):
            where = f'hx-get="{panel_url}?sel={_sel(b["campsite"])}" {SWAP}'
        else:
            where = 'disabled title="' + _("No spot is 6 miles from your camps, or you made one this round") + '"'
        camp = f"{BUTTON} {where}>" + _("Make a campsite") + "</button>"
    if b.get("cancel"):
        cancel = (f'{BUTTON} data-sel-cancel hx-get="{panel_url}?sel={_sel(b["cancel"])}" {SWAP}>'
                  + _("Cancel campsite") + " <kbd>Esc</kbd></button>\n          ")
    elif ctl["explicit"]:
        cancel = (f'{BUTTON} data-sel-cancel hx-get="{panel_url}" {SWAP}>'
                  + pgettext("Alpine Trails: clear the choice", "Clear") + " <kbd>Esc</kbd></button>")
    if b.get("trade"):
        trade = (f'<button type="button" class="button small" hx-post="{urls["act"]}" '
                 f'hx-vals="{urls["vals"](b["trade"])}" {SWAP}>{_esc(b["trade_label"])}</button>')
    if b.get("discard"):
        discard = ('<p class="at-discard">' + _("This tile fits nowhere on your map:") + "\n          "
                   f'<button type="button" class="button small danger" hx-post="{urls["act"]}" '
                   f'hx-vals="{urls["vals"](b["discard"])}" {SWAP}>' + _("Discard it") + "</button></p>")
    return (f'\n        <div class="at-buttons row">\n          {flip}\n          {rotate}\n          {camp}\n'
            f"          {cancel}\n          {trade}\n        </div>\n        {discard}\n        ")


def _animals(out: list, board: dict, ctl: dict | None, urls: dict) -> None:
    held = _("Held animals")
    out.append(f'\n      <h3>{held}</h3>\n      <div class="at-animals row" role="group" aria-label="{held}">\n'
               "        ")
    if ctl:
        for a in ctl["held"]:
            if a["sel"]:
                act = f'hx-get="{urls["panel"]}?sel={_sel(a["sel"])}" {SWAP}'
            else:
                act = f'disabled title="{_esc(a["no_tile"])}"'
            count = f' ×{_esc(a["count"])}' if a["count"] > 1 else ""
            out.append(f'\n          <button type="button" class="at-animal a-{_esc(a["animal"])}'
                       f'{" selected" if a["selected"] else ""}" '
                       f'aria-pressed="{"true" if a["selected"] else "false"}"\n            {act}>\n'
                       f'            <span class="token">{_esc(a["letter"])}</span> {_esc(a["name"])}{count} '
                       f'<small>{_esc(a["on"])}</small></button>\n        ')
    else:
        out.append("".join(f'<span class="chip">{_esc(a)}</span>' for a in board["held"]))
    out.append("\n      </div>\n      ")


def _done(ctl: dict, urls: dict, panel: dict) -> str:
    if ctl["done"]:
        return (f'\n          <button type="button" class="button done-button" data-hotkey="d" '
                f'hx-post="{urls["act"]}" hx-vals="{urls["vals"](panel["done_action"])}" {SWAP}>'
                + _("Finish round") + " <kbd>D</kbd></button>\n        ")
    return ('\n          <button type="button" class="button" disabled>' + _("Finish round")
            + f'</button> <small class="muted">{_esc(ctl["done_reason"])}</small>\n        ')


def _goal(board: dict) -> str:
    goal, over = board["goal"], board["over"]
    secret = "" if over else ' <small class="muted">' + _("(secret)") + "</small>"
    value = {"value": _esc(goal["value"])}
    worth = (_("Scored: <strong>%(value)s</strong>") if over else _("Worth now: <strong>%(value)s</strong>")) % value
    label, heading = _("Your personal goal"), _("Your goal")
    return (f'\n      <div class="at-goal" aria-label="{label}">\n'
            f"        <h3>{heading}{secret}</h3>\n"
            f'        <p><strong>{_esc(goal["name"])}</strong> — {_esc(goal["text"])}</p>\n'
            f'        <p class="muted">{worth}</p>\n      </div>\n      ')
