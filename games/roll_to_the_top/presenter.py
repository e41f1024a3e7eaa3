"""Roll to the Top: the sheets as SVG boxes, the dice tray and the action-die controls.

Everything comes from the seat's view: committed sheets as of the last resolved turn and
the seat's own pending placements. The dice a writer has picked so far are a
`games.selection` extra in `?sel=` (`dice:d4,d12`), checked against the seat's free dice,
so the choice survives live updates the shared way and needs no JavaScript; the boxes the
picked dice fit are the legal `place` actions with exactly those dice.
"""
from __future__ import annotations

import functools
from html import escape

from django.utils.safestring import SafeString, mark_safe

from games import selection
from games.presenters import describe_from, seat_name
from games.roll_to_the_top.rules import data as D
from games.rules.base import _, gettext_noop, ngettext, pgettext

# Every text a person reads is translated where it is shown, into the page's (or the mail
# recipient's) language: sentences by `_` from tables marked with `gettext_noop`, short
# words with a context ("roll to the top ...") so another game's "Board" or "Done" in the
# same language cannot take their place.


def board_name(board_id) -> str:
    """A board's name in the active language (the rules and records keep the English one)."""
    names = {
        "giza": pgettext("roll to the top board", "Giza"),
        "matterhorn": pgettext("roll to the top board", "Matterhorn"),
        "arch": pgettext("roll to the top board", "Stone Arch"),
        "twin_peaks": pgettext("roll to the top board", "Twin Peaks"),
        "lighthouse": pgettext("roll to the top board", "Lighthouse"),
        "temple": pgettext("roll to the top board", "Temple"),
    }
    if board_id in names:
        return names[board_id]
    return D.BOARDS[board_id]["name"] if board_id in D.BOARDS else str(board_id)


def option_specs() -> dict:
    """The options' labels and choices for the create-table form and the option lines,
    in the active language (read as OPTION_SPECS)."""
    return {
        "board": {"label": pgettext("roll to the top option", "Board"),
                  "choices": [(b, board_name(b)) for b in D.BOARD_ORDER]
                  + [("random", pgettext("roll to the top board", "Random"))]},
        "mode": {"label": pgettext("roll to the top option", "Mode"),
                 "choices": [("normal", _("Normal (small numbers at the base)")),
                             ("reverse", _("Reverse (big numbers at the base)"))]},
        "games": {"label": _("Games (more than 1 plays Rounds mode)"), "min": 1, "max": 12},
        "board_sequence": {"label": _("Boards in Rounds mode"),
                           "choices": [("tour", _("Tour: the next board each game")),
                                       ("same", _("Same board every game"))]},
        "start_pool": {"label": pgettext("roll to the top option", "Starting dice"),
                       "choices": [("even_dice", _("The even dice (d4, d6, d8, d12, d20 rolled even)")),
                                   ("all", _("All five dice"))]},
        "board_specials": {"label": _("Board special rules (links and minimum values)")},
        "max_turns": {"label": _("Turn cap per game"), "min": 20, "max": 500},
    }


STYLESHEET = "games/roll-to-the-top/board.css"


def breakdown_labels() -> dict[str, str]:
    """The score card's categories (read as BREAKDOWN_LABELS): the total counts filled
    boxes (or turns, or each game's empty boxes in Rounds mode); a sheet's empty boxes this
    game are shown beside it."""
    return {"filled": pgettext("roll to the top score", "Filled boxes"),
            "empty": pgettext("roll to the top score", "Empty boxes"),
            "turns": pgettext("roll to the top score", "Turns"),
            "current_empty": pgettext("roll to the top score", "Empty boxes this game"),
            **{f"game_{n}": pgettext("roll to the top score", "Game %(number)s") % {"number": n}
               for n in range(1, 13)}}


def __getattr__(name: str):
    """OPTION_SPECS and BREAKDOWN_LABELS are read by the platform where they are shown
    (games.presenters, the create-table form), so they are built then, in that page's
    language, rather than once at import in English."""
    if name == "OPTION_SPECS":
        return option_specs()
    if name == "BREAKDOWN_LABELS":
        return breakdown_labels()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def not_in_total(keys: list[str]) -> set[str]:
    """The categories shown beside the total, not in it (a solo game counts its turns)."""
    return {"empty", "current_empty"} | ({"filled"} if "turns" in keys else set())

DICE = "dice"                  # the ?sel= extra holding the picked dice, e.g. dice:d4,d12
# Board geometry: one box of the player's own sheet, and the scale of the other sheets.
# Boxes are 44 x 46 units: on a phone the widest sheet (Twin Peaks, 8 boxes) drawn across
# the screen keeps every box at least 44 px square, the size of a finger.
BOX_W, BOX_H = 44, 46
SMALL = 0.45

FACE_TEXT = {"ADD": "+", "REMOVE": "−", "ADD_OR_REMOVE": "±", "SWAP": "⇄"}
EFFECT_TEXT = {
    "ADD": gettext_noop("add a die"),
    "REMOVE": gettext_noop("remove a die"),
    "ADD_OR_REMOVE": gettext_noop("add or remove a die"),
    "SWAP": gettext_noop("swap a reserve die for a pool die"),
}
REASON_TEXT = {
    "pool_full": gettext_noop("Five dice were rolled: one must be removed."),
    "nobody_wrote": gettext_noop("Nobody wrote a number: add a die."),
    "single_die": gettext_noop("Only one die was rolled: add a die."),
    "face": gettext_noop("The action die decides."),
}
# The History's sentences about the action die, one whole sentence per face.
ROLLED = {
    "ADD": gettext_noop("Turn %(turn)s: %(name)s rolled %(dice)s; the action die says add a die."),
    "REMOVE": gettext_noop("Turn %(turn)s: %(name)s rolled %(dice)s; the action die says remove a die."),
    "ADD_OR_REMOVE": gettext_noop(
        "Turn %(turn)s: %(name)s rolled %(dice)s; the action die says add or remove a die."),
    "SWAP": gettext_noop(
        "Turn %(turn)s: %(name)s rolled %(dice)s; the action die says swap a reserve die for a pool die."),
}
MUST = {
    "ADD": gettext_noop("%(name)s must add a die"),
    "REMOVE": gettext_noop("%(name)s must remove a die"),
    "ADD_OR_REMOVE": gettext_noop("%(name)s must add or remove a die"),
    "SWAP": gettext_noop("%(name)s must swap a reserve die for a pool die"),
}


def effect_text(effect) -> str:
    return _(EFFECT_TEXT[effect]) if effect in EFFECT_TEXT else ""


def reason_text(reason) -> str:
    return _(REASON_TEXT[reason]) if reason in REASON_TEXT else ""


def phase_text(phase) -> str:
    return {"write": pgettext("roll to the top", "Write phase"),
            "action": pgettext("roll to the top", "Action phase"),
            "over": pgettext("roll to the top", "Over phase")}.get(phase, str(phase).capitalize())


def status_text(status) -> str:
    """A seat's chip beside its sheet: what it is doing now."""
    return {"writing": pgettext("roll to the top seat", "writing…"),
            "done": pgettext("roll to the top seat", "done"),
            "resolving": pgettext("roll to the top seat", "resolving"),
            "waiting": pgettext("roll to the top seat", "waiting"),
            "finished": pgettext("roll to the top seat", "finished")}.get(status, str(status))


# --- events in words --------------------------------------------------------------------

_name = seat_name


def _names(names: list[str], seats) -> str:
    return ", ".join(_name(names, s) for s in seats)


def _board_name(board_id) -> str:
    return board_name(board_id)


def _game_start(e: dict, names: list[str]) -> str:
    words = {"board": _board_name(e["board"]), "dice": ", ".join(e["pool"]), "name": _name(names, e["seat"])}
    if e.get("games", 1) > 1:
        return _("Game %(game)s of %(games)s: %(board)s. Starting pool: %(dice)s. %(name)s rolls first.") % {
            **words, "game": e["game"], "games": e["games"]}
    return _("%(board)s. Starting pool: %(dice)s. %(name)s rolls first.") % words


def _roll(e: dict, names: list[str]) -> str:
    dice = ", ".join(f"{d}={v}" for d, v in e["roll"].items())
    return _(ROLLED[e["face"]]) % {"turn": e["turn"], "name": _name(names, e["seat"]), "dice": dice}


def _wrote(e: dict, names: list[str], board: str | None = None) -> str:
    """Numbers written, each with its box as the sheet names it ("row 3, box 2"); without
    the board (a bare event, e.g. in a mail) the box's coordinates."""
    where = _box_places(board) if board in D.GEOMETRY else {}

    def box(n: dict) -> str:
        r, x = n["box"]
        key = f"{r},{x}"
        if key in where:
            return _("row %(row)s, box %(place)s") % {"row": r + 1, "place": where[key]}
        return _("box %(key)s") % {"key": key}
    numbers = ", ".join(_("%(value)s in %(box)s") % {"value": n["value"], "box": box(n)} for n in e["numbers"])
    return _("%(name)s wrote %(numbers)s.") % {"name": _name(names, e["seat"]), "numbers": numbers}


@functools.lru_cache(maxsize=None)
def _box_places(board: str) -> dict[str, int]:
    """Each box of a board by its place in its row ("row 3, box 2" is row r + 1, place 2),
    counted from 1 (numbers only: the words are put in the reader's language each time)."""
    boxes = [{"key": key, "r": int(key.split(",")[0]), "x": int(key.split(",")[1])}
             for key in D.GEOMETRY[board]["boxes"]]
    return _places_in_rows(boxes)


def _board_of(event: dict, view: dict) -> str | None:
    """The board an event's game was played on (Rounds mode plays several)."""
    plan = view.get("board_plan") or []
    game = event.get("game")
    return plan[game - 1] if isinstance(game, int) and 0 < game <= len(plan) else view.get("board")


def describe_context(view: dict) -> tuple:
    """All that `describe_in_view` reads of the view (the boards played): the History keeps
    each event's sentence under it (games.presenters.sentence_writer)."""
    return tuple(view.get("board_plan") or ()), view.get("board")


def describe_in_view(event: dict, names: list[str], view: dict) -> str:
    """An event in words, its boxes named as the sheet on the page names them."""
    if event.get("type") == "wrote":
        try:
            return _wrote(event, names, _board_of(event, view))
        except (KeyError, TypeError, ValueError):
            pass
    return describe(event, names)


def _must(e: dict, names: list[str]) -> str:
    who = _name(names, e["seat"])
    must = _(MUST[e["effect"]]) if e["effect"] in MUST else _("%(name)s must resolve the action die")
    must = must % {"name": who}
    return must if e["reason"] == "face" else f"{must} ({reason_text(e['reason'])})"


def _game_end(e: dict, names: list[str]) -> str:
    counts = ", ".join(f"{_name(names, s)}: {n}" for s, n in enumerate(e["empty"]))
    return _("Game %(game)s ends. Empty boxes: %(counts)s.") % {"game": e["game"], "counts": counts}


def _game_over(e: dict, names: list[str]) -> str:
    winners = e["winners"]
    return ngettext("The game is over. Winner: %(names)s.", "The game is over. Winners: %(names)s.",
                    len(winners)) % {"names": _names(names, winners)}


def _no_fit(e: dict, names: list[str]) -> str:
    return _("No number fits this turn for %(names)s.") % {"names": _names(names, e["seats"])}


def _done(e: dict, names: list[str]) -> str:
    return _("%(name)s is done.") % {"name": _name(names, e["seat"])}


def _nobody_wrote(e: dict, names: list[str]) -> str:
    return _("Nobody wrote a number this turn.")


def _filled(e: dict, names: list[str]) -> str:
    # Translators: one name, or several joined by commas (all of them filled their sheet).
    return ngettext("%(names)s filled every box.", "%(names)s filled every box.",
                    len(e["seats"])) % {"names": _names(names, e["seats"])}


def _turn_limit(e: dict, names: list[str]) -> str:
    return _("The turn limit (%(max_turns)s) is reached.") % {"max_turns": e["max_turns"]}


def _add(e: dict, names: list[str]) -> str:
    return _("%(name)s added the %(die)s to the pool.") % {"name": _name(names, e["seat"]), "die": e["die"]}


def _remove(e: dict, names: list[str]) -> str:
    return _("%(name)s removed the %(die)s from the pool.") % {"name": _name(names, e["seat"]), "die": e["die"]}


def _swap(e: dict, names: list[str]) -> str:
    return _("%(name)s swapped the %(old)s out for the %(new)s.") % {
        "name": _name(names, e["seat"]), "old": e["remove"], "new": e["add"]}


DESCRIBE = {
    "game_start": _game_start,
    "roll": _roll,
    "no_fit": _no_fit,
    "done": _done,
    "wrote": _wrote,
    "nobody_wrote": _nobody_wrote,
    "filled": _filled,
    "turn_limit": _turn_limit,
    "must": _must,
    "add": _add,
    "remove": _remove,
    "swap": _swap,
    "game_end": _game_end,
    "game_over": _game_over,
}


def describe(event: dict, names: list[str]) -> str:
    """One event of the view in words; names[i] is the display name of seat i."""
    return describe_from(DESCRIBE, event, names)


def describe_move(action: dict, seat: int, names: list[str], view: dict) -> str:
    """A move that adds no event yet (numbers are revealed when the turn resolves), in the
    words of the History's "wrote" line; `view` is the mover's view before the move."""
    who = _name(names, seat)
    kind = action.get("type")
    if kind == "place":
        value = sum(view["roll"][d] for d in action["dice"])
        return _wrote({"seat": seat, "numbers": [{"value": value, "box": action["box"]}]}, names, view.get("board"))
    if kind == "unplace":
        return _("%(name)s took back their last number.") % {"name": who}
    if kind == "reset":
        return _("%(name)s started the turn over.") % {"name": who}
    return describe({**action, "seat": seat}, names)


CORRECTIONS = ("unplace", "reset")


def in_turn_corrections(moves: list[tuple[int, dict]]) -> set[int]:
    """Indexes of the "Undo last number" / "Start over" moves and of the numbers they took
    back: the replay folds them away (games.replay). A seat's numbers of a turn stay
    pending until its next other move (done, or the action die), so only those can be
    taken back."""
    pending: dict[int, list[int]] = {}
    folded: set[int] = set()
    for index, (seat, action) in enumerate(moves):
        kind = action.get("type")
        stack = pending.setdefault(seat, [])
        if kind == "place":
            stack.append(index)
        elif kind in CORRECTIONS:
            taken = stack[-1:] if kind == "unplace" else list(stack)
            del stack[len(stack) - len(taken):]
            folded.update(taken + [index])
        else:
            stack.clear()
    return folded


# --- board builders ---------------------------------------------------------------------

# --- the dice choice (?sel=) --------------------------------------------------------------

def picks(action: dict) -> list[str]:
    """How each legal action is spelled as picks (games.selection)."""
    kind = action["type"]
    if kind == "place":
        return [f"box:{action['box'][0]}-{action['box'][1]}", f"with:{','.join(action['dice'])}"]
    if kind == "swap":
        return [f"swap:{action['add']},{action['remove']}"]
    if kind in ("add", "remove"):
        return [f"{kind}:{action['die']}"]
    return [kind]


def free_dice(view: dict) -> list[str]:
    me = view.get("me") or {}
    used = set(me.get("used", []))
    return [d for d in view["pool"] if d not in used]


def dice_value(dice: list[str]) -> str | None:
    """The ?sel= value of a set of dice, in the canonical die order (None: no dice)."""
    return ",".join(d for d in D.DIE_ORDER if d in dice) or None


def dice_choice(panel: dict, writing: bool) -> dict:
    """The dice the writer has picked, their sum, the boxes that take it (each with its
    `place` action) and the ?sel= of every die toggled."""
    view, legal = panel["view"], panel.get("legal") or []
    free = free_dice(view) if writing else []

    def valid(value: str) -> bool:
        dice = value.split(",")
        return bool(dice) and set(dice) <= set(free) and dice_value(dice) == value

    sel = selection.select(panel.get("selection", ""), legal, picks, extras={DICE: valid})
    chosen = (sel.extra(DICE) or "").split(",") if sel.extra(DICE) else []
    total = sum(view["roll"][d] for d in chosen)
    fits = {f"{a['box'][0]},{a['box'][1]}": a for a in legal if a["type"] == "place" and a["dice"] == chosen}
    toggle = {d: sel.with_extra(DICE, dice_value([x for x in chosen if x != d] if d in chosen else chosen + [d]))
              for d in free}
    return {"selection": sel.raw, "chosen": chosen, "sum": total, "fits": fits, "toggle": toggle,
            "clear": sel.with_extra(DICE, None), "hint": _dice_hint(chosen, total, len(fits), writing)}


def _dice_hint(chosen: list[str], total: int, fits: int, writing: bool) -> str:
    if not writing:
        return ""
    if not chosen:
        return _("Pick one or more dice, then a highlighted box.")
    boxes = (ngettext("%(count)s box take it", "%(count)s boxes take it", fits) % {"count": fits} if fits
             else _("no box takes this number"))
    return f"{' + '.join(chosen)} = {total} — {boxes}"


def sheet(board: dict, committed: dict, *, pending=(), last=(), fits=None, scale=1.0) -> dict:
    """Geometry of one sheet: a box per board box, with its number and marks; `fits`
    maps the boxes the picked dice can fill to their `place` action."""
    w, h = BOX_W * scale, BOX_H * scale
    pending_by_key = {f"{p['box'][0]},{p['box'][1]}": p for p in pending}
    fits = fits or {}
    boxes = []
    place_in_row = _places_in_rows(board["boxes"])
    for box in board["boxes"]:
        key = box["key"]
        left, top = box["x"] * w / 2, (board["rows"] - 1 - box["r"]) * h
        placed = pending_by_key.get(key)
        boxes.append({
            "key": key, "r": box["r"], "x": box["x"], "left": left, "top": top, "w": w, "h": h,
            "row": box["r"] + 1, "place": place_in_row[key],
            "cx": left + w / 2, "cy": top + h / 2 + 6 * scale,
            "dot": box["kind"] == "dot", "hanging": box["kind"] == "hanging",
            "value": committed.get(key), "pending": placed, "recent": key in last,
            "action": fits.get(key),
            "min_value": box.get("min_value"),
        })
    centres = {b["key"]: b for b in boxes}
    links = [{"x1": centres[b["key"]]["cx"], "y1": centres[b["key"]]["top"] + h / 2,
              "x2": centres[f"{t[0]},{t[1]}"]["cx"], "y2": centres[f"{t[0]},{t[1]}"]["top"] + h / 2}
             for b in board["boxes"] for t in b.get("links", []) if f"{t[0]},{t[1]}" in centres]
    return {"boxes": boxes, "links": links, "width": board["width"] * w / 2 + 2, "height": board["rows"] * h + 2,
            "scale": scale}


def _places_in_rows(boxes: list[dict]) -> dict[str, int]:
    """Each box's place in its row, counted from the left from 1: how a player names a
    box ("row 3, box 2"), unlike the key's half-box x coordinate."""
    rows: dict[int, list[dict]] = {}
    for box in boxes:
        rows.setdefault(box["r"], []).append(box)
    return {b["key"]: i for row in rows.values() for i, b in enumerate(sorted(row, key=lambda b: b["x"]), 1)}


def box_label(box: dict, reverse: bool = False) -> str:
    """What a box of one's own sheet says to a screen reader: what clicking it does when
    it takes the picked dice ("Place 7 in row 3, box 2"), else what is in it."""
    where = {"row": box["row"], "place": box["place"]}
    if box["action"]:
        return _("Place %(value)s in row %(row)s, box %(place)s") % {**where, "value": box["action_value"]}
    words = [_("Row %(row)s, box %(place)s") % where]
    if box["value"] is not None:
        words.append((_("holds %(value)s, written last turn") if box["recent"] else _("holds %(value)s"))
                     % {"value": box["value"]})
    elif box["pending"]:
        words.append(_("%(value)s written this turn") % {"value": box["pending"]["value"]})
    else:
        words.append(pgettext("roll to the top box", "empty"))
    if box["dot"]:
        words.append(_("dot box"))
    if box["min_value"]:
        words.append((_("at most %(value)s") if reverse else _("at least %(value)s")) % {"value": box["min_value"]})
    return ", ".join(words)


def main_sheet(view: dict, seat, fits: dict) -> dict | None:
    """The seat's own sheet, with its pending numbers and the boxes its picked dice fill."""
    if seat is None:
        return None
    me = view.get("me") or {}
    drawn = sheet(view["board_data"], view["sheets"][seat], pending=me.get("pending", []),
                  last=view["last_written"][seat], fits=fits)
    total = sum(view["roll"].get(d, 0) for d in next(iter(fits.values()))["dice"]) if fits else 0
    for box in drawn["boxes"]:
        box["action_value"] = total
        box["label"] = box_label(box, bool(view.get("reverse")))
    return drawn


def other_sheets(view: dict, seat, names: list[str]) -> list[dict]:
    return [{"index": s["seat"], "name": names[s["seat"]], "info": s, "status_text": status_text(s["status"]),
             "sheet": sheet(view["board_data"], view["sheets"][s["seat"]], last=view["last_written"][s["seat"]],
                            scale=SMALL)}
            for s in view["seats"] if s["seat"] != seat]


def dice_tray(view: dict, choice: dict | None = None) -> dict:
    """The rolled pool dice (used ones marked, picked ones pressed, each with the ?sel=
    that toggles it) and the reserve."""
    me = view.get("me") or {}
    choice = choice or {"chosen": [], "toggle": {}}
    used, can_add, can_remove = set(me.get("used", [])), me.get("can_add", []), me.get("can_remove", [])
    dice = [{"id": d, "faces": D.NUMBER_DICE[d], "value": view["roll"].get(d), "used": d in used,
             "picked": d in choice["chosen"], "toggle": choice["toggle"].get(d),
             "addable": d in can_add, "removable": d in can_remove} for d in view["pool"]]
    reserve = [{"id": d, "faces": D.NUMBER_DICE[d], "addable": d in can_add} for d in view["reserve"]]
    face = view.get("face") or ""  # None: not rolled yet
    return {"dice": dice, "reserve": reserve, "face": FACE_TEXT.get(face, "?"),
            "face_words": effect_text(face) or _("not rolled yet")}


def action_die(view: dict, legal: list[dict], names: list[str]) -> dict:
    """The action phase: the effect in force, why, and the resolver's buttons."""
    action = view.get("action")
    resolver = view.get("resolver")
    return {
        "action": action,
        "text": effect_text(action["effect"]) if action else "",
        "reason_text": reason_text(action["reason"]) if action else "",
        "resolver_name": names[resolver] if resolver is not None else "",
        "adds": [a for a in legal if a["type"] == "add"],
        "removes": [a for a in legal if a["type"] == "remove"],
        "swaps": [a for a in legal if a["type"] == "swap"],
    }


def write_controls(legal: list[dict]) -> dict:
    kinds = {a["type"] for a in legal}
    return {"can_unplace": "unplace" in kinds, "can_reset": "reset" in kinds, "can_done": "done" in kinds,
            "has_place": "place" in kinds}


def finished_games(view: dict, names: list[str]) -> list[str]:
    """The games of a Rounds series played so far, one line each."""
    lines = []
    for result in view.get("results") or []:
        counts = ", ".join(f"{_name(names, s)} {n}" for s, n in enumerate(result["empty"]))
        lines.append(_("%(board)s in %(turns)s turns — empty boxes: %(counts)s") % {
            "board": board_name(result["board"]), "turns": result["turns"], "counts": counts})
    return lines


def sheet_svg(sheet: dict, *, small: bool, label: str, reverse: bool, post=None) -> SafeString:
    """One sheet as SVG, written here rather than by a template (issue 21: a panel draws a
    sheet per seat, each box a dozen lookups and escapes in a template loop). The markup
    _sheet.html draws (the how-to-play page still includes it): every outside text (names,
    labels, dice, the hx-vals JSON) escaped exactly once; numbers as Python prints them (never a decimal comma); `|add`
    coordinates truncated to integers as the template's filter did. `post(action)` is the
    hx-post attributes of a box that takes the picked dice (the seat's own sheet)."""
    out = [f'<svg class="sheet{" small" if small else ""}" viewBox="-1 -1 {sheet["width"]} {sheet["height"]}" '
           f'role="{"img" if small else "group"}" aria-label="{escape(str(label))}">']
    out.extend(f'<line class="link" x1="{k["x1"]}" y1="{k["y1"]}" x2="{k["x2"]}" y2="{k["y2"]}"></line>'
               for k in sheet["links"])
    mark = "≤" if reverse else "≥"
    dot_r = "1.6" if small else "3.5"
    for b in sheet["boxes"]:
        value, pending, action = b["value"], b["pending"], b["action"]
        head = f'<g class="{_box_class(b)}"'
        if not small:
            head += (f' data-key="{escape(b["key"])}" data-r="{b["r"]}" data-x="{b["x"]}"'
                     f' aria-label="{escape(b["label"])}"')
            if action:
                head += f' role="button" tabindex="0" data-sel-focus="box{escape(b["key"])}" {post(action)}'
            else:
                head += ' role="img"'
        left, top, h = b["left"], b["top"], b["h"]
        out.append(f'{head}><rect x="{left}" y="{top}" width="{b["w"]}" height="{h}" rx="3"></rect>')
        if b["dot"]:
            out.append(f'<circle class="dot" cx="{int(left) + 7}" cy="{int(top) + 7}" r="{dot_r}"></circle>')
        if b["min_value"] and not small:
            out.append(f'<text class="min" x="{int(left) + 3}" y="{int(top) + int(h) - 3}">'
                       f'{mark}{b["min_value"]}</text>')
        if value is not None:
            out.append(f'<text class="num" x="{b["cx"]}" y="{b["cy"]}">{value}</text>')
        elif pending:
            dice = "+".join(escape(str(d)) for d in pending["dice"])
            out.append(f'<text class="num pending-num" x="{b["cx"]}" y="{b["cy"]}">{pending["value"]}</text>'
                       f'<text class="dice-caption" x="{b["cx"]}" y="{int(top) + int(h) - 3}">{dice}</text>')
        out.append("</g>")
    out.append("</svg>")
    return mark_safe("".join(out))


def _box_class(b: dict) -> str:
    cls = "box"
    if b["value"] is not None:
        cls += " filled"
    if b["pending"]:
        cls += " pending"
    if b["recent"]:
        cls += " recent"
    if b["hanging"]:
        cls += " hanging"
    if b["action"]:
        cls += " legal clickable sel-target"
    return cls


def _sheet_poster(panel: dict):
    """`action -> the hx-post attributes` of the seat's own sheet (one URL per render)."""
    from django.urls import reverse

    from games.panel import action_vals

    url = escape(reverse("games:act", args=[panel["game"].pk]))
    return lambda action: (f'hx-post="{url}" hx-vals="{escape(action_vals(panel, action))}" '
                           'hx-target="#live" hx-swap="innerHTML"')


def draw_sheets(panel: dict, board: dict) -> None:
    """Each sheet's SVG (`svg` on the main sheet and on each other sheet's entry); none for
    a context built without its game (a presenter's test of the context alone)."""
    if panel.get("game") is None:
        return
    reverse = bool(panel["view"].get("reverse"))
    if board["main"] is not None:
        board["main"]["svg"] = sheet_svg(board["main"], small=False, label=pgettext("roll to the top", "Your sheet"),
                                         reverse=reverse, post=_sheet_poster(panel))
    for other in board["others"]:
        other["svg"] = sheet_svg(other["sheet"], small=True, label=other["name"], reverse=reverse)


def board_context(panel: dict) -> dict:
    view, seat, names, legal = panel["view"], panel["seat"], panel["names"], panel["legal"]
    me = view.get("me") or {}
    writing = bool(me.get("to_act")) and view["phase"] == "write"
    choice = dice_choice(panel, writing)
    board = {
        "main": main_sheet(view, seat, choice["fits"]), "others": other_sheets(view, seat, names),
        "writing": writing, "me": me, "selection": choice["selection"], "picked": choice["chosen"],
        "dice_hint": choice["hint"], "clear_sel": choice["clear"],
        "roller_name": names[view["active"]] if view.get("active") is not None else "",
        "board_name": board_name(view["board"]), "phase_text": phase_text(view["phase"]),
        "results": finished_games(view, names),
        **dice_tray(view, choice), **action_die(view, legal, names), **write_controls(legal),
    }
    draw_sheets(panel, board)
    return {
        "board": board,
        "unplace_action": {"type": "unplace"}, "reset_action": {"type": "reset"}, "done_action": {"type": "done"},
    }


# --- how to play ------------------------------------------------------------------------

BOARD_NOTES = {
    "giza": gettext_noop("A plain pyramid with six dot boxes along the base: only the general rules. "
                         "A good first board."),
    "matterhorn": gettext_noop("A hooked peak. One box stands on a single box, one hangs off the side, "
                               "and the summit needs 25 or more."),
    "arch": gettext_noop("Two legs and a bridge. The bridge hangs in the air, so it is built outward "
                         "from the legs."),
    "twin_peaks": gettext_noop("The widest board, with a dot box in the middle. The right summit needs "
                               "the left one filled first, and a number at least as large."),
    "lighthouse": gettext_noop("Tall and narrow, with two hanging boxes in the gallery. A quick board."),
    "temple": gettext_noop("A stepped pyramid whose base has only three dots: the other four base boxes "
                           "hang, so the base grows outward from the dots."),
}


def _board_data(board_id: str, mode: str = "normal") -> dict:
    """The board as the page draws it: the rules' own view of a fresh one-seat game."""
    from games.roll_to_the_top.rules import RULES

    state = RULES.setup(1, RULES.validate_options(1, {"board": board_id, "mode": mode}), 1)
    return RULES.view(state, 0)["board_data"]


def _example(board_id: str, committed: dict, new: list[str], mode: str = "normal") -> dict:
    """A small sheet with some numbers written, the `new` ones marked as just written."""
    return sheet(_board_data(board_id, mode), committed, last=new, scale=0.7)


def how_to_play_context() -> dict:
    """The six boards and two small worked examples, drawn by the board's own builder."""
    boards = [{"id": b, "name": board_name(b), "note": _(BOARD_NOTES[b]) if b in BOARD_NOTES else "",
               "sheet": sheet(_board_data(b), {}, scale=SMALL)} for b in D.BOARD_ORDER]
    return {
        "boards": boards,
        "board_style": STYLESHEET,
        "support_example": _example("giza", {"0,0": 2, "0,2": 5, "0,4": 3, "1,1": 5}, ["1,1"]),
        "hanging_example": _example("arch", {"0,0": 1, "0,2": 4, "1,1": 6, "2,1": 8, "2,3": 3}, ["2,3"]),
        "reverse_example": _example("giza", {"0,0": 11, "0,2": 7, "1,1": 7}, ["1,1"], mode="reverse"),
    }
