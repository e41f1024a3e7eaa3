// Alpine Trails: the letter shortcuts (1/2 tile, F flip, R/Shift+R rotate, D finish).
// Keeping the choice across live updates, arrows, Enter/Space and Esc are site.js's
// (games/selection.py, data-sel-root); this only presses the button a letter names.
(function () {
  const KEYS = { "1": "1", "2": "2", f: "f", F: "f", r: "r", R: "R", d: "d", D: "d" };
  document.addEventListener("keydown", (event) => {
    const board = document.querySelector(".at-board[data-sel-root]");
    const key = KEYS[event.key];
    if (!board || !key || event.ctrlKey || event.metaKey || event.altKey) return;
    const t = event.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    const button = board.querySelector(`[data-hotkey="${key}"]`);
    if (!button || button.disabled) return;
    event.preventDefault();
    if (window.htmx) htmx.process(button);   // a key pressed right after a swap, before htmx settles
    button.click();
  });
})();
