// A round's end as the server freezes it (docs/web.md, "Messages"): every
// hand shown, the winner's in its line's groups with jokers resolved, the
// payments and scores in the server's words, and "next round", which each
// person at the table confirms. At the match's end: the standings, a
// rematch, and the way back to the lobby.
"use strict";

const Rounds = (() => {
  const el = (tag, text, cls) => Board.el(tag, text, cls);

  function hands(info, final) {
    const box = el("div", null, "final-hands");
    for (const h of final.hands) {
      const row = el("div", null, `final-hand${h.seat === final.winner ? " winner" : ""}`);
      row.dataset.seat = String(h.seat);
      row.append(el("span", `${info.seats[h.seat]}${h.seat === info.seat ? " (you)" : ""}: `, "seat-name"));
      if (h.filled) row.append(Board.filled(info, h.filled));
      else {
        for (const e of h.exposures) row.append(Board.tiles(info, e, {small: true, cls: "exposed"}));
        row.append(Board.tiles(info, h.concealed, {small: true, cls: "open"}));
      }
      box.append(row);
    }
    return box;
  }

  function waiting(info, final) {
    if (final.match_over) return "";
    if (!final.waiting.length) return "";
    return `waiting for ${final.waiting.map((s) => s === info.seat ? "you" : info.seats[s]).join(", ")} to go on`;
  }

  // the frozen table in the result box; `next` says go on, `rematch` opens the same table again
  function show(info, final, body, next) {
    body.replaceChildren();
    const box = el("div", null, `result frozen${final.wall_game ? " wall-game" : ""}`);
    if (final.result) box.append(Story.result(info, final.result, null));
    if (final.wall_game) box.append(el("div", "A wall game: the wall ran out and nobody won.", "wall-said"));
    box.append(hands(info, final));
    if (final.match) box.append(Story.result(info, final.match, null));
    box.append(el("div", waiting(info, final), "waiting"));
    body.append(box);
    next.textContent = final.match_over ? "close" : (final.confirmed ? "waiting…" : "next round");
    next.disabled = !final.match_over && final.confirmed;
    if (final.match_over) {
      const again = el("button", "rematch", "rematch");
      again.type = "button";
      again.addEventListener("click", rematch);
      const lobby = el("a", "back to the lobby", "lobby");
      lobby.href = "/";
      body.append(again, lobby);
    }
  }

  // the server opens the same table again and sends each person its own seat's link
  function rematch() { window.jongg.send({type: "rematch"}); }

  function rematched(m) {
    if (m.url) location.href = new URL(m.url, location.origin).href;
  }

  return {show, rematched};
})();
