// The table as drawn for one seat (or every hand open, in a replay): tiles as
// SVG in the colours players know, the seats with their exposures, racks and
// discards. The story and a round's end come in words from the server (story.js).
// Shared by the table and the replay pages. Text is always set as text.
"use strict";

const Board = (() => {
  const SVG = "http://www.w3.org/2000/svg";

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }

  // -- tiles -------------------------------------------------------------------------
  function tile(info, code, options = {}) {
    const t = info.tiles[code] || {big: code, small: "", colour: "black", family: "", name: code};
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 40 54");
    svg.setAttribute("class", `tile c-${t.colour}${options.small ? " small" : ""}${options.cls ? " " + options.cls : ""}`);
    svg.dataset.code = code;
    const title = document.createElementNS(SVG, "title");
    title.textContent = `${t.name} (${code})${options.as ? `, standing for ${options.as}` : ""}`;
    const face = document.createElementNS(SVG, "rect");
    for (const [k, v] of Object.entries({x: 1, y: 1, width: 38, height: 52, rx: 5, class: "face"})) face.setAttribute(k, v);
    const big = document.createElementNS(SVG, "text");
    for (const [k, v] of Object.entries({x: 20, y: 30, "text-anchor": "middle", class: "big"})) big.setAttribute(k, v);
    big.textContent = t.big;
    const small = document.createElementNS(SVG, "text");
    for (const [k, v] of Object.entries({x: 20, y: 46, "text-anchor": "middle", class: "small-label"})) small.setAttribute(k, v);
    small.textContent = options.as ? `=${options.as}`.slice(0, 7) : (t.small || "").slice(0, 7);
    if (options.as) svg.dataset.as = options.as;
    svg.append(title, face, big, small);
    return svg;
  }

  function tiles(info, codes, options = {}) {
    const row = el("span", null, "tiles");
    for (const code of codes) row.append(tile(info, code, options));
    return row;
  }

  // a winning hand in its line's groups, each joker with the tile it stands for
  function filled(info, groups, options = {}) {
    const hand = el("span", null, "filled");
    for (const group of groups) {
      const row = el("span", null, "tiles group");
      for (const t of group) row.append(tile(info, t.tile, {...options, as: t.as}));
      hand.append(row);
    }
    return hand;
  }

  // a hand's tiles grouped by family (suit, dragons, winds...), each in deck order
  function grouped(info, codes) {
    const groups = new Map();
    const sorted = codes.slice().sort((a, b) => (info.tiles[a]?.order ?? 0) - (info.tiles[b]?.order ?? 0));
    for (const code of sorted) {
      const family = info.tiles[code]?.family || "";
      if (!groups.has(family)) groups.set(family, []);
      groups.get(family).push(code);
    }
    return [...groups.entries()];
  }

  // -- words -------------------------------------------------------------------------
  function word(info, name) { return (info.words && info.words[name]) || name; }
  function mahjong(info) { const w = word(info, "mahjong"); return w === "mahjong" ? "Mah Jongg" : w; }

  // -- the table -----------------------------------------------------------------------
  function seatBox(info, view, s, me) {
    const seen = view.seats[s];
    const box = el("div", null, `seat${s === me ? " me" : ""}${view.turn === s ? " to-play" : ""}`);
    box.dataset.seat = String(s);
    const head = el("div", null, "seat-head");
    head.append(el("span", `${info.seats[s]}${s === me ? " (you)" : ""}`, "seat-name"));
    if (info.names && info.names[s] !== "human") head.append(el("span", ` bot: ${info.names[s]}`, "bot"));
    if (s === view.dealer) head.append(el("span", ` ${word(info, "dealer")}`, "dealer"));
    head.append(el("span", ` ${word(info, "points")}: ${view.scores[s]}`, "score"));
    head.append(el("span", ` · ${seen.concealed} in hand`, "count"));
    if (seen.dead) head.append(el("span", " DEAD", "dead"));
    if (seen.skips) head.append(el("span", ` skips ${seen.skips}`, "skips"));
    box.append(head);
    if (seen.hand) box.append(tiles(info, seen.hand, {small: true, cls: "open"}));
    if (seen.racks) {
      seen.racks.forEach((rack, r) => {
        const line = el("div", null, "rack");
        line.append(el("span", `rack ${r + 1}: `));
        for (const e of rack.exposures) line.append(tiles(info, e, {small: true, cls: "exposed"}));
        if (rack.mahjong.length) { line.append(el("span", ` ${mahjong(info)}: `, "won")); line.append(tiles(info, rack.mahjong, {small: true})); }
        if (rack.pledged) line.append(el("span", " pledged", "pledged"));
        if (rack.dead) line.append(el("span", " DEAD", "dead"));
        if (!rack.exposures.length && !rack.mahjong.length && !rack.pledged) line.append(el("span", "nothing exposed", "dim"));
        box.append(line);
      });
    } else if (seen.exposures.length) {
      const line = el("div", null, "exposures");
      seen.exposures.forEach((e, i) => { const t = tiles(info, e, {small: true, cls: "exposed"}); t.dataset.exposure = `${s}:${i}`; line.append(t); });
      box.append(line);
    }
    const discards = el("div", null, "discards");
    discards.append(tiles(info, seen.discards, {small: true}));
    box.append(discards);
    return box;
  }

  function header(info, view) {
    const parts = [info.title, `round ${view.round + 1}`, `${word(info, "dealer")}: ${info.seats[view.dealer]}`, `wall ${view.wall}`];
    if (view.die) parts.push(`die ${view.die}, drawing from ${info.seats[view.wall_of]}'s wall`);
    if (view.turn !== null && view.turn !== undefined) parts.push(`to play: ${info.seats[view.turn]}`);
    else parts.push(view.step);
    return parts.join(" · ");
  }

  function drawSeats(container, info, view, me) {
    container.replaceChildren();
    for (let s = 0; s < view.seats.length; s++) container.append(seatBox(info, view, s, me));
    if (view.discard) {
      const last = el("div", null, "last-discard");
      last.append(el("span", `Last discard, by ${info.seats[view.discard[0]]}: `));
      last.append(tile(info, view.discard[1]));
      container.append(last);
    }
  }

  return {el, tile, tiles, filled, grouped, header, drawSeats, word, mahjong};
})();
