// Rifugio: on a phone the map keeps tap-sized hexes and scrolls inside its box (board.css).
// Every move redraws the board, so this keeps the box's scroll position and the
// "Whole map" choice across redraws, and shows the player on the move when a map first opens.
(function () {
  const KEY = "rf-whole-map";
  let whole = sessionStorage.getItem(KEY) === "1";
  let kept = null;   // {left, top} of the map box, as the player last scrolled it

  function centreOn(box, el) {
    const b = box.getBoundingClientRect(), e = el.getBoundingClientRect();
    box.scrollLeft += e.left + e.width / 2 - (b.left + b.width / 2);
    box.scrollTop += e.top + e.height / 2 - (b.top + b.height / 2);
  }

  function arrange() {
    const box = document.querySelector(".rf-map-scroll");
    if (!box) return;
    const always = box.dataset.whole === "1";   // a finished map, or a replay: shown whole
    box.classList.toggle("fit", whole || always);
    const zoom = document.querySelector(".rf-zoom");
    const scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
    if (zoom) {
      zoom.setAttribute("aria-pressed", whole ? "true" : "false");
      zoom.hidden = always || (!whole && !scrolls);
    }
    if (whole || always || !scrolls) return;
    if (kept) { box.scrollLeft = kept.left; box.scrollTop = kept.top; return; }
    const here = box.querySelector(".target") || box.querySelector(".pawn.active");
    if (here) centreOn(box, here);
  }

  document.addEventListener("scroll", (event) => {
    const box = event.target;
    if (box.classList && box.classList.contains("rf-map-scroll")) kept = { left: box.scrollLeft, top: box.scrollTop };
  }, true);
  document.addEventListener("click", (event) => {
    if (!event.target.closest || !event.target.closest(".rf-zoom")) return;
    whole = !whole;
    sessionStorage.setItem(KEY, whole ? "1" : "0");
    kept = null;
    arrange();
  });
  document.addEventListener("DOMContentLoaded", arrange);
  document.addEventListener("htmx:load", arrange);
  window.addEventListener("resize", arrange);
})();
