// A table's game, for a seat (its token kept in this browser) or a spectator (a watch code):
// the seat protocol over the server's WebSocket, the board, the hand, the clocks, the log.
// The page shows what the server's events say; a move is sent and shown once confirmed.
// A variant's own actions (hook API 3) come in the prompt's "acts" (the legal commands): a
// button per action, labelled in the page's language (/api/tables/ID/actions), puts the page
// in that action's mode, where a (card, space) action is a card then a highlighted space and
// any other a list of its legal commands; the command chosen is sent as the prompt had it.

import { api, clear, el } from "./dom.js";
import { drawBoard, loadBoard } from "./board.js";
import { language, t } from "./i18n.js";
import { forgetSeat, keepSeat, seatOf } from "./seats.js";
import { fold, teamOf } from "./state.js";

const V = 2;
// Close codes after which reconnecting cannot help.
const FINAL = { 4403: "refused", 4009: "replaced", 4010: "left", 4400: "language" };
const BACKOFF = [500, 1000, 2000, 4000, 8000, 15000];
const GIVE_UP = 12;

export class Game {
  constructor(main, { table = null, watch = null, onLeave = null }) {
    this.main = main;
    this.watchCode = watch;
    this.tableId = table;
    this.seat = table ? seatOf(table) : null;
    this.viewer = this.seat ? this.seat.seat : null;
    this.onLeave = onLeave;
    this.events = [];
    this.lines = [];
    this.prompt = null;
    this.clock = null;
    this.selected = null;
    this.mode = null; // the declared action being chosen (its name), or null
    this.actionWords = new Map(); // declared action's name -> its words (title, fields, ...)
    this.pending = false;
    this.answers = [];
    this.attempts = 0;
    this.closed = false;
    this.summary = null;
    this.teams = [];
    this.link("connecting");
    if (table && !this.seat) {
      this.noSeat();
      return;
    }
    this.build().then(() => this.connect());
    // The browser knows first when its network goes: say so at once and reconnect as soon as
    // it is back, rather than wait for the socket's close, which can take a while offline.
    this.wentOffline = () => this.networkLost();
    this.cameOnline = () => this.networkBack();
    window.addEventListener("offline", this.wentOffline);
    window.addEventListener("online", this.cameOnline);
    this.ticker = setInterval(() => {
      this.drawClocks();
      this.drawCounting();
    }, 250);
  }

  close() {
    this.closed = true;
    window.removeEventListener("offline", this.wentOffline);
    window.removeEventListener("online", this.cameOnline);
    clearInterval(this.ticker);
    clearTimeout(this.retry);
    if (this.socket) this.socket.close(1000);
    const link = document.querySelector("[data-testid=connection]");
    link.hidden = true;
  }

  noSeat() {
    this.main.append(el("section", { class: "panel" },
      el("h1", {}, t("No seat here")),
      el("p", { "data-testid": "notice" }, t("This browser holds no seat at that table. Ask for an invite link, or go back to the lobby.")),
      el("a", { href: "/" }, t("Back to the lobby"))));
  }

  // -- the page ---------------------------------------------------------------------------

  async build() {
    const [board, games] = await Promise.all([loadBoard(), api("GET", `/api/games?lang=${language()}`)]);
    this.teams = (games.ok && games.body.teams) || [];
    const { root, spaces } = drawBoard(board, (space) => this.tapSpace(space));
    this.spaces = spaces;
    this.status = el("p", { class: "status", "data-testid": "status", "data-state": "connecting", role: "status" }, t("Connecting…"));
    this.notice = el("p", { class: "notice", "data-testid": "notice", "aria-live": "polite" });
    this.result = el("p", { class: "result", "data-testid": "result", hidden: true });
    this.seatsList = el("ul", { class: "seats-list" });
    this.log = el("ol", { class: "log", "data-testid": "log", "aria-live": "polite" });
    const side = el("div", { class: "side" });
    this.invites = el("section", { class: "panel invites", hidden: true });
    side.append(this.status, this.notice, this.result, this.invites);
    if (this.viewer !== null) {
      this.hand = el("div", { class: "hand", "data-testid": "hand", role: "group", "aria-label": t("Your hand") });
      this.drawButton = el("button", { "data-testid": "draw", disabled: true, onclick: () => this.send("draw") }, t("Draw"));
      this.exchangeButton = el("button", { "data-testid": "exchange", disabled: true, onclick: () => this.send("exchange") }, t("Exchange"));
      this.burnButton = el("button", { "data-testid": "burn", hidden: true, onclick: () => this.burn() }, t("Burn"));
      this.rematchButton = el("button", { class: "primary", "data-testid": "rematch", hidden: true, onclick: () => this.rematch() }, t("Rematch"));
      // The variant's own actions: a button each, shown while the prompt offers it.
      this.actButtons = el("span", { class: "acts", "data-testid": "acts" });
      this.actCancel = el("button", { type: "button", "data-testid": "act-cancel", hidden: true, onclick: () => this.leaveMode() }, t("Cancel"));
      this.actList = el("ul", { class: "act-list", "data-testid": "act-list", hidden: true });
      side.append(el("section", { class: "panel" }, el("h2", {}, t("Your hand")), this.hand,
        el("div", { class: "actions" }, this.drawButton, this.exchangeButton, this.burnButton, this.actButtons, this.actCancel, this.rematchButton),
        this.actList));
    } else {
      side.append(el("p", {}, t("You are watching this table.")));
    }
    side.append(
      el("section", { class: "panel" }, el("h2", {}, t("Players")), this.seatsList),
      el("section", { class: "panel" }, el("h2", {}, t("Moves")), this.log));
    this.main.append(el("div", { class: "game" }, el("div", { class: "board-wrap" }, root), side));
    this.drawInvites();
    if (this.tableId) this.loadSummary();
    if (this.tableId && this.viewer !== null) this.loadActionWords();
  }

  // The table's declared actions in the page's language (their titles label the buttons).
  async loadActionWords() {
    const answer = await api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/actions?lang=${encodeURIComponent(language())}`);
    if (!answer.ok || !Array.isArray(answer.body.actions)) return;
    for (const words of answer.body.actions) {
      if (words && typeof words.name === "string") this.actionWords.set(words.name, words);
    }
    this.render();
  }

  async loadSummary() {
    const answer = await api("GET", `/api/tables/${encodeURIComponent(this.tableId)}`);
    if (answer.ok) {
      this.summary = answer.body;
      this.render();
    }
  }

  drawInvites() {
    const seat = this.seat;
    if (!seat || !seat.code) return;
    const origin = location.origin;
    const list = el("ul", {});
    for (const n of seat.invites || []) {
      const href = `${origin}/join/${seat.code}`;
      list.append(el("li", {}, t("Seat {n}:", { n: n + 1 }), " ",
        el("a", { href, "data-testid": "invite-link", "data-seat": n }, href), " ",
        el("button", { type: "button", onclick: () => copy(href) }, t("Copy"))));
    }
    const watch = `${origin}/watch/${seat.watch}`;
    // The seats' links matter only until the game starts; the watch link for the whole game.
    this.inviteSeats = el("div", {}, el("h2", {}, t("Invite your friends")),
      el("p", {}, t("Send each person the link: it gives them a free seat. The watch link lets anyone watch without a hand.")),
      list);
    clear(this.invites).append(this.inviteSeats,
      el("p", {}, t("Watch:"), " ", el("a", { href: watch, "data-testid": "watch-link" }, watch)));
    this.invites.hidden = false;
  }

  // -- the connection -----------------------------------------------------------------------

  link(state) {
    const node = document.querySelector("[data-testid=connection]");
    node.hidden = false;
    node.dataset.link = state;
    node.textContent = { online: t("Online"), reconnecting: t("Reconnecting…"), lost: t("Connection lost"), connecting: t("Connecting…") }[state] || state;
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const lang = encodeURIComponent(language());
    const path = this.viewer !== null ? `/ws/tables/${encodeURIComponent(this.tableId)}` : "/ws/watch";
    const credential = this.viewer !== null ? this.seat.token : this.watchCode;
    let socket;
    try {
      socket = new WebSocket(`${scheme}://${location.host}${path}?lang=${lang}`, ["cinco", `bearer.${credential}`]);
    } catch (error) {
      this.dropped(1006);
      return;
    }
    this.socket = socket;
    this.answers = [];
    socket.onopen = () => {
      this.attempts = 0;
      this.link("online");
      this.request({ type: "subscribe", v: V, after: this.events.length - 1 }, "subscribe");
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = (event) => {
      if (this.socket === socket) this.dropped(event.code);
    };
  }

  networkLost() {
    const socket = this.socket;
    if (!socket || this.closed) return;
    this.dropped(1006);  // forgets the socket first, so its late close is not a second drop
    try { socket.close(); } catch (error) { /* already closing */ }
  }

  networkBack() {
    if (this.socket || this.closed) return;
    clearTimeout(this.retry);
    this.connect();
  }

  dropped(code) {
    this.socket = null;
    this.pending = false;
    if (this.closed) return;
    const final = FINAL[code];
    if (final || this.attempts >= GIVE_UP) {
      this.link("lost");
      this.say({
        refused: t("The server refused this seat's connection: its token is no longer valid."),
        replaced: t("This seat was opened in another tab or browser; this page stopped."),
        left: t("You left this seat."),
        language: t("The server does not speak that language."),
      }[final] || t("The connection is lost: reload the page to try again."));
      this.render();
      return;
    }
    this.link("reconnecting");
    this.say(t("The connection dropped: reconnecting…"));
    const delay = BACKOFF[Math.min(this.attempts, BACKOFF.length - 1)];
    this.attempts += 1;
    this.retry = setTimeout(() => this.connect(), delay);
    this.render();
  }

  request(message, kind) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.answers.push(kind);
    this.socket.send(JSON.stringify(message));
    return true;
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch (error) {
      return;
    }
    switch (message.type) {
      case "event":
        this.takeEvent(message);
        break;
      case "prompt":
        if (message.seq === this.events.length - 1 && message.seat === this.viewer) this.prompt = message;
        break;
      case "clock":
        this.clock = { ...message, at: performance.now() };
        break;
      case "accepted":
        this.answered();
        break;
      case "refused":
        if (this.answers.length) this.answered();
        this.say(message.text || message.code);
        break;
      case "presence":
        this.say(message.text || message.code);
        if (message.counting && message.params && typeof message.params.seconds === "number") {
          this.counting = { template: message.counting, seconds: message.params.seconds, at: performance.now() };
        }
        break;
      default:
        return;
    }
    this.render();
  }

  answered() {
    const kind = this.answers.shift();
    if (kind === "submit") this.pending = false;
  }

  takeEvent(message) {
    if (message.seq < this.events.length) return; // had it already
    if (message.seq > this.events.length) {
      // a gap: ask again from what we have
      this.request({ type: "subscribe", v: V, after: this.events.length - 1 }, "subscribe");
      return;
    }
    if (!this.tableId) this.tableId = message.table;
    this.events.push(message.event);
    this.prompt = null;
    for (const line of message.lines || []) this.addLine(line);
    if (message.event.type === "notice" && message.lines && message.lines.length) {
      this.say(message.lines[message.lines.length - 1]);
    }
    if (message.event.type === "game_ended") {
      const lines = message.lines || [];
      this.result.textContent = lines.length ? lines[lines.length - 1] : t("The game is over.");
      this.result.hidden = false;
    }
  }

  addLine(text) {
    this.lines.push(text);
    this.log.append(el("li", {}, text));
    this.log.scrollTop = this.log.scrollHeight;
  }

  say(text) {
    this.counting = null;
    if (this.notice) this.notice.textContent = text;
  }

  // A grace period counted down in the server's words (their {seconds} filled in here).
  drawCounting() {
    if (!this.counting || !this.notice) return;
    const left = Math.max(0, Math.ceil(this.counting.seconds - (performance.now() - this.counting.at) / 1000));
    this.notice.textContent = this.counting.template.replace("{seconds}", String(left));
  }

  // -- acting ------------------------------------------------------------------------------

  canAct() {
    return this.prompt !== null && !this.pending && this.socket !== null;
  }

  submit(command) {
    if (!this.canAct()) return;
    const sent = this.request({ type: "submit", v: V, command: { ...command, seat: this.viewer } }, "submit");
    if (sent) {
      this.pending = true;
      this.selected = null;
      this.mode = null;
      this.say("");
      this.render();
    }
  }

  send(kind) {
    this.submit({ kind });
  }

  legalFor(card) {
    if (!this.prompt) return null;
    const play = this.prompt.plays.find(([c]) => c === card);
    return play ? play[1] : null;
  }

  tapCard(card) {
    this.selected = this.selected === card ? null : card;
    this.render();
  }

  // -- a variant's own actions (the prompt's acts) -------------------------------------------

  // The legal commands of the declared action *name* now (all of them for null).
  actsOf(name) {
    const acts = (this.prompt && Array.isArray(this.prompt.acts)) ? this.prompt.acts : [];
    return name === null ? acts : acts.filter((act) => act.kind === name);
  }

  // The declared actions the prompt offers, in the order it lists them.
  offeredActions() {
    return [...new Set(this.actsOf(null).map((act) => act.kind))];
  }

  actionTitle(name) {
    const words = this.actionWords.get(name);
    if (words && words.title) return words.title;
    return name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, " ");
  }

  // An action chosen on the board ("card" then "space", or a "space"), or from a list.
  onBoard(name) {
    const acts = this.actsOf(name);
    if (!acts.length) return false;
    const fields = actFields(acts[0]).sort().join(",");
    return fields === "card,space" || fields === "space";
  }

  // The commands of the mode's action that the choice so far leads to.
  modeActs() {
    if (this.mode === null || !this.canAct()) return [];
    const acts = this.actsOf(this.mode);
    if (this.selected === null) return acts.some((act) => "card" in act) ? [] : acts;
    return acts.filter((act) => act.card === this.selected);
  }

  enterMode(name) {
    if (!this.canAct()) return;
    if (this.mode === name) {
      this.leaveMode();
      return;
    }
    this.mode = name;
    this.selected = null;
    // One card that can do it: chosen at once.
    const cards = [...new Set(this.actsOf(name).filter((act) => "card" in act).map((act) => act.card))];
    if (this.onBoard(name) && cards.length === 1) this.selected = cards[0];
    this.say("");
    this.render();
  }

  leaveMode() {
    this.mode = null;
    this.selected = null;
    this.render();
  }

  tapSpace(space) {
    if (!this.canAct()) return;
    if (this.mode !== null) {
      this.tapSpaceInMode(space);
      return;
    }
    let card = this.selected;
    if (card === null) {
      const fitting = this.prompt.plays.filter(([, spaces]) => spaces.includes(space));
      if (fitting.length !== 1) {
        if (fitting.length > 1) this.say(t("Several cards fit there: tap the card first."));
        return;
      }
      card = fitting[0][0];
    }
    const spaces = this.legalFor(card);
    if (spaces && spaces.includes(space)) this.submit({ kind: "play", card, space });
  }

  tapSpaceInMode(space) {
    if (!this.onBoard(this.mode)) return;
    const acts = this.actsOf(this.mode).filter((act) => act.space === space
      && (this.selected === null || act.card === this.selected));
    if (acts.length === 1) {
      this.submit(acts[0]);
    } else if (acts.length > 1) {
      this.say(t("Several cards fit there: tap the card first."));
    }
  }

  burn() {
    if (this.selected !== null) this.submit({ kind: "play", card: this.selected, space: null });
  }

  async rematch() {
    this.rematchButton.disabled = true;
    const answer = await api("POST", `/api/tables/${encodeURIComponent(this.tableId)}/rematch`, undefined, this.seat.token);
    this.rematchButton.disabled = false;
    if (!answer.ok) {
      this.say(t("The rematch could not be made: {message}", { message: (answer.body && answer.body.message) || answer.status }));
      return;
    }
    const next = answer.body;
    const invites = (this.seat.invites || []).slice();
    keepSeat(next.table, { table: next.table, seat: next.seat, token: next.token, name: next.name, code: next.code, watch: next.watch, invites });
    location.assign(`/?table=${encodeURIComponent(next.table)}`);
  }

  // -- drawing -----------------------------------------------------------------------------

  render() {
    if (!this.spaces) return;
    const state = fold(this.events, this.viewer);
    this.state = state;
    if (this.selected !== null && !state.hand.includes(this.selected)) this.selected = null;
    if (this.mode !== null && (this.prompt === null || !this.actsOf(this.mode).length)) this.mode = null;
    this.drawBoardState(state);
    this.drawStatus(state);
    this.drawSeats(state);
    if (this.viewer !== null) this.drawHand(state);
    this.drawClocks();
  }

  drawBoardState(state) {
    let legal = this.selected !== null && this.canAct() ? new Set(this.legalFor(this.selected) || []) : new Set();
    const targets = this.mode !== null && this.onBoard(this.mode);
    if (this.mode !== null) legal = new Set(targets ? this.modeActs().map((act) => act.space) : []);
    for (const [space, group] of this.spaces) {
      const team = state.board.get(space);
      const polygon = group.firstChild;
      if (team !== undefined) {
        group.dataset.team = String(team);
        polygon.setAttribute("fill", (this.teams[team % Math.max(1, this.teams.length)] || {}).colour || "#888");
      } else {
        delete group.dataset.team;
        polygon.removeAttribute("fill");
      }
      if (legal.has(space)) group.dataset.legal = "true";
      else delete group.dataset.legal;
      if (targets && legal.has(space)) group.dataset.act = this.mode;
      else delete group.dataset.act;
      group.classList.toggle("last", space === state.last);
      group.classList.toggle("win", !!(state.over && (state.over.line || []).includes(space)));
    }
  }

  drawStatus(state) {
    let mode = "waiting";
    let text;
    const name = (seat) => (state.config ? state.config.seats[seat].name : t("Seat {n}", { n: seat + 1 }));
    if (!this.socket && !this.events.length) {
      mode = "connecting";
      text = t("Connecting…");
    } else if (state.over) {
      mode = "over";
      text = t("The game is over.");
    } else if (!state.config) {
      text = t("Waiting for the players to join…");
    } else if (this.prompt && this.viewer !== null) {
      mode = "your-turn";
      text = this.pending ? t("Sending your move…") : t("Your turn: choose a card, then a space.");
      if (!this.pending && this.mode !== null) {
        const action = this.actionTitle(this.mode);
        const needsCard = this.actsOf(this.mode).some((act) => "card" in act);
        if (!this.onBoard(this.mode)) text = t("{action}: choose one of these moves.", { action });
        else if (needsCard && this.selected === null) text = t("{action}: choose a card, then a highlighted space.", { action });
        else text = t("{action}: choose a highlighted space.", { action });
      }
    } else if (state.toMove !== null) {
      text = state.toMove === this.viewer ? t("Your turn is coming…") : t("{name} is to move.", { name: name(state.toMove) });
    } else {
      text = t("Waiting…");
    }
    this.status.dataset.state = mode;
    this.status.textContent = text;
    if (this.viewer !== null) {
      this.rematchButton.hidden = !state.over;
      this.invites.hidden = !this.seat.code || state.over;
      if (this.inviteSeats) this.inviteSeats.hidden = !!state.config;
      // Once the game is on, the watch link goes below the hand, the players and the moves.
      const side = this.invites.parentNode;
      if (state.config && side && side.lastChild !== this.invites) side.append(this.invites);
    }
  }

  drawSeats(state) {
    const seats = state.config ? state.config.seats : (this.summary ? this.summary.seats : []);
    clear(this.seatsList);
    seats.forEach((seat, n) => {
      const team = teamOf(state.config, n);
      const colour = (this.teams[team % Math.max(1, this.teams.length)] || {}).colour || "#888";
      const dot = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      dot.setAttribute("viewBox", "0 0 10 10");
      dot.setAttribute("class", "swatch");
      const circle = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      circle.setAttribute("cx", "5"); circle.setAttribute("cy", "5"); circle.setAttribute("r", "5");
      circle.setAttribute("fill", colour);
      dot.append(circle);
      const who = seat.name || t("(free)");
      const label = n === this.viewer ? t("{name} (you)", { name: who }) : who;
      const count = state.config ? t("Cards: {count}", { count: state.counts[n] }) : "";
      const row = el("li", { "data-testid": `seat-row-${n}`, class: state.toMove === n ? "to-move" : "" },
        dot, el("span", { class: "name" }, label), el("span", { class: "count" }, count));
      if (this.clock) row.append(el("span", { class: "clock", "data-testid": `clock-${n}` }));
      this.seatsList.append(row);
    });
  }

  drawHand(state) {
    clear(this.hand);
    // In an action's mode, only the cards some of its commands use may be chosen.
    const usable = this.mode !== null ? new Set(this.actsOf(this.mode).map((act) => act.card)) : null;
    for (const card of state.hand) {
      const legal = this.legalFor(card);
      this.hand.append(el("button", {
        type: "button",
        "data-card": card,
        "aria-pressed": this.selected === card ? "true" : "false",
        disabled: !this.canAct() || (usable !== null && !(this.onBoard(this.mode) && usable.has(card))),
        title: legal && legal.length === 0 ? t("No free space: this card burns") : null,
        onclick: () => this.tapCard(card),
      }, String(card)));
    }
    if (!state.hand.length && state.config) this.hand.append(el("span", {}, t("No cards")));
    const acting = this.canAct();
    this.drawButton.disabled = !(acting && this.prompt.can_draw);
    this.exchangeButton.disabled = !(acting && this.prompt.can_exchange);
    const burns = this.mode === null && this.selected !== null && acting && (this.legalFor(this.selected) || [1]).length === 0;
    this.burnButton.hidden = !burns;
    this.burnButton.textContent = burns ? t("Burn {card}", { card: this.selected }) : t("Burn");
    this.drawActs(acting);
  }

  // The declared actions' buttons, and (for an action not chosen on the board) the list of
  // its legal commands; the status says what to choose.
  drawActs(acting) {
    clear(this.actButtons);
    const offered = acting ? this.offeredActions() : [];
    for (const name of offered) {
      const words = this.actionWords.get(name);
      this.actButtons.append(el("button", {
        type: "button",
        class: "act",
        "data-testid": "act",
        "data-action": name,
        "aria-pressed": this.mode === name ? "true" : "false",
        title: words && words.description ? words.description : null,
        onclick: () => this.enterMode(name),
      }, this.actionTitle(name)));
    }
    const on = acting && this.mode !== null;
    this.actCancel.hidden = !on;
    clear(this.actList);
    const listed = on && !this.onBoard(this.mode);
    this.actList.hidden = !listed;
    if (!listed) return;
    const action = this.actionTitle(this.mode);
    for (const act of this.actsOf(this.mode)) {
      const fields = actFields(act).map((field) => `${field} ${act[field]}`).join(", ");
      this.actList.append(el("li", {}, el("button", {
        type: "button",
        "data-testid": "act-choice",
        onclick: () => this.submit(act),
      }, fields ? t("{action}: {fields}", { action, fields }) : action)));
    }
  }

  drawClocks() {
    if (!this.clock || !this.seatsList) return;
    const elapsed = (performance.now() - this.clock.at) / 1000;
    this.clock.remaining.forEach((left, n) => {
      const node = this.seatsList.querySelector(`[data-testid=clock-${n}]`);
      if (!node) return;
      const running = this.clock.running === n && !(this.state && this.state.over);
      const seconds = Math.max(0, running ? left - elapsed : left);
      node.textContent = `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;
      node.classList.toggle("running", running);
    });
  }
}

// A declared action's command's own fields (its kind and seat left out).
function actFields(act) {
  return Object.keys(act).filter((key) => key !== "kind" && key !== "seat");
}

function copy(text) {
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
}

export { forgetSeat };
