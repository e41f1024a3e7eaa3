"""The app listens instead of being called: receivers of the games' and lobby's model
signals turn state changes into inbox lines and pushes. Connected in apps.ready().

A change is a transition between the stored row and the one being saved. The engine keeps
the stored values on the game it holds (`Game._saved_values`), so a game's transition
costs no query; other rows are read once in pre_save, and only when the fields that
matter are among those being saved.
"""
from __future__ import annotations

from collections.abc import Mapping

from django.db.models.signals import post_delete, post_save, pre_save
from django.urls import reverse
from django.utils.translation import gettext as _

from config.header import forget as forget_headers
from games.models import Game, Pace, RematchOffer, Seat
from games.presenters import ordinal
from lobby.models import Table

from . import tasks
from .models import Notification, Preferences
from .services import tell, worded

# Where pre_save leaves the stored values on the instance for post_save (the models do not
# declare these attributes: they belong to this app).
BEFORE = "_notif_before"
BOT_BEFORE = "_notif_bot_before"


def _saving(update_fields, *names: str) -> bool:
    return update_fields is None or bool(set(update_fields) & set(names))


# --- Games: finished, and turns of correspondence games --------------------------------

def game_pre_save(sender, instance: Game, update_fields=None, **kwargs) -> None:
    setattr(instance, BEFORE, _game_before(instance, update_fields))


def _game_before(instance: Game, update_fields) -> Mapping[str, object] | None:
    if instance.pk is None:
        return {"status": None, "waiting_for": []}
    if not _saving(update_fields, "status", "waiting_for"):
        return None
    saved = getattr(instance, "_saved_values", None)
    if saved is not None:
        return {"status": saved["status"], "waiting_for": saved["waiting_for"]}
    return Game.objects.filter(pk=instance.pk).values("status", "waiting_for").first()


def game_post_save(sender, instance: Game, **kwargs) -> None:
    before = getattr(instance, BEFORE, None)
    if not before:
        return
    if before["status"] == Game.Status.ACTIVE and instance.status != Game.Status.ACTIVE:
        game_over(instance)
    elif instance.status == Game.Status.ACTIVE and instance.pace == Pace.CORRESPONDENCE:
        newly = set(instance.waiting_for or []) - set(before["waiting_for"] or [])
        if newly:
            tasks.became_yours(instance, newly)


def game_over(game: Game) -> None:
    players = [(s.user_id, s) for s in game.seats.all() if s.user_id and not s.is_bot]
    url = game.get_absolute_url()
    if game.status == Game.Status.ABORTED:
        tell("game_over", worded([uid for uid, _seat in players],
                                 lambda uid: _("%(game)s was aborted: no result, no rating change.") % {"game": game},
                                 url), game_id=game.pk)
        return
    ranked = {uid: seat for uid, seat in players if seat.rank}

    def ended(uid: int) -> str:
        winners = ", ".join(s.name for s in game.seats.all() if s.rank == 1)
        words = {"game": game, "place": ordinal(ranked[uid].rank or 0), "players": game.players, "winners": winners}
        if not winners:
            return _("%(game)s ended: you placed %(place)s of %(players)s (won by nobody).") % words
        return _("%(game)s ended: you placed %(place)s of %(players)s (won by %(winners)s).") % words
    tell("game_over", worded(ranked, ended, url), game_id=game.pk)


# --- Rematch offers ---------------------------------------------------------------------

def rematch_pre_save(sender, instance: RematchOffer, **kwargs) -> None:
    setattr(instance, BEFORE, (RematchOffer.objects.filter(pk=instance.pk).values("status", "accepted_by").first()
                               if instance.pk else None) or {"status": RematchOffer.Status.OPEN, "accepted_by": []})


def rematch_post_save(sender, instance: RematchOffer, **kwargs) -> None:
    before = getattr(instance, BEFORE, None)
    if before is None:
        return
    game = instance.game
    people = [(s.user_id, s) for s in game.seats.select_related("user") if s.user_id and not s.is_bot]
    names: dict[int | None, str] = {uid: s.name for uid, s in people}  # a None decliner is "A player"
    url = game.get_absolute_url()
    if instance.status == RematchOffer.Status.OPEN and not before["accepted_by"] and instance.accepted_by:
        offerer = instance.accepted_by[0]
        tell("rematch", worded([uid for uid, _seat in people if uid != offerer], lambda uid: _(
            "%(name)s offers a rematch of %(game)s.") % {"name": names.get(offerer) or _("A player"), "game": game},
            url), game_id=game.pk)
    elif before["status"] == RematchOffer.Status.OPEN and instance.status == RematchOffer.Status.ACCEPTED \
            and instance.new_game_id:
        new_url = reverse("games:play", args=[instance.new_game_id])
        tell("rematch", worded([uid for uid, _seat in people],
                               lambda uid: _("The rematch of %(game)s started.") % {"game": game}, new_url),
             game_id=instance.new_game_id)
    elif before["status"] == RematchOffer.Status.OPEN and instance.status == RematchOffer.Status.DECLINED:
        tell("rematch", worded([uid for uid, _seat in people if uid != instance.declined_by_id], lambda uid: _(
            "%(name)s declined the rematch of %(game)s.") % {
                "name": names.get(instance.declined_by_id) or _("A player"), "game": game}, url), game_id=game.pk)


# --- Seats: a bot takes over (time ran out), the player takes the seat back -------------

def seat_pre_save(sender, instance: Seat, update_fields=None, **kwargs) -> None:
    before: object = "unknown"
    if instance.pk and update_fields is not None and "bot_since" in update_fields:
        before = Seat.objects.filter(pk=instance.pk).values_list("bot_since", flat=True).first()
    setattr(instance, BOT_BEFORE, before)


def seat_post_save(sender, instance: Seat, update_fields=None, **kwargs) -> None:
    before = getattr(instance, BOT_BEFORE, "unknown")
    user_id = instance.user_id
    if before == "unknown" or user_id is None or instance.is_bot:
        return
    if "resigned" in (update_fields or ()):  # the player resigned: they know
        return
    took_over = before is None and instance.bot_since is not None
    handed_back = before is not None and instance.bot_since is None
    if not (took_over or handed_back):
        return
    game = instance.game
    url = game.get_absolute_url()
    others = [s.user_id for s in game.seats.all() if s.user_id and not s.is_bot and s.pk != instance.pk]
    player = instance.user
    if player is None:  # never: user_id is set; this tells the type checker
        return
    name = player.username
    words = {"name": name, "game": game}
    if took_over:
        messages = worded([user_id], lambda uid: _(
            "Your time ran out in %(game)s: a bot plays your seat until you take it back.") % words, url)
        messages += worded(others, lambda uid: _("A bot took over %(name)s's seat in %(game)s.") % words, url)
    else:
        messages = worded(others, lambda uid: _("%(name)s is back in %(game)s: the bot handed the seat back.") % words,
                          url)
    tell("seat", messages, game_id=game.pk)


# --- Tables: expired or closed while people sat at them ---------------------------------

def table_post_save(sender, instance: Table, update_fields=None, created=False, **kwargs) -> None:
    if created or not _saving(update_fields, "status"):
        return
    if instance.status not in (Table.Status.EXPIRED, Table.Status.CANCELLED):
        return
    # lobby.services closes a table by saving its status, then removing its seats: the
    # seats are still there now.
    seated = list(instance.seats.filter(user__isnull=False).values_list("user_id", flat=True))
    url = instance.get_absolute_url()
    words = {"title": instance.title, "host": instance.host.username}
    if instance.status == Table.Status.EXPIRED:
        tell("table", worded(seated, lambda uid: _(
            "Your %(title)s table expired: nobody started it for a while.") % words, url))
    else:
        tell("table", worded([uid for uid in seated if uid != instance.host_id], lambda uid: _(
            "%(host)s closed the %(title)s table you sat at.") % words, url))


# --- The header's per-user record (config.header): forgotten on every change it shows -----

def game_header_changed(sender, instance: Game, created=False, update_fields=None, **kwargs) -> None:
    """Whose turn it is (`waiting_for`) or whether the game runs (`status`) changed: its
    players' turn badges. A game just created has no seats yet (they are bulk-created, and
    the engine then saves `waiting_for`: this again, with the seats)."""
    if created or not _saving(update_fields, "status", "waiting_for"):
        return
    if "seats" in getattr(instance, "_prefetched_objects_cache", {}):  # the engine's game: no query
        users = [s.user_id for s in instance.seats.all()]
    else:
        users = list(Seat.objects.filter(game_id=instance.pk).values_list("user_id", flat=True))
    forget_headers(users)


def seat_header_changed(sender, instance: Seat, created=False, update_fields=None, **kwargs) -> None:
    """A seat taken, moved, handed to a bot or back (not a clock's tick: no header shows it)."""
    if created or _saving(update_fields, "user", "index", "bot_since", "resigned"):
        forget_headers([instance.user_id])


def seat_header_deleted(sender, instance: Seat, **kwargs) -> None:
    forget_headers([instance.user_id])


def line_header_changed(sender, instance: Notification, **kwargs) -> None:
    """An inbox line saved one by one (the admin, a test; the site's own writes are bulk or
    queryset updates: notifications.services and the inbox views forget themselves)."""
    forget_headers([instance.user_id])


def line_header_deleted(sender, instance: Notification, **kwargs) -> None:
    """A line expired (tasks.prune_notifications) or deleted with its game: the bell counts
    unread lines only."""
    if not instance.read:
        forget_headers([instance.user_id])


def preferences_header_changed(sender, instance: Preferences, **kwargs) -> None:
    """The tab preferences (sound, blink, theme) are the header's too."""
    forget_headers([instance.user_id])


def connect() -> None:
    uid = "notifications"
    pre_save.connect(game_pre_save, sender=Game, dispatch_uid=f"{uid}.game.pre")
    post_save.connect(game_post_save, sender=Game, dispatch_uid=f"{uid}.game.post")
    pre_save.connect(rematch_pre_save, sender=RematchOffer, dispatch_uid=f"{uid}.rematch.pre")
    post_save.connect(rematch_post_save, sender=RematchOffer, dispatch_uid=f"{uid}.rematch.post")
    pre_save.connect(seat_pre_save, sender=Seat, dispatch_uid=f"{uid}.seat.pre")
    post_save.connect(seat_post_save, sender=Seat, dispatch_uid=f"{uid}.seat.post")
    post_save.connect(table_post_save, sender=Table, dispatch_uid=f"{uid}.table.post")
    post_save.connect(game_header_changed, sender=Game, dispatch_uid=f"{uid}.header.game")
    post_save.connect(seat_header_changed, sender=Seat, dispatch_uid=f"{uid}.header.seat")
    post_delete.connect(seat_header_deleted, sender=Seat, dispatch_uid=f"{uid}.header.seat.deleted")
    post_save.connect(line_header_changed, sender=Notification, dispatch_uid=f"{uid}.header.line")
    post_delete.connect(line_header_deleted, sender=Notification, dispatch_uid=f"{uid}.header.line.deleted")
    post_save.connect(preferences_header_changed, sender=Preferences, dispatch_uid=f"{uid}.header.preferences")
    post_delete.connect(preferences_header_changed, sender=Preferences,
                        dispatch_uid=f"{uid}.header.preferences.deleted")
