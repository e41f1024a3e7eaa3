// Alpine Trails: keyboard shortcuts and keeping the chosen tile across live updates.
// The selection itself is server-side (?sel=); this only re-asks for it when a live
// update (another player finishing, say) redraws the panel without it.
(function () {
  function board() { return document.querySelector(".at-board"); }
  function storeKey(b) { return "at-sel-" + b.dataset.game; }
  let asked = null;
  let focusKey = null;

  function selTile(sel) {
    const parts = (sel || "").split(":");
    return parts[0] === "t" || parts[0] === "c" ? parts[1] : null;
  }

  function fetchSel(b, sel) {
    htmx.ajax("GET", b.dataset.panelUrl + "?sel=" + encodeURIComponent(sel), { target: "#live", swap: "innerHTML" });
  }

  function settle() {
    const b = board();
    if (!b) return;
    if (focusKey) {
      const el = b.querySelector(`[data-hotkey="${CSS.escape(focusKey)}"], .hl[data-xy="${CSS.escape(focusKey)}"]`);
      if (el) el.focus();
      focusKey = null;
    }
    let store;
    try { store = window.sessionStorage; } catch (e) { return; }
    if (b.dataset.acting !== "1") return;
    if (b.dataset.explicit === "1") { store.setItem(storeKey(b), b.dataset.sel); asked = null; return; }
    const wanted = store.getItem(storeKey(b));
    if (!wanted || asked === wanted) { asked = null; if (wanted) store.removeItem(storeKey(b)); return; }
    const tile = selTile(wanted);
    const hand = (b.dataset.hand || "").split(" ");
    if ((tile && hand.includes(tile)) || wanted.startsWith("a:")) {
      asked = wanted;
      fetchSel(b, wanted);
    } else {
      store.removeItem(storeKey(b));
    }
  }

  let queued = false;
  document.addEventListener("htmx:load", () => {
    if (queued) return;
    queued = true;
    setTimeout(() => { queued = false; settle(); }, 0);
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    const el = event.detail && event.detail.elt;
    if (!el || !el.closest || !el.closest(".at-board")) return;
    focusKey = el.dataset.hotkey || (el.classList.contains("hl") ? el.dataset.xy : null);
  });

  function press(el) {
    if (!el || el.disabled) return false;
    if (window.htmx) htmx.process(el);   // a key pressed right after a swap, before htmx settles
    el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    return true;
  }

  function moveFocus(current, key) {
    const cells = [...document.querySelectorAll(".at-board .hl")];
    if (!cells.length) return;
    if (!current) { cells[0].focus(); return; }
    const a = current.getBoundingClientRect();
    const ax = a.left + a.width / 2, ay = a.top + a.height / 2;
    const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
    let best = null, bestScore = Infinity;
    for (const c of cells) {
      if (c === current) continue;
      const r = c.getBoundingClientRect();
      const dx = r.left + r.width / 2 - ax, dy = r.top + r.height / 2 - ay;
      const along = dx * dir[0] + dy * dir[1];
      if (along <= 1) continue;
      const score = along + 2 * Math.abs(dx * dir[1] - dy * dir[0]);
      if (score < bestScore) { bestScore = score; best = c; }
    }
    if (best) best.focus();
  }

  document.addEventListener("keydown", (event) => {
    const b = board();
    if (!b || event.ctrlKey || event.metaKey || event.altKey) return;
    const t = event.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    const cell = t && t.closest ? t.closest(".at-board .hl") : null;
    if (cell && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); press(cell); return; }
    if (event.key.startsWith("Arrow") && (cell || t === document.body)) {
      if (b.querySelector(".hl")) { event.preventDefault(); moveFocus(cell, event.key); }
      return;
    }
    if (t && t.tagName === "BUTTON" && (event.key === "Enter" || event.key === " ")) return;
    let key = event.key;
    if (key === "f" || key === "F") key = "f";
    else if (key === "r") key = "r";
    else if (key === "R") key = "R";
    else if (key === "d" || key === "D") key = "d";
    else if (key !== "1" && key !== "2" && key !== "Escape") return;
    if (key === "Escape") {
      event.preventDefault();
      if (press(b.querySelector('[data-hotkey="Escape"]'))) return;
      try { window.sessionStorage.removeItem(storeKey(b)); } catch (e) { /* private mode */ }
      if (b.dataset.acting === "1" && b.dataset.explicit === "1") fetchSel(b, "");
      return;
    }
    const el = b.querySelector(`[data-hotkey="${key}"]`);
    if (el) { event.preventDefault(); press(el); }
  });
})();
