// One seat at a table: its socket (the seat's token, from the link's '#',
// is its first message), its view, what it may do now, its hand.
"use strict";

const $ = (id) => document.getElementById(id);
const el = Board.el;
const tableId = location.pathname.split("/").pop();
const token = decodeURIComponent(location.hash.slice(1));

let info = null;       // the welcome: the table, the seat, the tiles, the card
let view = null;       // the seat's observation
let legal = [];        // its legal actions' texts
let frozen = null;     // the final table of a round, while the server holds it
let said = {};         // the server's words for now: prompt, actions, hints (docs/web.md)
let next = 0;          // the first event not yet told
let order = [];        // the hand as the player arranged it (tile codes)
let sortBy = "suit";   // or "mine"
let selected = null;   // the tile chosen to discard or pass
let socket = null;
let retry = 0;
let busy = false;      // an action sent, not yet answered
let closedForGood = false;
let decisions = 0;     // decisions made at the table so far

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(text) {
  if (busy) return;
  busy = true;
  selected = null;
  send({type: "act", action: text});
  drawMine();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  socket.onopen = () => {
    retry = 0;
    $("status").textContent = "";
    const hello = {type: "hello", token};
    if (info) hello.since = next;
    socket.send(JSON.stringify(hello));
  };
  socket.onmessage = (m) => receive(JSON.parse(m.data));
  socket.onclose = (event) => {
    if (closedForGood) return;
    retry = Math.min(retry + 1, 5);
    // the server's reason, when it gave one (a message too large: 1009)
    const why = event.reason ? `closed by the server (${event.code}: ${event.reason})` : "connection lost";
    $("status").textContent = `${why}: coming back…`;
    setTimeout(connect, 400 * retry);
  };
}

function receive(m) {
  if (m.type === "welcome") welcome(m);
  else if (m.type === "update") update(m);
  else if (m.type === "refused") { busy = false; say(`Not taken: ${m.message}`, "refused"); drawMine(); }
  else if (m.type === "hint") drawHints(m.lines);
  else if (m.type === "round_over") { frozen = m; Rounds.show(info, m, $("result-body"), $("result-close")); $("result").hidden = false; }
  else if (m.type === "rematch") Rounds.rematched(m);
  else if (m.type === "next_round") { frozen = null; $("result").hidden = true; $("result-body").replaceChildren(); }
  else if (m.type === "error") {
    say(m.message, "error");
    $("status").textContent = m.message;
    if (["wrong-token", "unknown-table"].includes(m.code)) closedForGood = true;
  }
}

function welcome(m) {
  const first = info === null;
  info = m;
  document.title = `${m.title}: ${m.seats[m.seat]}`;
  $("card-name").textContent = m.card_name;
  if (first) drawCard();
}

function update(m) {
  busy = false;
  const before = view ? view.hand.slice() : [];
  view = m.view;
  legal = m.legal;
  said = m;
  next = m.next;
  decisions = m.decisions;
  if (m.events.some((e) => e.kind === "dealt")) $("story").replaceChildren();
  for (const spans of m.story) say(spans);
  if (m.result && !frozen) showResult(Story.result(info, m.result, m.events.find((e) => e.kind === "round_ended")));
  arrange(before);
  if (selected && !legal.some((a) => a.endsWith(` ${selected}`))) selected = null;
  draw();
  showTimer(m.timer);
  drawHints(m.hints);
  if (m.near.length || !view.deciding) drawNear(m.near);
}

// the time the people deciding have left (a table opened with timers), counted down here
let ticking = null;
function showTimer(timer) {
  clearInterval(ticking);
  const box = $("timer");
  if (!timer) { box.textContent = ""; return; }
  const ends = Date.now() + timer.left * 1000;
  const tick = () => {
    const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    box.textContent = `${timer.kind === "claim" ? "claim window" : "turn"}: ${left} s left`;
    if (!left) clearInterval(ticking);
  };
  tick();
  ticking = setInterval(tick, 250);
}

function say(spans, cls) {
  const line = Story.text(info, Array.isArray(spans) ? spans : [{text: spans}]);
  if (cls) line.classList.add(cls);
  const story = $("story");
  story.prepend(line);
  while (story.childNodes.length > 150) story.lastChild.remove();
}

function showResult(box) {
  const body = $("result-body");
  body.append(box);
  $("result").hidden = false;
}

// -- the hand ---------------------------------------------------------------------------
function arrange(before) {
  // keep the player's order for the tiles still held; new ones go at the end
  const left = view.hand.slice();
  const kept = [];
  for (const code of order) {
    const i = left.indexOf(code);
    if (i >= 0) { kept.push(code); left.splice(i, 1); }
  }
  order = kept.concat(left);
}

function drawHand() {
  const hand = $("hand");
  hand.replaceChildren();
  const acting = (code) => legal.find((a) => a === `discard ${code}` || a === `pass ${code}`);
  // the one copy drawn (view.drawn_at: its place in the sorted hand) is marked, not every copy
  const copy = view.drawn_at !== undefined ? view.hand.slice(0, view.drawn_at + 1).filter((c) => c === view.drawn).length : 0;
  let copies = 0;
  const place = (code, index) => {
    const drawn = code === view.drawn && ++copies === copy;
    const t = Board.tile(info, code, {cls: [acting(code) ? "playable" : "", selected === code ? "selected" : "", drawn ? "drawn" : ""].join(" ").trim()});
    t.dataset.index = String(index);
    t.setAttribute("draggable", "true");
    t.addEventListener("click", () => choose(code));
    t.addEventListener("dragstart", (ev) => { ev.dataTransfer.setData("text/plain", String(index)); });
    t.addEventListener("dragover", (ev) => ev.preventDefault());
    t.addEventListener("drop", (ev) => { ev.preventDefault(); move(Number(ev.dataTransfer.getData("text/plain")), index); });
    return t;
  };
  if (sortBy === "suit") {
    let index = 0;
    for (const [family, codes] of Board.grouped(info, order)) {
      const group = el("span", null, "group");
      group.dataset.family = family;
      group.append(el("span", family, "family"));
      for (const code of codes) group.append(place(code, index++));
      hand.append(group);
    }
    order = Board.grouped(info, order).flatMap(([, codes]) => codes);
  } else {
    order.forEach((code, i) => hand.append(place(code, i)));
  }
  $("sort-suit").classList.toggle("on", sortBy === "suit");
  $("sort-mine").classList.toggle("on", sortBy === "mine");
}

function move(from, to) {
  if (from === to || Number.isNaN(from)) return;
  const [code] = order.splice(from, 1);
  order.splice(to, 0, code);
  sortBy = "mine";
  drawHand();
}

function choose(code) {
  const action = legal.find((a) => a === `discard ${code}` || a === `pass ${code}`);
  if (!action) return;
  if (selected === code) { act(action); return; }
  selected = code;
  drawMine();
}

// -- what is asked, and the choices: the server's words ------------------------------------
function label(action) {
  const a = (said.actions || []).find((x) => x.action === action);
  return a ? Story.plain(a.says) : action;
}

function prompt() {
  return view && said.prompt ? said.prompt.question : "";
}

function drawActions() {
  const box = $("actions");
  box.replaceChildren();
  if (selected) {
    const action = legal.find((a) => a === `discard ${selected}` || a === `pass ${selected}`);
    if (action) box.append(button(action, action.startsWith("pass") ? `pass ${selected}` : `discard ${selected}`, "main"));
  }
  for (const action of legal) {
    if (/^(discard|pass) \S+$/.test(action)) continue;  // a tile of the hand: click it
    box.append(button(action, label(action)));
  }
}

function button(action, text, cls) {
  const b = el("button", text, cls);
  const a = (said.actions || []).find((x) => x.action === action);
  if (a && a.for) b.append(Story.text(info, a.for, "serves"));
  if (a && a.warn) { b.append(Story.text(info, a.warn, "warns")); b.classList.add("warned"); }
  b.type = "button";
  b.dataset.action = action;
  b.disabled = busy;
  b.addEventListener("click", () => act(action));
  return b;
}

// -- drawing ----------------------------------------------------------------------------
function drawMine() {
  $("prompt").textContent = busy ? "…" : prompt();
  $("prompt").classList.toggle("deciding", Boolean(view && view.deciding));
  drawActions();
  drawHand();
  const passing = $("passing");
  passing.replaceChildren();
  if (view.passing.length) { passing.append(el("span", said.prompt && said.prompt.question.startsWith("set aside") ? "setting aside: " : "passing: ")); passing.append(Board.tiles(info, view.passing, {small: true})); }
  if (view.aside && view.aside.length) { passing.append(el("span", " set aside: ")); passing.append(Board.tiles(info, view.aside, {small: true})); }
}

function draw() {
  $("head").textContent = `${Board.header(info, view)} · you are ${info.seats[info.seat]}${info.mode === "strict" ? " · strict mode" : ""}`;
  Board.drawSeats($("seats"), info, view, info.seat);
  drawMine();
}

function drawCard() {
  const card = $("card");
  card.replaceChildren();
  let section = null;
  for (const line of info.card) {
    if (line.section !== section) { section = line.section; card.append(el("h4", section)); }
    const row = el("div", null, "line");
    row.dataset.line = line.id;
    // the hand as the card prints it (suits in their colours); the notation as a tooltip
    const hand = Story.text(info, line.hand, "pattern");
    for (const part of hand.querySelectorAll("[class*=suit-]")) part.style.color = info.card_colours[[...part.classList].find((c) => c.startsWith("suit-")).slice(5)] || "";
    hand.title = line.notation;
    row.append(hand, el("span", ` ${line.value ?? ""} ${line.mark}`, "value"), el("span", ` ${line.id}`, "id"));
    if (line.note) row.append(el("span", ` (${line.note})`, "note"));
    card.append(row);
  }
}

function drawNear(near) {
  // the nearest lines marked on the card, with the tiles they still miss
  for (const row of document.querySelectorAll("#card .line.near")) { row.classList.remove("near"); row.querySelector(".missing")?.remove(); }
  for (const n of near || []) {
    const row = document.querySelector(`#card .line[data-line="${CSS.escape(n.line)}"]`);
    if (!row) continue;
    row.classList.add("near");
    const missing = el("span", ` ${n.away} away${n.missing.length ? ": " : ""}`, "missing");
    if (n.missing.length) missing.append(Board.tiles(info, n.missing, {small: true}));
    row.append(missing);
  }
}

function drawHints(lines) {
  const box = $("hints");
  box.replaceChildren();
  for (const spans of lines || []) box.append(Story.text(info, spans, "hint"));
  if (!lines || !lines.length) box.append(el("div", "no hints now"));
}

$("sort-suit").addEventListener("click", () => { sortBy = "suit"; drawHand(); });
$("sort-mine").addEventListener("click", () => { sortBy = "mine"; drawHand(); });
$("hint").addEventListener("click", () => send({type: "hint"}));
// "next round": the server holds the table until every person says so (a finished match: close)
$("result-close").addEventListener("click", () => {
  if (frozen && !frozen.match_over) { send({type: "next"}); return; }
  frozen = null; $("result").hidden = true; $("result-body").replaceChildren();
});
$("typed").addEventListener("submit", (ev) => { ev.preventDefault(); const t = $("typed-action").value.trim(); if (t) { busy = false; act(t); $("typed-action").value = ""; } });
// what the page shows, for tests and the curious: this seat's own view only
window.jongg = {
  send,
  status: () => ({ready: Boolean(info && view), deciding: Boolean(view && view.deciding) && !busy && !said.held,
                  frozen: Boolean(frozen),
                  step: view ? view.step : null, legal: legal.slice(), hand: view ? view.hand.slice() : [],
                  passing: view ? view.passing.slice() : [], rounds: view ? view.results.length : 0,
                  over: Boolean(view && view.step === "over"), decisions,
                  connected: Boolean(socket && socket.readyState === WebSocket.OPEN)}),
};
if (!token) { $("head").textContent = "This link has no seat token: open the link you were given."; }
else connect();
