"""The board builders of Roll to the Top's presenter, one area each."""
from __future__ import annotations

from games.roll_to_the_top.presenter import (
    action_die,
    board_context,
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
    assert main_sheet(view, None, writing=False) is None
    assert [o["name"] for o in other_sheets(view, None, NAMES)] == NAMES


def test_the_main_sheet_highlights_legal_sums_only_while_writing():
    view = RULES.view(write_state("giza", players=2, roll={"d4": 2}), 0)
    writing = main_sheet(view, 0, writing=True)
    assert any(b["sums"] for b in writing["boxes"])
    assert not any(b["sums"] for b in main_sheet(view, 0, writing=False)["boxes"])


def test_board_context_puts_everything_under_the_board_key():
    state = write_state("giza", players=2)
    panel = {"view": RULES.view(state, 0), "seat": 0, "names": NAMES[:2], "legal": RULES.legal_actions(state, 0)}
    context = board_context(panel)
    assert context["board"]["writing"] and context["board"]["main"] and "rt" not in context
