// Nanga Parbat: keyboard access for the SVG board. Enter or Space on a focused section,
// spot or animal acts like a click (htmx listens for clicks); Esc presses Cancel.
(function () {
  document.addEventListener("keydown", (event) => {
    const board = document.querySelector(".np");
    if (!board) return;
    if (event.key === "Escape") {
      const cancel = board.querySelector(".np-cancel");
      if (cancel) { event.preventDefault(); cancel.click(); }
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target.closest && event.target.closest(".np-svg [role=button]");
    if (!target) return;
    event.preventDefault();
    target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  });
  // Keep keyboard focus on the board across panel swaps (our own action's response, then
  // the live update that follows it), so a keyboard player is never sent back to the top of
  // the page. The focused control is remembered; when a swap has dropped focus, the same
  // control gets it back, or else the next sensible one (Confirm, End turn, a glowing piece).
  let want = null;   // selector of the control to refocus, "" for "the next sensible one", null: none
  const keyOf = (el) => el.dataset.section ? `[data-section="${el.dataset.section}"]`
    : el.dataset.index ? `.np-token[data-index="${el.dataset.index}"]`
    : el.dataset.row ? `.np-spot[data-row="${el.dataset.row}"][data-col="${el.dataset.col}"]` : "";
  document.addEventListener("focusin", (event) => {
    const el = event.target;
    want = el && el.closest && el.closest(".np") ? keyOf(el) : null;
  });
  document.addEventListener("htmx:load", () => {
    if (want === null) return;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    const el = (want && document.querySelector(`.np-svg ${want}[role=button]`))
      || document.querySelector(".np-confirm:not([disabled])")
      || document.querySelector(".np-end-turn")
      || document.querySelector(".np-svg [role=button]");
    if (el) el.focus({ preventScroll: true });
    else want = null;
  });
})();
