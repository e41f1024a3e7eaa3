"""The presenter's builders, one board area each, on panels built from rules positions (no
Django), and `describe`, which words every event the rules emit."""
import pytest

from games.nanga_parbat import presenter as p
from games.nanga_parbat.rules import RULES

from .helpers import animal, camp, held, hiker, position
from .test_events import EVENT_TYPES, all_event_types_playouts

NAMES = ["alice", "bob"]


def panel(state, seat=0, selection="", names=NAMES):
    return {"view": RULES.view(state, seat), "seat": seat, "names": list(names), "selection": selection,
            "legal": RULES.legal_actions(state, seat) if seat is not None else []}


def inputs(state, seat=0, selection=""):
    return p.read_panel(panel(state, seat, selection))


def trap_position():
    return position(phase="trap", current=0, guide=3, board={35: animal("red_panda"), 31: hiker(1)},
                    seats={0: {"score": 4, "hikers": 10, "animals": held("yak")}, 1: {"score": 5}})


def act_position():
    return position(phase="act", current=0, board={12: hiker(0), 15: hiker(0), 23: hiker(0), 13: hiker(1)},
                    seats={0: {"animals": held("tahr", "yak", "bharal", "tahr")}})


# --- board_context ------------------------------------------------------------------------------

def test_board_context_gives_one_board_key_with_every_area():
    ctx = p.board_context(panel(trap_position()))
    assert list(ctx) == ["board"]
    board = ctx["board"]
    for key in ("sections", "regions", "rocks", "dotted", "chart_rows", "need_marks", "path", "markers",
                "players", "boards", "status", "end_turn", "confirm", "events", "end"):
        assert key in board


# --- the mountain ---------------------------------------------------------------------------------

def test_mountain_lets_the_seat_to_act_trap_in_the_guides_region_only():
    area = p.mountain(inputs(trap_position()))
    legal = {s["sid"] for s in area["sections"] if s["act"]}
    assert legal == {32, 33, 34, 35, 36}
    s35 = next(s for s in area["sections"] if s["sid"] == 35)
    assert s35["act"] == {"type": "trap", "section": 35} and "legal" in s35["cls"]
    assert s35["title"].endswith("the guide is in region 3 — click to trap")
    assert len(area["sections"]) == 36 and len(area["rocks"]) == 3 and len(area["dotted"]) == 9


def test_mountain_gives_the_spectator_no_controls():
    area = p.mountain(inputs(trap_position(), seat=None))
    assert not [s for s in area["sections"] if s["act"] or s["get"]]


def test_mountain_marks_the_last_turns_squares_from_the_events():
    state = RULES.apply(trap_position(), 0, {"type": "trap", "section": 35})
    area = p.mountain(inputs(state, seat=1))
    assert [s["sid"] for s in area["sections"] if "last" in s["classes"]] == [35]


def test_mountain_previews_a_chosen_swap_and_offers_confirm():
    state = act_position()
    inp = inputs(state, selection="a:tahr.s:23.s:22")
    area = p.mountain(inp)
    by_sid = {s["sid"]: s for s in area["sections"]}
    assert by_sid[22]["piece"] == "hiker" and by_sid[23]["piece"] == "animal"   # drawn as if swapped
    assert "preview" in by_sid[22]["classes"] and by_sid[22]["picked"]
    assert inp.targets.confirm == {"type": "activate", "animal": "tahr", "a": 23, "b": 22}


def test_region_flags_glow_where_the_guide_may_go():
    state = RULES.setup(2, {}, 1)
    seat = RULES.to_act(state)[0]
    flags = p.region_flags(inputs(state, seat=seat))
    assert [f["cls"] for f in flags] == ["legal"] * 6
    assert not any(f["guide"] for f in flags)


def test_last_turn_sections_fall_back_to_the_previous_turn_until_a_new_trap():
    events = [{"type": "trap", "seat": 0, "turn": 3, "section": 14},
              {"type": "activate", "seat": 0, "turn": 3, "animal": "tahr", "a": 14, "b": 21},
              {"type": "claim", "seat": 0, "turn": 3, "row": "camps", "col": 3, "sections": [14, 15, 16]},
              {"type": "end_turn", "seat": 0, "turn": 3}]
    assert p.last_turn_sections(events) == {14, 15, 16, 21}
    events.append({"type": "trap", "seat": 1, "turn": 4, "section": 55})
    assert p.last_turn_sections(events) == {55}
    assert p.last_turn_sections([]) == set()


# --- the points chart -------------------------------------------------------------------------------

def test_points_chart_offers_the_claimable_spots_and_names_owners():
    state = act_position()
    state["chart"]["camps"][0] = 1
    chart = p.points_chart(inputs(state))
    spots = {(row["key"], s["col"]): s for row in chart["chart_rows"] for s in row["spots"]}
    assert spots[("camps", 3)]["get"] == "c:camps-3" and spots[("camps", 3)]["cls"] == "legal"
    assert spots[("camps", 0)]["owner_name"] == "bob" and "claimed by bob" in spots[("camps", 0)]["title"]
    assert spots[("camps", 2)]["get"] is None          # 4 connected hikers needed, 3 held
    assert [m["need"] for m in chart["need_marks"]] == [6, 5, 4, 3, 3]


def test_points_chart_marks_the_spot_being_claimed():
    chart = p.points_chart(inputs(act_position(), selection="c:camps-3"))
    spot = chart["chart_rows"][0]["spots"][3]
    assert spot["cls"] == "picked" and spot["get"] is None


# --- the scoring path and the player cards ----------------------------------------------------------

def test_scoring_path_puts_each_marker_on_its_space_with_laps():
    state = position(seats={0: {"score": 53}, 1: {"score": 7}})
    path = p.scoring_path(inputs(state))
    assert len(path["path"]) == 50
    marker0, marker1 = path["markers"]
    assert (marker0["laps"], marker0["score"]) == (1, 53)
    assert marker0["x"] - 4 == p._path_cell(3)[0]
    assert (marker1["laps"], marker1["name"]) == (0, "bob")


def test_player_cards_show_supplies_and_who_is_to_act():
    cards = p.player_cards(inputs(act_position()))
    assert [c["to_act"] for c in cards] == [True, False]
    assert [c["you"] for c in cards] == [True, False]
    assert cards[0]["on_mountain"] == 3 and cards[0]["hikers"] == 15


# --- the animal boards ---------------------------------------------------------------------------------

def test_animal_boards_put_the_viewers_own_board_nearest_with_its_powers_to_click():
    boards = p.animal_boards(inputs(act_position()))
    assert [b["seat"] for b in boards] == [1, 0] and boards[1]["own"]
    tahr = next(c for c in boards[1]["cols"] if c["key"] == "tahr")
    assert [t["get"] for t in tahr["ready"]] == ["a:tahr", "a:tahr"]
    bharal = next(c for c in boards[1]["cols"] if c["key"] == "bharal")
    assert bharal["ready"][0]["get"] is None           # wild, no power


def test_animal_boards_let_the_viewer_pick_animals_for_a_trade():
    inp = inputs(act_position(), selection="i:0.c:same-3")
    tahr = next(c for c in p.animal_boards(inp)[1]["cols"] if c["key"] == "tahr")
    assert [t["cls"] for t in tahr["ready"]] == ["picked", "legal"]
    assert tahr["ready"][0]["get"] == "c:same-3"        # clicking a picked animal drops it


def test_animal_boards_give_the_opponents_tokens_no_controls():
    boards = p.animal_boards(inputs(act_position(), seat=1))
    assert boards[0]["seat"] == 0 and not boards[0]["own"]
    assert all(t["get"] is None for c in boards[0]["cols"] for t in c["ready"])


# --- the controls and the end ----------------------------------------------------------------------------

def test_controls_offer_end_turn_outside_a_choice_and_confirm_inside_one():
    assert p.controls(inputs(act_position()))["end_turn"] == {"type": "end_turn"}
    chosen = p.controls(inputs(act_position(), selection="i:12,15,23.c:camps-3"))
    assert chosen["end_turn"] is None and chosen["in_mode"]
    assert chosen["confirm"] == {"type": "claim", "row": "camps", "col": 3, "sections": [12, 15, 23]}
    assert chosen["counter"] == "3 / 3 chosen"


def test_controls_announce_only_the_latest_actions_scores():
    state = RULES.apply(trap_position(), 0, {"type": "trap", "section": 35})
    assert p.controls(inputs(state, seat=1))["events"] == ["alice — Red panda: +1 · Bump! +1"]
    events = state["events"] + [{"type": "end_turn", "seat": 0, "turn": 5, "move": 99}]
    assert p.score_pills(events, NAMES) == []


def test_end_summary_is_drawn_only_once_the_game_is_over():
    assert p.end_summary(inputs(act_position())) is None
    state = position(phase="act", current=0, board={16: camp(0)},
                     seats={0: {"hikers": 0, "cubes": 0, "score": 9}, 1: {"hikers": 0, "cubes": 0, "score": 3}})
    over = RULES.apply(state, 0, {"type": "end_turn"})
    end = p.end_summary(inputs(over))
    assert end["winner"] == "alice"
    assert end["ended_by"] == "all hikers are on the mountain and all cubes are on the chart"
    assert [r["total"] for r in end["rows"]] == [9, 3]


# --- describe -------------------------------------------------------------------------------------------

def test_describe_words_every_event_type_with_the_players_names():
    described = set()
    for state in all_event_types_playouts():
        for ev in state["events"]:
            text = p.describe(ev, NAMES)
            assert text and text.endswith(".") and "Seat" not in text
            assert not text.endswith(f": {ev['type'].replace('_', ' ')}."), "fell back: " + text
            described.add(ev["type"])
    assert described == EVENT_TYPES


@pytest.mark.parametrize("event, words", [
    ({"type": "first_player", "seat": 1, "turn": 0}, "bob was drawn to play first; alice places the guide."),
    ({"type": "trap", "seat": 0, "turn": 2, "section": 35, "species": "musk_deer"},
     "alice trapped a musk deer in section 35."),
    ({"type": "activate", "seat": 1, "turn": 2, "animal": "yak", "region": 4},
     "bob used a yak to send the guide to region 4."),
    ({"type": "claim", "seat": 0, "turn": 2, "row": "camps", "col": 3, "sections": [12, 15, 23]},
     "alice built 3 camps on sections 12, 15, 23 (spot camps/3)."),
    ({"type": "score", "seat": 0, "turn": 2, "points": 4, "category": "same", "bump": True, "total": 9},
     "alice scored 4 for a trade of matching animals — Bump! +1 (now 9)."),
    ({"type": "game_over", "seat": None, "turn": 20, "ended_by": ["cubes"], "ranking": [2, 1], "scores": [8, 12]},
     "Game over (all cubes are used): bob wins, 8 to 12."),
])
def test_describe_reads_like_the_old_log(event, words):
    assert p.describe(event, NAMES) == words


def test_describe_falls_back_for_unknown_or_broken_events():
    assert p.describe({"type": "avalanche", "seat": 0, "turn": 3}, NAMES) == "alice: avalanche."
    assert p.describe({"type": "trap", "seat": 1, "turn": 3}, NAMES) == "bob: trap."
    assert p.describe({"type": "end_turn", "seat": 5, "turn": 3}, NAMES).startswith("Seat 6 ended turn 3")


# --- the shared ?sel= convention ------------------------------------------------------------------------

def test_picks_spell_every_legal_action_once_over_whole_games():
    import random

    from games import selection
    for seed in range(4):
        rng, state = random.Random(seed), RULES.setup(2, {}, seed)
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            legal = RULES.legal_actions(state, seat)
            sel = selection.select("", legal, p.picks)      # raises on two actions spelled alike
            assert {str(a) for a in sel.table.values()} == {str(a) for a in legal}
            state = RULES.apply(state, seat, rng.choice(legal))


@pytest.mark.parametrize("raw, expected", [
    ("a:tahr.s:99", {"kind": "activate", "species": "tahr", "picks": []}),       # no such hiker
    ("a:tahr.s:23.s:99", {"kind": "activate", "species": "tahr", "picks": [23]}),
    ("a:red_panda", {}),                                                          # not activatable
    ("c:camps-9", {}),
    ("i:12,99.c:camps-3", {"kind": "claim", "row": "camps", "col": 3, "picks": []}),
    ("i:15,12.c:camps-3", {"kind": "claim", "row": "camps", "col": 3, "picks": [12, 15]}),
    ("t:35", {}),                                                                  # one click, no mode
    ("a:tahr:23:22", {}),                                                          # the old grammar
    ("\x00", {}),
])
def test_a_forged_or_stale_selection_is_cut_back_to_what_is_legal(raw, expected):
    state = act_position()
    mode = p.parse_selection(raw, RULES.legal_actions(state, 0))
    assert {k: v for k, v in mode.items() if k in expected} == expected


def test_the_selection_a_board_was_drawn_with_is_handed_to_the_page():
    assert p.board_context(panel(act_position(), selection="i:15,12.c:camps-3"))["board"]["selection"] \
        == "i:12,15.c:camps-3"
    assert p.board_context(panel(act_position(), selection="a:tahr.s:23"))["board"]["selection"] == "a:tahr.s:23"
    assert p.board_context(panel(act_position(), seat=1, selection="a:tahr.s:23"))["board"]["selection"] == ""
