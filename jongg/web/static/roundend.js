// A round's end, held on the table until the people at it go on: the table
// as it stood when the round ended (the discards, the exposures, the claimed
// tile), every hand shown open on it once the server sends the final table
// (round_over), the winner's in its line's groups with its jokers resolved, a
// wall game said as such, the payments and the scores in the server's words;
// "next round" tells the server this person is ready (it deals on when every
// person is, next_round), and only then is the next round drawn, from what
// the server sent meanwhile, in order. At the match's end: the standings,
// "rematch" and the way back to the lobby.
"use strict";

let frozen = null;     // the table at the round's end: {view, pile, latest, end, said, final}
let held = [];         // updates that came while it was frozen

// `end` the round_ended event, `result` the server's words for it
function freeze(end, result, live) {
  frozen = {view: view || live, pile: pile.map((row) => row.map((d) => ({...d}))), latest: latest && {...latest},
            end, said: result || {title: `round ${end.round + 1} over`, lines: []}, final: null};
  cancelPending();
  selected = null;
  drawHints([]);  // the hints were for a position gone
  drawFrozen();
}

// the server's final table (also sent to a page coming back while it holds)
function roundOver(m) {
  const winner = m.hands.find((h) => h.seat === m.winner);
  if (!frozen) freeze({round: m.round, winner: m.winner, how: m.how, mahjongs: winner && winner.mahjongs}, m.result, view);
  frozen.final = m;
  if (m.pile) frozen.pile = m.pile;  // the round's discards, the claimed ones marked
  if (m.result) frozen.said = m.result;
  drawFrozen();
}

function drawFrozen() {
  const f = frozen;
  const hands = f.final ? f.final.hands : [];
  const seats = f.view.seats.map((seat, s) => {
    const h = hands.find((x) => x.seat === s);
    // the exposures as the round ended (a page coming back while the table
    // is held has only the next round's view)
    const left = f.pile[s] ? f.pile[s].filter((d) => d.by === undefined).map((d) => d.tile) : seat.discards;
    return h ? {...seat, hand: h.concealed, concealed: h.concealed.length, exposures: h.exposures || seat.exposures,
                discards: left} : seat;
  });
  // the table's head as the round ended (a page coming back has the next round's view)
  const head = f.final && f.final.table ? f.final.table : {};
  const still = {...f.view, ...head, seats, turn: null, discard: null, step: "the round is over"};
  $("head").textContent = `${Board.header(info, still)} · you are ${info.seats[info.seat]}`;
  Felt.draw($("seats"), info, still, info.seat, f.pile, f.latest);
  $("seats").classList.add("frozen");
  const line = $("seats").querySelector(".middle .turn-line");
  if (line) {
    const racks = (f.end.mahjongs || []).map((m) => `${info.seats[m.seat]} rack ${m.rack + 1}`);
    // several wins on one discard: every winner, nearest first
    const won = f.end.winners ? f.end.winners.map((x) => info.seats[x.seat]).join(", ") : info.seats[f.end.winner];
    line.textContent = f.end.winner !== null && f.end.winner !== undefined ? `${won}: ${Board.mahjong(info)}!`
      : `${f.end.how === "dead" ? "Dead hands" : "Wall game"}: ${racks.length ? `${Board.mahjong(info)} on ${racks.join(", ")}` : "nobody wins"}`;
    line.classList.add("over-line");
  }
  const box = $("round-end");
  box.replaceChildren();
  const go = el("button", goesTo(), "main");
  go.type = "button";
  go.id = "next-round";
  go.disabled = Boolean(f.final && f.final.confirmed && !f.final.match_over);
  go.addEventListener("click", goOn);
  // the way on first, where a phone's screen always has it
  const top = el("div", null, "go-on");
  top.append(el("strong", waiting() || "The round is over: the table waits for you."), go);
  box.append(top);
  if (f.final && f.final.wall_game) box.append(el("div", "A wall game: the wall ran out and nobody won.", "wall-said"));
  const win = hands.find((h) => h.seat === f.end.winner);
  if (win && win.filled) {
    const shown = el("div", null, "winning-hand");
    shown.append(el("span", `${info.seats[win.seat]}${win.seat === info.seat ? " (you)" : ""}: `, "label"), Board.filled(info, win.filled));
    box.append(shown);
  }
  box.append(Story.result(info, f.said, null));
  if (!hands.length && f.view.hand && f.view.hand.length && f.end.winner !== info.seat) {
    const mine = el("div", null, "your-hand");
    mine.append(el("span", "your hand: ", "label"), Board.tiles(info, f.view.hand, {small: true}));
    box.append(mine);
  }
  box.hidden = false;
  $("mine").hidden = true;
  if (!go.disabled) go.focus({preventScroll: true});
}

// whom the table still waits for
function waiting() {
  const f = frozen && frozen.final;
  if (!f || f.match_over || !f.waiting.length) return "";
  return `Waiting for ${f.waiting.map((s) => (s === info.seat ? "you" : info.seats[s])).join(", ")} to go on.`;
}

// what "next round" leads to, as far as the server has gone
function goesTo() {
  const f = frozen && frozen.final;
  if ((f && f.match_over) || held.some((m) => m.events.some((e) => e.kind === "match_ended"))) return "the match's end";
  return f && f.confirmed ? "waiting…" : "next round";
}

// "next round": the server deals on once every person has said it (then
// next_round unfreezes the page); the match's end is only this page's
function goOn() {
  if (frozen && frozen.final && frozen.final.match_over) { unfreeze(); return; }
  send({type: "next"});
  const go = $("next-round");
  if (go) { go.disabled = true; go.textContent = "waiting…"; }
}

// an update while frozen: kept for later; only the button may say more
function hold(m) {
  held.push(m);
  const go = $("next-round");
  if (go && !go.disabled && go.textContent !== goesTo()) go.textContent = goesTo();
}

function unfreeze() {
  if (!frozen) return;
  frozen = null;
  $("seats").classList.remove("frozen");
  $("round-end").hidden = true;
  $("mine").hidden = false;
  const queue = held;
  held = [];
  for (const m of queue) { if (frozen) held.push(m); else apply(m); }
  if (!frozen && view) draw();
}

// the match's end in the server's words (standings, payouts): the same
// table again, or the way back
function matchEnd(said) {
  const box = $("round-end");
  box.replaceChildren();
  box.append(Story.result(info, said, null));
  const again = el("button", "rematch", "main");
  again.type = "button";
  again.addEventListener("click", rematch);
  const lobby = el("a", "back to the lobby", "button-link");
  lobby.href = "/";
  const row = el("div", null, "go-on");
  row.append(again, lobby);
  box.append(row);
  box.hidden = false;
  $("mine").hidden = true;
}

// the same table again: the server opens it once and sends each person
// only its own seat's link
function rematch() { send({type: "rematch"}); }

function rematched(m) {
  if (m.url) location.href = new URL(m.url, location.origin).href;
}
