// A saved game, step by step: any seat's view, or every hand open. A table
// still being played replays only from the seat whose link ('#token') is given.
"use strict";

const $ = (id) => document.getElementById(id);
const el = Board.el;
const tableId = location.pathname.split("/").pop();
const token = decodeURIComponent(location.hash.slice(1));
let steps = 0;
let step = 0;    // the step shown
let wanted = 0;  // the step asked for last: clicks faster than the answers all count
let asked = 0;   // which request is the latest, so a late answer to an older one is not shown
let playing = null;
let viewsMade = false;

async function frame(at) {
  wanted = at;
  const ticket = ++asked;
  const headers = token ? {"X-Jongg-Token": token} : {};
  const response = await fetch(`/api/replays/${encodeURIComponent(tableId)}?view=${encodeURIComponent($("view").value)}&step=${at}`, {headers});
  const data = await response.json();
  if (ticket !== asked) return;
  if (!response.ok) { $("error").textContent = data.error; stop(); return; }
  $("error").textContent = "";
  show(data);
}

function show(f) {
  steps = f.steps;
  step = f.step;
  wanted = f.step;
  const info = {title: f.title, seats: f.seats, racks: f.racks, words: f.words, tiles: f.tiles, names: f.agents};
  if (!viewsMade && !token) {
    viewsMade = true;
    f.seats.forEach((name, s) => $("view").append(new Option(`${name}'s view`, String(s + 1))));
    if (token) { $("view").replaceChildren(new Option("your seat's view", "mine")); }
  }
  const me = f.view.seat;
  $("head").textContent = `${f.variant}: replay · ${Board.header(info, f.view)}`;
  $("step").max = String(steps);
  $("step").value = String(step);
  $("where").textContent = `decision ${step} of ${steps}`;
  Felt.draw($("seats"), info, f.view, me);
  const hand = $("hand");
  hand.replaceChildren();
  if (me !== null && me !== undefined) {
    hand.append(el("span", `${f.seats[me]}'s hand: `));
    for (const [family, codes] of Board.grouped(info, f.view.hand)) {
      const group = el("span", null, "group");
      group.append(el("span", family, "family"), Board.tiles(info, codes));
      hand.append(group);
    }
  }
  $("last-action").textContent = f.last ? `last: ${f.seats[f.last.seat]}: ${f.last.action}` : "";
  const story = $("story");
  story.replaceChildren();
  for (const spans of f.story) story.prepend(Story.text(info, spans));
  if (f.result) story.prepend(Story.result(info, f.result, f.events.find((e) => e.kind === "round_ended")));
  if (f.match) story.prepend(Story.result(info, f.match, null));
}

function go(at) { frame(Math.max(0, Math.min(steps, at))); }
function stop() { if (playing) { clearInterval(playing); playing = null; $("play").textContent = "play"; } }

$("first").addEventListener("click", () => { stop(); go(0); });
$("back").addEventListener("click", () => { stop(); go(wanted - 1); });
$("forward").addEventListener("click", () => { stop(); go(wanted + 1); });
$("last").addEventListener("click", () => { stop(); go(steps); });
$("step").addEventListener("change", () => { stop(); go(Number($("step").value)); });
$("view").addEventListener("change", () => go(wanted));
$("play").addEventListener("click", () => {
  if (playing) { stop(); return; }
  $("play").textContent = "pause";
  playing = setInterval(() => { if (wanted >= steps) stop(); else go(wanted + 1); }, 500);
});
if (token) $("view").replaceChildren(new Option("your seat's view", "mine"));
frame(0);
