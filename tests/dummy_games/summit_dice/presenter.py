"""Summit Dice on the page: the create-table option, the events in words, and the board's
geometry (one track per climber) computed from the seat's view."""
from __future__ import annotations

from games.presenters import describe_from, seat_name

OPTION_SPECS = {"summit": {"label": "Summit height", "min": 10, "max": 40}}

TRACK_GAP, TRACK_TOP, TRACK_BOTTOM = 60, 20, 200   # SVG units


def _roll(event: dict, names: list[str]) -> str:
    who = seat_name(names, event["seat"])
    if event["die"] == 1:
        return f"Turn {event['turn']}: {who} rolled a 1 and slipped: this turn's climb is lost."
    return f"Turn {event['turn']}: {who} rolled a {event['die']} (climbing {event['climb']} this turn)."


def _camp(event: dict, names: list[str]) -> str:
    return f"{seat_name(names, event['seat'])} made camp at height {event['height']}."


def _summit(event: dict, names: list[str]) -> str:
    return f"{seat_name(names, event['seat'])} reached the summit!"


WORDS = {"roll": _roll, "camp": _camp, "summit": _summit}


def describe(event: dict, names: list[str]) -> str:
    return describe_from(WORDS, event, names)


def board_context(panel: dict) -> dict:
    view, names = panel["view"], panel["names"]
    span = TRACK_BOTTOM - TRACK_TOP
    climbers = [{"seat": seat, "name": names[seat], "height": height, "x": TRACK_GAP * seat + TRACK_GAP // 2,
                 "y": TRACK_BOTTOM - span * min(height, view["summit"]) // view["summit"]}
                for seat, height in enumerate(view["heights"])]
    labels = {"roll": "Roll the die", "stop": f"Stop and make camp (+{view['climb']})"}
    return {"board": {"climbers": climbers, "width": TRACK_GAP * len(climbers), "top": TRACK_TOP,
                      "bottom": TRACK_BOTTOM, "climb": view["climb"], "climbing": names[view["seat"]],
                      "buttons": [{"action": action, "label": labels[action["type"]]} for action in panel["legal"]]}}
