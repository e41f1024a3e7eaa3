"""How games/<module>/tests/fixtures/pre_events_games.json were made (not a test).

Run it with the working directory at a checkout of the code before events became data
(commit 51985f3, whose rules lived in games/rules/<module>/), giving this repository's root:

    cd /path/to/checkout-at-51985f3 && python /path/to/repo/tests/games/make_pre_events_games.py /path/to/repo

It plays seeded games (mostly the game's bot, some random legal moves) under those rules, to
the end and to mid-game, and records seed, options, moves, the final state and what those
rules said of it (who acts, their legal actions, scores, ranking).
"""
import json
import os
import random
import sys

sys.path.insert(0, os.getcwd())
from games import rules as registry  # noqa: E402  (the old checkout's registry)

OUT = os.path.join(sys.argv[1], "games/{module}/tests/fixtures/pre_events_games.json")
PLANS = {
    "roll-to-the-top": [(1, {}), (3, {"mode": "reverse", "board": "random"}), (5, {"games": 2, "max_turns": 20})],
    "nanga-parbat": [(2, {}), (2, {"area_scoring": True}), (2, {})],
    "alpine-trails": [(1, {}), (2, {}), (4, {})],
    "rift-valley-reserve": [(2, {}), (4, {"boards": "asymmetrical"})],
    "rifugio": [(2, {}), (3, {"rivers_and_rafts": False}), (5, {})],
}
MAX_MOVES = 3000

def play(slug, players, options, seed, stop_at_half, bot_share):
    rules = registry.get(slug)
    bot = registry.bot_for(slug)
    options = rules.validate_options(players, options)
    state = rules.setup(players, options, seed)
    moves = []
    chooser = random.Random(f"fixture:{seed}")
    while not rules.is_over(state) and len(moves) < MAX_MOVES:
        seat = rules.to_act(state)[0]
        if chooser.random() < bot_share:
            action = bot.choose(state, seat, random.Random(f"{seed}:bot:{len(moves)}"))
        else:
            action = chooser.choice(rules.legal_actions(state, seat))
        state = rules.apply(state, seat, action)
        moves.append({"seat": seat, "action": action})
        if stop_at_half and len(moves) >= stop_at_half:
            break
    return rules, options, moves, state

def record(slug, players, options, seed, stop_at_half, bot_share):
    rules, options, moves, state = play(slug, players, options, seed, stop_at_half, bot_share)
    over = rules.is_over(state)
    return {
        "slug": slug, "rules_version": rules.version, "players": players, "options": options,
        "seed": seed, "moves": moves, "state": state,
        # What the old rules said about the final state, for the replay checks.
        "over": over, "to_act": rules.to_act(state) if not over else [],
        "legal": {str(s): rules.legal_actions(state, s) for s in (rules.to_act(state) if not over else [])},
        "scores": rules.scores(state), "ranking": rules.ranking(state),
    }

def main():
    for slug, plans in PLANS.items():
        games = []
        for i, (players, options) in enumerate(plans):
            seed = random.Random(f"{slug}:{i}").getrandbits(62)
            full = record(slug, players, options, seed, None, 0.9)
            games.append(full)
            half = max(1, len(full["moves"]) // 2)
            games.append(record(slug, players, options, seed + 1, half, 0.7))
        module = registry._packages()[slug].rsplit(".", 1)[1]
        path = OUT.format(module=module)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            json.dump({"made_by": "pre-session rules (commit 51985f3)", "games": games}, fh,
                      separators=(",", ":"), sort_keys=True)
        print(slug, [(g["players"], len(g["moves"]), g["over"]) for g in games], os.path.getsize(path))

main()
