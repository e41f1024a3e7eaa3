"""Alpine Trails: simultaneous tile-laying around a base camp (shared/rules/alpine_trails.md)."""
from .rules import RULES, AlpineTrails, solo_title  # noqa: F401
