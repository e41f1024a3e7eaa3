"""games.selection: a `?sel=` is a list of picks, checked by prefix against the legal actions."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import selection

LEGAL = [
    {"type": "stop", "cell": [0, 1]},
    {"type": "stop", "cell": [2, 3]},
    {"type": "tent", "cell": [2, 3]},
    {"type": "trail", "from": [0, 1], "to": [2, 3], "corner": [0, 3]},
    {"type": "trail", "from": [0, 1], "to": [2, 3], "corner": [2, 1]},
    {"type": "pass"},
]


def cell(rc) -> str:
    return f"{rc[0]}-{rc[1]}"


def picks(action: dict):
    kind = action["type"]
    if kind in ("stop", "tent"):
        return [f"m:{kind}", f"c:{cell(action['cell'])}"]
    if kind == "trail":
        corner = f"k:{cell(action['corner'])}"
        a, b = f"a:{cell(action['from'])}", f"b:{cell(action['to'])}"
        b_first, a_second = f"a:{cell(action['to'])}", f"b:{cell(action['from'])}"
        return [[a, b, corner], [b_first, a_second, corner]]
    return ["pass"]


def is_map(value: str) -> bool:
    return value in ("0", "1")


def sel(raw, legal=LEGAL):
    return selection.select(raw, legal, picks, extras={"v": is_map})


def test_parse_splits_picks_on_dots():
    assert selection.parse("m:stop.c:3-4") == ["m:stop", "c:3-4"]


@pytest.mark.parametrize("raw", ["", None, 7, "m:stop..c:1-1", "m:stop.", "M:stop", "m:st op",
                                 "m:stop\x00", "c:1-1;drop", "x" * 500, ".".join(["a"] * 17),
                                 "a:" + "1" * 41, "a:", "1a", "a:b:c", "a:é"])
def test_parse_gives_no_picks_for_garbage(raw):
    assert selection.parse(raw) == []


@given(st.text(max_size=600))
def test_parse_never_fails_and_gives_only_valid_picks(raw):
    result = selection.parse(raw)
    assert all(selection.is_pick(p) for p in result)
    if result:
        assert selection.encode(result) == raw


@given(st.lists(st.from_regex(selection.PICK, fullmatch=True), min_size=1, max_size=selection.MAX_PICKS))
def test_encode_then_parse_gives_the_same_picks(picks_list):
    raw = selection.encode(picks_list)
    if len(raw) <= selection.MAX_RAW:
        assert selection.parse(raw) == picks_list


def test_pick_refuses_a_value_outside_the_syntax():
    with pytest.raises(ValueError):
        selection.pick("c", "1 2")


def test_an_empty_selection_offers_every_first_pick_in_legal_order():
    s = sel("")
    assert s.picks == ()
    assert s.candidates == ["m:stop", "m:tent", "a:0-1", "a:2-3", "pass"]
    assert s.action is None and not s.active


def test_a_valid_prefix_is_kept_and_narrows_the_candidates():
    s = sel("m:stop")
    assert s.picks == ("m:stop",)
    assert s.candidates == ["c:0-1", "c:2-3"]
    assert s.values("c") == ["0-1", "2-3"]


def test_picks_naming_an_action_exactly_give_that_action():
    assert sel("m:tent.c:2-3").action == {"type": "tent", "cell": [2, 3]}
    assert sel("pass").action == {"type": "pass"}


def test_an_action_spelled_two_ways_is_reached_both_ways():
    forward = sel("a:0-1.b:2-3.k:0-3").action
    backward = sel("a:2-3.b:0-1.k:0-3").action
    assert forward == backward == LEGAL[3]


def test_a_forged_pick_is_cut_back_to_the_longest_legal_prefix():
    s = sel("m:tent.c:0-1")
    assert s.picks == ("m:tent",)
    assert s.action is None


def test_a_stale_selection_is_ignored_when_nothing_of_it_is_legal():
    s = sel("a:5-5.b:0-1")
    assert s.picks == ()
    assert s.raw == ""


def test_a_seat_with_no_legal_action_gets_no_picks():
    s = sel("m:stop.c:0-1", legal=[])
    assert s.picks == () and s.candidates == [] and s.action is None


def test_completes_gives_the_action_one_more_pick_finishes():
    s = sel("a:0-1.b:2-3")
    assert s.candidates == ["k:0-3", "k:2-1"]
    assert s.completes("k:2-1") == LEGAL[4]
    assert s.completes("k:9-9") is None


def test_links_add_take_back_and_cancel_picks():
    s = sel("a:0-1")
    assert s.add("b:2-3") == "a:0-1.b:2-3"
    assert s.back() == ""
    assert sel("a:0-1.b:2-3").back() == "a:0-1"
    assert s.cancel() == ""
    assert s.start("m:tent") == "m:tent"


def test_extras_are_kept_apart_from_the_action_picks():
    s = sel("v:1.m:stop")
    assert s.extra("v") == "1"
    assert s.picks == ("m:stop",)
    assert s.raw == "v:1.m:stop"
    assert s.add("c:0-1") == "v:1.m:stop.c:0-1"
    assert s.cancel() == "v:1"
    assert s.with_extra("v", None) == ""
    assert s.with_extra("v", "0") == "v:0"


def test_an_extra_its_check_refuses_is_dropped():
    s = sel("v:7.m:stop")
    assert s.extra("v") is None and s.raw == "m:stop"


def test_extras_stay_for_a_seat_without_legal_actions():
    assert sel("v:1", legal=[]).extra("v") == "1"


def test_two_actions_with_one_spelling_are_a_game_bug():
    with pytest.raises(ValueError):
        selection.select("", [{"type": "a"}, {"type": "b"}], lambda action: ["same"])


@given(st.lists(st.sampled_from(["m:stop", "m:tent", "c:0-1", "c:2-3", "a:0-1", "a:2-3", "b:0-1",
                                 "b:2-3", "k:0-3", "k:2-1", "pass", "v:1", "zz:9"]), max_size=6))
def test_any_selection_is_a_legal_prefix_and_its_action_is_legal(wanted):
    s = sel(".".join(wanted))
    assert any(spelling[:len(s.picks)] == s.picks
               for action in LEGAL for spelling in selection.spellings(action, picks))
    assert s.action is None or s.action in LEGAL
    assert all(s.completes(c) is None or s.completes(c) in LEGAL for c in s.candidates)
    assert selection.parse(s.raw) == ([f"v:{s.extra('v')}"] if s.extra("v") else []) + list(s.picks)


@given(st.text(max_size=80))
def test_no_raw_value_ever_breaks_select(raw):
    s = sel(raw)
    assert s.action is None or s.action in LEGAL
