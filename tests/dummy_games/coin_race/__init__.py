"""Coin race: a tiny game package for tests (rules/, presenter.py, templates/)."""
