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
let next = 0;          // the first event not yet told
let said = {};         // the server's words for now: prompt, actions, hints (docs/web.md)
let pile = [];         // each seat's discards this round as told: {tile, by: the seat that took it}
let latest = null;     // the latest discard: {seat, index, tile, by}
let order = [];        // the hand as the player arranged it (tile codes)
let sortBy = "suit";   // or "mine"
let socket = null;
let retry = 0;
let busy = false;      // an action sent, not yet answered
let closedForGood = false;
let decisions = 0;     // decisions made at the table so far
let rounds = 0;        // rounds the table has played, as last sent (a frozen table shows an earlier one)

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(text) {
  if (busy) return;
  busy = true;
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
  else if (m.type === "round_over") roundOver(m);
  else if (m.type === "next_round") unfreeze();
  else if (m.type === "rematch") rematched(m);
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
  next = m.next;
  decisions = m.decisions;
  rounds = m.view.results.length;
  if (frozen) { hold(m); return; }
  apply(m);
}

// an update drawn: its events taken up to a round's end (which freezes the
// table as it stood: the rest, the next round's deal and the story, waits for
// "next round"), then its words and its view
function apply(m) {
  const first = view === null;
  const end = m.events.findIndex((e) => e.kind === "round_ended");
  const told = end >= 0 ? m.events.slice(0, end + 1) : m.events;
  for (const e of told) event(e);
  const found = first ? {} : Cues.fresh(told, info.seat);
  if (end >= 0) {
    held.push({...m, events: m.events.slice(end + 1), result: null});
    if (first) { view = m.view; legal = []; }  // a page coming back to a table held at a round's end
    freeze(m.events[end], m.result, m.view);
    Cues.show(found, document);
    return;
  }
  const before = view ? view.hand.slice() : [];
  const wasDeciding = Boolean(view && view.deciding);
  view = m.view;
  legal = m.legal;
  said = m;
  for (const spans of m.story || []) say(spans);
  if (m.match) matchEnd(m.match);
  arrange(before);
  if (selected && selected.stamp !== stamp()) { cancelPending(); selected = null; }
  draw();
  showTimer(m.timer);
  drawHints(m.hints);
  if ((m.near && m.near.length) || !view.deciding) drawNear(m.near);
  if (!first && view.deciding && !wasDeciding && found.drew === undefined) Cues.play("turn");
  Cues.show(found, document);
}

// what the table keeps from the events: each seat's discards and which were
// claimed (by whom), the latest discard
function event(e) {
  if (e.kind === "dealt") { pile = info.seats.map(() => []); latest = null; $("story").replaceChildren(); }
  if (e.kind === "discarded" && pile[e.seat]) { pile[e.seat].push({tile: e.tiles[0]}); latest = {seat: e.seat, index: pile[e.seat].length - 1, tile: e.tiles[0]}; }
  if (e.kind === "claimed" && pile[e.giver] && pile[e.giver].length) {
    pile[e.giver][pile[e.giver].length - 1].by = e.seat;
    if (latest && latest.seat === e.giver) latest.by = e.seat;
  }
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
    box.textContent = `${{claim: "claim window", turn: "turn", phase: "before play"}[timer.kind] || timer.kind}: ${left} s left`;
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

function draw() {
  $("head").textContent = `${Board.header(info, view)} · you are ${info.seats[info.seat]}${info.mode === "strict" ? " · strict mode" : ""}`;
  Felt.draw($("seats"), info, view, info.seat, pile, latest);
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
// the card: beside the table on a wide screen, a drawer on a phone
function drawer(open) {
  document.body.classList.toggle("card-open", open);
  $("card-toggle").setAttribute("aria-expanded", String(open));
}
$("card-toggle").addEventListener("click", () => drawer(!document.body.classList.contains("card-open")));
$("card-close").addEventListener("click", () => drawer(false));
Cues.setting($("sound"));
$("typed").addEventListener("submit", (ev) => { ev.preventDefault(); const t = $("typed-action").value.trim(); if (t) { busy = false; act(t); $("typed-action").value = ""; } });
// what the page shows, for tests and the curious: this seat's own view only
window.jongg = {
  send,
  status: () => ({ready: Boolean(info && view), deciding: Boolean(view && view.deciding) && !busy && !frozen && !said.held,
                  step: view ? view.step : null, legal: frozen ? [] : legal.slice(), hand: view ? view.hand.slice() : [],
                  passing: view ? view.passing.slice() : [], rounds, frozen: Boolean(frozen),
                  over: Boolean(view && view.step === "over"), decisions,
                  connected: Boolean(socket && socket.readyState === WebSocket.OPEN)}),
};
if (!token) { $("head").textContent = "This link has no seat token: open the link you were given."; }
else connect();
