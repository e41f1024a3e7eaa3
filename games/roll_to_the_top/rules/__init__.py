"""Roll to the Top: Journeys (slug "roll-to-the-top"): a simultaneous roll-and-write."""
from .rules import RULES, RollToTheTop, effective_action  # noqa: F401
