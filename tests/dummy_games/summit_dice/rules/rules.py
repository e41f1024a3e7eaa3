"""Summit Dice: a push-your-luck climbing race for 1 to 4 climbers.

On your turn, roll the die as often as you dare: each roll but a 1 adds its pips to this
turn's climb; a 1 is a slip and the turn's climb is lost. Stopping banks the climb. The
first climber whose height reaches the summit wins at once; the others rank by height.
"""
from __future__ import annotations

from games.rules.base import (Action, IllegalAction, Ruleset, State, check_action_shape, competition_ranking,
                              require_int, rng_for, short_key)

SUMMIT = 20            # the default summit height
SUMMIT_RANGE = (10, 40)


class SummitDice(Ruleset):
    slug = "summit-dice"
    title = "Summit Dice"
    min_players = 1
    max_players = 4
    version = "1"

    def default_options(self) -> dict:
        return {"summit": SUMMIT}

    def validate_options(self, players: int, options: dict | None) -> dict:
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction("Summit Dice is for 1 to 4 climbers.")
        options = {**self.default_options(), **(options or {})}
        if set(options) != {"summit"}:
            raise IllegalAction("The only option is the summit's height.")
        return {"summit": require_int(options, "summit", *SUMMIT_RANGE)}

    def setup(self, players: int, options: dict | None, seed: int) -> State:
        options = self.validate_options(players, options)
        return {"players": players, "summit": options["summit"], "seed": seed, "heights": [0] * players,
                "seat": 0, "turn": 1, "rolls": 0, "climb": 0, "events": []}

    def to_act(self, state: State) -> list[int]:
        return [] if self.is_over(state) else [state["seat"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "roll"}, {"type": "stop"}] if state["climb"] else [{"type": "roll"}]

    def apply(self, state: State, seat: int, action: Action) -> State:
        self.check_seat(state, seat)
        check_action_shape(action)
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("Roll the die, or stop once you have climbed this turn.")
        if action["type"] == "stop":
            return self._bank(state, seat)
        return self._roll(state, seat)

    def _roll(self, state: State, seat: int) -> State:
        # The die comes from the seed: a replay rolls the same, and no page ever shows the seed.
        die = rng_for(state["seed"], "roll", state["turn"], state["rolls"]).randint(1, 6)
        climb = 0 if die == 1 else state["climb"] + die
        event = {"type": "roll", "seat": seat, "turn": state["turn"], "die": die, "climb": climb}
        rolled = {**state, "rolls": state["rolls"] + 1, "climb": climb, "events": [*state["events"], event]}
        if die == 1:
            return self._next_turn(rolled)
        if state["heights"][seat] + climb >= state["summit"]:
            return self._bank(rolled, seat)
        return rolled

    def _bank(self, state: State, seat: int) -> State:
        heights = list(state["heights"])
        heights[seat] += state["climb"]
        event = {"type": "summit" if heights[seat] >= state["summit"] else "camp", "seat": seat,
                 "turn": state["turn"], "height": heights[seat]}
        return self._next_turn({**state, "heights": heights, "events": [*state["events"], event]})

    def _next_turn(self, state: State) -> State:
        over = max(state["heights"]) >= state["summit"]
        if over:  # the winner's turn is the last one
            return {**state, "rolls": 0, "climb": 0}
        return {**state, "seat": (state["seat"] + 1) % state["players"], "turn": state["turn"] + 1,
                "rolls": 0, "climb": 0}

    def view(self, state: State, seat: int | None) -> dict:
        """Everything but the seed: nobody may see the dice to come."""
        return {key: value for key, value in state.items() if key != "seed"}

    def is_over(self, state: State) -> bool:
        return max(state["heights"]) >= state["summit"]

    def scores(self, state: State) -> list[dict]:
        return [{"total": height, "breakdown": {"height": height}} for height in state["heights"]]

    def ranking(self, state: State) -> list[int]:
        return competition_ranking(state["heights"])

    def seat_turn(self, state: State, seat: int) -> str:
        # Every roll shows a new die, so every roll is a new decision.
        return short_key(state["turn"], state["rolls"])


RULES = SummitDice()
