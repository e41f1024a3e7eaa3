"""Hypothesis strategies shared by the fuzz suites: arbitrary JSON, JSON shaped like the
games' actions (so the fuzz reaches past the first type check), and hostile strings."""
from __future__ import annotations

from hypothesis import strategies as st

ACTION_TYPES = ["write", "done", "pass", "stop", "place", "place_tile", "step", "trail", "claim", "trap",
                "activate", "trade", "draw", "roll", "move", "unplace", "reset", "discard", "choose", "end_turn"]
KEYS = ["type", "die", "dice", "box", "cell", "to", "from", "q", "r", "rotation", "index", "section", "row",
        "col", "tile", "animal", "animals", "region", "card", "seat", "value", "sections", "species", "route"]

hostile_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", "\x00", "a\x00b", "\x1b[2J", "%00", "../../etc/passwd", "<script>x</script>",
                     "' OR 1=1 --", "🙂" * 5, "9" * 30, "-1", "NaN", "null", "{}", "[]"]),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
                    st.integers(min_value=-3, max_value=40))
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6),
                                                                         inner, max_size=5)),
    max_leaves=20,
)
action_like = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from(ACTION_TYPES) | st.text(max_size=8),
    st.dictionaries(st.sampled_from(KEYS[1:]), json_values, max_size=4),
)
actions = st.one_of(action_like, json_values)


def mutated(action: dict):
    """Strategies for near-misses of a legal action: one field replaced by arbitrary JSON."""
    keys = [key for key in action if key != "type"] or ["type"]
    return st.builds(lambda key, value: {**action, key: value}, st.sampled_from(keys), json_values)
