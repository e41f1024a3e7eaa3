// Alpine Trails: the letter shortcuts (1/2 tile, F flip, R/Shift+R rotate, D finish).
// Keeping the choice across live updates, arrows, Enter/Space and Esc are site.js's
// (games/selection.py, data-sel-root); this only presses the button a letter names, and
// after a tile is chosen from the keyboard puts the focus on the first square it fits,
// so the advertised "1/2, arrows, Enter" works without a Tab hunt.
(function () {
  const KEYS = { "1": "1", "2": "2", f: "f", F: "f", r: "r", R: "R", d: "d", D: "d" };
  const CHOOSERS = ".at-tile, .at-animal, .at-buttons button";   // controls that change what the squares mean
  let toSquares = false;   // the next redraw should put the keyboard on a square

  function press(button) {
    if (window.htmx) htmx.process(button);   // a key pressed right after a swap, before htmx settles
    button.click();
  }

  document.addEventListener("keydown", (event) => {
    const board = document.querySelector(".at-board[data-sel-root]");
    if (!board || event.ctrlKey || event.metaKey || event.altKey) return;
    const t = event.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if ((event.key === "Enter" || event.key === " ") && t.closest && t.closest(CHOOSERS) && board.contains(t)) {
      toSquares = true;       // the button's own click does the rest
      return;
    }
    const key = KEYS[event.key];
    const button = key && board.querySelector(`[data-hotkey="${key}"]`);
    if (!button || button.disabled) return;
    event.preventDefault();
    toSquares = key !== "d";
    press(button);
  });

  // Phones: the map keeps finger-sized squares and scrolls in its frame; "Whole map" fits it
  // to the screen instead (to look, not to tap). Kept across redraws of the board.
  let fit = false;
  function showFit() {
    const frame = document.querySelector(".at-board .at-map-frame");
    const button = document.querySelector(".at-board [data-fit-map]");
    if (frame) frame.classList.toggle("fit", fit || frame.dataset.whole === "1");
    if (button) button.setAttribute("aria-pressed", String(fit));
  }
  document.addEventListener("click", (event) => {
    if (!event.target.closest || !event.target.closest(".at-board [data-fit-map]")) return;
    fit = !fit;
    showFit();
  });
  document.addEventListener("htmx:afterSwap", showFit);
  document.addEventListener("htmx:wsAfterMessage", showFit);

  // After the redraw: site.js has already put the focus back on a square the player was
  // on (same data-sel-focus); if it is nowhere, go to the first square the tile fits.
  document.addEventListener("htmx:afterSwap", () => {
    if (!toSquares) return;
    toSquares = false;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    const square = document.querySelector(".at-board .at-main .hl.sel-target:not(.faint)")
      || document.querySelector(".at-board .at-main .hl.sel-target");
    if (square) square.focus();
  });
})();
