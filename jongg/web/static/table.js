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
let phase = null;      // the latest phase event of the round
let offered = null;    // this seat's latest 'offered' event
let roundPaid = [];    // the round's payments
let pile = [];         // each seat's discards this round as told: {tile, by: the seat that took it}
let latest = null;     // the latest discard: {seat, index, tile, by}
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
  next = m.next;
  decisions = m.decisions;
  for (const e of m.events) event(e);
  arrange(before);
  if (selected && !legal.some((a) => a.endsWith(` ${selected}`))) selected = null;
  draw();
  if (view.deciding && view.hand.join() !== before.join()) send({type: "hint"});
}

function event(e) {
  if (e.kind === "dealt") { roundPaid = []; phase = null; offered = null; pile = info.seats.map(() => []); latest = null; $("story").replaceChildren(); }
  if (e.kind === "discarded" && pile[e.seat]) { pile[e.seat].push({tile: e.tiles[0]}); latest = {seat: e.seat, index: pile[e.seat].length - 1, tile: e.tiles[0]}; }
  if (e.kind === "claimed" && pile[e.giver] && pile[e.giver].length) {
    pile[e.giver][pile[e.giver].length - 1].by = e.seat;
    if (latest && latest.seat === e.giver) latest.by = e.seat;
  }
  if (e.kind === "phase") phase = e;
  if (e.kind === "play") phase = null;
  if (e.kind === "offered" && e.seat === info.seat) offered = e;
  if (e.kind === "paid") roundPaid.push(e);
  const told = Board.tell(info, e, info.seat);
  if (told) say(told);
  if (e.kind === "round_ended") showResult(Board.result(info, e, roundPaid, e.scores, info.seat));
  if (e.kind === "match_ended") showResult(matchEnd(e));
}

function say(parts, cls) {
  const line = Board.sentence(info, Array.isArray(parts) ? parts : [parts]);
  if (cls) line.classList.add(cls);
  const story = $("story");
  story.prepend(line);
  while (story.childNodes.length > 150) story.lastChild.remove();
}

function matchEnd(e) {
  const box = el("div", null, "result match-end");
  box.append(el("h2", "The match is over"));
  box.append(el("div", `final ${Board.word(info, "points")}: ${e.scores.map((v, s) => `${info.seats[s]} ${v}`).join("  ")}`, "scores"));
  if (e.payouts) box.append(el("div", `payouts: ${e.payouts.map((v, s) => `${info.seats[s]} ${v >= 0 ? "+" : ""}${v}`).join("  ")}`, "payouts"));
  box.append(el("div", `winner${e.winners.length > 1 ? "s" : ""}: ${e.winners.map((s) => info.seats[s]).join(", ")}`, "winners"));
  return box;
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
  // the drawn tile and the chosen one are each one tile, not every copy of it
  let drawnShown = false, chosenShown = false;
  const place = (code, index) => {
    const drawn = !drawnShown && view.drawn === code, chosen = !chosenShown && selected === code;
    drawnShown ||= drawn; chosenShown ||= chosen;
    const t = Board.tile(info, code, {cls: [acting(code) ? "playable" : "", chosen ? "selected" : "", drawn ? "drawn" : ""].join(" ").trim(),
                                      note: drawn ? "just drawn" : ""});
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

// -- what is asked, and the choices --------------------------------------------------------
function claimRank(name) {
  const c = info.claims.find((k) => k.name === name);
  return c ? c.rank : "?";
}

function label(action) {
  const w = action.split(" ");
  const mj = Board.mahjong(info);
  switch (w[0]) {
    case "pass": return w.length === 1 ? "let it go (pass)" : `pass ${w[1]}`;
    case "claim": {
      const on = w.indexOf("on");
      const tilesOf = w.slice(2, on > 0 ? on : undefined);
      const kind = w[1] === "mahjong" || info.claims.find((k) => k.name === w[1])?.mahjong ? mj : w[1];
      return `${Board.word(info, "claim")} for ${kind}${tilesOf.length ? ` with ${tilesOf.join(" ")}` : ""}${on > 0 ? ` on rack ${w[on + 1]}` : ""} (priority ${claimRank(w[1])})`;
    }
    case "declare": return w.length === 1 ? `declare ${mj}` : `declare ${mj} on rack ${w[1]}${w[2] ? `: ${w[2]}` : ""}`;
    case "exchange": { const [s, x] = w[2].split(":").map(Number); return `give ${w[1]} for the joker in ${info.seats[s]}'s exposure ${x + 1}`; }
    case "vote": return w[1];
    case "offer": return `offer ${w[1]}`;
    case "blind": return `${w[1]} blind`;
    case "off": return "go off the pledge";
    default: return action;
  }
}

function prompt() {
  if (!view) return "";
  if (!view.deciding) {
    if (view.step === "over") return "The match is over.";
    if (view.turn !== null && view.turn !== undefined) return `Waiting for ${info.seats[view.turn]}…`;
    return "Waiting for the other players…";
  }
  switch (view.step) {
    case "turn": {
      const discard = legal.some((a) => a.startsWith("discard "));
      return discard ? "Your turn: choose a tile to discard (click it, then click it again or press the button)."
        : `Your turn: declare the ${Board.mahjong(info)} you claimed.`;
    }
    case "claims": return `${info.seats[view.discard[0]]} discards ${view.discard[1]}: ${Board.word(info, "claim")} it, or let it go?`;
    case "passing": {
      if (phase && phase.phase === "pledge") return `Set aside a tile on rack ${phase.rack + 1} (${view.passing.length + 1} of ${phase.count}).`;
      const total = phase && phase.phase === "pass" ? phase.count - view.blind : offered ? offered.passes : "?";
      const where = phase ? ` to the ${phase.to}` : "";
      return `${phase ? Board.phaseText(info, phase) + " " : ""}Choose a tile to pass${where} (${view.passing.length + 1} of ${total}).`;
    }
    case "voting": return phase ? Board.phaseText(info, phase) : "Vote.";
    case "offering": return phase && phase.phase === "courtesy" ? `${Board.phaseText(info, phase)} How many tiles will you offer?`
      : `${phase ? Board.phaseText(info, phase) + " " : ""}How many of the tiles coming to you will you pass on unseen?`;
    default: return view.step;
  }
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
  if (view.passing.length) { passing.append(el("span", phase && phase.phase === "pledge" ? "setting aside: " : "passing: ")); passing.append(Board.tiles(info, view.passing, {small: true})); }
  if (view.aside && view.aside.length) { passing.append(el("span", " set aside: ")); passing.append(Board.tiles(info, view.aside, {small: true})); }
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
    row.append(el("span", line.hand, "pattern"), el("span", ` ${line.value ?? ""} ${line.concealed ? "C" : "X"}`, "value"), el("span", ` ${line.id}`, "id"));
    card.append(row);
  }
}

function drawHints(lines) {
  const box = $("hints");
  box.replaceChildren();
  for (const row of document.querySelectorAll("#card .line.near")) row.classList.remove("near");
  for (const h of lines) {
    const line = el("div", null, "hint");
    line.append(el("span", `${info.racks > 1 ? `rack ${h.rack + 1}: ` : ""}${h.line}: ${h.away} away (value ${h.value})${h.missing.length ? "; missing " : ""}`));
    if (h.missing.length) line.append(Board.tiles(info, h.missing, {small: true}));
    box.append(line);
    const row = document.querySelector(`#card .line[data-line="${CSS.escape(h.line)}"]`);
    if (row) row.classList.add("near");
  }
  if (!lines.length) box.append(el("div", "no hints now"));
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
$("result-close").addEventListener("click", () => { $("result").hidden = true; $("result-body").replaceChildren(); });
$("typed").addEventListener("submit", (ev) => { ev.preventDefault(); const t = $("typed-action").value.trim(); if (t) { busy = false; act(t); $("typed-action").value = ""; } });
// what the page shows, for tests and the curious: this seat's own view only
window.jongg = {
  status: () => ({ready: Boolean(info && view), deciding: Boolean(view && view.deciding) && !busy,
                  step: view ? view.step : null, legal: legal.slice(), hand: view ? view.hand.slice() : [],
                  passing: view ? view.passing.slice() : [], rounds: view ? view.results.length : 0,
                  over: Boolean(view && view.step === "over"), decisions,
                  connected: Boolean(socket && socket.readyState === WebSocket.OPEN)}),
};
if (!token) { $("head").textContent = "This link has no seat token: open the link you were given."; }
else connect();
