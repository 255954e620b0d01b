// The lobby: open a table, upload a variant or a card, list the tables here,
// replay a log. Everything shown is set as text, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
let catalogue = {variants: [], agents: [], cards: []};

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function chosenVariant() {
  return catalogue.variants.find((v) => v.name === $("variant").value);
}

function fillPlayers() {
  const variant = chosenVariant();
  const players = $("players");
  const was = Number(players.value);  // kept when the new list still has it
  players.replaceChildren();
  if (!variant) return;
  for (const n of variant.players) players.append(new Option(String(n), String(n)));
  players.value = String(variant.players.includes(was) ? was : variant.players.includes(4) ? 4 : variant.players[0]);
  fillSeats();
}

function fillSeats() {
  const seats = $("seats");
  // the kinds already chosen stay chosen (an upload reloads the lists)
  const was = Array.from(seats.querySelectorAll("select.seat-kind"), (s) => s.value);
  seats.replaceChildren();
  const n = Number($("players").value);
  for (let s = 0; s < n; s++) {
    const label = el("label", `Seat ${s + 1} `);
    const select = el("select");
    select.className = "seat-kind";
    select.id = `seat-${s + 1}`;
    select.append(new Option("a person", "human"));
    for (const agent of catalogue.agents) select.append(new Option(`bot: ${agent}`, agent));
    const kept = was[s] === "human" || catalogue.agents.includes(was[s]);
    select.value = kept ? was[s] : s === 0 ? "human" : (catalogue.agents.includes("greedy") ? "greedy" : catalogue.agents[0]);
    label.append(select);
    seats.append(label);
  }
}

async function loadCatalogue() {
  catalogue = await api("/api/variants");
  const variant = $("variant");
  const was = variant.value;
  variant.replaceChildren();
  for (const v of catalogue.variants) {
    variant.append(new Option(`${v.name}: ${v.title}${v.source === "uploaded" ? " (uploaded)" : ""}`, v.name));
  }
  if (was && catalogue.variants.some((v) => v.name === was)) variant.value = was;
  const card = $("card");
  card.replaceChildren(new Option("the variant's own", ""));
  for (const c of catalogue.cards) card.append(new Option(c, c));
  fillPlayers();
}

async function openTable(event) {
  event.preventDefault();
  $("open-error").textContent = "";
  const seats = [...document.querySelectorAll(".seat-kind")].map((s) => s.value);
  const body = {variant: $("variant").value, players: Number($("players").value), seats,
                strict: $("strict").checked, card: $("card").value || null};
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const timers = {};
  for (const kind of ["claim", "turn", "phase"]) {
    const value = $(`timer-${kind}`).value;
    if (value !== "") timers[kind] = Number(value);
  }
  if (Object.keys(timers).length) body.timers = timers;
  try {
    const made = await api("/api/tables", body);
    const links = $("links");
    const chance = made.seeded ? `seeded ${made.seed}: its deal is known to whoever knows the seed` : "its deal a secret until the match is over";
    links.replaceChildren(el("p", `Table ${made.id} is open (${chance}). One link a person's seat: give each player theirs (it is their seat's secret).`));
    for (const link of made.links) {
      const url = new URL(link.url, location.origin).href;
      const row = el("p");
      row.append(el("span", `${link.name}: `));
      const a = el("a", url);
      a.href = url;
      a.className = "seat-link";
      a.dataset.seat = String(link.seat);
      row.append(a);
      links.append(row);
    }
    if (!made.links.length) links.append(el("p", "Every seat is a bot: replay the table when its match is over."));
    loadTables();
  } catch (error) {
    $("open-error").textContent = error.message;
  }
}

async function loadTables() {
  const data = await api("/api/tables");
  const body = document.querySelector("#table-list tbody");
  body.replaceChildren();
  if (!data.tables.length) {
    const none = el("td", "None yet: open one above.");
    none.colSpan = 6;
    const row = el("tr");
    row.append(none);
    body.append(row);
  }
  for (const t of data.tables.slice().reverse()) {
    const row = el("tr");
    row.append(el("td", t.seeded ? `${t.id} (seeded ${t.seed})` : t.id), el("td", t.variant), el("td", t.players),
               el("td", t.agents.join(", ")),
               el("td", t.finished ? "over" : t.problem ? `cannot go on: ${t.problem}` : t.round ?? ""));
    const cell = el("td");
    if (t.finished) {
      const a = el("a", "replay");
      a.href = `/replay/${t.id}`;
      cell.append(a);
    }
    row.append(cell);
    body.append(row);
  }
}

async function uploadRuleset() {
  const file = $("ruleset-file").files[0];
  if (!file) return;
  const out = $("ruleset-result");
  try {
    const done = await api("/api/rulesets", {name: file.name, text: await file.text()});
    await loadCatalogue();
    if (done.kind === "variant" && !done.problems.length) { $("variant").value = done.name; fillPlayers(); }
    if (done.kind === "card" && !done.problems.length) $("card").value = done.name;
    // said once the lists hold it, so what is chosen next is not redrawn
    out.textContent = done.problems.length ? done.problems.join("\n")
      : `${done.name}: ok (${done.kind || "not a variant or a card"})`;
  } catch (error) {
    out.textContent = error.message;
  }
}

async function uploadLog() {
  const file = $("log-file").files[0];
  if (!file) return;
  $("log-error").textContent = "";
  try {
    const made = await api("/api/replays", {name: file.name, text: await file.text()});
    location.href = `/replay/${made.id}`;
  } catch (error) {
    $("log-error").textContent = error.message;
  }
}

$("variant").addEventListener("change", fillPlayers);
$("players").addEventListener("change", fillSeats);
$("table-form").addEventListener("submit", openTable);
$("ruleset-file").addEventListener("change", uploadRuleset);
$("log-file").addEventListener("change", uploadLog);
loadCatalogue().then(loadTables).catch((e) => { $("open-error").textContent = e.message; });
