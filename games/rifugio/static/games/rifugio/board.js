// Rifugio: keyboard access to the SVG map. Highlighted cells are <g role="button" tabindex="0">
// carrying hx-post / hx-get; Enter or Space clicks them, as a real button would.
(function () {
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target.closest && event.target.closest(".rf-map [role=button]");
    if (!target) return;
    event.preventDefault();
    target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  });
})();
