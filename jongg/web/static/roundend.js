// A round's end, held on the table until the player goes on: the table as
// it stood when the round ended (the discards, the exposures, the claimed
// tile), who won with the hand in its line's groups and its jokers resolved,
// a wall game said as such, the payments and the scores; the next round (or
// the match's end) is drawn only when "next round" is pressed. What the
// server sends meanwhile is kept and drawn then, in order.
"use strict";

let frozen = null;     // the table at the round's end: {view, pile, latest, end, paid}
let held = [];         // updates that came while it was frozen

function freeze(end, live) {
  frozen = {view: view || live, pile: pile.map((row) => row.map((d) => ({...d}))), latest: latest && {...latest},
            end, paid: roundPaid.slice()};
  cancelPending();
  selected = null;
  drawFrozen();
}

function drawFrozen() {
  const f = frozen;
  const still = {...f.view, turn: null, discard: null, step: "the round is over"};
  $("head").textContent = `${Board.header(info, still)} · you are ${info.seats[info.seat]}`;
  Felt.draw($("seats"), info, still, info.seat, f.pile, f.latest);
  $("seats").classList.add("frozen");
  const line = $("seats").querySelector(".middle .turn-line");
  if (line) {
    const racks = (f.end.mahjongs || []).map((m) => `${info.seats[m.seat]} rack ${m.rack + 1}`);
    line.textContent = f.end.winner !== null && f.end.winner !== undefined ? `${info.seats[f.end.winner]}: ${Board.mahjong(info)}!`
      : `${f.end.how === "dead" ? "Dead hands" : "Wall game"}: ${racks.length ? `${Board.mahjong(info)} on ${racks.join(", ")}` : "nobody wins"}`;
    line.classList.add("over-line");
  }
  const box = $("round-end");
  box.replaceChildren();
  box.append(el("h3", `Round ${f.end.round + 1} is over`));
  box.append(Board.result(info, f.end, f.paid, f.end.scores, info.seat));
  if (f.view.hand && f.view.hand.length && f.end.winner !== info.seat) {
    const mine = el("div", null, "your-hand");
    mine.append(el("span", "your hand: ", "label"), Board.tiles(info, f.view.hand, {small: true}));
    box.append(mine);
  }
  const last = held.some((m) => m.events.some((e) => e.kind === "match_ended"));
  const go = el("button", last ? "the match's end" : "next round", "main");
  go.type = "button";
  go.id = "next-round";
  go.addEventListener("click", unfreeze);
  box.append(go);
  box.hidden = false;
  $("mine").hidden = true;
  go.focus({preventScroll: true});
}

function unfreeze() {
  frozen = null;
  $("seats").classList.remove("frozen");
  $("round-end").hidden = true;
  $("mine").hidden = false;
  const queue = held;
  held = [];
  for (const m of queue) { if (frozen) held.push(m); else apply(m); }
  if (!frozen && view) draw();
}

// the match's end: the final scores, payouts, winners, and the way back
function matchEnd(e) {
  const box = $("round-end");
  box.replaceChildren();
  box.append(el("h3", "The match is over"));
  box.append(el("div", `final ${Board.word(info, "points")}: ${e.scores.map((v, s) => `${info.seats[s]} ${v}`).join("  ")}`, "scores"));
  if (e.payouts) box.append(el("div", `payouts: ${e.payouts.map((v, s) => `${info.seats[s]} ${v >= 0 ? "+" : ""}${v}`).join("  ")}`, "payouts"));
  box.append(el("div", `winner${e.winners.length > 1 ? "s" : ""}: ${e.winners.map((s) => info.seats[s]).join(", ")}`, "winners"));
  const lobby = el("a", "back to the lobby", "button-link");
  lobby.href = "/";
  box.append(lobby);
  box.hidden = false;
  $("mine").hidden = true;
}
