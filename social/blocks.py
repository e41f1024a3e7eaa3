"""The block list, as every app asks it: `is_blocked(a, b)` is true when either blocked
the other (a block works both ways: neither can challenge, seat, pair with or chat to the
other)."""
from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q
from django.utils.translation import gettext as _

from .models import Block


def _pk(user) -> int | None:
    return getattr(user, "pk", user)


def is_blocked(a, b) -> bool:
    a_id, b_id = _pk(a), _pk(b)
    if a_id is None or b_id is None or a_id == b_id:
        return False
    return Block.objects.filter(Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)).exists()


def blocked_among(user, others: Iterable) -> set[int]:
    """Which of `others` (users or ids) `user` blocked or is blocked by: one query."""
    ids = {_pk(o) for o in others} - {None}
    me = _pk(user)
    rows = Block.objects.filter(Q(blocker_id=me, blocked_id__in=ids) | Q(blocked_id=me, blocker_id__in=ids))
    return {b if a == me else a for a, b in rows.values_list("blocker_id", "blocked_id")}


def blocked_pairs(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """Every blocked pair among `user_ids`, as the pairers take them: one query."""
    ids = list(user_ids)
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list("blocker_id", "blocked_id")
    return {frozenset(row) for row in rows}


def block(blocker, blocked) -> None:
    if _pk(blocker) == _pk(blocked):
        raise ValueError(_("You cannot block yourself."))
    Block.objects.get_or_create(blocker_id=_pk(blocker), blocked_id=_pk(blocked))
    from .models import Follow

    Follow.objects.filter(Q(follower_id=_pk(blocker), followee_id=_pk(blocked))
                          | Q(follower_id=_pk(blocked), followee_id=_pk(blocker))).delete()


def unblock(blocker, blocked) -> None:
    Block.objects.filter(blocker_id=_pk(blocker), blocked_id=_pk(blocked)).delete()
