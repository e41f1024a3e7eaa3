// Roll to the Top: pick dice, see their sum, click a highlighted box to write it.
// The selection lives here, outside the swapped HTML, so a live update of the board
// (another seat finishing, say) redraws the page without wiping it.
(function () {
  const ORDER = ["d4", "d6", "d8", "d12", "d20"];
  const selected = new Set();

  function root() { return document.querySelector(".rtt"); }

  function refresh() {
    const r = root();
    if (!r) return;
    const free = new Map();
    r.querySelectorAll(".die[data-die]").forEach((b) => { if (!b.disabled) free.set(b.dataset.die, Number(b.dataset.value)); });
    for (const d of [...selected]) if (!free.has(d)) selected.delete(d);
    r.querySelectorAll(".die[data-die]").forEach((b) => {
      const on = selected.has(b.dataset.die);
      b.classList.toggle("selected", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    const dice = ORDER.filter((d) => selected.has(d));
    const sum = dice.reduce((total, d) => total + free.get(d), 0);
    let fits = 0;
    r.querySelectorAll(".box[data-key]").forEach((g) => {
      const ok = dice.length > 0 && (g.dataset.sums || "").split(" ").includes(String(sum));
      g.classList.toggle("legal", ok);
      g.classList.toggle("clickable", ok);
      if (ok) { fits += 1; g.setAttribute("tabindex", "0"); g.setAttribute("role", "button"); }
      else { g.removeAttribute("tabindex"); g.removeAttribute("role"); }
    });
    const label = r.querySelector(".rtt-sum");
    if (label && r.dataset.writing === "1") {
      label.textContent = dice.length
        ? `${dice.join(" + ")} = ${sum}` + (fits ? ` — ${fits} box${fits > 1 ? "es" : ""} take it` : " — no box takes this number")
        : "Pick one or more dice, then a highlighted box.";
    }
  }

  function place(box) {
    const r = root();
    const dice = ORDER.filter((d) => selected.has(d));
    const action = { type: "place", box: [Number(box.dataset.r), Number(box.dataset.x)], dice };
    selected.clear();
    refresh();
    htmx.ajax("POST", r.dataset.actUrl, {
      source: r, target: "#live", swap: "innerHTML",
      values: { action: JSON.stringify(action), token: r.dataset.token, version: r.dataset.version, turn: r.dataset.turn },
    });
  }

  document.addEventListener("click", (event) => {
    const die = event.target.closest(".rtt .die[data-die]");
    if (die && !die.disabled) {
      if (selected.has(die.dataset.die)) selected.delete(die.dataset.die); else selected.add(die.dataset.die);
      refresh();
      return;
    }
    const box = event.target.closest(".rtt .box.legal");
    if (box) place(box);
  });
  document.addEventListener("keydown", (event) => {
    const box = event.target.closest && event.target.closest(".rtt .box.legal");
    if (box && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); place(box); }
  });
  document.addEventListener("htmx:load", refresh);
  document.addEventListener("DOMContentLoaded", refresh);
})();
