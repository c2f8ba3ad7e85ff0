// The event page: reload when another hand has ended (the server holds the request until then).
"use strict";
(function () {
  const mark = document.getElementById("event");
  if (!mark || mark.dataset.live !== "1") return;
  const stamp = mark.dataset.stamp;
  const wait = location.pathname.replace(/\/$/, "") + "/wait?stamp=" + encodeURIComponent(stamp);
  function ask(delay) {
    setTimeout(() => {
      fetch(wait, { cache: "no-store" })
        .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
        .then((data) => (data.stamp !== stamp ? location.reload() : ask(0)))
        .catch(() => ask(5000));
    }, delay);
  }
  ask(0);
})();
