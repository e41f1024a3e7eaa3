"""Coin race: players take turns adding 1 or 2 to a shared counter; whoever reaches 5 wins."""
from __future__ import annotations

from games.rules.base import IllegalAction, Ruleset, check_action_shape


class CoinRace(Ruleset):
    slug = "coin-race"
    title = "Coin Race"
    min_players = 2
    max_players = 2

    def validate_options(self, players, options):
        if not 2 <= players <= 2:
            raise IllegalAction("Coin race is for two players.")
        return {}

    def setup(self, players, options, seed):
        return {"players": players, "count": 0, "turn": 0, "events": []}

    def to_act(self, state):
        return [] if self.is_over(state) else [state["turn"] % state["players"]]

    def legal_actions(self, state, seat):
        return [{"type": "add", "n": n} for n in (1, 2)] if seat in self.to_act(state) else []

    def apply(self, state, seat, action):
        self.check_seat(state, seat)
        check_action_shape(action)
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("Add 1 or 2.")
        event = {"type": "add", "seat": seat, "n": action["n"], "turn": state["turn"] + 1}
        return {**state, "count": state["count"] + action["n"], "turn": state["turn"] + 1,
                "events": [*state["events"], event]}

    def view(self, state, seat):
        return {"count": state["count"], "events": state["events"]}

    def is_over(self, state):
        return state["count"] >= 5

    def scores(self, state):
        winner = (state["turn"] - 1) % state["players"] if self.is_over(state) else None
        return [{"total": int(i == winner), "breakdown": {"won": int(i == winner)}} for i in range(state["players"])]

    def ranking(self, state):
        totals = [s["total"] for s in self.scores(state)]
        return [1 + sum(other > mine for other in totals) for mine in totals]

    def seat_turn(self, state, seat):
        return str(state["turn"])


RULES = CoinRace()
