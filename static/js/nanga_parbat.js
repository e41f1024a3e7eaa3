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
  // Keep keyboard focus on the same element across panel swaps, so arrowing through
  // a selection does not send focus back to the top of the page.
  let lastFocus = null;
  document.addEventListener("htmx:beforeSwap", () => {
    const el = document.activeElement;
    if (el && el.closest && el.closest(".np-svg")) {
      lastFocus = el.dataset.section ? `[data-section="${el.dataset.section}"]`
        : el.dataset.index ? `.np-token[data-index="${el.dataset.index}"]`
        : el.dataset.row ? `.np-spot[data-row="${el.dataset.row}"][data-col="${el.dataset.col}"]` : null;
    } else lastFocus = null;
  });
  document.addEventListener("htmx:afterSettle", () => {
    if (!lastFocus) return;
    const el = document.querySelector(`.np-svg ${lastFocus}[role=button]`) || document.querySelector(".np-confirm:not([disabled])");
    if (el) el.focus({ preventScroll: true });
    lastFocus = null;
  });
})();
