// Rift Valley Reserve: keyboard access for the SVG board and a selection that survives
// live updates. The choices themselves are server-side (?sel= on the panel URL).
(function () {
  let kept = { sel: "", turn: "" };

  function board() { return document.querySelector(".rvr"); }

  function remember() {
    const b = board();
    if (!b || b.dataset.replay) return;
    kept = { sel: b.dataset.sel || "", turn: b.dataset.turn || "", viewing: b.dataset.viewing === "1" };
  }

  function press(el) {
    el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  }

  document.addEventListener("keydown", (event) => {
    const b = board();
    if (!b) return;
    if (event.key === "Escape") {
      const cancel = b.querySelector("[data-cancel]");
      if (cancel) { event.preventDefault(); press(cancel); }
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target.closest && event.target.closest(".rvr svg [role=button]");
    if (target) { event.preventDefault(); press(target); }
  });

  // A page swapped in by a request of this page: that is the selection now.
  document.addEventListener("htmx:afterSwap", remember);
  document.addEventListener("DOMContentLoaded", remember);
  // A live update (another seat drew) arrives without the selection: ask for it again
  // while the turn is the same and this seat still has a choice to make, or is looking
  // at another map than the one it holds.
  document.addEventListener("htmx:wsAfterMessage", () => {
    const b = board();
    if (!b) return;
    if (kept.sel && !b.dataset.sel && b.dataset.turn === kept.turn
        && (b.dataset.acting === "1" || kept.viewing)) {
      htmx.ajax("GET", `${b.dataset.panelUrl}?sel=${encodeURIComponent(kept.sel)}`,
                { target: "#live", swap: "innerHTML" });
    } else {
      remember();
    }
  });
})();
