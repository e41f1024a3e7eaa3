"""Rifugio with the Rivers & Rafts expansion: the rules package (see rules.py)."""
from .rules import RULES  # noqa: F401
