from django.utils.functional import SimpleLazyObject


def turn_badge(request):
    """How many games wait for the user's move (the nav badge). Lazy, so only a page that
    draws the badge runs the query, and skipped for htmx fragments (a move's answer, a
    selection): they have no nav."""
    from .views import games_waiting_for

    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.boosted:
        return {}
    return {"turn_games": SimpleLazyObject(lambda: games_waiting_for(user))}
