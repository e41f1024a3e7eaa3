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
  document.body.addEventListener("htmx:sendError", () => alert("The server could not be reached. Check your connection."));
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
  document.body.addEventListener("htmx:wsAfterMessage", follow);
  follow();
});
