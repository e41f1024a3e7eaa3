"""Game packages that live outside games/, to prove a game is one folder: the registry,
the lobby form and the play page pick them up once their root is searched."""
