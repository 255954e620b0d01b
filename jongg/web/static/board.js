// Tiles as SVG, faces drawn from the deck's data in the colours players know,
// for one seat's table (or every hand open, in a replay); the seats are drawn
// by felt.js, the story and a round's end come in words from the server
// (story.js).
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
    title.textContent = `${t.name} (${code})${options.as ? `, standing for ${options.as}` : ""}${options.note ? `, ${options.note}` : ""}`;
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", title.textContent);
    const face = document.createElementNS(SVG, "rect");
    for (const [k, v] of Object.entries({x: 1, y: 1, width: 38, height: 52, rx: 5, class: "face"})) face.setAttribute(k, v);
    svg.append(title, face);
    if (t.face) for (const shape of t.face) { const drawn = mark(shape); if (drawn) svg.append(drawn); }
    else svg.append(text({text: t.big, x: 20, y: 30, size: 22}));
    const label = options.as ? `=${options.as}` : t.face && t.category === "suited" ? "" : (t.small || "").toUpperCase();
    if (label) svg.append(text({text: label.slice(0, 7), x: 20, y: 51, size: options.as ? 10 : 6.5}, options.as ? "as" : "small-label"));
    if (options.as) svg.dataset.as = options.as;
    return svg;
  }

  // one shape of a tile's face as the server drew it (jongg/present/faces.py):
  // only these elements and attributes, "ink" the tile's own colour
  const SHAPES = new Set(["circle", "rect", "path", "polygon", "text"]);
  const GEOMETRY = ["cx", "cy", "r", "x", "y", "width", "height", "rx", "d", "points", "transform"];
  const PAINT = {ink: "currentColor", none: "none"};
  function mark(shape) {
    if (!SHAPES.has(shape.el)) return null;
    if (shape.el === "text") return text(shape);
    const node = document.createElementNS(SVG, shape.el);
    for (const key of GEOMETRY) if (shape[key] !== undefined) node.setAttribute(key, String(shape[key]));
    paint(node, shape);
    return node;
  }

  function text(shape, cls) {
    const node = document.createElementNS(SVG, "text");
    for (const [k, v] of Object.entries({x: shape.x, y: shape.y, "text-anchor": "middle", "font-size": shape.size})) node.setAttribute(k, String(v));
    node.setAttribute("class", cls || "mark");
    node.textContent = String(shape.text);
    return node;
  }

  function paint(node, shape) {
    for (const [key, attr] of [["fill", "fill"], ["stroke", "stroke"]]) {
      const value = shape[key] || "none";
      if (value === "paper") node.classList.add(`paper-${key}`);
      else node.setAttribute(attr, PAINT[value] || "none");
    }
    if (shape.sw !== undefined) node.setAttribute("stroke-width", String(shape.sw));
    node.setAttribute("stroke-linecap", "round");
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

  function header(info, view) {
    const parts = [info.title, `round ${view.round + 1}`, `${word(info, "dealer")}: ${info.seats[view.dealer]}`, `wall ${view.wall}`];
    if (view.die) parts.push(`die ${view.die}, drawing from ${info.seats[view.wall_of]}'s wall`);
    if (view.turn !== null && view.turn !== undefined) parts.push(`to play: ${info.seats[view.turn]}`);
    else parts.push(view.step);
    return parts.join(" · ");
  }

  return {el, tile, tiles, filled, grouped, header, word, mahjong};
})();
