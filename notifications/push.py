"""Web Push (RFC 8030) with VAPID (RFC 8292) and aes128gcm payloads (RFC 8291), through
pywebpush. Only the task worker calls send_to_user (notifications.tasks), never a request.

Keys come from the environment (settings.VAPID_*); `manage.py generate_vapid_keys`
prints a pair. Without keys, pushing is off and the settings page says so.
"""
from __future__ import annotations

import base64
import json
import logging

import requests
from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from .models import PushSubscription

log = logging.getLogger(__name__)
GONE = {404, 410}  # the push service forgot the subscription: delete ours
TTL_SECONDS = 24 * 3600  # a turn is still news a day later; older, the inbox and mail cover it


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


def vapid_key() -> Vapid02:
    """The private key: 32 raw bytes, base64url (as generate_vapid_keys prints it)."""
    return Vapid02.from_raw(settings.VAPID_PRIVATE_KEY.encode())


def send_to_user(user_id: int, payload: dict) -> int:
    """Push `payload` (JSON for the service worker) to each of the user's devices.
    Returns how many push services accepted it; gone subscriptions are deleted."""
    if not enabled():
        log.info("push is off (no VAPID keys): nothing sent to user %s", user_id)
        return 0
    delivered = 0
    for subscription in PushSubscription.objects.filter(user_id=user_id):
        if send_one(subscription, payload):
            delivered += 1
    return delivered


def send_one(subscription: PushSubscription, payload: dict) -> bool:
    try:
        webpush(subscription.info(), json.dumps(payload), vapid_private_key=vapid_key(),
                vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=TTL_SECONDS, timeout=10,
                headers={"Urgency": "normal"})
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in GONE:
            log.info("push subscription %s is gone (%s): deleted", subscription.pk, status)
            subscription.delete()
        else:
            log.warning("push to subscription %s failed: %s", subscription.pk, status or exc)
        return False
    except requests.RequestException as exc:
        log.warning("push service of subscription %s unreachable: %s", subscription.pk, exc)
        return False
    PushSubscription.objects.filter(pk=subscription.pk).update(last_used=timezone.now())
    return True
