// Switchback's little JS: htmx settings, a progress bar, and redirects pushed by sockets.
document.addEventListener("DOMContentLoaded", () => {
  if (!window.htmx) return;
  // Refusals (4xx) carry the fresh board and a message: swap them in like successes.
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "4..", swap: true, error: false },
    { code: "5..", swap: false, error: true },
  ];
  const bar = document.getElementById("progress");
  document.body.addEventListener("htmx:beforeRequest", () => bar && bar.classList.add("on"));
  document.body.addEventListener("htmx:afterRequest", () => bar && bar.classList.remove("on"));
  document.body.addEventListener("htmx:sendError", () => alert("The server could not be reached. Check your connection."));
  const follow = () => {
    const el = document.querySelector("[data-redirect]");
    if (el) window.location.assign(el.dataset.redirect);
  };
  document.body.addEventListener("htmx:oobAfterSwap", follow);
  document.body.addEventListener("htmx:wsAfterMessage", follow);
  follow();
});
