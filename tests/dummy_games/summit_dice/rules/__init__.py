"""Summit Dice's rules: pure Python, no Django (the registry looks for RULES here)."""
from .rules import RULES  # noqa: F401
