"""Roll to the Top: the sheets as SVG boxes, the dice tray and the action-die controls.

Everything comes from the seat's view: committed sheets as of the last resolved turn,
the seat's own pending placements, and `legal_sums` to highlight boxes (the page's
little JS picks dice and highlights; the server still checks every placement).
"""
from __future__ import annotations

from games.roll_to_the_top.rules import data as D

BOX_W, BOX_H = 44, 40
SMALL = 0.45

OPTION_SPECS = {
    "board": {"label": "Board", "choices": [(b, D.BOARDS[b]["name"]) for b in D.BOARD_ORDER] + [("random", "Random")]},
    "mode": {"label": "Mode", "choices": [("normal", "Normal (small numbers at the base)"),
                                          ("reverse", "Reverse (big numbers at the base)")]},
    "games": {"label": "Games (more than 1 plays Rounds mode)", "min": 1, "max": 12},
    "board_sequence": {"label": "Boards in Rounds mode",
                       "choices": [("tour", "Tour: the next board each game"), ("same", "Same board every game")]},
    "start_pool": {"label": "Starting dice", "choices": [("even_dice", "The even dice (d4, d6, d8, d12, d20 rolled even)"),
                                                         ("all", "All five dice")]},
    "board_specials": {"label": "Board special rules (links and minimum values)"},
    "max_turns": {"label": "Turn cap per game", "min": 20, "max": 500},
}

SCRIPT = "games/roll-to-the-top/board.js"

FACE_TEXT = {"ADD": "+", "REMOVE": "−", "ADD_OR_REMOVE": "±", "SWAP": "⇄"}


def sheet(board: dict, committed: dict, *, pending=(), last=(), legal_sums=None, scale=1.0) -> dict:
    """Geometry of one sheet: a box per board box, with its number and marks."""
    w, h = BOX_W * scale, BOX_H * scale
    pending_by_key = {f"{p['box'][0]},{p['box'][1]}": p for p in pending}
    legal_sums = legal_sums or {}
    boxes = []
    for box in board["boxes"]:
        key = box["key"]
        left, top = box["x"] * w / 2, (board["rows"] - 1 - box["r"]) * h
        placed = pending_by_key.get(key)
        boxes.append({
            "key": key, "r": box["r"], "x": box["x"], "left": left, "top": top, "w": w, "h": h,
            "cx": left + w / 2, "cy": top + h / 2 + 6 * scale,
            "dot": box["kind"] == "dot", "hanging": box["kind"] == "hanging",
            "value": committed.get(key), "pending": placed, "recent": key in last,
            "sums": " ".join(str(s) for s in legal_sums.get(key, [])),
            "min_value": box.get("min_value"),
        })
    centres = {b["key"]: b for b in boxes}
    links = [{"x1": centres[b["key"]]["cx"], "y1": centres[b["key"]]["top"] + h / 2,
              "x2": centres[f"{t[0]},{t[1]}"]["cx"], "y2": centres[f"{t[0]},{t[1]}"]["top"] + h / 2}
             for b in board["boxes"] for t in b.get("links", []) if f"{t[0]},{t[1]}" in centres]
    return {"boxes": boxes, "links": links, "width": board["width"] * w / 2 + 2, "height": board["rows"] * h + 2,
            "scale": scale}


def board_context(panel: dict) -> dict:
    view, seat = panel["view"], panel["seat"]
    board = view["board_data"]
    me = view.get("me") or {}
    names = panel["names"]
    writing = bool(me.get("to_act")) and view["phase"] == "write"
    main = None
    if seat is not None:
        main = sheet(board, view["sheets"][seat], pending=me.get("pending", []),
                     last=view["last_written"][seat], legal_sums=me.get("legal_sums") if writing else None)
    others = [
        {"index": s["seat"], "name": names[s["seat"]], "info": s,
         "sheet": sheet(board, view["sheets"][s["seat"]], last=view["last_written"][s["seat"]], scale=SMALL)}
        for s in view["seats"] if s["seat"] != seat
    ]
    used = set(me.get("used", []))
    dice = [{"id": d, "faces": D.NUMBER_DICE[d], "value": view["roll"].get(d), "used": d in used,
             "addable": d in me.get("can_add", []), "removable": d in me.get("can_remove", [])}
            for d in view["pool"]]
    reserve = [{"id": d, "faces": D.NUMBER_DICE[d], "addable": d in me.get("can_add", [])} for d in view["reserve"]]
    kinds = {a["type"] for a in panel["legal"]}
    return {
        "rt": {
            "main": main, "others": others, "dice": dice, "reserve": reserve, "writing": writing,
            "face": FACE_TEXT.get(view.get("face"), "?"), "action": view.get("action"),
            "resolver_name": names[view["resolver"]] if view.get("resolver") is not None else "",
            "roller_name": names[view["active"]] if view.get("active") is not None else "",
            "swaps": [a for a in panel["legal"] if a["type"] == "swap"],
            "adds": [a for a in panel["legal"] if a["type"] == "add"],
            "removes": [a for a in panel["legal"] if a["type"] == "remove"],
            "can_unplace": "unplace" in kinds, "can_reset": "reset" in kinds, "can_done": "done" in kinds,
            "has_place": "place" in kinds,
            "me": me,
        },
        "unplace_action": {"type": "unplace"}, "reset_action": {"type": "reset"}, "done_action": {"type": "done"},
    }
