def turn_badge(request):
    """How many games wait for the user's move (the nav badge)."""
    from .views import games_waiting_for

    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"turn_games": games_waiting_for(user)}
