// The seat's own part of the table: its hand (in its own order or by suit),
// what it is asked, the buttons of its legal actions. A tile is played by a
// second click (or Enter) on it, or, with "one click" chosen, after a short
// undo window; a choice made in an earlier state is dropped, never played.
"use strict";

const UNDO_MS = 2000;  // how long a one-click discard or pass may be taken back
let selected = null;   // {code, stamp}: the tile chosen to discard or pass, and in which state
let pending = null;    // {action, stamp, timer, until}: a one-click play waiting out its undo window
let oneClick = localStorage.getItem("jongg.oneClick") === "1";
let focusIndex = null; // the hand's tile that had the keyboard's focus

// what the seat decides on now: a choice made under another stamp is stale
function stamp() {
  return view ? JSON.stringify([view.round, view.step, view.hand, view.passing, view.discard, legal]) : "";
}

function tileAction(code) { return legal.find((a) => a === `discard ${code}` || a === `pass ${code}`); }
function chosen() { return selected && selected.stamp === stamp() ? selected.code : null; }

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
  const acting = (code) => !frozen && tileAction(code);
  const picked = chosen();
  // the drawn tile (view.drawn_at: its place in the sorted hand) and the
  // chosen one are each one tile, not every copy of it
  const copy = view.drawn_at !== undefined ? view.hand.slice(0, view.drawn_at + 1).filter((c) => c === view.drawn).length : 0;
  let copies = 0, chosenShown = false;
  const place = (code, index) => {
    const drawn = code === view.drawn && ++copies === copy, mine = !chosenShown && picked === code;
    chosenShown ||= mine;
    const action = acting(code);
    const t = Board.tile(info, code, {cls: [action ? "playable" : "", mine ? "selected" : "", drawn ? "drawn" : ""].join(" ").trim(),
                                      note: drawn ? "just drawn" : ""});
    t.dataset.index = String(index);
    if (action) {  // a tile to play is a button to a keyboard and a screen reader
      t.setAttribute("role", "button");
      t.setAttribute("tabindex", "0");
      t.setAttribute("aria-pressed", String(mine));
      t.setAttribute("aria-label", `${mine ? "chosen: press again to " : ""}${action.split(" ")[0]} ${info.tiles[code] ? info.tiles[code].name : code}${drawn ? ", just drawn" : ""}`);
      t.addEventListener("keydown", (ev) => handKey(ev, code, index));
    }
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
  if (focusIndex !== null) {
    const again = hand.querySelector(`svg.tile[data-index="${focusIndex}"][tabindex]`) || hand.querySelector("svg.tile[tabindex]");
    if (again) again.focus();
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

// a click on a tile: the first chooses it, the second plays it (or, with one
// click chosen, the first plays it once its undo window has passed)
function choose(code) {
  const action = tileAction(code);
  if (!action || frozen || busy) return;
  if (chosen() === code) { selected = null; act(action); return; }
  cancelPending();
  selected = {code, stamp: stamp()};
  if (oneClick) {
    const until = Date.now() + UNDO_MS;
    pending = {action, stamp: selected.stamp, until, timer: setTimeout(() => {
      const waiting = pending;
      pending = null;
      if (waiting && waiting.stamp === stamp()) { selected = null; act(waiting.action); }
      else drawMine();
    }, UNDO_MS)};
  }
  drawMine();
}

function cancelPending() {
  if (pending) clearTimeout(pending.timer);
  pending = null;
}

// take back a choice (the undo button, Escape): nothing is sent
function undo() {
  cancelPending();
  selected = null;
  drawMine();
}

function handKey(ev, code, index) {
  const tiles = [...document.querySelectorAll("#hand svg.tile[tabindex]")];
  const at = tiles.indexOf(ev.currentTarget);
  if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); focusIndex = index; choose(code); }
  else if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
    ev.preventDefault();
    const to = tiles[(at + (ev.key === "ArrowRight" ? 1 : tiles.length - 1)) % tiles.length];
    if (to) { to.focus(); focusIndex = Number(to.dataset.index); }
  }
}

// -- what is asked, and the choices: the server's words ------------------------------------
function label(action) {
  const a = (said.actions || []).find((x) => x.action === action);
  return a ? Story.plain(a.says) : action;
}

function prompt() {
  return view && said.prompt ? said.prompt.question : "";  // the server's words alone
}

function drawActions() {
  const box = $("actions");
  box.replaceChildren();
  if (frozen) return;
  const picked = chosen();
  const action = picked && tileAction(picked);
  if (action) {
    const verb = action.split(" ")[0];
    if (pending) {
      const left = el("span", null, "pending");
      left.dataset.doing = `${verb === "pass" ? "passing" : "discarding"} ${picked}`;
      box.append(left);
      countdown();
    } else box.append(button(action, `${verb} ${picked}`, "main"));
    const back = el("button", "undo (Esc)", "undo");
    back.type = "button";
    back.addEventListener("click", undo);
    box.append(back);
  }
  let n = 0;
  for (const a of legal) {
    if (/^(discard|pass) \S+$/.test(a)) continue;  // a tile of the hand: click it
    const b = button(a, label(a));
    if (++n <= 9) { b.dataset.key = String(n); b.title = `key ${n}`; b.prepend(el("kbd", String(n))); }
    box.append(b);
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
  b.addEventListener("click", () => { cancelPending(); selected = null; act(action); });
  return b;
}

// -- drawing ----------------------------------------------------------------------------
function drawMine() {
  if (frozen) return;
  $("prompt").textContent = busy ? "…" : prompt();
  $("prompt").classList.toggle("deciding", Boolean(view && view.deciding));
  // how a tile is played here (the server says what to do, the page how)
  if (!busy && legal.some((a) => /^(discard|pass) \S+$/.test(a)) && !chosen()) {
    $("prompt").append(el("span", oneClick ? " · click a tile to play it (2 s to undo)" : " · click a tile, then again to play it", "how"));
  }
  drawActions();
  drawHand();
  const passing = $("passing");
  passing.replaceChildren();
  if (view.passing.length) { passing.append(el("span", said.prompt && said.prompt.question.startsWith("set aside") ? "setting aside: " : "passing: ")); passing.append(Board.tiles(info, view.passing, {small: true})); }
  if (view.aside && view.aside.length) { passing.append(el("span", " set aside: ")); passing.append(Board.tiles(info, view.aside, {small: true})); }
}


// the keyboard: Escape takes a choice back, 1-9 press the numbered buttons,
// "/" goes to the typed action line (Enter there sends it)
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Escape") { undo(); return; }
  if (ev.key === "/") { ev.preventDefault(); $("typed-action").focus(); return; }
  const b = document.querySelector(`#actions button[data-key="${CSS.escape(ev.key)}"]`);
  if (b && !b.disabled) { ev.preventDefault(); b.click(); }
});
$("one-click").checked = oneClick;
$("one-click").addEventListener("change", () => {
  oneClick = $("one-click").checked;
  localStorage.setItem("jongg.oneClick", oneClick ? "1" : "0");
  undo();
});
// the undo window's count, while it runs (only its text changes: a button
// redrawn under a click would lose it)
function countdown() {
  const shown = document.querySelector("#actions .pending");
  if (pending && shown) shown.textContent = `${shown.dataset.doing} in ${Math.max(0, Math.ceil((pending.until - Date.now()) / 1000))} s`;
}
setInterval(countdown, 250);
