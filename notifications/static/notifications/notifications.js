// Notifications in the page: the service worker's registration, push subscription (from
// the settings page, or a prompt after your first correspondence move: never on page
// load), the optional sound and title blink when a game becomes yours, and the "Next
// game" shortcut (n).
(() => {
  const me = document.currentScript;
  const options = me ? me.dataset : {};

  // The sentences this script shows, translated by the page (notifications/_head.html).
  const text = (name, english) => options[name] || english;
  const SUBSCRIBED = text("tSubscribed", "This device receives push notifications.");
  const UNSUPPORTED = text("tUnsupported", "This browser cannot receive push notifications.");
  const failed = (error) => `${text("tFailed", "Subscribing failed:")} ${error.message || error}`;
  function escaped(words) {
    const holder = document.createElement("span");
    holder.textContent = words;
    return holder.innerHTML;
  }

  if (options.theme === "light" || options.theme === "dark") document.documentElement.dataset.theme = options.theme;

  function csrfToken() {
    try {
      const headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
      if (headers["X-CSRFToken"]) return headers["X-CSRFToken"];
    } catch (error) { /* fall back to the cookie */ }
    const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  // --- The service worker (the installable app, push display, offline page) -----------------
  const registration = ("serviceWorker" in navigator && options.sw)
    ? navigator.serviceWorker.register(options.sw, {scope: "/"}).catch(() => null)
    : Promise.resolve(null);

  function pushSupported() {
    return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  }

  function keyBytes(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - base64url.length % 4) % 4);
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }

  // Ask the browser for a subscription and give it to the site. Returns a sentence.
  async function subscribe(key, url) {
    if (!pushSupported()) return UNSUPPORTED;
    const permission = await Notification.requestPermission();
    if (permission !== "granted") return text("tBlocked", "Notifications are blocked for this site in your browser.");
    const reg = await navigator.serviceWorker.ready;
    let subscription = await reg.pushManager.getSubscription();
    if (!subscription) {
      subscription = await reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(key)});
    }
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken()},
      body: JSON.stringify(subscription.toJSON()),
    });
    return response.ok ? SUBSCRIBED : text("tRefused", "The site could not register this device.");
  }

  async function showPushState(button, state) {
    if (!pushSupported()) { state.textContent = UNSUPPORTED; return; }
    const reg = await registration;
    const existing = reg ? await reg.pushManager.getSubscription() : null;
    if (existing && Notification.permission === "granted") {
      state.textContent = SUBSCRIBED;
    }
    button.hidden = false;
  }

  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("push-subscribe");
    const state = document.getElementById("push-state");
    if (!button || !state) return;
    showPushState(button, state);
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        state.textContent = await subscribe(button.dataset.key, button.dataset.url);
        if (state.textContent === SUBSCRIBED) window.location.reload();
      } catch (error) {
        state.textContent = failed(error);
      } finally {
        button.disabled = false;
      }
    });
  });

  // --- The prompt after your first correspondence move ------------------------------------
  const PROMPTED = "switchback.push-prompted";
  document.addEventListener("htmx:afterRequest", (event) => {
    const next = document.querySelector("[data-push-prompt]");
    const path = event.detail && event.detail.pathInfo && event.detail.pathInfo.requestPath;
    if (!next || !event.detail.successful || !/\/play\/\d+\/act\//.test(path || "")) return;
    if (!pushSupported() || Notification.permission !== "default" || localStorage.getItem(PROMPTED)) return;
    localStorage.setItem(PROMPTED, "1");
    const box = document.createElement("div");
    box.className = "card push-prompt";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", text("tPush", "Push notifications"));
    box.innerHTML = `<p>${escaped(text("tPrompt", "Get a notification on this device when it is your move?"))}</p>` +
      `<p class="row"><button type="button" class="button" data-answer="yes">${escaped(text("tYes", "Yes, notify me"))}</button>` +
      `<button type="button" class="button secondary" data-answer="no">${escaped(text("tNo", "Not now"))}</button></p><p class="muted" role="status"></p>`;
    document.body.appendChild(box);
    box.addEventListener("click", async (click) => {
      const answer = click.target.closest("[data-answer]");
      if (!answer) return;
      if (answer.dataset.answer === "no") { box.remove(); return; }
      const status = box.querySelector("[role=status]");
      try {
        status.textContent = await subscribe(next.dataset.pushKey, next.dataset.pushPrompt);
      } catch (error) {
        status.textContent = failed(error);
      }
      setTimeout(() => box.remove(), 4000);
    });
  });

  // --- A game becomes yours: optional sound and a short title blink --------------------------
  let lastCount = null;
  function turnCount() {
    const badge = document.getElementById("turn-badge");
    return badge ? parseInt(badge.dataset.count || "0", 10) : null;
  }
  // A mark toggled in front of whatever the title is (site.js keeps the count in it).
  const MARK = "● ";
  function blinkTitle() {
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
      const bare = document.title.startsWith(MARK) ? document.title.slice(MARK.length) : document.title;
      document.title = ticks % 2 && ticks < 8 ? MARK + bare : bare;
      if (ticks >= 8) clearInterval(timer);
    }, 700);
  }
  function chime() {
    if (!options.sound || !options.soundUrl) return;
    const audio = new Audio(options.soundUrl);
    audio.volume = 0.6;
    audio.play().catch(() => { /* the browser wants a click on the page first */ });
  }
  document.addEventListener("DOMContentLoaded", () => { lastCount = turnCount(); });
  document.addEventListener("htmx:oobAfterSwap", () => {
    const count = turnCount();
    if (count !== null && lastCount !== null && count > lastCount) {
      if (options.blink) blinkTitle();
      chime();
    }
    if (count !== null) lastCount = count;
  });

  // --- "Next game": the key n, outside text fields -----------------------------------------
  document.addEventListener("keydown", (event) => {
    if (event.key !== "n" || event.ctrlKey || event.metaKey || event.altKey) return;
    const t = event.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    const link = document.querySelector("a[data-shortcut='n']");
    if (link) { event.preventDefault(); link.click(); }
  });
})();
