"""Roll to the Top: the sheets as SVG boxes, the dice tray and the action-die controls.

Everything comes from the seat's view: committed sheets as of the last resolved turn and
the seat's own pending placements. The dice a writer has picked so far are a
`games.selection` extra in `?sel=` (`dice:d4,d12`), checked against the seat's free dice,
so the choice survives live updates the shared way and needs no JavaScript; the boxes the
picked dice fit are the legal `place` actions with exactly those dice.
"""
from __future__ import annotations

import functools

from games import selection
from games.presenters import describe_from, seat_name
from games.roll_to_the_top.rules import data as D

OPTION_SPECS = {
    "board": {"label": "Board", "choices": [(b, D.BOARDS[b]["name"]) for b in D.BOARD_ORDER] + [("random", "Random")]},
    "mode": {"label": "Mode", "choices": [("normal", "Normal (small numbers at the base)"),
                                          ("reverse", "Reverse (big numbers at the base)")]},
    "games": {"label": "Games (more than 1 plays Rounds mode)", "min": 1, "max": 12},
    "board_sequence": {"label": "Boards in Rounds mode",
                       "choices": [("tour", "Tour: the next board each game"), ("same", "Same board every game")]},
    "start_pool": {"label": "Starting dice",
                   "choices": [("even_dice", "The even dice (d4, d6, d8, d12, d20 rolled even)"),
                               ("all", "All five dice")]},
    "board_specials": {"label": "Board special rules (links and minimum values)"},
    "max_turns": {"label": "Turn cap per game", "min": 20, "max": 500},
}

STYLESHEET = "games/roll-to-the-top/board.css"

# The score card's categories: the total counts filled boxes (or turns, or each game's
# empty boxes in Rounds mode); a sheet's empty boxes this game are shown beside it.
BREAKDOWN_LABELS = {"filled": "Filled boxes", "empty": "Empty boxes", "turns": "Turns",
                    "current_empty": "Empty boxes this game",
                    **{f"game_{n}": f"Game {n}" for n in range(1, 13)}}


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
    "ADD": "add a die",
    "REMOVE": "remove a die",
    "ADD_OR_REMOVE": "add or remove a die",
    "SWAP": "swap a reserve die for a pool die",
}
REASON_TEXT = {
    "pool_full": "Five dice were rolled: one must be removed.",
    "nobody_wrote": "Nobody wrote a number: add a die.",
    "single_die": "Only one die was rolled: add a die.",
    "face": "The action die decides.",
}


# --- events in words --------------------------------------------------------------------

_name = seat_name


def _names(names: list[str], seats) -> str:
    return ", ".join(_name(names, s) for s in seats)


def _board_name(board_id) -> str:
    return D.BOARDS[board_id]["name"] if board_id in D.BOARDS else str(board_id)


def _game_start(e: dict, names: list[str]) -> str:
    prefix = f"Game {e['game']} of {e['games']}: " if e.get("games", 1) > 1 else ""
    return (f"{prefix}{_board_name(e['board'])}. Starting pool: {', '.join(e['pool'])}. "
            f"{_name(names, e['seat'])} rolls first.")


def _roll(e: dict, names: list[str]) -> str:
    dice = ", ".join(f"{d}={v}" for d, v in e["roll"].items())
    face = EFFECT_TEXT.get(e["face"], str(e["face"]))
    return f"Turn {e['turn']}: {_name(names, e['seat'])} rolled {dice}; the action die says {face}."


def _wrote(e: dict, names: list[str], board: str | None = None) -> str:
    """Numbers written, each with its box as the sheet names it ("row 3, box 2"); without
    the board (a bare event, e.g. in a mail) the box's coordinates."""
    where = _box_names(board) if board in D.GEOMETRY else {}

    def box(n: dict) -> str:
        r, x = n["box"]
        return where.get(f"{r},{x}") or f"box {r},{x}"
    numbers = ", ".join(f"{n['value']} in {box(n)}" for n in e["numbers"])
    return f"{_name(names, e['seat'])} wrote {numbers}."


@functools.lru_cache(maxsize=None)
def _box_names(board: str) -> dict[str, str]:
    """Each box of a board by its name on the sheet: "row 3, box 2", counted from 1."""
    boxes = [{"key": key, "r": int(key.split(",")[0]), "x": int(key.split(",")[1])}
             for key in D.GEOMETRY[board]["boxes"]]
    places = _places_in_rows(boxes)
    return {b["key"]: f"row {b['r'] + 1}, box {places[b['key']]}" for b in boxes}


def _board_of(event: dict, view: dict) -> str | None:
    """The board an event's game was played on (Rounds mode plays several)."""
    plan = view.get("board_plan") or []
    game = event.get("game")
    return plan[game - 1] if isinstance(game, int) and 0 < game <= len(plan) else view.get("board")


def describe_in_view(event: dict, names: list[str], view: dict) -> str:
    """An event in words, its boxes named as the sheet on the page names them."""
    if event.get("type") == "wrote":
        try:
            return _wrote(event, names, _board_of(event, view))
        except (KeyError, TypeError, ValueError):
            pass
    return describe(event, names)


def _must(e: dict, names: list[str]) -> str:
    note = "" if e["reason"] == "face" else f" ({REASON_TEXT.get(e['reason'], '')})"
    return f"{_name(names, e['seat'])} must {EFFECT_TEXT.get(e['effect'], 'resolve the action die')}{note}"


def _game_end(e: dict, names: list[str]) -> str:
    return f"Game {e['game']} ends. Empty boxes: " + ", ".join(
        f"{_name(names, s)}: {n}" for s, n in enumerate(e["empty"])) + "."


def _game_over(e: dict, names: list[str]) -> str:
    winners = e["winners"]
    return f"The game is over. Winner{'s' if len(winners) > 1 else ''}: {_names(names, winners)}."


DESCRIBE = {
    "game_start": _game_start,
    "roll": _roll,
    "no_fit": lambda e, n: f"No number fits this turn for {_names(n, e['seats'])}.",
    "done": lambda e, n: f"{_name(n, e['seat'])} is done.",
    "wrote": _wrote,
    "nobody_wrote": lambda e, n: "Nobody wrote a number this turn.",
    "filled": lambda e, n: f"{_names(n, e['seats'])} filled every box.",
    "turn_limit": lambda e, n: f"The turn limit ({e['max_turns']}) is reached.",
    "must": _must,
    "add": lambda e, n: f"{_name(n, e['seat'])} added the {e['die']} to the pool.",
    "remove": lambda e, n: f"{_name(n, e['seat'])} removed the {e['die']} from the pool.",
    "swap": lambda e, n: f"{_name(n, e['seat'])} swapped the {e['remove']} out for the {e['add']}.",
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
        return f"{who} took back their last number."
    if kind == "reset":
        return f"{who} started the turn over."
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
        return "Pick one or more dice, then a highlighted box."
    boxes = f"{fits} box{'es' if fits != 1 else ''} take it" if fits else "no box takes this number"
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
    where = f"row {box['row']}, box {box['place']}"
    if box["action"]:
        return f"Place {box['action_value']} in {where}"
    words = [where.capitalize()]
    if box["value"] is not None:
        words.append(f"holds {box['value']}" + (", written last turn" if box["recent"] else ""))
    elif box["pending"]:
        words.append(f"{box['pending']['value']} written this turn")
    else:
        words.append("empty")
    if box["dot"]:
        words.append("dot box")
    if box["min_value"]:
        words.append(f"{'at most' if reverse else 'at least'} {box['min_value']}")
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
    return [{"index": s["seat"], "name": names[s["seat"]], "info": s,
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
            "face_words": EFFECT_TEXT.get(face, "not rolled yet")}


def action_die(view: dict, legal: list[dict], names: list[str]) -> dict:
    """The action phase: the effect in force, why, and the resolver's buttons."""
    action = view.get("action")
    resolver = view.get("resolver")
    return {
        "action": action,
        "text": EFFECT_TEXT.get(action["effect"], "") if action else "",
        "reason_text": REASON_TEXT.get(action["reason"], "") if action else "",
        "resolver_name": names[resolver] if resolver is not None else "",
        "adds": [a for a in legal if a["type"] == "add"],
        "removes": [a for a in legal if a["type"] == "remove"],
        "swaps": [a for a in legal if a["type"] == "swap"],
    }


def write_controls(legal: list[dict]) -> dict:
    kinds = {a["type"] for a in legal}
    return {"can_unplace": "unplace" in kinds, "can_reset": "reset" in kinds, "can_done": "done" in kinds,
            "has_place": "place" in kinds}


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
        **dice_tray(view, choice), **action_die(view, legal, names), **write_controls(legal),
    }
    return {
        "board": board,
        "unplace_action": {"type": "unplace"}, "reset_action": {"type": "reset"}, "done_action": {"type": "done"},
    }


# --- how to play ------------------------------------------------------------------------

BOARD_NOTES = {
    "giza": "A plain pyramid with six dot boxes along the base: only the general rules. A good first board.",
    "matterhorn": "A hooked peak. One box stands on a single box, one hangs off the side, "
                  "and the summit needs 25 or more.",
    "arch": "Two legs and a bridge. The bridge hangs in the air, so it is built outward from the legs.",
    "twin_peaks": "The widest board, with a dot box in the middle. The right summit needs the left one "
                  "filled first, and a number at least as large.",
    "lighthouse": "Tall and narrow, with two hanging boxes in the gallery. A quick board.",
    "temple": "A stepped pyramid whose base has only three dots: the other four base boxes hang, "
              "so the base grows outward from the dots.",
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
    boards = [{"id": b, "name": D.BOARDS[b]["name"], "note": BOARD_NOTES.get(b, ""),
               "sheet": sheet(_board_data(b), {}, scale=SMALL)} for b in D.BOARD_ORDER]
    return {
        "boards": boards,
        "board_style": STYLESHEET,
        "support_example": _example("giza", {"0,0": 2, "0,2": 5, "0,4": 3, "1,1": 5}, ["1,1"]),
        "hanging_example": _example("arch", {"0,0": 1, "0,2": 4, "1,1": 6, "2,1": 8, "2,3": 3}, ["2,3"]),
        "reverse_example": _example("giza", {"0,0": 11, "0,2": 7, "1,1": 7}, ["1,1"], mode="reverse"),
    }
