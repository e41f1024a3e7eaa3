"""The installable app in Debian's chromium: the manifest and service worker pass
Chromium's own installability check (CDP Page.getInstallabilityErrors returns none);
with notifications allowed, the settings page's button subscribes this browser and the
site registers the subscription; the worker's push reaches the receiver behind it."""
from __future__ import annotations

import pytest

from tests.browser.fixtures import CHROMIUM, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def profile_context(tmp_path):
    """A browser with a profile on disk: Chromium never calls an incognito window (what
    the `browser` fixture's new_context() gives) installable."""
    import os
    from pathlib import Path

    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (`make browser-deps` does, as root)")

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync"])
        yield context


@pytest.fixture
def push_env(monkeypatch):
    """VAPID keys for the server process (live_site copies the environment)."""
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("generate_vapid_keys", stdout=out, stderr=io.StringIO())
    keys = dict(line.split("=", 1) for line in out.getvalue().split())
    for name, value in keys.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PUSH_ENDPOINT_HOSTS", "127.0.0.1")  # the test's receiver, over plain http
    monkeypatch.setenv("PUSH_ALLOW_HTTP", "1")
    return keys


# Chromium's own PushManager.subscribe() asks Google's push service (FCM) for an endpoint;
# offline (CI, this sandbox) it never answers. The browser test stands in for the push
# service at exactly that boundary: subscribe() returns a subscription of the test's own
# receiver (push_receiver.py), after checking what the page asked for. Everything else is
# the real page, the real site and, below, a real push to that endpoint.
STAND_IN = """
PushManager.prototype.getSubscription = async function () { return window.__subscription || null; };
PushManager.prototype.subscribe = async function (options) {
  // Kept in sessionStorage: the page reloads once the site registered the device.
  sessionStorage.setItem("subscribeCall", JSON.stringify({userVisibleOnly: options.userVisibleOnly,
    key: btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)))}));
  const json = %s;
  window.__subscription = {endpoint: json.endpoint, toJSON: () => json};
  return window.__subscription;
};
"""


@pytest.fixture
def receiver():
    from .push_receiver import PushReceiver

    with PushReceiver() as running:
        yield running


def test_the_app_is_installable_and_subscribing_registers_the_device(push_env, live_site, profile_context, settings,
                                                                     receiver):
    import base64
    import json

    from notifications import push
    from notifications.models import PushSubscription

    from .push_receiver import unb64url

    context = profile_context
    device = receiver.subscribe()
    context.add_init_script(STAND_IN % json.dumps(receiver.subscription_json(device)))
    context.grant_permissions(["notifications"], origin=live_site)
    page = context.new_page()
    sign_up(page, live_site, "pwa_player")
    page.goto(live_site + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    print("installability errors:", errors)
    assert errors == []
    manifest = cdp.send("Page.getAppManifest")
    assert not manifest.get("errors"), manifest.get("errors")

    # A push delivered to the service worker (through DevTools, as a push service would)
    # becomes a notification that carries the page to open on a click.
    registrations: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(50):  # the events arrive asynchronously after enable
        ours = [r for r in registrations if r["scopeURL"] == live_site + "/" and not r.get("isDeleted")]
        if ours:
            break
        page.wait_for_timeout(100)
    registration = ours[0]
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": live_site, "registrationId": registration["registrationId"],
        "data": json.dumps({"title": "Your turn", "body": "Nanga Parbat #7 waits for your move.",
                            "url": "/play/7/", "tag": "game-7"})})
    # Polled from here: page.evaluate awaits the async function's promise, where
    # wait_for_function took the (truthy) promise itself as done and then read null.
    shown = None
    for _ in range(100):
        shown = page.evaluate("""async () => {
          const reg = await navigator.serviceWorker.ready;
          const list = await reg.getNotifications();
          return list.length ? {title: list[0].title, body: list[0].body, url: list[0].data.url} : null;
        }""")
        if shown:
            break
        page.wait_for_timeout(100)
    assert shown == {"title": "Your turn", "body": "Nanga Parbat #7 waits for your move.", "url": "/play/7/"}

    page.goto(live_site + "/notifications/settings/")
    assert page.evaluate("Notification.permission") == "granted"
    with page.expect_response(lambda r: r.url.endswith("/notifications/push/subscribe/")) as answer:
        page.click("#push-subscribe")
    assert answer.value.status == 201
    page.wait_for_selector(".devices")
    call = json.loads(page.evaluate("sessionStorage.getItem('subscribeCall')"))
    assert call["userVisibleOnly"] is True
    assert base64.b64decode(call["key"]) == unb64url(push_env["VAPID_PUBLIC_KEY"])
    [subscription] = PushSubscription.objects.filter(user__username="pwa_player")
    assert subscription.endpoint == receiver.endpoint(device)
    assert "pwa_player" not in (subscription.device or "")

    # The registered subscription works: the worker's sender reaches the device behind it.
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = push_env["VAPID_PRIVATE_KEY"], push_env["VAPID_PUBLIC_KEY"]
    assert push.send_to_user(subscription.user_id, {"title": "Your turn", "body": "test", "url": "/"}) == 1
    assert [r.payload["body"] for r in receiver.received] == ["test"]
