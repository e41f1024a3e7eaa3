def describe(event, names):
    return f"{names[event['seat']]} added {event['n']}"


def board_context(panel):
    return {"board": {"count": panel["view"]["count"]}}
