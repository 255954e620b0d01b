// What just happened, shown and (when asked for) heard: a short animation of
// a draw, a discard, a claim and a Mah Jongg, and sounds made by WebAudio
// (no file is loaded), off until the player turns them on.
"use strict";

const Cues = (() => {
  let on = localStorage.getItem("jongg.sound") === "1";
  let audio = null;
  // each cue a few notes: [frequency Hz, start s, length s, type]
  const NOTES = {
    drew: [[660, 0, 0.06, "sine"]],
    discarded: [[220, 0, 0.05, "triangle"], [180, 0.04, 0.06, "triangle"]],
    claimed: [[440, 0, 0.09, "square"], [587, 0.09, 0.12, "square"]],
    mahjong: [[523, 0, 0.12, "triangle"], [659, 0.11, 0.12, "triangle"], [784, 0.22, 0.12, "triangle"], [1047, 0.33, 0.3, "triangle"]],
    turn: [[880, 0, 0.05, "sine"], [988, 0.06, 0.07, "sine"]],
  };

  function play(kind) {
    if (!on || !NOTES[kind]) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    const now = audio.currentTime;
    for (const [hz, at, length, type] of NOTES[kind]) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = type;
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.12, now + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + length + 0.02);
    }
  }

  function setting(button) {
    const show = () => { button.textContent = on ? "sound on" : "sound off"; button.setAttribute("aria-pressed", String(on)); };
    show();
    button.addEventListener("click", () => { on = !on; localStorage.setItem("jongg.sound", on ? "1" : "0"); show(); if (on) play("drew"); });
  }

  // what a batch of events did, for the page to animate once it is drawn
  function fresh(events, me) {
    const out = {};
    for (const e of events) {
      if (e.kind === "drew" && e.seat === me) out.drew = true;
      if (e.kind === "discarded") out.discarded = e.seat;
      if (e.kind === "claimed") { out.claimed = e.seat; if (e.mahjong) out.mahjong = true; }
      if (e.kind === "declared" || (e.kind === "round_ended" && e.winner !== null && e.winner !== undefined)) out.mahjong = true;
    }
    return out;
  }

  // set each fresh element moving (the animation is CSS's: .arrive, .flash)
  function show(found, root) {
    const mark = (node, cls) => { if (node) { node.classList.remove(cls); void node.getBoundingClientRect(); node.classList.add(cls); } };
    if (found.drew) mark(root.querySelector("#hand svg.tile.drawn"), "arrive");
    if (found.discarded !== undefined) mark(root.querySelector(`.pond[data-seat="${found.discarded}"] svg.tile.latest`), "arrive");
    if (found.claimed !== undefined) {
      mark(root.querySelector(`.seat[data-seat="${found.claimed}"]`), "flash");
      const shown = root.querySelectorAll(`.seat[data-seat="${found.claimed}"] .exposure`);
      mark(shown[shown.length - 1], "arrive");
    }
    if (found.mahjong) mark(root.querySelector("#round-end"), "celebrate");
    for (const kind of ["mahjong", "claimed", "discarded", "drew"]) if (found[kind] !== undefined) { play(kind); break; }
  }

  return {play, setting, fresh, show};
})();
