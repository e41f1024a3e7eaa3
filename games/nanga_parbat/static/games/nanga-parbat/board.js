// Nanga Parbat: keep keyboard focus on the board across *both* swaps that follow our own
// move (our action's response, then the live update after it). site.js (the shared
// selection convention) refocuses after one swap and then forgets; until it keeps the wish
// across the echo, this remembers the focused control's data-sel-focus and, whenever a swap
// has dropped focus to the page, gives it back to the same control or the first target.
(function () {
  let want = null;   // data-sel-focus of the control to refocus; "" for the first target; null: none
  document.addEventListener("focusin", (event) => {
    const el = event.target.closest && event.target.closest(".np .sel-target");
    want = el ? (el.dataset.selFocus || "") : null;
  });
  document.addEventListener("htmx:load", () => {
    if (want === null) return;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    const root = document.querySelector(".np[data-sel-root]");
    const el = root && ((want && root.querySelector(`.sel-target[data-sel-focus="${CSS.escape(want)}"]`))
      || root.querySelector(".sel-target"));
    if (el) el.focus({ preventScroll: true });
    else want = null;
  });
})();
