"""The board builders of Roll to the Top's presenter, one area each."""
from __future__ import annotations

from games.roll_to_the_top.presenter import (
    action_die,
    board_context,
    box_label,
    dice_choice,
    dice_tray,
    main_sheet,
    other_sheets,
    write_controls,
)
from games.roll_to_the_top.rules import RULES

from .helpers import action_state, place, write_state

NAMES = ["Ann", "Bob", "Cy"]


def test_dice_tray_marks_the_dice_the_seat_already_used():
    state = RULES.apply(write_state("giza", players=2, roll={"d4": 3, "d6": 5}), 0, place((0, 0), ["d4"]))
    tray = dice_tray(RULES.view(state, 0))
    assert [(d["id"], d["value"], d["used"]) for d in tray["dice"]] == [("d4", 3, True), ("d6", 5, False)]
    assert [d["id"] for d in tray["reserve"]] == ["d8", "d12", "d20"]


def test_dice_tray_shows_the_action_face_as_a_symbol():
    assert dice_tray(RULES.view(write_state("giza", face="ADD_OR_REMOVE"), 0))["face"] == "±"


def test_action_die_words_the_effect_and_offers_only_the_resolvers_buttons():
    state = action_state(["d4", "d6"], ["d8"], "ADD_OR_REMOVE", resolver=1)
    view = RULES.view(state, 1)
    area = action_die(view, RULES.legal_actions(state, 1), NAMES)
    assert area["text"] == "add or remove a die" and area["resolver_name"] == "Bob"
    assert [a["die"] for a in area["adds"]] == ["d8"] and [a["die"] for a in area["removes"]] == ["d4", "d6"]
    assert action_die(RULES.view(state, 0), RULES.legal_actions(state, 0), NAMES)["adds"] == []


def test_write_controls_follow_the_legal_actions():
    assert write_controls([{"type": "done"}]) == {"can_unplace": False, "can_reset": False, "can_done": True,
                                                  "has_place": False}
    assert write_controls([{"type": "unplace"}, {"type": "reset"}])["can_reset"]


def test_a_spectator_has_no_main_sheet_and_sees_every_other_sheet():
    view = RULES.view(write_state("giza", players=3), None)
    assert main_sheet(view, None, fits={}) is None
    assert [o["name"] for o in other_sheets(view, None, NAMES)] == NAMES


def _panel(state, seat, sel=""):
    return {"view": RULES.view(state, seat), "seat": seat, "names": NAMES[:state["players"]],
            "legal": RULES.legal_actions(state, seat), "selection": sel}


def test_dice_choice_keeps_free_dice_in_order_and_finds_the_boxes_they_fill():
    state = write_state("giza", players=2, roll={"d4": 2, "d6": 1})
    choice = dice_choice(_panel(state, 0, "dice:d4,d6"), writing=True)
    assert choice["chosen"] == ["d4", "d6"] and choice["sum"] == 3
    assert choice["fits"] and all(a["dice"] == ["d4", "d6"] for a in choice["fits"].values())
    assert choice["toggle"] == {"d4": "dice:d6", "d6": "dice:d4"} and choice["clear"] == ""


def test_dice_choice_ignores_dice_that_are_not_free():
    state = RULES.apply(write_state("giza", players=2, roll={"d4": 2, "d6": 1}), 0, place((0, 0), ["d4"]))
    for sel in ("dice:d4", "dice:d8", "dice:d6,d4"):
        assert dice_choice(_panel(state, 0, sel), writing=True)["chosen"] == []
    assert dice_choice(_panel(state, 1, "dice:d4"), writing=True)["chosen"] == ["d4"]


def test_nobody_but_a_writer_picks_dice():
    state = write_state("giza", players=2, roll={"d4": 2})
    assert dice_choice(_panel(state, 0, "dice:d4"), writing=False) == {
        "selection": "", "chosen": [], "sum": 0, "fits": {}, "toggle": {}, "clear": "", "hint": ""}


def test_the_main_sheet_marks_the_boxes_the_picked_dice_fill():
    state = write_state("giza", players=2, roll={"d4": 2})
    view = RULES.view(state, 0)
    fits = dice_choice(_panel(state, 0, "dice:d4"), writing=True)["fits"]
    sheet = main_sheet(view, 0, fits=fits)
    assert {b["key"] for b in sheet["boxes"] if b["action"]} == set(fits) != set()
    assert not any(b["action"] for b in main_sheet(view, 0, fits={})["boxes"])


def test_board_context_puts_everything_under_the_board_key():
    state = write_state("giza", players=2)
    context = board_context(_panel(state, 0))
    assert context["board"]["writing"] and context["board"]["main"] and "rt" not in context


def test_a_box_label_says_what_the_box_holds_or_what_a_click_writes():
    box = {"row": 3, "place": 2, "action": None, "value": None, "pending": None, "dot": False,
           "min_value": None, "recent": False}
    assert box_label(box) == "Row 3, box 2, empty"
    assert box_label({**box, "action": {"type": "place"}, "action_value": 7}) == "Place 7 in row 3, box 2"
    assert box_label({**box, "value": 5, "recent": True}) == "Row 3, box 2, holds 5, written last turn"
    assert box_label({**box, "pending": {"value": 9}, "dot": True}) == "Row 3, box 2, 9 written this turn, dot box"
    assert box_label({**box, "min_value": 25}) == "Row 3, box 2, empty, at least 25"
    assert box_label({**box, "min_value": 25}, reverse=True) == "Row 3, box 2, empty, at most 25"


def test_the_history_names_a_box_as_the_sheet_does():
    """Issue 19, row 8: the History said "box 0,2" (the rules' half-box coordinates) while
    the sheet's boxes say "row 1, box 2"."""
    from games import presenters
    from games.roll_to_the_top import presenter as rtt
    from games.roll_to_the_top.rules import RULES as rules_

    state = rules_.setup(2, rules_.default_options(), 3)
    place = next(a for a in rules_.legal_actions(state, 0) if a["type"] == "place" and a["box"][1] > 0)
    state = rules_.apply(state, 0, place)
    for seat in (0, 1):
        state = rules_.apply(state, seat, {"type": "done"})
    view = rules_.view(state, None)
    lines = [h["text"] for h in presenters.history("roll-to-the-top", view, ["ann", "bo"])]
    wrote = next(line for line in lines if line.startswith("ann wrote"))
    drawn = rtt.sheet(view["board_data"], view["sheets"][0])
    box = next(b for b in drawn["boxes"] if b["key"] == f"{place['box'][0]},{place['box'][1]}")
    assert f"in row {box['row']}, box {box['place']}" in wrote and "box 0," not in wrote
