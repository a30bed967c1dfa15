// The lobby: create a table, the open tables, join by code.

import { api, clear, el } from "./dom.js";
import { language, t } from "./i18n.js";
import { inviteTable, keepInvite, keepSeat, seatOf } from "./seats.js";

const PERSON = ["person", () => t("Person")];

// Who may sit at a seat: a person, or each bot the server offers (/api/games: its title and
// levels in the page's language, from the plugins' own words), as [value, label].
function seatKinds(bots) {
  const kinds = [PERSON];
  for (const bot of bots) {
    if (!bot.levels || !bot.levels.length) {
      kinds.push([`bot:${bot.name}`, () => t("Bot: {name}", { name: bot.title })]);
      continue;
    }
    for (const level of bot.levels) {
      kinds.push([`bot:${bot.name}:${level.name}`, () => t("Bot: {name}, {level}", { name: bot.title, level: level.title })]);
    }
  }
  return kinds;
}
const TIMERS = [
  ["", () => t("No timer")],
  ["180+5", () => t("3 minutes + 5 s a move")],
  ["300+10", () => t("5 minutes + 10 s a move")],
  ["600+15", () => t("10 minutes + 15 s a move")],
];
const NAME_KEY = "cinco:name";

function wordsOf(answer) {
  const body = answer.body || {};
  if (answer.status === 0) return t("The server cannot be reached: check the address and try again.");
  if (answer.status === 429) return t("Too many requests: wait a moment and try again.");
  if (body.error === "no_such_code") return t("No table has that code: check it and try again.");
  if (body.error === "table_full" || body.error === "no_free_seat") return t("That table has no free seat.");
  return t("The server refused: {message}", { message: body.message || answer.status });
}

export async function claimSeat(code, name) {
  const answer = await api("POST", "/api/join", { code, name: name || undefined });
  if (!answer.ok) return { error: wordsOf(answer) };
  const { table, seat, token } = answer.body;
  keepSeat(table, { table, seat, token, name: answer.body.name });
  keepInvite(code, table);
  return { table };
}

export function joinByCode(main, code, onSeated) {
  const known = inviteTable(code);
  if (known && seatOf(known)) {
    onSeated(known);
    return;
  }
  const error = el("p", { class: "error", role: "alert" });
  const name = el("input", { type: "text", name: "name", maxlength: 24, value: localStorage.getItem(NAME_KEY) || "", autocomplete: "nickname" });
  const go = el("button", { class: "primary", "data-testid": "join" }, t("Join the table"));
  const form = el("form", { class: "panel" },
    el("h1", {}, t("You are invited to a game of Cinco")),
    el("p", {}, t("Invite code: {code}", { code })),
    el("label", {}, t("Your name"), " ", name),
    go, error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    go.disabled = true;
    localStorage.setItem(NAME_KEY, name.value.trim());
    const result = await claimSeat(code, name.value.trim());
    go.disabled = false;
    if (result.error) error.textContent = result.error;
    else onSeated(result.table);
  });
  main.append(el("section", { class: "panel" }, form));
}

export function showLobby(main, onSeated) {
  let games = { players: { 2: [{ name: "2x1" }] }, variants: [], variant_words: [], bots: [] };
  let kinds = [PERSON];
  const error = el("p", { class: "error", role: "alert", "data-testid": "create-error" });
  const players = el("select", { name: "players" });
  const layout = el("select", { name: "layout" });
  const layoutLabel = el("label", {}, t("Layout"), " ", layout);
  // One box per variant the server offers, by its title in the page's language.
  const variants = el("div", { class: "variants", "data-testid": "variants" });
  const seats = el("div", { class: "seats" });
  const timer = el("select", { name: "timer" }, TIMERS.map(([value, label]) => el("option", { value }, label())));
  const name = el("input", { type: "text", name: "name", maxlength: 24, value: localStorage.getItem(NAME_KEY) || "", autocomplete: "nickname" });
  const create = el("button", { class: "primary", type: "submit", "data-testid": "create" }, t("Create the table"));
  const form = el("form", { "data-testid": "create-form" },
    el("h2", {}, t("New table")),
    el("label", {}, t("Your name"), " ", name),
    el("label", {}, t("Players"), " ", players),
    layoutLabel, variants,
    el("p", {}, t("Seats (you sit at seat 1)")), seats,
    el("label", {}, t("Timer"), " ", timer),
    create, error);

  function drawSeats() {
    const count = Number(players.value);
    const kept = [...seats.querySelectorAll("select")].map((s) => s.value);
    clear(seats);
    for (let n = 0; n < count; n++) {
      const kind = el("select", { name: "kind", disabled: n === 0 }, kinds.map(([value, label]) => el("option", { value }, label())));
      const wanted = n === 0 ? "person" : kept[n] || (n === 1 ? "person" : "bot:greedy");
      kind.value = kinds.some(([value]) => value === wanted) ? wanted : "person";
      seats.append(el("div", { class: "seat-choice", "data-testid": `seat-${n}` }, el("span", {}, t("Seat {n}", { n: n + 1 })), kind));
    }
    const layouts = games.players[players.value] || [];
    clear(layout);
    for (const lay of layouts) layout.append(el("option", { value: lay.name }, lay.description ? `${lay.name}: ${lay.description}` : lay.name));
    layoutLabel.hidden = layouts.length < 2;
  }
  players.addEventListener("change", drawSeats);

  function drawVariants() {
    clear(variants);
    for (const variant of games.variant_words || []) {
      const box = el("input", { type: "checkbox", name: "variant", value: variant.name });
      variants.append(el("label", { title: variant.description, "data-variant": variant.name }, box, " ", variant.title));
    }
    variants.hidden = !variants.childElementCount;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    create.disabled = true;
    try {
      await createTable();
    } finally {
      create.disabled = false;
    }
  });

  async function createTable() {
    const bots = {};
    seats.querySelectorAll("[data-testid^=seat-]").forEach((row, n) => {
      const kind = row.querySelector("select").value;
      if (kind.startsWith("bot:")) bots[String(n + 1)] = kind.slice(4);
    });
    const body = { players: Number(players.value), bots, timer: timer.value || null };
    if (!layoutLabel.hidden && layout.value) body.layout = layout.value;
    const chosen = [...variants.querySelectorAll("input:checked")].map((box) => box.value);
    if (chosen.length) body.variants = chosen;
    localStorage.setItem(NAME_KEY, name.value.trim());
    const made = await api("POST", "/api/tables", body);
    if (!made.ok) {
      error.textContent = wordsOf(made);
      return;
    }
    const { table, code, watch } = made.body;
    const joined = await api("POST", "/api/join", { code, name: name.value.trim() || undefined, seat: 1 });
    if (!joined.ok) {
      error.textContent = wordsOf(joined);
      return;
    }
    const persons = seats.querySelectorAll("select");
    const invites = [...persons].map((s, n) => (s.value === "person" && n > 0 ? n : null)).filter((n) => n !== null);
    keepSeat(table, { table, seat: joined.body.seat, token: joined.body.token, name: joined.body.name, code, watch, invites, owner: made.body.owner });
    keepInvite(code, table);
    onSeated(table);
  }

  const tables = el("ul", { class: "open-tables", "data-testid": "open-tables" });
  const code = el("input", { type: "text", "data-testid": "join-code", name: "code", placeholder: "ABCD-EFGH-JKMN", autocomplete: "off", maxlength: 20 });
  const join = el("button", { class: "primary", "data-testid": "join" }, t("Join"));
  const joinError = el("p", { class: "error", role: "alert" });
  const joinForm = el("form", {}, el("h2", {}, t("Join a table")), el("label", {}, t("Invite code"), " ", code), el("label", {}, t("Your name"), " ", name.cloneNode()), join, joinError);
  joinForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const typed = code.value.trim();
    if (!typed) {
      joinError.textContent = t("Type the invite code you were sent.");
      return;
    }
    join.disabled = true;
    const result = await claimSeat(typed, joinForm.querySelector("[name=name]").value.trim() || name.value.trim());
    join.disabled = false;
    if (result.error) joinError.textContent = result.error;
    else onSeated(result.table);
  });

  async function listTables() {
    const answer = await api("GET", "/api/tables");
    clear(tables);
    const listed = (answer.ok && answer.body.tables) || [];
    if (!listed.length) tables.append(el("li", {}, t("No open tables now.")));
    for (const table of listed) {
      const free = table.seats.filter((s) => s.free).length;
      const who = table.seats.filter((s) => s.name).map((s) => s.name).join(", ");
      tables.append(el("li", { "data-testid": "open-table", "data-table": table.table },
        t("{players} players, {free} free", { players: table.players, free }), who ? ` — ${who}` : ""));
    }
  }

  main.append(el("div", { class: "lobby" },
    el("section", { class: "panel" }, form),
    el("div", {},
      el("section", { class: "panel" }, joinForm),
      el("section", { class: "panel" }, el("h2", {}, t("Open tables")), el("p", {}, t("Ask a player at the table for its invite code.")), tables))));

  // In the page's language: the layouts', variants' and bots' words come from the server.
  api("GET", `/api/games?lang=${encodeURIComponent(language())}`).then((answer) => {
    if (answer.ok) games = answer.body;
    clear(players);
    for (const count of Object.keys(games.players)) players.append(el("option", { value: count }, count));
    kinds = seatKinds(games.bots || []);
    drawVariants();
    drawSeats();
  });
  listTables();
  const timerId = setInterval(listTables, 10000);
  return { close: () => clearInterval(timerId) };
}
