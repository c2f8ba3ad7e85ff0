// The replay page: step through a finished hand's actions (Prev / Next, or ← →).
"use strict";
(function () {
  const steps = Array.from(document.querySelectorAll("#steps li"));
  if (!steps.length) return;
  let shown = 0;
  const bar = document.createElement("p");
  const make = (label, delta) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "action secondary";
    b.textContent = label;
    b.addEventListener("click", () => go(shown + delta));
    bar.appendChild(b);
    return b;
  };
  make("◀", -1);
  make("▶", 1);
  const count = document.createElement("span");
  count.id = "step";
  bar.appendChild(count);
  document.getElementById("steps").before(bar);
  function go(n) {
    shown = Math.max(0, Math.min(steps.length, n));
    steps.forEach((li, i) => { li.hidden = i >= shown; });
    count.textContent = " " + shown + " / " + steps.length;
  }
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(shown + 1);
    if (e.key === "ArrowLeft") go(shown - 1);
  });
  go(0);
})();
