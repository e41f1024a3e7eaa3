"use strict";
// The page's CSRF token (a meta tag base.html draws with the page) goes with every form post
// to this site. HTML pushed over a socket is rendered without a request and carries no token
// of its own (its {% csrf_token %} would be empty): a form from a live table card would be
// refused. htmx requests send the same token as a header (hx-headers on <body>).
//
// Its own file, loaded without `defer` in <head>: a deferred script runs only once the whole
// document is parsed, and a form clicked before that (a quick finger, a slow phone) went
// without a token and was answered 403. This listener is on the document before any form is.
function pageCsrfToken() {
  const meta = document.querySelector("meta[name=csrf-token]");
  return meta ? meta.content : "";
}
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || (form.method || "").toLowerCase() !== "post") return;
  if (new URL(form.action, location.href).origin !== location.origin) return;
  const token = pageCsrfToken();
  if (!token) return;
  let field = form.querySelector("input[name=csrfmiddlewaretoken]");
  if (!field) {
    field = document.createElement("input");
    field.type = "hidden";
    field.name = "csrfmiddlewaretoken";
    form.appendChild(field);
  }
  field.value = token;
}, true);
