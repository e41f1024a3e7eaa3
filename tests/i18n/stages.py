"""Every game at its start, in its middle and at its end, for the i18n checks (issue 23):
alice in seat 0 against bots, moved on by her own bot; an unfinished game is resigned."""
from __future__ import annotations

import random
from collections.abc import Iterator

from games import engine, rules
from games.engine import SeatPlan
from games.models import Game

MIDDLE_MOVES = 6
MAX_MOVES = 400  # a game still running after these is resigned, for an end screen all the same


def start(slug: str, user) -> Game:
    ruleset = rules.get(slug)
    options = ruleset.default_options()
    players = max(2, getattr(ruleset, "min_players", 2))
    plans = [SeatPlan(user=user, is_bot=False)] + [SeatPlan(user=None, is_bot=True) for _ in range(players - 1)]
    return engine.start_game(slug, plans, options, seed=3, shuffle=False)


def advance(game: Game, user, moves: int) -> Game:
    bot, rng = rules.bot_for(game.game_slug), random.Random(7)
    for _ in range(moves):
        game.refresh_from_db()
        if not game.is_active or 0 not in game.to_act():
            break
        engine.submit(game.pk, user, bot.choose(game.state, 0, rng))
    game.refresh_from_db()
    return game


def stages(slug: str, user) -> Iterator[tuple[str, Game]]:
    """("start", game), ("middle", game), ("end", game): the same game, moved on in between."""
    game = start(slug, user)
    yield "start", game
    yield "middle", advance(game, user, MIDDLE_MOVES)
    game = advance(game, user, MAX_MOVES)
    if game.is_active:
        engine.resign(game.pk, user)
        game.refresh_from_db()
    yield "end", game
