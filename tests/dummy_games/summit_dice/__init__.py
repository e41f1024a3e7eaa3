"""Summit Dice: the small game docs/adding-a-game.md walks through, one folder like any game."""
