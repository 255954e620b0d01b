// A round's end, held on the table until the player goes on: the table as
// it stood when the round ended (the discards, the exposures, the claimed
// tile), who won with the hand in its line's groups and its jokers resolved,
// a wall game said as such, the payments and the scores; the next round (or
// the match's end) is drawn only when "next round" is pressed. What the
// server sends meanwhile is kept and drawn then, in order.
"use strict";

let frozen = null;     // the table at the round's end: {view, pile, latest, end, said}
let held = [];         // updates that came while it was frozen

// `end` the round_ended event, `result` the server's words for it
function freeze(end, result, live) {
  frozen = {view: view || live, pile: pile.map((row) => row.map((d) => ({...d}))), latest: latest && {...latest},
            end, said: result || {title: `Round ${end.round + 1} is over`, lines: []}};
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
  const go = el("button", goesTo(), "main");
  go.type = "button";
  go.id = "next-round";
  go.addEventListener("click", unfreeze);
  // the way on first, where a phone's screen always has it
  const top = el("div", null, "go-on");
  top.append(el("strong", "The round is over: the table waits for you."), go);
  box.append(top);
  // the server's words carry the winning hand in its groups, jokers resolved
  box.append(Story.result(info, f.said, null));
  if (f.view.hand && f.view.hand.length && f.end.winner !== info.seat) {
    const mine = el("div", null, "your-hand");
    mine.append(el("span", "your hand: ", "label"), Board.tiles(info, f.view.hand, {small: true}));
    box.append(mine);
  }
  box.hidden = false;
  $("mine").hidden = true;
  go.focus({preventScroll: true});
}

// what "next round" leads to, as far as the server has gone meanwhile
function goesTo() {
  return held.some((m) => m.events.some((e) => e.kind === "match_ended")) ? "the match's end" : "next round";
}

// an update while frozen: kept for later; only the button may say more
function hold(m) {
  held.push(m);
  const go = $("next-round");
  if (go && go.textContent !== goesTo()) go.textContent = goesTo();
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

// the match's end in the server's words (standings, payouts), and the way back
function matchEnd(said) {
  const box = $("round-end");
  box.replaceChildren();
  box.append(Story.result(info, said, null));
  const lobby = el("a", "back to the lobby", "button-link");
  lobby.href = "/";
  box.append(lobby);
  box.hidden = false;
  $("mine").hidden = true;
}
