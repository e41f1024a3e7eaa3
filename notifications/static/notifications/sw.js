// Switchback's service worker (served at /sw.js so its scope is the whole site).
// It shows push notifications, opens or focuses the right game on a click, and shows an
// offline page when a page cannot load. It caches nothing else: never a game, a board,
// a list or any page with someone's data, so a shared device keeps nothing private.
const CACHE = "switchback-offline-v1";
const OFFLINE_URL = "__OFFLINE_URL__";
const ICON_URL = "__ICON_URL__";

self.addEventListener("install", (event) => {
  // credentials: "omit": the offline page is the same for everybody, fetched without the session.
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll([new Request(OFFLINE_URL, {credentials: "omit"}), ICON_URL]))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

// Pages always come from the network; only when it fails does the offline page answer.
self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE_URL)));
});

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {body: event.data.text()}; }
  const title = data.title || "Switchback";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "", icon: ICON_URL, badge: ICON_URL, tag: data.tag || undefined,
    renotify: Boolean(data.tag), data: {url: data.url || "/"},
  }));
});

// A click opens the notification's page: an open tab already showing it is focused,
// otherwise another open tab of the site is taken there, otherwise a new window opens.
// Resolves to the window client it chose (null for a page of another site). A refused
// focus (the browser decides) keeps what was done: the tab is still the chosen one, or
// already at the game. A named function, so the browser test can run this very code in
// the installed worker (no browser API clicks a notification in a headless Chromium).
function openFromNotification(data) {
  const target = new URL((data && data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) return Promise.resolve(null);
  return (async () => {
    const windows = await self.clients.matchAll({type: "window", includeUncontrolled: true});
    const same = windows.find((client) => new URL(client.url).pathname === target.pathname);
    if (same) return same.focus().catch(() => same);
    // Only a tab this worker controls can be navigated; the others refuse, so try each.
    for (const client of windows) {
      if (!("navigate" in client)) continue;
      const moved = await client.navigate(target.href).catch(() => null);
      if (moved) return moved.focus().catch(() => moved);
    }
    return self.clients.openWindow(target.href);
  })();
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openFromNotification(event.notification.data));
});
