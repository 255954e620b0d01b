// The table as drawn for one seat (or every hand open, in a replay): tiles as
// SVG in the colours players know, the seats with their exposures, racks and
// discards, the story of the round told from events, a round's result.
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
  function who(info, seat, me) { return seat === me ? "you" : info.seats[seat]; }
  function Who(info, seat, me) { const w = who(info, seat, me); return w.charAt(0).toUpperCase() + w.slice(1); }
  function whose(info, seat, me) { return seat === me ? "your" : `${info.seats[seat]}'s`; }
  function Whose(info, seat, me) { return seat === me ? "Your" : `${info.seats[seat]}'s`; }

  // what happened, as a seat was told it: a sentence of text parts and tiles
  function tell(info, e, me) {
    const name = (s) => Who(info, s, me);
    const verb = (s, you, they) => (s === me ? you : they);
    switch (e.kind) {
      case "dealt": return [`Round ${e.round + 1} is dealt; ${info.seats[e.seat]} is ${word(info, "dealer")}${e.die ? ` (die ${e.die})` : ""}.`];
      case "phase": return [phaseText(info, e)];
      case "passed": return e.tiles ? [`${name(e.seat)} ${verb(e.seat, "pass", "passes")} `, e.tiles, ` to ${who(info, e.to, me)}.`]
        : [`${name(e.seat)} ${verb(e.seat, "pass", "passes")} ${e.count} tile${e.count === 1 ? "" : "s"} to ${who(info, e.to, me)}.`];
      case "received": return e.tiles ? [`${name(e.seat)} ${verb(e.seat, "receive", "receives")} `, e.tiles, ` from ${who(info, e.giver, me)}.`]
        : null;
      case "voted": return [`The vote: ${e.yes} yes, ${e.no} no: ${e.carried ? "carried" : "not carried"}.`];
      case "pledged": return [`${name(e.seat)} ${verb(e.seat, "pledge", "pledges")} rack ${e.rack + 1} to the ${e.flag} line.`];
      case "offered": return e.blind !== undefined ? [`${name(e.seat)} ${verb(e.seat, "pass", "passes")} ${e.blind} blind.`]
        : [`${name(e.seat)} ${verb(e.seat, "offer", "offers")} ${e.offered}; ${e.passes} change${e.passes === 1 ? "s" : ""} hands.`];
      case "play": return [`Play begins with ${who(info, e.seat, me)}.`];
      case "drew": return e.tiles ? [`${name(e.seat)} ${verb(e.seat, "draw", "draws")} `, e.tiles, "."] : null;
      case "discarded": return [`${name(e.seat)} ${verb(e.seat, "discard", "discards")} `, e.tiles, "."];
      case "claimed": {
        const head = [`${name(e.seat)} ${verb(e.seat, word(info, "claim"), word(info, "claim") + "s")} ${whose(info, e.giver, me)} `, e.tiles.slice(0, 1)];
        if (e.mahjong) return [...head, ` for ${mahjong(info)}.`];
        return [...head, ` and ${verb(e.seat, "expose", "exposes")} `, e.tiles, e.rack !== undefined ? ` on rack ${e.rack + 1}.` : "."];
      }
      case "outranked": return [`${Whose(info, e.seat, me)} ${e.claim} ${word(info, "claim")} loses to ${whose(info, e.by, me)}.`];
      case "exchanged": return [`${name(e.seat)} ${verb(e.seat, "give", "gives")} `, e.tiles, ` for a joker in ${whose(info, e.owner, me)} exposure.`];
      case "declared": return [`${name(e.seat)} ${verb(e.seat, "declare", "declares")} ${mahjong(info)}${info.racks > 1 ? ` on rack ${e.rack + 1}` : ""}: ${e.line} (value ${e.value}) `, e.filled ? {groups: e.filled} : e.tiles, "."];
      case "penalised": return [`${name(e.seat)}: a mistake, penalised (${e.penalty}${e.rack !== undefined ? `, rack ${e.rack + 1}` : ""}).`];
      case "went_off": return [`${name(e.seat)} ${verb(e.seat, "go", "goes")} off the pledge on rack ${e.rack + 1}${e.forced ? " (forced)" : ""}.`];
      case "paid": return [payment(info, e, me)];
      case "round_ended": return [e.winner === null ? (e.how === "dead" ? "The round ends on dead hands." : "The wall is empty: nobody wins this round.")
        : `${name(e.winner)} ${verb(e.winner, "win", "wins")} round ${e.round + 1}${e.line ? ` with ${e.line}` : ""}${e.self_drawn ? ", self-drawn" : e.discarder !== null ? ` on ${whose(info, e.discarder, me)} discard` : ""}.`];
      case "match_ended": return [`The match is over. Winner${e.winners.length > 1 ? "s" : ""}: ${e.winners.map((s) => who(info, s, me)).join(", ")}.`];
      default: return [e.kind];
    }
  }

  function payment(info, e, me) {
    if (e.payer === -1) return `${e.amount > 0 ? "+" : ""}${e.amount} to ${who(info, e.payee, me)}.`;
    if (e.payee === -1) return `${Who(info, e.payer, me)} ${e.payer === me ? "lose" : "loses"} ${e.amount}.`;
    return `${Who(info, e.payer, me)} ${e.payer === me ? "pay" : "pays"} ${who(info, e.payee, me)} ${e.amount}.`;
  }

  function phaseText(info, e) {
    if (e.phase === "pass") return `Charleston: pass ${e.count} to the ${e.to}${e.blind ? ` (up to ${e.blind} blind)` : ""}.`;
    if (e.phase === "courtesy") return `Courtesy pass ${e.to}: offer up to ${e.most}.`;
    if (e.phase === "vote") return `Vote: ${e.question || "go on?"} (${e.rule === "any-yes" ? "one yes carries it" : "one no stops it"}).`;
    if (e.phase === "pledge") return `${e.question || `Pledge rack ${e.rack + 1} to the ${e.flag} line?`}`;
    return e.phase;
  }

  function sentence(info, parts) {
    const line = el("div", null, "said");
    for (const part of parts) {
      if (Array.isArray(part)) line.append(tiles(info, part, {small: true}));
      else if (part && part.groups) line.append(filled(info, part.groups, {small: true}));
      else line.append(document.createTextNode(part));
    }
    return line;
  }

  function header(info, view) {
    const parts = [info.title, `round ${view.round + 1}`, `${word(info, "dealer")}: ${info.seats[view.dealer]}`, `wall ${view.wall}`];
    if (view.die) parts.push(`die ${view.die}, drawing from ${info.seats[view.wall_of]}'s wall`);
    if (view.turn !== null && view.turn !== undefined) parts.push(`to play: ${info.seats[view.turn]}`);
    else parts.push(view.step);
    return parts.join(" · ");
  }

  // a round's end: who won, the hand grouped, the payments and the scores
  function result(info, end, payments, scores, me) {
    const box = el("div", null, "result");
    box.append(sentence(info, tell(info, {...end, kind: "round_ended"}, me)));
    if (end.shown && end.shown.length && (!end.mahjongs || info.racks === 1)) {
      const hand = el("div", null, "winning-hand");
      if (end.filled) hand.append(filled(info, end.filled));
      else for (const group of end.shown) hand.append(tiles(info, group));
      box.append(hand);
    }
    for (const m of end.mahjongs || []) {
      if (info.racks === 1) break;
      const line = el("div", null, "winning-hand");
      line.append(el("span", `${info.seats[m.seat]}, rack ${m.rack + 1}: ${m.line} `));
      line.append(m.filled ? filled(info, m.filled) : tiles(info, m.tiles));
      box.append(line);
    }
    for (const p of payments) box.append(el("div", payment(info, p, me), "payment"));
    box.append(el("div", `${word(info, "points")}: ${scores.map((v, s) => `${info.seats[s]} ${v}`).join("  ")}`, "scores"));
    return box;
  }

  return {el, tile, tiles, filled, grouped, tell, sentence, header, result, word, mahjong, phaseText};
})();
