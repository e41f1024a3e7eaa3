"""The app listens instead of being called: receivers of the games' and lobby's model
signals turn state changes into inbox lines and pushes. Connected in apps.ready().

A change is a transition between the stored row and the one being saved. The engine keeps
the stored values on the game it holds (`Game._saved_values`), so a game's transition
costs no query; other rows are read once in pre_save, and only when the fields that
matter are among those being saved.
"""
from __future__ import annotations

from collections.abc import Mapping

from django.db.models.signals import post_save, pre_save
from django.urls import reverse

from games.models import Game, Pace, RematchOffer, Seat
from lobby.models import Table

from . import tasks
from .services import Message, tell

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}

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
        text = f"{game} was aborted: no result, no rating change."
        tell("game_over", [Message(uid, text, url) for uid, _ in players], game_id=game.pk)
        return
    winners = ", ".join(s.name for s in game.seats.all() if s.rank == 1) or "nobody"
    tell("game_over", [Message(uid, f"{game} ended: you placed {ORDINALS.get(s.rank, f'{s.rank}th')} "
                                    f"of {game.players} (won by {winners}).", url)
                       for uid, s in players if s.rank], game_id=game.pk)


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
        text = f"{names.get(offerer, 'A player')} offers a rematch of {game}."
        tell("rematch", [Message(uid, text, url) for uid, _ in people if uid != offerer], game_id=game.pk)
    elif before["status"] == RematchOffer.Status.OPEN and instance.status == RematchOffer.Status.ACCEPTED \
            and instance.new_game_id:
        new_url = reverse("games:play", args=[instance.new_game_id])
        tell("rematch", [Message(uid, f"The rematch of {game} started.", new_url) for uid, _ in people],
             game_id=instance.new_game_id)
    elif before["status"] == RematchOffer.Status.OPEN and instance.status == RematchOffer.Status.DECLINED:
        who = names.get(instance.declined_by_id, "A player")
        tell("rematch", [Message(uid, f"{who} declined the rematch of {game}.", url)
                         for uid, _ in people if uid != instance.declined_by_id], game_id=game.pk)


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
    if took_over:
        messages = [Message(user_id, f"Your time ran out in {game}: a bot plays your seat until you take "
                                     "it back.", url)]
        messages += [Message(uid, f"A bot took over {name}'s seat in {game}.", url) for uid in others]
    else:
        messages = [Message(uid, f"{name} is back in {game}: the bot handed the seat back.", url)
                    for uid in others]
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
    if instance.status == Table.Status.EXPIRED:
        text = f"Your {instance.title} table expired: nobody started it for a while."
        recipients = seated
    else:
        text = f"{instance.host.username} closed the {instance.title} table you sat at."
        recipients = [uid for uid in seated if uid != instance.host_id]
    tell("table", [Message(uid, text, url) for uid in recipients])


def connect() -> None:
    uid = "notifications"
    pre_save.connect(game_pre_save, sender=Game, dispatch_uid=f"{uid}.game.pre")
    post_save.connect(game_post_save, sender=Game, dispatch_uid=f"{uid}.game.post")
    pre_save.connect(rematch_pre_save, sender=RematchOffer, dispatch_uid=f"{uid}.rematch.pre")
    post_save.connect(rematch_post_save, sender=RematchOffer, dispatch_uid=f"{uid}.rematch.post")
    pre_save.connect(seat_pre_save, sender=Seat, dispatch_uid=f"{uid}.seat.pre")
    post_save.connect(seat_post_save, sender=Seat, dispatch_uid=f"{uid}.seat.post")
    post_save.connect(table_post_save, sender=Table, dispatch_uid=f"{uid}.table.post")
