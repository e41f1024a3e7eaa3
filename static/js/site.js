// Switchback's little JS: htmx settings, a progress bar, and redirects pushed by sockets.
document.addEventListener("DOMContentLoaded", () => {
  if (!window.htmx) return;
  // New controls become live in the settle step: settle at once, so a board is clickable
  // the moment it is drawn (we use no CSS settle transitions).
  htmx.config.defaultSettleDelay = 0;
  // Refusals (4xx) carry the fresh board and a message: swap them in like successes.
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "4..", swap: true, error: false },
    { code: "5..", swap: false, error: true },
  ];
  const bar = document.getElementById("progress");
  document.body.addEventListener("htmx:beforeRequest", () => bar && bar.classList.add("on"));
  document.body.addEventListener("htmx:afterRequest", () => bar && bar.classList.remove("on"));
  document.body.addEventListener("htmx:sendError", () => alert(pageText("offline", "The server could not be reached. Check your connection.")));
  // A live update for a game state this page already shows (typically the echo of our own
  // move, arriving after its answer) would only wipe a half-made choice: skip it.
  document.body.addEventListener("htmx:oobBeforeSwap", (event) => {
    const current = event.detail.target;
    if (!current || current.id !== "game-panel") return;
    const incoming = event.detail.fragment.querySelector && event.detail.fragment.querySelector("#game-panel");
    const seen = parseFloat(current.dataset.revision || "0");
    if (incoming && parseFloat(incoming.dataset.revision || "0") <= seen) event.detail.shouldSwap = false;
  });
  // A live update may say "the game has started: go there". Not while this page is
  // already leaving (its own form post, e.g. the join that started the game, goes there
  // too): a second navigation would abort the first.
  let leaving = false;
  document.addEventListener("submit", (event) => { if (!event.defaultPrevented) leaving = true; });
  window.addEventListener("beforeunload", () => { leaving = true; });
  const follow = () => {
    const el = document.querySelector("[data-redirect]");
    if (el && !leaving) window.location.assign(el.dataset.redirect);
  };
  document.body.addEventListener("htmx:oobAfterSwap", follow);
  document.body.addEventListener("htmx:afterSwap", follow);   // a card a polling page fetched (lobby.live)
  document.body.addEventListener("htmx:oobAfterSwap", showTurnCount);
  document.body.addEventListener("htmx:wsAfterMessage", showTurnCount);
  // "My games" follows the badge: when the socket (or the polling of lobby.live) brings a
  // new badge, redraw the lists.
  const followBadge = (event) => {
    const list = document.getElementById("my-games");
    if (list && event.detail.target && event.detail.target.id === "turn-badge") {
      htmx.ajax("GET", list.dataset.src, { target: "#my-games", swap: "outerHTML" });
    }
  };
  document.body.addEventListener("htmx:oobAfterSwap", followBadge);
  document.body.addEventListener("htmx:afterSwap", followBadge);
  document.body.addEventListener("htmx:afterSwap", showTurnCount);
  document.body.addEventListener("htmx:wsAfterMessage", follow);
  follow();
});

// Sentences this script shows come translated with the page: <body data-text-NAME> (base.html).
function pageText(name, english) {
  const key = "text" + name.charAt(0).toUpperCase() + name.slice(1);
  return (document.body && document.body.dataset[key]) || english;
}

// Moments in the reader's zone and language (config/local_time.py draws them as
// <time datetime="UTC ISO" data-zone="the zone the server used" data-shows="datetime|date|time...">).
// Pages come drawn in the player's zone already; HTML pushed over a socket is drawn in UTC,
// and a visitor's pages too: those are redrawn here, in <body data-time-zone> (a player's
// setting) or else the browser's own zone, with Intl in the page's language (<html lang>).
function pageTimeZone() {
  const chosen = document.body && document.body.dataset.timeZone;
  if (chosen) return chosen;
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"; } catch (err) { return "UTC"; }
}
const MOMENT_PARTS = {
  date: { month: "short", day: "numeric" },
  time: { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" },
};
function localizeTimes(root) {
  if (!root || !root.querySelectorAll || !window.Intl) return;
  const zone = pageTimeZone();
  const lang = document.documentElement.lang || "en";
  root.querySelectorAll("time[datetime][data-zone]").forEach((el) => {
    if (el.dataset.zone === zone) return;
    const moment = new Date(el.getAttribute("datetime"));
    if (isNaN(moment)) return;
    const shows = el.dataset.shows || "datetime";
    const options = { timeZone: zone };
    if (shows.startsWith("date")) Object.assign(options, MOMENT_PARTS.date);
    if (shows.includes("time")) Object.assign(options, MOMENT_PARTS.time);
    if (shows.includes("seconds")) options.second = "2-digit";
    if (shows.includes("year")) options.year = "numeric";
    try {
      el.textContent = new Intl.DateTimeFormat(lang, options).format(moment);
      el.dataset.zone = zone;
    } catch (err) { /* an unknown zone: the server's text stays */ }
  });
}
document.addEventListener("DOMContentLoaded", () => {
  localizeTimes(document.body);
  // Whatever htmx swaps in (a pushed panel, a polled card, a page of a list) and anything
  // else added later: redrawn as it arrives.
  new MutationObserver((records) => {
    records.forEach((record) => record.addedNodes.forEach((node) => {
      if (node.nodeType !== 1) return;
      if (node.matches("time[datetime][data-zone]")) localizeTimes(node.parentElement);
      else localizeTimes(node);
    }));
  }).observe(document.body, { childList: true, subtree: true });
});

// Sign-up guesses the player's time zone from the browser (accounts.forms.SignupForm;
// the server keeps it only when it is a zone it knows).
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("input[data-guess-time-zone]").forEach((field) => {
    try { field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (err) { /* UTC */ }
  });
});

// The language chooser in the header (base.html) goes as soon as a language is picked;
// its button is for pages without this script.
document.documentElement.classList.add("js");
document.addEventListener("change", (event) => {
  const select = event.target;
  if (select instanceof HTMLSelectElement && select.hasAttribute("data-autosubmit") && select.form) {
    select.form.requestSubmit();
  }
});

// Half-made moves (games/selection.py documents the convention). The board root carries
// data-sel-root, data-sel (the ?sel= it was drawn with), data-sel-key (what that selection
// belongs to, e.g. the seat's turn) and data-panel-url. A live update is drawn without the
// selection: ask for it again while the key is the same.
(function () {
  let kept = { sel: "", key: null };
  let focusWanted = null;   // data-sel-focus of the target to refocus after a swap ("" : first target)
  let refocusing = false;   // our own focus() call: it keeps the wish as it was
  const root = () => document.querySelector("[data-sel-root]");

  // A board may draw the same targets twice, one copy per screen size, and hide the other
  // with CSS (display: none), or show a part of it (visibility: hidden on the rest): only
  // targets on screen can take focus.
  const isShown = (el) => el.getClientRects().length > 0
    && (!el.checkVisibility || el.checkVisibility({ visibilityProperty: true }));

  function remember() {
    const r = root();
    kept = r ? { sel: r.dataset.sel || "", key: r.dataset.selKey || "" } : { sel: "", key: null };
  }

  // The wish outlives a swap: our own move is answered by one swap and echoed by the live
  // update after it (a second swap), and each may take the focused control away. It ends
  // only when focus goes somewhere else on purpose (focusin or a pointer outside the board).
  function refocus() {
    const r = root();
    if (!r || focusWanted === null) return;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    const shown = [...r.querySelectorAll(".sel-target")].filter(isShown);
    const el = (focusWanted && shown.find((t) => t.dataset.selFocus === focusWanted)) || shown[0];
    if (!el) return;
    refocusing = true;
    try { el.focus({ preventScroll: true }); } finally { refocusing = false; }
  }

  // The panel's address with the page's half-made choice, for a redraw the page asks for
  // itself (the polling below): the same choice a live update keeps.
  window.panelUrlKeepingChoice = () => {
    const r = root();
    if (!r || !r.dataset.panelUrl) return null;
    const sel = r.dataset.sel || (r.dataset.selKey === kept.key ? kept.sel : "");
    return sel ? `${r.dataset.panelUrl}?sel=${encodeURIComponent(sel)}` : r.dataset.panelUrl;
  };

  document.addEventListener("DOMContentLoaded", remember);
  // A page drawn at this page's request: its selection is the page's selection now.
  document.addEventListener("htmx:afterSwap", () => { remember(); refocus(); });
  document.addEventListener("htmx:wsAfterMessage", () => {
    const r = root();
    if (r && kept.sel && !r.dataset.sel && r.dataset.selKey === kept.key && r.dataset.panelUrl) {
      htmx.ajax("GET", `${r.dataset.panelUrl}?sel=${encodeURIComponent(kept.sel)}`, { target: "#live", swap: "innerHTML" });
    } else {
      remember();
      refocus();
    }
  });
  document.addEventListener("focusin", (event) => {
    if (refocusing) return;
    const t = event.target.closest && event.target.closest("[data-sel-root] .sel-target");
    focusWanted = t ? (t.dataset.selFocus || "") : null;
  });
  document.addEventListener("pointerdown", (event) => {
    const r = root();
    if (!r || !r.contains(event.target)) focusWanted = null;
  });

  function press(el) {
    if (!el || el.disabled) return false;
    if (window.htmx) htmx.process(el);   // a key pressed right after a swap, before htmx settles
    el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    return true;
  }

  // The nearest highlighted target in the arrow's direction (by on-screen centres).
  function nearest(targets, current, key) {
    const a = current.getBoundingClientRect();
    const ax = a.left + a.width / 2, ay = a.top + a.height / 2;
    const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
    let best = null, bestScore = Infinity;
    for (const t of targets) {
      if (t === current) continue;
      const b = t.getBoundingClientRect();
      const x = b.left + b.width / 2 - ax, y = b.top + b.height / 2 - ay;
      const along = x * dx + y * dy;
      if (along <= 1) continue;
      const score = along + 2 * Math.abs(x * dy - y * dx);
      if (score < bestScore) { bestScore = score; best = t; }
    }
    return best;
  }

  document.addEventListener("keydown", (event) => {
    const r = root();
    if (!r || event.ctrlKey || event.metaKey || event.altKey) return;
    const t = event.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (event.key === "Escape") {
      if (press(r.querySelector("[data-sel-cancel]"))) event.preventDefault();
      return;
    }
    const inside = t && t.closest && r.contains(t);
    if ((event.key === "Enter" || event.key === " ") && inside) {
      const control = t.closest("[role=button]");
      if (control && control.tagName !== "BUTTON" && control.tagName !== "A") { event.preventDefault(); press(control); }
      return;
    }
    // Only from inside the board: with nothing focused the arrows still scroll the page.
    if (event.key.startsWith("Arrow") && inside) {
      const targets = [...r.querySelectorAll(".sel-target")].filter(isShown);
      if (!targets.length) return;
      const current = t.closest && t.closest(".sel-target");
      const next = current ? nearest(targets, current, event.key) : targets[0];
      event.preventDefault();
      if (next) next.focus();
    }
  });
})();

// The invite link selects itself on click (an inline onclick would break the CSP).
document.addEventListener("click", (event) => {
  const input = event.target.closest && event.target.closest("input.invite");
  if (input) input.select();
});

// A copy button: <button data-copy="#selector"> copies that field's value and says so in the
// status element beside it (a polite live region).
document.addEventListener("click", async (event) => {
  const button = event.target.closest && event.target.closest("[data-copy]");
  if (!button) return;
  const field = document.querySelector(button.dataset.copy);
  const status = button.parentElement.querySelector("[role=status]");
  if (!field) return;
  let copied = false;
  try {
    await navigator.clipboard.writeText(field.value);
    copied = true;
  } catch (err) {
    field.select();
    copied = document.execCommand && document.execCommand("copy");
  }
  if (status) status.textContent = copied ? pageText("copied", "Copied.") : pageText("copyFailed", "Select the link and copy it.");
});

// The create-table form shows only the fields of the chosen pace (data-pace on a field:
// "live" for the clock, "correspondence" for the time per move). Without this script every
// field shows, and the server ignores the other pace's fields.
function showPaceFields() {
  const form = document.getElementById("table-form");
  if (!form) return;
  const chosen = form.querySelector("input[name=pace]:checked");
  form.querySelectorAll("[data-pace]").forEach((el) => {
    el.hidden = Boolean(chosen) && el.dataset.pace !== chosen.value;
  });
  // The custom clock's minutes and increment only while "custom" is the chosen clock.
  const clock = form.querySelector("select[name=clock]");
  form.querySelectorAll("[data-clock]").forEach((el) => {
    if (clock && clock.value !== el.dataset.clock) el.hidden = true;
  });
}
document.addEventListener("DOMContentLoaded", showPaceFields);
document.addEventListener("htmx:afterSwap", showPaceFields);
document.addEventListener("change", (event) => {
  if (event.target.name === "pace" || event.target.name === "clock") showPaceFields();
});

// The tab title starts with the number of games waiting for you, e.g. "(2) Lobby".
function showTurnCount() {
  const badge = document.getElementById("turn-badge");
  if (!badge) return;
  const count = parseInt(badge.dataset.count || "0", 10);
  const bare = document.title.replace(/^\(\d+\) /, "");
  document.title = count > 0 ? `(${count}) ${bare}` : bare;
}

// Seat clocks count down between updates. The server's figure (data-remaining, seconds
// when the page was drawn) is the truth: each redraw replaces it, the page only subtracts
// the seconds elapsed since it arrived.
// Days and hours are worded as the page's language says (data-day-format on the clock list,
// games/shell.py's clocks: "%(days)sd %(hours)sh" in English).
function formatClock(seconds, dayFormat) {
  seconds = Math.max(0, Math.floor(seconds));
  const d = Math.floor(seconds / 86400), h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  if (d) return (dayFormat || "%(days)sd %(hours)sh").replace("%(days)s", d).replace("%(hours)s", h);
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
setInterval(() => {
  const now = Date.now();
  document.querySelectorAll(".clock[data-remaining]").forEach((el) => {
    if (!el.dataset.drawnAt) el.dataset.drawnAt = String(now);
    const left = parseInt(el.dataset.remaining, 10) - (now - parseInt(el.dataset.drawnAt, 10)) / 1000;
    const list = el.closest("[data-day-format]");
    el.textContent = formatClock(left, list && list.dataset.dayFormat);
    el.classList.toggle("low", left < 30);
  });
}, 1000);

// Pages that poll for what their socket cannot bring (lobby/live.py explains when and why):
// with the in-memory channel layer of `make run` (body data-live-poll, in ms; 0 otherwise)
// the worker's changes (a clock run out, a rematch expired, idle tables closed) never reach
// the socket. Each element with data-live-version asks that URL for a fingerprint of what
// it shows; when the fingerprint changes, it fetches its fragment again (data-live-src, or
// the game panel with the page's half-made choice) into data-live-target.
(function () {
  const interval = parseInt((document.body && document.body.dataset.livePoll) || "0", 10);
  if (!interval) return;
  const seen = new WeakMap();
  const fragmentUrl = (el) => el.dataset.liveSrc || window.panelUrlKeepingChoice() || el.dataset.livePanel;
  async function check(el) {
    let answer;
    try {
      answer = await fetch(el.dataset.liveVersion, { headers: { "Accept": "text/plain" }, cache: "no-store" });
    } catch (err) {
      return;   // offline for a moment: ask again next time
    }
    if (!answer.ok) return;
    const print = await answer.text();
    const before = seen.get(el);
    seen.set(el, print);
    const url = fragmentUrl(el);
    if (before !== undefined && before !== print && url && window.htmx) {
      const target = el.dataset.liveTarget;
      htmx.ajax("GET", url, { target, swap: target === "#live" ? "innerHTML" : "outerHTML" });
    }
  }
  const pollAll = () => {
    if (document.visibilityState === "hidden") return;
    document.querySelectorAll("[data-live-version]").forEach(check);
  };
  document.addEventListener("DOMContentLoaded", pollAll);
  setInterval(pollAll, interval);
})();

// Screen readers hear each live update's last event: the panel carries it in
// data-last-event; the #announcer region (outside the swapped panel) says it once.
(function () {
  let said = null;
  function announce() {
    const region = document.getElementById("announcer");
    const panel = document.getElementById("game-panel");
    if (!region || !panel) return;
    const text = panel.dataset.lastEvent || "";
    if (said === null) { said = text; return; }   // the page as loaded: nothing new to say
    if (text && text !== said) region.textContent = text;
    said = text;
  }
  document.addEventListener("DOMContentLoaded", announce);
  document.addEventListener("htmx:afterSwap", announce);
  document.addEventListener("htmx:oobAfterSwap", announce);
  document.addEventListener("htmx:wsAfterMessage", announce);
})();

// Replays step with the left and right arrow keys (the slider keeps its own arrows; each
// step's address goes into the history, so a step can be shared or reloaded).
document.addEventListener("keydown", (event) => {
  if (!document.querySelector("[data-replay-keys]") || event.ctrlKey || event.metaKey || event.altKey) return;
  const t = event.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
  const button = event.key === "ArrowLeft" ? document.querySelector("[data-replay-prev]")
    : event.key === "ArrowRight" ? document.querySelector("[data-replay-next]") : null;
  if (button && !button.disabled) {
    event.preventDefault();
    button.click();
  }
});

// Chat lines are rendered once for every reader (chat.services.broadcast), so a live line
// carries "mute" and "report" for anyone. The chat box names its reader (data-reader, empty
// when logged out): hide those controls on the reader's own lines, and everywhere for
// anonymous readers. A live line the box already shows (our own post's answer redrew the
// box first) is not added twice.
function tidyChat() {
  const box = document.getElementById("chat-box");
  if (!box || box.dataset.reader === undefined) return;
  box.querySelectorAll(".chat-line[data-author]").forEach((line) => {
    const tools = line.querySelector(".chat-tools");
    if (tools) tools.hidden = !box.dataset.reader || line.dataset.author === box.dataset.reader;
  });
  const empty = box.querySelector(".chat-empty");
  if (empty) empty.hidden = box.querySelector(".chat-line") !== null;
}
document.addEventListener("DOMContentLoaded", tidyChat);
document.addEventListener("htmx:afterSwap", tidyChat);
document.addEventListener("htmx:oobAfterSwap", tidyChat);
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const target = event.detail.target;
  if (!target || target.id !== "chat-lines" || !event.detail.fragment.querySelectorAll) return;
  const lines = Array.from(event.detail.fragment.querySelectorAll(".chat-line[id]"));
  if (lines.length && lines.every((line) => document.getElementById(line.id))) event.detail.shouldSwap = false;
});

// Live pushes carry only what changed in the panel (games/regions.py). A delta starts with
// the #gp-delta marker: the revision it applies on top of (data-base), the panel's new
// revision, version and last event; then records separated by U+001E, each "REGION PATH"
// (or "REGION PATH =", or "gp-history +"), a newline and HTML. On top of this page's
// revision the records are applied (each element's path is checked first: all or none);
// an older delta (the echo of our own move) is skipped; on any other revision (a push was
// lost or came out of order), or when a path does not match, the page fetches its whole
// panel instead. A full panel (connect, heal, a first push) is htmx's out-of-band swap.
(function () {
  let fetching = false;
  function fetchWholePanel() {
    const live = document.getElementById("live");
    const url = (window.panelUrlKeepingChoice && window.panelUrlKeepingChoice()) || (live && live.dataset.livePanel);
    if (!url || !window.htmx || fetching) return;
    fetching = true;
    htmx.ajax("GET", url, { target: "#live", swap: "innerHTML" }).finally(() => { fetching = false; });
  }
  // The element a record names: the region's wrapper, then child by child ("3.g" = the
  // fourth child element, a <g>); null when the page's tree is not the one the server cut.
  function locate(regionId, path) {
    let el = document.getElementById(regionId);
    if (!el || !path) return el;
    for (const step of path.split("/")) {
      const dot = step.indexOf(".");
      const child = el.children[parseInt(step.slice(0, dot), 10)];
      if (!child || child.tagName.toLowerCase() !== step.slice(dot + 1)) return null;
      el = child;
    }
    return el;
  }
  // Markup parsed where it goes (an SVG element's children are SVG, not HTML).
  function parseAt(el, html) {
    const range = document.createRange();
    range.selectNodeContents(el);
    return range.createContextualFragment(html);
  }
  function applyDelta(records) {
    const steps = [];
    for (const record of records) {
      const newline = record.indexOf("\n");
      const head = record.slice(0, newline).split(" ");
      const html = record.slice(newline + 1);
      if (head[0] === "gp-history" && head[1] === "+") {
        const log = document.querySelector("#gp-history ol.log");
        if (!log) return false;
        steps.push(() => { log.prepend(parseAt(log, html)); return log; });
        continue;
      }
      const target = locate(head[0], head[1] || "");
      if (!target) return false;
      if (head[2] === "=") {
        steps.push(() => {
          const model = parseAt(target.parentNode, html + "</" + target.tagName + ">").firstElementChild;
          if (!model) return null;
          [...target.attributes].forEach((a) => { if (!model.hasAttribute(a.name)) target.removeAttribute(a.name); });
          [...model.attributes].forEach((a) => target.setAttribute(a.name, a.value));
          return target;   // htmx reads its hx- attributes again (a target that became clickable)
        });
      } else {
        steps.push(() => {
          const fragment = parseAt(target.parentNode, html);
          const added = fragment.firstElementChild;
          target.replaceWith(fragment);
          return added;
        });
      }
    }
    // New elements get what an htmx swap gives them: their hx- attributes read, and
    // htmx:load (board scripts arrange themselves on it).
    steps.forEach((step) => {
      const added = step();
      if (added && window.htmx) { htmx.process(added); htmx.trigger(added, "htmx:load"); }
    });
    return true;
  }
  document.addEventListener("htmx:wsBeforeMessage", (event) => {
    const message = event.detail.message;
    if (typeof message !== "string" || !message.startsWith('<span id="gp-delta"')) return;
    event.preventDefault();   // a delta is applied here, not by htmx
    const records = message.split("\u001e");
    const holder = document.createElement("template");
    holder.innerHTML = records.shift();
    const delta = holder.content.firstElementChild;
    const panel = document.getElementById("game-panel");
    if (!panel || !delta) return;
    const seen = panel.dataset.revision || "";
    if (parseFloat(delta.dataset.revision || "0") <= parseFloat(seen || "0")) return;
    // A board drawn with a half-made choice is not the board the delta was cut against: a
    // delta that touches the board is replaced by the whole panel, the choice kept.
    const chosen = document.querySelector("#gp-board [data-sel-root]");
    const onBoard = records.some((record) => record.startsWith("gp-board "));
    if (chosen && chosen.dataset.sel && onBoard) { fetchWholePanel(); return; }
    if (delta.dataset.base !== seen || !applyDelta(records)) { fetchWholePanel(); return; }
    panel.dataset.revision = delta.dataset.revision;
    panel.dataset.version = delta.dataset.version;
    panel.dataset.lastEvent = delta.dataset.lastEvent || "";
    // What a swapped message tells the page's other scripts (the selection kept, the
    // announcer, a redirect to follow, the browser tests' live-swap counter).
    htmx.trigger(event.target, "htmx:wsAfterMessage", { message, socketWrapper: event.detail.socketWrapper });
  });
  window.fetchWholePanel = fetchWholePanel;
})();

// A game page's socket says which board the page shows (?r=, the panel's revision) each
// time it connects or reconnects: if the game moved on meanwhile (a move made while the
// socket was down, or a push lost with Redis), the server's first message is the current
// board (games.consumers). htmx's ws extension builds every socket through this hook.
(function () {
  if (!window.htmx || !htmx.createWebSocket) return;
  const open = htmx.createWebSocket;
  htmx.createWebSocket = (url) => {
    const panel = document.getElementById("game-panel");
    if (panel && panel.dataset.revision && url.includes("/ws/play/")) {
      const address = new URL(url);
      address.searchParams.set("r", panel.dataset.revision);
      url = address.toString();
    }
    return open(url);
  };
})();
