"""Rematches (lila's Rematcher): offer, accept, decline, expire.

A finished game has at most one RematchOffer; when every player accepted, the new game
starts with the same options and the seats rotated by one. The functions run inside the
transaction games.publisher opens and return an Outcome (`rematch_offered` for a new
offer whose expiry must be scheduled, `started` for the new game).
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy

from .core import Outcome, Rejected, SeatPlan, locked, my_seat, save_changes
from .models import Game, RematchOffer
from .moves import start_game


# Why an offer can no longer be accepted, by its status (translated where it is refused).
REFUSED_OFFER = {
    "accepted": gettext_lazy("The rematch offer was accepted."),
    "declined": gettext_lazy("The rematch offer was declined."),
    "expired": gettext_lazy("The rematch offer was expired."),
}


def deadline(offer: RematchOffer) -> datetime:
    return offer.created + timedelta(hours=settings.REMATCH_OFFER_HOURS)


def rematch_offer(game: Game) -> RematchOffer | None:
    """The game's rematch offer. Reading never writes: the expire_rematch task marks an old
    offer expired; until it has run (a late worker), an old offer reads as expired here."""
    if game.is_active:
        return None
    offer = RematchOffer.objects.filter(game=game).select_related("declined_by").first()
    if offer and offer.status == RematchOffer.Status.OPEN and deadline(offer) <= timezone.now():
        offer.status = RematchOffer.Status.EXPIRED
    return offer


def accept(game_id: int, user) -> Outcome:
    """Offer or accept a rematch; when every player accepted, the new game starts."""
    game = locked(game_id)
    seat = my_seat(game, user)
    if game.is_active:
        raise Rejected(_("A rematch is offered once the game is over."), 409)
    offer = rematch_offer(game)
    created = offer is None
    if offer is None:
        offer = RematchOffer.objects.create(game=game)
    if offer.status != RematchOffer.Status.OPEN:
        raise Rejected(str(REFUSED_OFFER.get(offer.status, REFUSED_OFFER["expired"])), 409)
    if user.pk not in offer.accepted_by:
        offer.accepted_by.append(user.pk)
    outcome = Outcome(game, seat.index, applied=True, changed=True,
                      message=_("Rematch offered.") if created else _("Rematch accepted."),
                      rematch_offered=offer if created else None)
    seats = game.ordered_seats()
    if {s.user_id for s in seats if s.user_id} <= set(offer.accepted_by):
        rotated = seats[1:] + seats[:1]
        outcome.started = start_game(
            game.game_slug, [SeatPlan(user=s.user, is_bot=s.is_bot) for s in rotated], game.options,
            pace=game.pace, days_per_move=game.days_per_move, clock_minutes=game.clock_minutes,
            clock_increment=game.clock_increment, shuffle=False, rated=game.is_rated)
        offer.new_game = outcome.started.game
        offer.status = RematchOffer.Status.ACCEPTED
        outcome.message = _("Rematch accepted: the new game has started.")
    offer.save()
    _touched(game, offer)
    return outcome


def _touched(game: Game, offer: RematchOffer) -> None:
    """The offer changed: the game's `updated` moves on (save_changes always writes it), so
    open pages, which skip a pushed panel no newer than the one they show, take this one."""
    save_changes(game)
    game._rematch_offer = offer  # the panels drawn for this change show it


def decline(game_id: int, user) -> Outcome:
    game = locked(game_id)
    seat = my_seat(game, user)
    offer = rematch_offer(game)
    if offer is None or offer.status != RematchOffer.Status.OPEN:
        raise Rejected(_("There is no open rematch offer."), 409)
    offer.status, offer.declined_by = RematchOffer.Status.DECLINED, user
    offer.save(update_fields=["status", "declined_by"])
    _touched(game, offer)
    return Outcome(game, seat.index, applied=True, changed=True, message=_("Rematch declined."))


def expire(game_id: int) -> Outcome:
    """A deadline: an open rematch offer past its time is marked expired. The game row is
    locked (as accept and decline lock it), so an offer accepted meanwhile stays accepted."""
    game = locked(game_id)
    expired = RematchOffer.objects.filter(
        game=game, status=RematchOffer.Status.OPEN,
        created__lte=timezone.now() - timedelta(hours=settings.REMATCH_OFFER_HOURS),
    ).update(status=RematchOffer.Status.EXPIRED)
    if expired:
        _touched(game, RematchOffer.objects.select_related("declined_by").get(game=game))
    return Outcome(game, None, applied=bool(expired), changed=bool(expired))
