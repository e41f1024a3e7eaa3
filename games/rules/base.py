"""The rules contract every game package implements (see shared/design/ARCHITECTURE.md).

Rules modules are pure Python: no Django, no I/O, no global randomness. A game is its
seed plus its move list; every random draw comes from `rng_for(seed, ...)`, so replaying
the same actions from the same seed rebuilds the same state.
"""
from __future__ import annotations

import copy
import hashlib
import json
import random
from typing import Any, Callable, Iterable, Sequence

State = dict[str, Any]
Action = dict[str, Any]


# Translation without Django. Rules and presenters mark what a person reads with `_`,
# `ngettext` or `pgettext` from here (makemessages finds them by those names); the platform
# installs Django's functions at start-up (games.apps), so a message is translated into the
# language active where it is raised or described: the request's, or a mail recipient's.
# Outside Django (pure tests, bots, benches) the English text is returned unchanged.
_gettext: Callable[[str], str] = lambda message: message
_ngettext: Callable[[str, str, int], str] = lambda singular, plural, n: singular if n == 1 else plural
_pgettext: Callable[[str, str], str] = lambda context, message: message


def install_translator(gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str],
                       pgettext: Callable[[str, str], str]) -> None:
    global _gettext, _ngettext, _pgettext
    _gettext, _ngettext, _pgettext = gettext, ngettext, pgettext


def _(message: str) -> str:
    return _gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _pgettext(context, message)


def gettext_noop(message: str) -> str:
    """Marks a message for the catalogues without translating it (a table of texts that
    are translated later, where they are shown, with `_(text)`)."""
    return message


class IllegalAction(Exception):
    """An action (or option set) the rules refuse; `str(exc)` is shown to the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Ruleset:
    """Base class for a game's `RULES` object. Subclasses fill in every method."""

    slug: str = ""
    title: str = ""
    min_players: int = 1
    max_players: int = 1
    version: str = "1"

    def default_options(self) -> dict:
        return {}

    def validate_options(self, players: int, options: dict | None) -> dict:
        raise NotImplementedError

    def setup(self, players: int, options: dict | None, seed: int) -> State:
        raise NotImplementedError

    def to_act(self, state: State) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, state: State, seat: int, action: Action) -> State:
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict:
        raise NotImplementedError

    def is_over(self, state: State) -> bool:
        raise NotImplementedError

    def scores(self, state: State) -> list[dict]:
        raise NotImplementedError

    def ranking(self, state: State) -> list[int]:
        raise NotImplementedError

    def undoable(self, before: State, seat: int, action: Action, after: State) -> bool:
        """May `seat` take back `action` (which turned `before` into `after`)?

        The engine asks this only when the action is the game's last move and was made by
        that seat. Games allow it within a turn while nothing hidden was revealed (no draw,
        no roll); the default is never.
        """
        return False

    def score_sign(self, state: State) -> int:
        """+1 when a larger `scores` total is better, -1 when a smaller one is (a race
        scored in turns or in empty boxes). Search bots (games/rules/search.py) read it to
        know which way to push a total before the end, when `ranking` cannot tell (solo).
        The default, +1, is every game's but Roll to the Top's solo and multi-game totals."""
        return 1

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A state `seat` cannot tell from this one, with everything it cannot see drawn
        afresh from `rng`: the search bots (games/rules/search.py) plan over such states,
        so they never use what their seat may not know.

        Two promises, checked for every game by tests/rules: `view(result, seat) ==
        view(state, seat)`, and the result is a legal state that plays on to the end.
        Hidden parts must be rebuilt from what the seat sees plus `rng` alone (never copied
        from the input), so two states that differ only in what the seat cannot see give
        the same result under the same rng. Future randomness drawn from the seed counts as
        hidden: give the result a fresh seed.

        The default is for games with nothing hidden after setup (the state itself);
        a game with secrets (a bag, a hand, another seat's pending choice) overrides it.
        """
        return state

    def older_shape(self, state: State) -> bool:
        """Was this state saved under an earlier shape of the same rules version (one whose
        moves replay alike, e.g. an English `log` before `events`)? The rules still read such
        a state; `verify_games` then compares the `comparable` parts only
        (docs/rules-versions.md, "Changing a state's shape")."""
        return False

    def comparable(self, state: State) -> State:
        """The part of a state that every shape of this version holds alike: the play itself,
        without the record of it (`log`, `events`) or caches the rest of the state implies."""
        return state

    def seat_turn(self, state: State, seat: int) -> str:
        """A short key for what `seat` is deciding about now; pages carry it (ARCHITECTURE.md,
        "stale page") and the engine refuses a submission drawn under another key.

        The key must change whenever what the seat decides about changes: a new turn or
        round, a new map, hand or market, new dice, a new phase for that seat. It must NOT
        change when another seat makes a hidden choice in the same simultaneous round
        (nobody is refused because someone else moved), and it must never reveal anything
        the seat may not see (it is printed in the seat's page). Keep it short (<= 64
        characters) and JSON-stable: a state that went through JSON gives the same key.

        Games override this. The default keys on the common `turn` and `round` counters
        when the state has them, which is safe (a simultaneous round keeps both) but
        coarse: a game whose board changes within a turn must say so itself.
        """
        return short_key(state.get("turn"), state.get("round"))

    # Shared helpers -----------------------------------------------------------------

    def check_seat(self, state: State, seat: Any) -> int:
        """The seat as an int that is waiting to act, or IllegalAction."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalAction("That is not a seat at this table.")
        if state.get("players") is not None and not 0 <= seat < state["players"]:
            raise IllegalAction("That is not a seat at this table.")
        if self.is_over(state):
            raise IllegalAction("The game is over.")
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        return seat


def check_action_shape(action: Any) -> str:
    """The action's type, or IllegalAction when it is not a dict with a string `type`."""
    if not isinstance(action, dict):
        raise IllegalAction("An action must be an object with a 'type'.")
    kind = action.get("type")
    if not isinstance(kind, str) or not kind:
        raise IllegalAction("An action must have a 'type'.")
    return kind


def require_int(action: Action, key: str, low: int | None = None, high: int | None = None) -> int:
    """An int field of an action (bools refused), optionally within [low, high]."""
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"'{key}' must be a whole number.")
    if (low is not None and value < low) or (high is not None and value > high):
        raise IllegalAction(f"'{key}' is out of range.")
    return value


def rng_for(seed: int, *salt: Any) -> random.Random:
    """A deterministic RNG for one random event (string seeds hash the same on every run)."""
    return random.Random(":".join(str(part) for part in (seed, *salt)))


def clone(state: State) -> State:
    """A deep copy of a JSON-compatible state, so `apply` never mutates its input."""
    return copy.deepcopy(state)


def competition_ranking(keys: Sequence[Any]) -> list[int]:
    """Ranks (1 = best) for per-seat sort keys where larger is better; ties share a rank
    and the next rank is skipped (1, 1, 3)."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def first_legal(actions: Iterable[Action], predicate: Callable[[Action], bool]) -> Action | None:
    return next((a for a in actions if predicate(a)), None)


def short_key(*parts: Any) -> str:
    """A short, JSON-stable key for `seat_turn` built from JSON-compatible parts."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    if len(text) <= 32:
        return text.strip("[]").replace('"', "")
    return hashlib.sha256(text.encode()).hexdigest()[:16]
