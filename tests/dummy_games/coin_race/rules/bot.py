def choose(state, seat, rng):
    return {"type": "add", "n": 2}
