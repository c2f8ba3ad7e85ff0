// The web table's page: draws the frames the server sends and sends back what is clicked.
// It knows no game: every face, button and word comes in the frame (bot/render/web.py).
"use strict";
(function () {
  const path = location.pathname.split("/");
  let token = decodeURIComponent(path[path.length - 1]);
  const byId = (id) => document.getElementById(id);
  let socket = null;
  let frame = null;
  let skew = 0;
  let picked = new Set();
  let retry = 500;
  let ended = false;

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function face(f, clickable) {
    const node = el(clickable ? "button" : "span", "face " + f.k + (f.r ? " red" : "") +
      (f.g ? " gap" : ""));
    node.appendChild(el("span", "t", f.t));
    if (f.u) node.appendChild(el("span", "u", f.u));
    node.title = f.t + (f.u || "");
    if (clickable) node.type = "button";
    return node;
  }

  function faces(list, cls) {
    const row = el("div", "faces " + (cls || ""));
    for (const f of list || []) row.appendChild(face(f, false));
    return row;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function say(text, kind) {
    const box = byId("message");
    box.textContent = text || "";
    box.className = kind || "";
  }

  function button(label, style, onclick, id) {
    const b = el("button", "action " + (style || "secondary"), label);
    b.type = "button";
    if (id) b.id = id;
    b.addEventListener("click", onclick);
    return b;
  }

  function drawSeats(f) {
    const box = byId("seats");
    box.replaceChildren();
    f.seats.forEach((s, i) => {
      const card = el("div", "seat" + (s.acting ? " acting" : "") + (s.you ? " you" : ""));
      card.dataset.seat = String(i);
      card.appendChild(el("div", "name", (s.acting ? "▶ " : "") + s.name));
      card.appendChild(el("div", "detail", s.detail));
      if (s.cards) card.appendChild(faces(s.cards, "small shown"));
      if (s.melds) card.appendChild(faces(s.melds, "small melds"));
      if (s.discards) card.appendChild(faces(s.discards, "small river"));
      box.appendChild(card);
    });
  }

  function drawBoard(f) {
    const box = byId("board");
    box.replaceChildren();
    if (!f.board) return;
    const b = f.board;
    const legal = new Set(b.legal || []);
    const grid = el("div", "grid");
    grid.style.setProperty("--n", String(b.size));
    for (let row = b.size; row >= 1; row--) {
      for (let col = 0; col < b.size; col++) {
        const point = String.fromCharCode(65 + col) + row;
        const stone = b.stones[point];
        const cell = el(legal.has(point) ? "button" : "span", "point");
        cell.dataset.point = point;
        cell.title = point;
        if (stone !== undefined) cell.appendChild(el("span", "stone c" + stone));
        if (b.last === point) cell.classList.add("last");
        if (b.marks[point]) cell.appendChild(el("span", "mark", b.marks[point]));
        if (legal.has(point)) {
          cell.type = "button";
          cell.addEventListener("click", () => send({ type: "act", action: point }));
        }
        grid.appendChild(cell);
      }
    }
    box.appendChild(grid);
  }

  function drawRound(f) {
    const box = byId("round");
    box.replaceChildren();
    if (!f.round.length) return;
    box.appendChild(el("h2", "", f.labels.round));
    for (const p of f.round) {
      const line = el("div", "play");
      line.dataset.seat = String(p.seat);
      line.appendChild(el("span", "who", p.name));
      if (p.faces) line.appendChild(faces(p.faces, "small"));
      else line.appendChild(el("span", "what", p.text));
      box.appendChild(line);
    }
  }

  function list(id, lines, tag) {
    const box = byId(id);
    box.replaceChildren();
    for (const line of lines) box.appendChild(el(tag || "p", "", line));
  }

  function pickable(cell) {
    return cell.p !== null && cell.p !== undefined;
  }

  function drawHand(id, cells, f) {
    const box = byId(id);
    box.replaceChildren();
    for (const cell of cells) {
      const node = face(cell, pickable(cell));
      if (pickable(cell)) {
        node.dataset.pick = String(cell.p);
        if (picked.has(cell.p)) node.classList.add("picked");
        node.setAttribute("aria-pressed", picked.has(cell.p) ? "true" : "false");
        node.addEventListener("click", () => {
          if (f.picker && f.picker.single) {
            send({ type: "pick", picked: [cell.p] });
            return;
          }
          if (picked.has(cell.p)) picked.delete(cell.p);
          else picked.add(cell.p);
          draw(frame);
        });
      }
      box.appendChild(node);
    }
  }

  function drawActions(f) {
    const box = byId("actions");
    box.replaceChildren();
    if (f.kind !== "seat") return;
    if (f.picker && !f.picker.single) {
      const play = button(f.labels.play + (picked.size ? " (" + picked.size + ")" : ""),
        "success", () => {
          send({ type: "pick", picked: Array.from(picked) });
          picked.clear();
        }, "play");
      play.disabled = picked.size < f.picker.min || picked.size > f.picker.max;
      box.appendChild(play);
      if (picked.size) box.appendChild(button(f.labels.clear, "secondary", () => {
        picked.clear();
        draw(frame);
      }, "clear"));
    }
    for (const choice of f.buttons) {
      const b = button(choice.label, choice.style, () => send({ type: "act", action: choice.action }));
      b.dataset.action = choice.action;
      box.appendChild(b);
    }
    if (f.hint) box.appendChild(button(f.labels.hint, "secondary", () => send({ type: "hint" }), "hint"));
    if (f.can_start) box.appendChild(button(f.labels.start, "primary", () => send({ type: "start" }), "start"));
    if (f.hand.length || f.trustee) {
      box.appendChild(button(f.trustee ? f.labels.trustee_off : f.labels.trustee_on, "secondary",
        () => send({ type: "trustee", on: !f.trustee }), "trustee"));
    }
  }

  function draw(f) {
    if (!f) return;
    document.documentElement.lang = document.documentElement.lang || "zh-CN";
    byId("title").textContent = f.title;
    document.title = f.title;
    byId("phase").textContent = f.phase;
    drawSeats(f);
    drawBoard(f);
    drawRound(f);
    list("lines", f.lines);
    list("result", f.result);
    list("notes", f.notes, "li");
    byId("footer").textContent = f.footer;
    byId("turn").textContent = f.kind === "seat" ? (f.your_turn ? f.labels.your_turn : "") :
      f.labels.watching;
    drawHand("hand", f.hand, f);
    drawHand("extra", f.extra, f);
    byId("counter").textContent = f.counter || "";
    drawActions(f);
    document.body.dataset.state = f.your_turn ? "turn" : "wait";
    document.body.dataset.hand = String(f.hand_no || "");
    tick();
  }

  function tick() {
    const box = byId("clock");
    if (!frame || !frame.deadline) {
      box.textContent = "";
      return;
    }
    const left = Math.max(0, Math.round(frame.deadline - (Date.now() / 1000 + skew)));
    box.textContent = frame.labels.seconds.replace("{seconds}", String(left));
  }

  function receive(event) {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    if (message.type === "frame") {
      const before = frame;
      frame = message.frame;
      skew = frame.now - Date.now() / 1000;
      // a pick is kept only while the hand and its picks stay what they were
      const cellsOf = (f) => JSON.stringify([f.hand, f.extra, f.picker, f.your_turn]);
      if (!before || cellsOf(before) !== cellsOf(frame)) picked.clear();
      draw(frame);
      document.body.dataset.frames = String(Number(document.body.dataset.frames || 0) + 1);
    } else if (message.type === "token") {
      token = message.token;
      history.replaceState(null, "", "/seat/" + encodeURIComponent(token));
    } else if (message.type === "error") {
      say(message.text, "error");
    } else if (message.type === "hint") {
      say(message.text, "hint");
    } else if (message.type === "refused" || message.type === "closed") {
      ended = true;
      say(message.text, "error");
      document.body.dataset.state = message.type;
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws");
    socket.addEventListener("open", () => {
      retry = 500;
      socket.send(JSON.stringify({ type: "hello", token: token }));
      say("", "");
    });
    socket.addEventListener("message", receive);
    socket.addEventListener("close", () => {
      if (ended) return;
      if (frame) say(frame.labels.offline, "error");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    });
  }

  document.addEventListener("keydown", (event) => {
    if (!frame || frame.kind !== "seat" || event.target.tagName === "INPUT") return;
    if (event.key === "Escape") {
      picked.clear();
      draw(frame);
    } else if (event.key === "p" || event.key === "P") {
      const play = byId("play");
      if (play && !play.disabled) play.click();
    } else if (event.key === "h" || event.key === "H") {
      const hint = byId("hint");
      if (hint) hint.click();
    }
  });
  setInterval(tick, 1000);
  connect();
})();
