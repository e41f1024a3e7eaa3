"""Nanga Parbat (Steve Finn, Dr. Finn's Games): two Sherpas trap animals on a mountain of 36
sections, send the guide to the region where the opponent must play, and score by building
camps or trading animals on a shared 15-spot chart. Spec: shared/rules/nanga_parbat.md."""
from . import bot, v1
from .rules import RULES  # noqa: F401

# Older rules versions kept for the games started under them (docs/rules-versions.md).
PREVIOUS = {"1": v1.RULES}
PREVIOUS_BOTS = {"1": bot}
