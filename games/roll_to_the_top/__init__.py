"""Roll to the Top: Journeys: one package holds the whole game: rules/ (pure Python), presenter.py,
templates/, static/ and tests/ (ARCHITECTURE.md, "Layout")."""
