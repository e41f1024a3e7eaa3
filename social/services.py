"""Finding people and games: search, follow, friends playing, reliability, direct
challenges and quick pairing. Every game starts through games.engine.start_game."""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.i18n import in_users_language
from games import engine, presence
from games.models import Game, Pace, Seat

from . import pools
from .blocks import blocked_among, blocked_pairs, is_blocked
from .models import CHALLENGE_LIFETIME, Challenge, Follow, Invite, Seek

log = logging.getLogger(__name__)
SEARCH_LIMIT = 30
# A live seek stays in the pool while its page polls; this long after the last poll it leaves.
LIVE_SEEK_GRACE = timedelta(seconds=20)
CORRESPONDENCE_SEEK_LIFETIME = timedelta(days=7)


class SocialError(Exception):
    """A refused action, with a message a player understands."""


# --- Players -----------------------------------------------------------------------------

def search(query: str) -> list:
    """Players whose name starts with `query`, any case: one query on the UPPER(username)
    index of social's first migration."""
    query = query.strip()
    if not query:
        return []
    users = get_user_model().objects.filter(username__istartswith=query, is_active=True)
    return list(users.order_by("username").only("username", "date_joined")[:SEARCH_LIMIT])


def follow(follower, followee) -> None:
    if follower.pk == followee.pk:
        raise SocialError(_("You cannot follow yourself."))
    if is_blocked(follower, followee):
        raise SocialError(_("You cannot follow a blocked player."))
    Follow.objects.get_or_create(follower=follower, followee=followee)


def unfollow(follower, followee) -> None:
    Follow.objects.filter(follower=follower, followee=followee).delete()


@dataclass
class Friend:
    user: object
    online: bool
    games: list


def friends_now(user, limit: int = 50) -> list[Friend]:
    """The players `user` follows who are online or playing now (three queries)."""
    followed = list(get_user_model().objects.filter(followers__follower=user).order_by("username")[:limit])
    games: dict[int, list] = {}
    seats = Seat.objects.filter(user__in=followed, game__status=Game.Status.ACTIVE).select_related("game")
    for seat in seats.defer("game__state"):
        if seat.user_id is not None:
            games.setdefault(seat.user_id, []).append(seat.game)
    friends = [Friend(u, presence.is_online(u.pk), games.get(u.pk, [])) for u in followed]
    return [f for f in friends if f.online or f.games]


@dataclass
class Reliability:
    games: int
    finished: int
    resigned: int
    timed_out: int

    def share(self, count: int) -> int:
        return round(100 * count / self.games) if self.games else 0

    @property
    def finished_share(self) -> int:
        return self.share(self.finished)

    @property
    def resigned_share(self) -> int:
        return self.share(self.resigned)

    @property
    def timed_out_share(self) -> int:
        return self.share(self.timed_out)


def reliability(user, last: int = 100) -> Reliability:
    """Over the player's last `last` ended games: played to the end, resigned, or timed out
    (a bot took the seat and the player never came back)."""
    rows = list(Seat.objects.filter(user=user, game__status=Game.Status.FINISHED)
                .order_by("-game__finished_at").values_list("resigned", "bot_since")[:last])
    resigned = sum(1 for r, _ in rows if r)
    timed_out = sum(1 for r, since in rows if not r and since is not None)
    return Reliability(len(rows), len(rows) - resigned - timed_out, resigned, timed_out)


# --- Direct challenges -------------------------------------------------------------------

def _tell(user, words: Callable[[], tuple[str, str]]) -> None:
    """Mail `user` the (subject, body) that `words()` gives, written in the recipient's
    language and time zone (config.i18n), not the sender's."""
    if user.email:
        with in_users_language(user):
            subject, body = words()
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email], fail_silently=True)


def _link(path: str) -> str:
    return f"{getattr(settings, 'SITE_URL', '').rstrip('/')}{path}"


def _challenged_words(sender, challenge: Challenge) -> Callable[[], tuple[str, str]]:
    return lambda: (_("%(name)s challenges you to %(game)s") % {"name": sender.username, "game": challenge.title},
                    _("Accept or decline: %(link)s") % {"link": _link(reverse("social:challenges"))})


def _declined_words(user, challenge: Challenge) -> Callable[[], tuple[str, str]]:
    return lambda: (_("%(name)s declined your challenge") % {"name": user.username},
                    _("%(name)s declined your %(game)s challenge.") % {"name": user.username,
                                                                        "game": challenge.title})


def _expired_words(challenge: Challenge) -> Callable[[], tuple[str, str]]:
    return lambda: (_("Your challenge expired"),
                    _("Nobody answered your %(game)s challenge within 7 days.") % {"game": challenge.title})


def create_challenge(sender, invitees: list, terms: dict, after_game: Game | None = None) -> Challenge:
    """A challenge to one or more players; the seats they leave free are played by bots."""
    invitees = list({u.pk: u for u in invitees}.values())
    if any(u.pk == sender.pk for u in invitees):
        raise SocialError(_("You cannot challenge yourself."))
    if not invitees:
        raise SocialError(_("Name at least one player to challenge."))
    if blocked_among(sender, invitees):
        raise SocialError(_("You cannot challenge a player who blocked you or whom you blocked."))
    if len(invitees) + 1 > terms["seats"]:
        raise SocialError(_("More players than seats: add seats or invite fewer players."))
    with transaction.atomic():
        challenge = Challenge.objects.create(sender=sender, after_game=after_game,
                                             expires_at=timezone.now() + CHALLENGE_LIFETIME, **terms)
        Invite.objects.bulk_create(Invite(challenge=challenge, user=u) for u in invitees)
    for user in invitees:
        _tell(user, _challenged_words(sender, challenge))
    return challenge


def _open_invite(challenge_id: int, user) -> tuple[Challenge, Invite]:
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    invite = Invite.objects.filter(challenge_id=challenge_id, user=user).first()
    if challenge is None or invite is None:
        raise SocialError(_("No such challenge for you."))
    if challenge.status != Challenge.Status.OPEN:
        raise SocialError(_("This challenge is no longer open (%(status)s).")
                          % {"status": _lowercase_first(challenge.get_status_display())})
    return challenge, invite


def _lowercase_first(text: str) -> str:
    """A status inside a sentence: "Accepted: the game started" -> "accepted: the game started"
    (German keeps its nouns' capitals: "angenommen: die Partie hat begonnen")."""
    return text[:1].lower() + text[1:]


def accept(challenge_id: int, user) -> Challenge:
    """Accept; the last acceptance starts the game through the engine."""
    with transaction.atomic():
        challenge, invite = _open_invite(challenge_id, user)
        invite.answer = Invite.Answer.ACCEPTED
        invite.save(update_fields=["answer"])
        invites = list(challenge.invites.select_related("user"))
        if all(i.answer == Invite.Answer.ACCEPTED for i in invites):
            challenge.game = _start(challenge, [challenge.sender, *[i.user for i in invites]])
            challenge.status = Challenge.Status.ACCEPTED
            challenge.save(update_fields=["game", "status"])
    return challenge


def _start(terms, people: list) -> Game:
    plans = [engine.SeatPlan(user=u) for u in people]
    plans += [engine.SeatPlan(is_bot=True) for _ in range(terms.seats - len(people))]
    return engine.start_game(terms.game_slug, plans, terms.options, pace=terms.pace,
                             days_per_move=terms.days_per_move, clock_minutes=terms.clock_minutes,
                             clock_increment=terms.clock_increment, rated=terms.rated)


def decline(challenge_id: int, user) -> Challenge:
    with transaction.atomic():
        challenge, invite = _open_invite(challenge_id, user)
        invite.answer = Invite.Answer.DECLINED
        invite.save(update_fields=["answer"])
        challenge.status = Challenge.Status.DECLINED
        challenge.save(update_fields=["status"])
    _tell(challenge.sender, _declined_words(user, challenge))
    return challenge


def cancel(challenge_id: int, sender) -> None:
    Challenge.objects.filter(pk=challenge_id, sender=sender, status=Challenge.Status.OPEN).update(
        status=Challenge.Status.CANCELLED)


def expire_challenges(now: datetime | None = None) -> int:
    """Open challenges older than 7 days expire; each sender is told."""
    now = now or timezone.now()
    stale = list(Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__lte=now).select_related("sender"))
    Challenge.objects.filter(pk__in=[c.pk for c in stale]).update(status=Challenge.Status.EXPIRED)
    for challenge in stale:
        _tell(challenge.sender, _expired_words(challenge))
    return len(stale)


# --- Quick pairing -----------------------------------------------------------------------

def _rating(user, slug: str) -> float:
    from accounts.models import displayed_rating

    return float(displayed_rating(user, slug))


def seek(user, terms: dict) -> Seek:
    """Join the pool for these terms (any earlier waiting seek of the player is cancelled),
    then try to pair at once."""
    Seek.objects.filter(user=user, status=Seek.Status.WAITING).update(status=Seek.Status.CANCELLED)
    mine = Seek.objects.create(user=user, rating=_rating(user, terms["game_slug"]), **terms)
    pair_pool(mine.game_slug, mine.pace, mine.seats)
    mine.refresh_from_db()
    return mine


def cancel_seek(seek_id: int, user) -> None:
    Seek.objects.filter(pk=seek_id, user=user, status=Seek.Status.WAITING).update(status=Seek.Status.CANCELLED)


def seen(seek_obj: Seek) -> None:
    Seek.objects.filter(pk=seek_obj.pk, status=Seek.Status.WAITING).update(last_seen=timezone.now())


def _waiting(slug: str, pace: str, seats: int, now: datetime):
    waiting = Seek.objects.filter(status=Seek.Status.WAITING, game_slug=slug, pace=pace, seats=seats)
    if pace == Pace.LIVE:
        return waiting.filter(last_seen__gte=now - LIVE_SEEK_GRACE)
    return waiting.filter(created__gte=now - CORRESPONDENCE_SEEK_LIFETIME)


def pair_pool(slug: str, pace: str, seats: int, now: datetime | None = None) -> int:
    """Pair the pool's waiting players closest in rating (pools.match); returns games started."""
    now = now or timezone.now()
    with transaction.atomic():
        waiting = {s.pk: s for s in _waiting(slug, pace, seats, now).select_for_update().select_related("user")}
        if len(waiting) < seats:
            return 0
        seekers = [pools.Seeker(s.pk, s.user_id, s.rating, (now - s.created).total_seconds())
                   for s in waiting.values()]
        groups = pools.match(seekers, seats, blocked_pairs(s.user_id for s in waiting.values()),
                             live=pace == Pace.LIVE)
        for group in groups:
            members = [waiting[pk] for pk in group]
            game = _start(members[0], [s.user for s in members])
            Seek.objects.filter(pk__in=group).update(status=Seek.Status.PAIRED, game=game)
    return len(groups)


def pair_all_pools(now: datetime | None = None) -> int:
    """The worker's pass: expire stale seeks, then pair every pool that has players."""
    now = now or timezone.now()
    Seek.objects.filter(Q(status=Seek.Status.WAITING) & (
        Q(pace=Pace.LIVE, last_seen__lt=now - LIVE_SEEK_GRACE)
        | Q(pace=Pace.CORRESPONDENCE, created__lt=now - CORRESPONDENCE_SEEK_LIFETIME))
    ).update(status=Seek.Status.EXPIRED)
    pools_waiting = (Seek.objects.filter(status=Seek.Status.WAITING)
                     .values_list("game_slug", "pace", "seats").distinct())
    return sum(pair_pool(slug, pace, seats, now) for slug, pace, seats in pools_waiting)
