// The table as players sit at it: the seat drawing it at the bottom, the
// others to its right, across and left in the order of play; each seat's
// wind and who sits there, the dealer and the seat to play marked in words as
// well as colour; each seat's exposures (rack by rack where there are
// several), jokers marked with the tile they stand for; and in the centre
// each seat's discards in a row on its own side, the latest discard
// highlighted and a claimed one shown as taken.
"use strict";

const Felt = (() => {
  const el = Board.el;

  // where each seat sits, seen from `me`: the others in the order of play,
  // counter-clockwise (right, across, left); more than four share the far side
  function places(count, me) {
    const order = [];
    for (let i = 1; i < count; i++) order.push((me + i) % count);
    const out = {[me]: "me"};
    if (count === 2) out[order[0]] = "across";
    else if (count === 3) { out[order[0]] = "right"; out[order[1]] = "left"; }
    else {
      out[order[0]] = "right";
      out[order[order.length - 1]] = "left";
      for (const s of order.slice(1, -1)) out[s] = "across";
    }
    return out;
  }

  // the seat's short mark: its wind tile's code when the seat is named for
  // a wind (East: E), else the last word of its name (Seat 2: 2)
  function badge(info, s) {
    const name = info.seats[s];
    const wind = Object.entries(info.tiles).find(([, t]) => t.name === name);
    return wind ? wind[0] : name.split(" ").pop();
  }

  function isJoker(info, code) { return (info.tiles[code] || {}).category === "joker"; }

  // an exposure's tiles, each joker with the natural tile of its group
  function exposure(info, codes, small = true) {
    const natural = codes.find((c) => !isJoker(info, c));
    const row = el("span", null, "tiles exposure");
    for (const code of codes) {
      const as = isJoker(info, code) && natural ? natural : undefined;
      row.append(Board.tile(info, code, {small, cls: "exposed", as}));
    }
    return row;
  }

  function who(info, s, me) {
    if (s === me) return "you";
    const agent = info.names ? info.names[s] : "";
    return !agent ? "" : agent === "human" ? "a player" : `${agent} (bot)`;
  }

  function seatBox(info, view, s, me, place) {
    const seen = view.seats[s];
    const playing = view.turn === s;
    const box = el("section", null, `seat pos-${place}${s === me ? " me" : ""}${playing ? " to-play" : ""}`);
    box.dataset.seat = String(s);
    box.setAttribute("aria-label", `${info.seats[s]}${s === me ? " (you)" : ""}`);
    const head = el("div", null, "seat-head");
    head.append(el("span", badge(info, s), "wind"));
    head.append(el("span", info.seats[s], "seat-name"));
    const sitting = who(info, s, me);
    if (sitting) head.append(el("span", sitting, s === me ? "who you" : "who"));
    if (s === view.dealer) head.append(el("span", Board.word(info, "dealer"), "dealer"));
    if (playing) head.append(el("span", "▶ to play", "turn-mark"));
    head.append(el("span", `${Board.word(info, "points")} ${view.scores[s]}`, "score"));
    head.append(el("span", `${seen.concealed} in hand`, "count"));
    if (seen.dead) head.append(el("span", "DEAD", "dead"));
    if (seen.skips) head.append(el("span", `skips ${seen.skips}`, "skips"));
    box.append(head);
    if (seen.hand) box.append(Board.tiles(info, seen.hand, {small: true, cls: "open"}));
    if (seen.racks) {
      seen.racks.forEach((rack, r) => {
        const line = el("div", null, "rack");
        line.append(el("span", `rack ${r + 1}`, "label"));
        for (const e of rack.exposures) line.append(exposure(info, e));
        if (rack.mahjong.length) { line.append(el("span", `${Board.mahjong(info)}:`, "won")); line.append(Board.tiles(info, rack.mahjong, {small: true})); }
        if (rack.pledged) line.append(el("span", "pledged", "pledged"));
        if (rack.dead) line.append(el("span", "DEAD", "dead"));
        if (!rack.exposures.length && !rack.mahjong.length && !rack.pledged) line.append(el("span", "nothing exposed", "dim"));
        box.append(line);
      });
    } else {
      const line = el("div", null, "exposures");
      line.append(el("span", "exposed", "label"));
      seen.exposures.forEach((e, i) => { const t = exposure(info, e); t.dataset.exposure = `${s}:${i}`; line.append(t); });
      if (!seen.exposures.length) line.append(el("span", "nothing yet", "dim"));
      box.append(line);
    }
    return box;
  }

  // a seat's discards in order, the ones claimed among them: `pile` (the
  // round's discards as the page was told them, each {tile, by} when taken)
  // when it agrees with what the seat sees (with the claimed ones gone, or,
  // on a table frozen as the round ended, the last one not yet), else the
  // seat's discards alone
  function discards(view, s, pile) {
    const kept = view.seats[s].discards.join();
    const mine = pile && pile[s];
    if (!mine) return view.seats[s].discards.map((tile) => ({tile}));
    const left = mine.filter((d) => d.by === undefined).map((d) => d.tile);
    const last = mine.length ? [mine[mine.length - 1].tile] : [];
    if (left.join() === kept || [...left, ...last].join() === kept) return mine;
    return view.seats[s].discards.map((tile) => ({tile}));
  }

  function pond(info, view, s, me, place, pile, latest) {
    const row = el("div", null, `pond pos-${place}${view.turn === s ? " to-play" : ""}`);
    row.dataset.seat = String(s);
    row.append(el("span", s === me ? "your discards" : `${info.seats[s]}'s discards`, "label"));
    const tilesRow = el("span", null, "tiles");
    discards(view, s, pile).forEach((d, i) => {
      const last = latest && latest.seat === s && latest.index === i;
      const cls = [d.by !== undefined ? "taken" : "", last ? "latest" : ""].filter(Boolean).join(" ");
      const t = Board.tile(info, d.tile, {small: true, cls, note: d.by !== undefined ? `taken by ${info.seats[d.by]}` : last ? "the latest discard" : ""});
      tilesRow.append(t);
      if (d.by !== undefined) tilesRow.append(el("span", `→${badge(info, d.by)}`, "taken-by"));
    });
    row.append(tilesRow);
    return row;
  }

  function middle(info, view, latest) {
    const box = el("div", null, "middle");
    box.append(el("div", `round ${view.round + 1} · wall ${view.wall}`, "wall"));
    if (view.turn !== null && view.turn !== undefined) box.append(el("div", `to play: ${info.seats[view.turn]}`, "turn-line"));
    else if (view.step) box.append(el("div", view.step === "passing" ? "passing" : view.step, "turn-line"));
    if (view.discard) {
      const last = el("div", null, "last-discard");
      last.append(el("span", `${info.seats[view.discard[0]]} discards`));
      last.append(Board.tile(info, view.discard[1], {cls: "latest"}));
      box.append(last);
    } else if (latest && latest.by !== undefined) {
      box.append(el("div", `${info.seats[latest.by]} took ${info.seats[latest.seat]}'s ${latest.tile}`, "claimed-line"));
    }
    return box;
  }

  // the whole table; `pile` and `latest` as table.js keeps them from the
  // round's events (a replay passes neither: the seats' discards alone)
  function draw(container, info, view, me, pile, latest) {
    const seat = me === null || me === undefined ? 0 : me;
    const where = places(view.seats.length, seat);
    container.replaceChildren();
    container.className = `felt players-${view.seats.length}`;
    const centre = el("div", null, "centre");
    const ponds = {};
    for (let s = 0; s < view.seats.length; s++) {
      const place = where[s];
      container.append(seatBox(info, view, s, me, place));
      (ponds[place] = ponds[place] || []).push(pond(info, view, s, me, place, pile, latest));
    }
    for (const place of ["across", "left", "right"]) {
      if (!ponds[place]) continue;
      const side = el("div", null, `ponds pos-${place}`);
      side.append(...ponds[place]);
      centre.append(side);
    }
    centre.append(middle(info, view, latest));
    const bottom = el("div", null, "ponds pos-me");
    bottom.append(...ponds.me);
    centre.append(bottom);
    container.append(centre);
  }

  return {draw, places, exposure};
})();
