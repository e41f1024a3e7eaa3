"""Nanga Parbat: the mountain, the points chart, the scoring path and both animal boards as
one server-drawn SVG (spec §14).

Multi-step choices (an activation, a claim) live in the panel's `?sel=` string, decoded here:
  ""                      nothing chosen
  "a:<species>[:p1[:p2]]" activating <species>; p1/p2 are sections (a region for the yak)
  "c:<row>:<col>[:i,j,k]" claiming spot row/col; the items are sections (camps) or animal indices
Every highlight comes from the seat's `legal` list, so the page never decides legality; a
selection that no longer fits a legal action is dropped.
"""
from __future__ import annotations

import re

OPTION_SPECS = {
    "area_scoring": {
        "label": "Area scoring variant",
        "help": "At the end, each region scores 1/2/3 points for 4/5/6 of a player's hikers and camps.",
    },
}

SCRIPT = "games/nanga-parbat/board.js"
STYLESHEET = "games/nanga-parbat/board.css"

S = 60                      # one mountain square
MX, MY = 450, 22            # mountain origin: px = MX + (x + 4.5)·S, py = MY + row·S
CELL = 25                   # one scoring-path space
PATH_X, PATH_Y = 18, 308
CHART_X, CHART_Y = 92, 40
SPOT_W, SPOT_H, SPOT_DX, SPOT_DY = 60, 48, 66, 56
BOARD_Y = 600
BOARD_H = 150
TOKEN = 26

SEAT_HEX = {"orange": "#e8891c", "green": "#3c9a48"}
SPECIES_HEX = {"snow_leopard": "#fbfbf7", "tahr": "#8b5a2b", "musk_deer": "#9aa0a6",
               "yak": "#24221f", "bharal": "#3565c8", "red_panda": "#c7372b"}
REGION_TINT = {1: "#eef3f7", 2: "#e8f0ea", 3: "#f3eee4", 4: "#ecebf4", 5: "#f4ecec", 6: "#e9f1f2"}
REGION_LINE = {1: "#5b7fa3", 2: "#4f8a5b", 3: "#a07a3c", 4: "#6f62a8", 5: "#a85a5a", 6: "#3f8c8f"}
ROW_TITLES = {"camps": "Camps: turn adjacent hikers into camps",
              "different": "Trade animals of different species (bharal is wild)",
              "same": "Trade animals of one species (bharal is wild)"}
BREAKDOWN_LABELS = {"camps": "Camps", "different": "Different", "same": "Same",
                    "red_panda": "Red panda", "area": "Area", "bump": "Bump"}
SYMMETRIC = {"snow_leopard", "musk_deer"}
MODE_HELP = {
    "snow_leopard": ("Snow leopard: pick a hiker", "now pick a neighbouring hiker of the other colour",
                     "swap these two hikers?"),
    "tahr": ("Tahr: pick a hiker", "now pick a neighbouring animal", "swap the hiker and the animal?"),
    "musk_deer": ("Musk deer: pick an animal", "now pick an animal of another species, anywhere",
                  "swap these two animals?"),
    "yak": ("Yak: pick a region for the guide", "", "send the guide there?"),
}


def _ints(text: str) -> list[int] | None:
    try:
        return [int(t) for t in text.split(",") if t != ""]
    except ValueError:
        return None


def parse_selection(raw: str, legal: list[dict]) -> dict:
    """The current mode from `?sel=`, checked against the legal actions (else no mode)."""
    parts = (raw or "").split(":")
    if parts[0] == "a" and len(parts) >= 2:
        species = parts[1]
        acts = [a for a in legal if a["type"] == "activate" and a["animal"] == species]
        if not acts:
            return {}
        picks = []
        for p in parts[2:4]:
            try:
                picks.append(int(p))
            except ValueError:
                break
        if species == "yak":
            regions = {a["region"] for a in acts}
            picks = picks[:1] if picks and picks[0] in regions else []
            return {"kind": "activate", "species": species, "picks": picks, "acts": acts}
        pairs = [(a["a"], a["b"]) for a in acts]
        if species in SYMMETRIC:
            while picks and not any(all(p in pair for p in picks) for pair in pairs):
                picks.pop()
            if len(picks) == 2 and picks[0] == picks[1]:
                picks.pop()
        else:
            while picks and not any(list(pair[:len(picks)]) == picks for pair in pairs):
                picks.pop()
        return {"kind": "activate", "species": species, "picks": picks, "acts": acts}
    if parts[0] == "c" and len(parts) >= 3:
        row = parts[1]
        try:
            col = int(parts[2])
        except ValueError:
            return {}
        key = "sections" if row == "camps" else "animals"
        sets = [tuple(a[key]) for a in legal if a["type"] == "claim" and a["row"] == row and a["col"] == col]
        if not sets:
            return {}
        picks = sorted(set(_ints(parts[3]) or [])) if len(parts) > 3 else []
        if picks and not any(set(picks) <= set(s) for s in sets):
            picks = []
        return {"kind": "claim", "row": row, "col": col, "key": key, "sets": sets, "picks": picks}
    return {}


def _sel_activate(species: str, picks: list[int]) -> str:
    return ":".join(["a", species] + [str(p) for p in picks])


def _sel_claim(row: str, col: int, picks) -> str:
    base = f"c:{row}:{col}"
    return base + (":" + ",".join(str(p) for p in sorted(picks)) if picks else "")


def _square(sid: int, layout: dict) -> tuple[float, float]:
    cell = layout[str(sid)]
    return MX + (cell["x"] + 4.5) * S - S / 2, MY + cell["row"] * S


def _region_outline(apex: dict) -> str:
    r, x = apex["row"], apex["x"]
    pts = [(x - .5, r), (x + .5, r), (x + .5, r + 1), (x + 1, r + 1), (x + 1, r + 2), (x + 1.5, r + 2),
           (x + 1.5, r + 3), (x - 1.5, r + 3), (x - 1.5, r + 2), (x - 1, r + 2), (x - 1, r + 1), (x - .5, r + 1)]
    return " ".join(f"{MX + (px + 4.5) * S:.1f},{MY + py * S:.1f}" for px, py in pts)


def _path_cell(i: int) -> tuple[float, float]:
    """Space i of the 50-space loop: 16 along the top, 9 down, 16 back, 9 up."""
    if i < 16:
        c, r = i, 0
    elif i < 25:
        c, r = 15, i - 15
    elif i < 41:
        c, r = 40 - i, 10
    else:
        c, r = 0, 50 - i
    return PATH_X + c * CELL, PATH_Y + r * CELL


def _marks(names: list[str]) -> list[str]:
    """A letter per seat (initials when they differ, else 1 and 2), so colour is never the only cue."""
    initials = [(n or "?")[0].upper() for n in names[:2]]
    if len(initials) == 2 and initials[0] != initials[1] and all(i.isalnum() for i in initials):
        return initials
    return ["1", "2"]


def board_context(panel: dict) -> dict:
    view = panel["view"]
    seat = panel.get("seat")
    legal = panel.get("legal") or []
    names = list(panel.get("names") or ["Seat 1", "Seat 2"])
    while len(names) < 2:
        names.append(f"Seat {len(names) + 1}")
    replay = bool(panel.get("replay"))
    layout = view["geometry"]["layout"]
    colours = [SEAT_HEX.get(c, c) for c in view["seat_colours"]]
    marks = _marks(names)
    species_info = {s["key"]: s for s in view["species"]}
    mode = parse_selection(panel.get("selection") or "", legal) if legal else {}

    traps = {a["section"]: a for a in legal if a["type"] == "trap"}
    region_acts = {a["region"]: a for a in legal if a["type"] in ("place_guide", "relocate_guide")}
    activatable = sorted({a["animal"] for a in legal if a["type"] == "activate"})
    claimable = {(a["row"], a["col"]) for a in legal if a["type"] == "claim"}
    end_turn = next((a for a in legal if a["type"] == "end_turn"), None)

    # -- what the current mode highlights, and its Confirm ------------------------------------
    cand_sections: dict[int, str] = {}        # section -> sel string to go to
    cand_regions: dict[int, str] = {}
    cand_animals: dict[int, str] = {}         # own animal index -> sel
    picked_sections: set[int] = set()
    picked_animals: set[int] = set()
    picked_region = None
    confirm = None
    preview: tuple[int, int] | None = None
    mode_text = ""
    counter = ""
    if mode.get("kind") == "activate":
        sp, picks, acts = mode["species"], mode["picks"], mode["acts"]
        first, second, done = MODE_HELP[sp]
        if sp == "yak":
            for a in acts:
                cand_regions[a["region"]] = _sel_activate(sp, [a["region"]])
            if picks:
                picked_region = picks[0]
                confirm = {"type": "activate", "animal": "yak", "region": picks[0]}
                mode_text = f"Yak: send the guide to region {picks[0]}?"
            else:
                mode_text = first + "."
        else:
            pairs = [(a["a"], a["b"]) for a in acts]
            picked_sections = set(picks)
            if len(picks) == 2:
                a, b = (min(picks), max(picks)) if sp in SYMMETRIC else (picks[0], picks[1])
                confirm = {"type": "activate", "animal": sp, "a": a, "b": b}
                preview = (a, b)
                mode_text = f"{first.split(':')[0]}: {done}"
                for p in picks:
                    cand_sections[p] = _sel_activate(sp, [q for q in picks if q != p])
            elif len(picks) == 1:
                p = picks[0]
                if sp in SYMMETRIC:
                    partners = {b for a, b in pairs if a == p} | {a for a, b in pairs if b == p}
                else:
                    partners = {b for a, b in pairs if a == p}
                for q in partners:
                    cand_sections[q] = _sel_activate(sp, [p, q])
                cand_sections[p] = _sel_activate(sp, [])
                mode_text = f"{first.split(':')[0]}: {second}."
            else:
                starts = {a for a, _ in pairs} | ({b for _, b in pairs} if sp in SYMMETRIC else set())
                for q in starts:
                    cand_sections[q] = _sel_activate(sp, [q])
                mode_text = first + "."
    elif mode.get("kind") == "claim":
        row, col, picks, sets = mode["row"], mode["col"], mode["picks"], mode["sets"]
        need = view["chart_info"]["need"][col]
        chosen = set(picks)
        fitting = [s for s in sets if chosen <= set(s)]
        options = set().union(*map(set, fitting)) - chosen if fitting else set()
        target = cand_sections if row == "camps" else cand_animals
        for item in options:
            target[item] = _sel_claim(row, col, chosen | {item})
        for item in picks:
            target[item] = _sel_claim(row, col, chosen - {item})
        if row == "camps":
            picked_sections = chosen
        else:
            picked_animals = chosen
        counter = f"{len(picks)} / {need} chosen"
        if tuple(picks) in sets:
            confirm = {"type": "claim", "row": row, "col": col, mode["key"]: list(picks)}
        what = "connected hikers to turn into camps" if row == "camps" else (
            "animals of different species" if row == "different" else "animals of one species")
        mode_text = (f"Claim the {view['chart_info']['value'][row][col]}-point {row} spot: "
                     f"choose {need} {what}.")
    in_mode = bool(mode)

    # -- the mountain ----------------------------------------------------------------------
    board = {k: dict(v) for k, v in view["board"].items()}
    if preview:
        a, b = str(preview[0]), str(preview[1])
        board[a], board[b] = board[b], board[a]
    last = last_turn_sections(view)
    guide = view.get("guide")
    sections = []
    for key in view["geometry"]["sections"]:
        sid = int(key)
        cell = layout[key]
        reg = cell["region"]
        x, y = _square(sid, layout)
        piece = board[key]
        item = {"sid": sid, "region": reg, "num": cell["num"], "x": x, "y": y, "cx": x + S / 2, "cy": y + S / 2 + 3,
                "fill": REGION_TINT[reg], "line": REGION_LINE[reg], "piece": piece["piece"],
                "classes": [], "act": None, "get": None}
        if piece["piece"] == "animal":
            info = species_info[piece["species"]]
            item.update(species=piece["species"], label=info["name"])
        else:
            owner = piece["seat"]
            item.update(owner=owner, colour=colours[owner], mark=marks[owner],
                        label=f"{'hiker' if piece['piece'] == 'hiker' else 'camp'} of {names[owner]}")
        item["title"] = f"Region {reg}, section {cell['num']} ({sid}): {item['label']}"
        if reg == guide:
            # the flag and guide token let clicks through to the squares, so say it here too
            item["title"] += f"; the guide is in region {reg}"
        if not in_mode:
            if sid in traps:
                item["act"] = traps[sid]
                item["classes"].append("legal")
                item["title"] += " — click to trap"
            elif reg in region_acts:
                item["act"] = region_acts[reg]
                item["classes"].append("legal-region")
                item["title"] += f" — click to put the guide in region {reg}"
        else:
            if sid in cand_sections:
                item["get"] = cand_sections[sid]
                item["classes"].append("picked" if sid in picked_sections else "legal")
            elif reg in cand_regions:
                item["get"] = cand_regions[reg]
                item["classes"].append("picked-region" if reg == picked_region else "legal-region")
            if preview and sid in preview:
                item["classes"].append("preview")
        if sid in last and not in_mode and not item["classes"]:
            item["classes"].append("last")
        # A picked piece also gets a check badge, so "chosen" never rests on colour alone.
        item["picked"] = bool({"picked", "picked-region"} & set(item["classes"]))
        item["cls"] = " ".join(item["classes"])
        sections.append(item)

    regions = []
    for key, info in view["geometry"]["regions"].items():
        reg = int(key)
        fx, fy = _square(info["flag_section"], layout)
        glow = (not in_mode and reg in region_acts) or reg in cand_regions
        regions.append({"region": reg, "outline": _region_outline(info["apex"]), "line": REGION_LINE[reg],
                        "flag_x": fx + 7, "flag_y": fy + 5, "guide": guide == reg,
                        "guide_x": fx + S - 12, "guide_y": fy + 12,
                        "animals": view["region_animals"][key],
                        "cls": "picked" if reg == picked_region else ("legal" if glow else "")})
    rocks = []
    for tri in view["geometry"]["dotted_triangles"]:
        top, left, right = tri
        tx, ty = _square(top, layout)
        rocks.append({"points": f"{tx - S / 2:.1f},{ty + S:.1f} {tx + 3 * S / 2:.1f},{ty + S:.1f} "
                                f"{tx + 3 * S / 2:.1f},{ty + 2 * S:.1f} {tx + S:.1f},{ty + 2 * S:.1f} "
                                f"{tx + S:.1f},{ty + 3 * S:.1f} {tx:.1f},{ty + 3 * S:.1f} {tx:.1f},{ty + 2 * S:.1f} "
                                f"{tx - S / 2:.1f},{ty + 2 * S:.1f}"})
    centres = {s["sid"]: (s["x"] + S / 2, s["y"] + S / 2) for s in sections}
    dotted = [{"x1": centres[a][0], "y1": centres[a][1], "x2": centres[b][0], "y2": centres[b][1]}
              for a, b in view["geometry"]["dotted_edges"]]

    # -- points chart -------------------------------------------------------------------------
    info = view["chart_info"]
    chart_rows = []
    for r, row in enumerate(info["rows"]):
        spots = []
        for col in range(5):
            owner = view["chart"][row][col]
            x, y = CHART_X + col * SPOT_DX, CHART_Y + 22 + r * SPOT_DY
            spot = {"col": col, "x": x, "y": y, "value": info["value"][row][col], "owner": owner,
                    "need": info["need"][col], "cls": "", "get": None}
            if owner is not None:
                spot.update(colour=colours[owner], mark=marks[owner], owner_name=names[owner])
            is_current = mode.get("kind") == "claim" and mode["row"] == row and mode["col"] == col
            if is_current:
                spot["cls"] = "picked"
            elif (row, col) in claimable and not in_mode:
                spot["get"] = _sel_claim(row, col, [])
                spot["cls"] = "legal"
            spot["title"] = (f"{ROW_TITLES[row]} — {info['need'][col]} needed, {spot['value']} points"
                             + (f"; claimed by {names[owner]}" if owner is not None else "")
                             + ("; click to claim" if spot["get"] else ""))
            spots.append(spot)
        chart_rows.append({"key": row, "y": CHART_Y + 22 + r * SPOT_DY, "spots": spots, "title": ROW_TITLES[row]})
    need_marks = [{"x": CHART_X + c * SPOT_DX + SPOT_W / 2, "need": n} for c, n in enumerate(info["need"])]

    # -- scoring path ------------------------------------------------------------------------
    spaces = view["path_spaces"]
    path = [{"i": i, "x": _path_cell(i)[0], "y": _path_cell(i)[1], "five": i % 5 == 0} for i in range(spaces)]
    markers = []
    summary = view["seat_summary"]
    for s in (0, 1):
        px, py = _path_cell(summary[s]["path_space"])
        dx = 4 if s == 0 else CELL - 15
        my = py + (4 if s == 0 else CELL - 15)
        markers.append({"seat": s, "x": px + dx, "y": my, "tx": px + dx + 5.5, "ty": my + 6, "colour": colours[s],
                        "mark": marks[s], "laps": summary[s]["laps"], "score": view["seats"][s]["score"],
                        "name": names[s]})

    # -- players -------------------------------------------------------------------------------
    to_act = view.get("to_act") or []
    players = []
    for s in (0, 1):
        st = view["seats"][s]
        sc = view["scores"][s]
        breakdown = [(BREAKDOWN_LABELS.get(k, k), v) for k, v in sc["breakdown"].items()]
        players.append({
            "seat": s, "name": names[s], "colour": colours[s], "mark": marks[s],
            "x": PATH_X + CELL + 8 + s * 180, "y": PATH_Y + CELL + 8,
            "hikers": st["hikers"], "camps": st["camps"], "cubes": st["cubes"], "score": st["score"],
            "on_mountain": summary[s]["hikers_on_mountain"], "camps_on": summary[s]["camps_on_mountain"],
            "spots": summary[s]["spots_claimed"], "breakdown": breakdown,
            "breakdown_text": ", ".join(f"{k} {v}" for k, v in breakdown),
            "breakdown_lines": [" · ".join(f"{k} {v}" for k, v in breakdown[:3]),
                                " · ".join(f"{k} {v}" for k, v in breakdown[3:])],
            "to_act": s in to_act, "first": view.get("first_player") == s, "you": seat == s,
        })

    # -- animal boards: the viewer's own nearest (bottom), the opponent's beyond -------------
    near = seat if seat in (0, 1) else 0
    boards = []
    for slot, s in enumerate((1 - near, near)):
        st = view["seats"][s]
        top = BOARD_Y + slot * (BOARD_H + 8)
        cols = []
        for c, sp in enumerate(view["species"]):
            key = sp["key"]
            cx = 14 + c * 162
            ready, used = [], []
            for idx, animal in enumerate(st["animals"]):
                if animal["species"] != key:
                    continue
                token = {"index": idx, "species": key, "activated": animal["activated"], "get": None, "cls": "",
                         "title": f"{sp['name'].capitalize()} of {names[s]}"
                                  + (" (power used)" if animal["activated"] else
                                     (" (ready)" if sp["kind"] == "activated" else ""))}
                if s == seat and legal:
                    if mode.get("kind") == "claim" and mode["row"] != "camps":
                        if idx in cand_animals:
                            token["get"] = cand_animals[idx]
                            token["cls"] = "picked" if idx in picked_animals else "legal"
                            token["title"] += " — click to " + ("drop from" if idx in picked_animals else "add to") + " the trade"
                    elif key in activatable and not animal["activated"] and not in_mode:
                        token["get"] = _sel_activate(key, [])
                        token["cls"] = "legal"
                        token["title"] += f" — click to use: {sp['power']}"
                    elif mode.get("kind") == "activate" and mode["species"] == key and not animal["activated"]:
                        token["cls"] = "picked"
                (used if animal["activated"] else ready).append(token)
            # One "picked" token is enough to show the species in use.
            seen = False
            for t in ready:
                if t["cls"] == "picked" and mode.get("kind") == "activate":
                    if seen:
                        t["cls"] = ""
                    seen = True
            for i, t in enumerate(ready):
                t.update(x=cx + 8 + i * (TOKEN + 1), y=top + 46)
            for i, t in enumerate(used):
                t.update(x=cx + 8 + i * (TOKEN + 1), y=top + 100)
            cols.append({"key": key, "name": sp["name"], "letter": sp["letter"], "x": cx, "power": sp["power"],
                         "kind": sp["kind"], "ready": ready, "used": used,
                         "traded": summary[s]["animal_board"][key]["traded"]})
        boards.append({"seat": s, "name": names[s], "colour": colours[s], "mark": marks[s], "y": top,
                       "cols": cols, "own": s == seat, "held": len(st["animals"]),
                       "traded": len(st["traded"])})

    # -- status --------------------------------------------------------------------------------
    phase = view["phase"]
    status = _status(view, seat, names)
    winner = view.get("winner")
    end = None
    if phase == "over":
        result = view.get("result") or {}
        end = {"winner": names[winner] if winner is not None else None,
               "ended_by": " and ".join({"hikers": "all hikers are on the mountain",
                                         "cubes": "all cubes are on the chart"}.get(e, e)
                                        for e in result.get("ended_by", [])),
               "rows": [{"name": names[s], "colour": colours[s], "mark": marks[s],
                         "breakdown": [(BREAKDOWN_LABELS.get(k, k), v) for k, v in view["scores"][s]["breakdown"].items()],
                         "total": view["scores"][s]["total"]} for s in (0, 1)],
               "labels": [BREAKDOWN_LABELS.get(k, k) for k in view["scores"][0]["breakdown"]],
               "area": [dict(a, name=names[a["seat"]]) for a in result.get("area", [])]}

    events = []
    for ev in view.get("last_events") or []:
        if ev.get("kind") == "gain":
            who = names[ev["seat"]]
            what = {"red_panda": "Red panda", "area": "Area scoring"}.get(ev["category"], "Chart spot")
            events.append(f"{who} — {what}: +{ev['points']}" + (" · Bump! +1" if ev.get("bump") else ""))

    return {"np": {
        "events": events,
        "W": 1000, "H": BOARD_Y + 2 * BOARD_H + 16, "S": S, "token": TOKEN, "cell": CELL,
        "sections": sections, "regions": regions, "rocks": rocks, "dotted": dotted,
        "chart_rows": chart_rows, "need_marks": need_marks, "chart_x": CHART_X, "chart_y": CHART_Y,
        "chart_bottom": CHART_Y + 22 + 3 * SPOT_DY, "spot_w": SPOT_W, "spot_h": SPOT_H,
        "path": path, "markers": markers, "path_x": PATH_X, "path_y": PATH_Y,
        "players": players, "boards": boards, "board_h": BOARD_H,
        "colours": colours, "marks": marks, "species_hex": SPECIES_HEX,
        "status": status, "mine": bool(legal), "replay": replay, "phase": phase,
        "in_mode": in_mode, "mode": mode.get("kind", ""), "mode_text": mode_text, "counter": counter,
        "confirm": confirm, "end_turn": end_turn if not in_mode else None, "has_end_turn": end_turn is not None,
"end": end, "guide": guide, "turn": view.get("turn"),
        "area_scoring": bool(view.get("options", {}).get("area_scoring")),
        "activatable": activatable, "claimable": len(claimable),
        "summary_hint": _hint(legal, in_mode, traps, region_acts, activatable, claimable),
    }}


_TRAPPED = re.compile(r"trapped .* in section (\d\d)")
_SWAPPED = re.compile(r"swap sections (\d\d) and (\d\d)")
_BUILT = re.compile(r"camps on sections ([\d, ]+)")


def last_turn_sections(view: dict) -> set[int]:
    """Sections touched by the latest turn with a move (the one in progress, else the one
    before), read from the public log: the trap, swaps and new camps."""
    log = [str(line) for line in view.get("log") or []]
    ends = [i for i, line in enumerate(log) if "ended turn" in line]
    start = ends[-1] + 1 if ends else 0
    segment = log[start:]
    if not any(_TRAPPED.search(line) for line in segment) and ends:
        start = ends[-2] + 1 if len(ends) > 1 else 0
        segment = log[start:ends[-1] + 1]
    found: set[int] = set()
    for line in segment:
        for pattern in (_TRAPPED, _SWAPPED):
            match = pattern.search(line)
            if match:
                found.update(int(g) for g in match.groups())
        match = _BUILT.search(line)
        if match:
            found.update(int(t) for t in re.findall(r"\d\d", match.group(1)))
    return found


def _hint(legal, in_mode, traps, region_acts, activatable, claimable) -> str:
    if not legal or in_mode:
        return ""
    bits = []
    if traps:
        bits.append("click a glowing section to trap its animal")
    if region_acts:
        bits.append("click a glowing region (or its flag) for the guide")
    if claimable:
        bits.append("click a glowing chart spot to claim it")
    if activatable:
        bits.append("click a glowing animal on your board to use its power")
    return ("Your move: " + "; ".join(bits) + ".") if bits else ""


def _status(view: dict, seat, names: list[str]) -> str:
    phase = view["phase"]
    if phase == "over":
        w = view.get("winner")
        a, b = view["seats"][0]["score"], view["seats"][1]["score"]
        return "Game over: a draw." if w is None else f"Game over: {names[w]} wins, {a} to {b}."
    to_act = view.get("to_act") or []
    if not to_act:
        return ""
    actor = to_act[0]
    mine = actor == seat
    who = "You" if mine else names[actor]
    if phase == "place_guide":
        return "Place the guide: choose a region's flag." if mine else f"{who} places the guide on a region's flag."
    if phase == "trap":
        g = view["guide"]
        if view["region_animals"][str(g)] == 0:
            text = f"Region {g} is empty: choose a region for the guide"
        else:
            text = f"Trap an animal in region {g}"
        return f"{text}." if mine else f"{who}: {text[0].lower()}{text[1:]}."
    return "Claim a spot, activate animals or end your turn." if mine else \
        f"{who} may claim a spot or activate animals, then ends the turn."
