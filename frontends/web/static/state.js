// What a viewer sees of the game, folded from the server's events only (never from a move
// this page has sent and the server not yet confirmed). An "undone" event sets the state back
// to the one after its first back_to events.

export function fold(events, viewer) {
  let s = fresh();
  for (const e of events) {
    if (e.type === "undone") s = fold(events.slice(0, e.back_to), viewer);
    else step(s, e, viewer);
  }
  return s;
}

function fresh() {
  return { config: null, hand: [], counts: [], board: new Map(), toMove: null, over: null, last: null, lastAction: null };
}

export function teamOf(config, seat) {
  return config ? seat % config.teams : seat;
}

function step(s, e, viewer) {
  const own = viewer !== null && e.seat === viewer;
  switch (e.type) {
    case "game_started":
      s.config = e.config;
      s.counts = e.config.seats.map(() => 0);
      s.toMove = e.first_seat;
      break;
    case "card_drawn":
      s.counts[e.seat] += 1;
      if (own && e.card !== null && e.card !== undefined) s.hand.push(e.card);
      break;
    case "card_played":
      s.counts[e.seat] -= 1;
      if (own) s.hand = s.hand.filter((card, i, all) => i !== all.indexOf(e.card));
      if (e.space !== null && e.space !== undefined) {
        s.board.set(e.space, teamOf(s.config, e.seat));
        s.last = e.space;
      }
      break;
    case "action_taken": // a variant's own action (hook API 3): its effects' events follow
      s.lastAction = { seat: e.seat, action: e.action, values: e.values };
      break;
    case "token_removed": // a variant's own action took it off (hook API 3)
      s.board.delete(e.space);
      if (s.last === e.space) s.last = null;
      break;
    case "hand_discarded":
      s.counts[e.seat] -= e.count;
      if (own) s.hand = [];
      break;
    case "turn_ended":
      s.toMove = e.next_seat;
      break;
    case "game_ended":
      s.over = e;
      s.toMove = null;
      break;
    default:
      break;
  }
}
