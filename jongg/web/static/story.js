// Texts the server sends, drawn as they are: each a list of spans, a span
// with "tile" drawn as that tile, its "role" a class (docs/web.md, "Messages").
// The page makes no sentence of its own: the story, the prompt, the buttons,
// the hints and a round's end all come in words from the server.
"use strict";

const Story = (() => {
  function text(info, spans, cls) {
    const line = Board.el("div", null, cls || "said");
    for (const s of spans || []) {
      if (s.tile) {
        const t = Board.tile(info, s.tile, {small: true});
        if (s.role) t.classList.add(`r-${s.role}`);
        line.append(t);
      } else {
        const part = Board.el("span", s.text, s.role ? `r-${s.role}` : null);
        if (s.suit) part.classList.add(`suit-${s.suit}`);
        line.append(part);
      }
    }
    return line;
  }

  function plain(spans) { return (spans || []).map((s) => s.text).join(""); }

  // a round's (or the match's) end: its title and lines, and a winning hand
  // in the groups of its line (the event's data), each joker with what it stands for
  function result(info, said, end) {
    const box = Board.el("div", null, "result");
    box.append(Board.el("h2", said.title));
    for (const spans of said.lines) box.append(text(info, spans));
    if (end && end.filled) {
      const hand = Board.el("div", null, "winning-hand");
      hand.append(Board.filled(info, end.filled));
      box.append(hand);
    }
    return box;
  }

  return {text, plain, result};
})();
