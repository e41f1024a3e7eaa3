"""Building positions for Rift Valley Reserve tests: maps drawn by hand, seats placed on
them at a chosen turn, without playing the turns that would lead there."""
from __future__ import annotations

from games.rift_valley_reserve.rules import RULES
from games.rift_valley_reserve.rules.board import draw, empty_cells, new_map, score_map, trail_action


def blank(players: int = 2, boards: str = "identical", seed: int = 1) -> dict:
    return RULES.setup(players, {"boards": boards}, seed)


def stop(m: dict, seat: int, *cells) -> dict:
    for cell in cells:
        m = draw(m, seat, {"type": "stop", "cell": list(cell)})
    return m


def tent(m: dict, seat: int, *cells) -> dict:
    for cell in cells:
        m = draw(m, seat, {"type": "tent", "cell": list(cell)})
    return m


def trail(m: dict, seat: int, a, b, corner=None) -> dict:
    a, b = tuple(a), tuple(b)
    if b < a:
        a, b = b, a
    return draw(m, seat, trail_action(a, b, None if corner is None else tuple(corner)))


def fresh(map_id: str, owner: int) -> dict:
    return new_map(map_id, owner)


def position(maps: list[dict], turn: int = 2, trigger_turn=None, final_turn=None) -> dict:
    """A state with these maps (map b owned by seat b) at the start of `turn`."""
    state = blank(len(maps))
    state["maps"] = maps
    # The running scores a game keeps as it plays, here worked out from the drawn maps.
    state["map_scores"] = [score_map(m, len(maps)) for m in maps]
    state["turn"] = turn
    state["trigger_turn"] = trigger_turn
    state["final_turn"] = final_turn
    state["asked"] = RULES.asked_seats(state)
    return state


def holding(map_id: str, owner: int, holder: int, players: int = 2, build=None) -> tuple[dict, int]:
    """A state on turn >= 2 (before the trigger) in which `holder` holds map `owner`, a copy
    of map_id drawn by `build(m) -> m`; the other maps are empty ID9s. Returns (state, turn)."""
    turn = 2
    while (owner + turn - 1) % players != holder:
        turn += 1
    maps = [fresh("ID9", b) for b in range(players)]
    m = fresh(map_id, owner)
    maps[owner] = build(m) if build else m
    return position(maps, turn), turn


def legal(state: dict, seat: int) -> list[dict]:
    return RULES.legal_actions(state, seat)


def fill_with_tents(m: dict, seat: int, keep=()) -> dict:
    """Every empty cell but those in `keep` gets a Tent of `seat`."""
    for r, c in list(empty_cells(m)):
        if (r, c) not in keep:
            m = draw(m, seat, {"type": "tent", "cell": [r, c]})
    return m
