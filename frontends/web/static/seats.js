// Seat tokens kept in this browser's storage, keyed by server and table: never in a URL.

const PREFIX = `cinco:${location.host}:`;

export function keepSeat(table, seat) {
  localStorage.setItem(`${PREFIX}seat:${table}`, JSON.stringify(seat));
}

export function seatOf(table) {
  try {
    return JSON.parse(localStorage.getItem(`${PREFIX}seat:${table}`) || "null");
  } catch (error) {
    return null;
  }
}

export function forgetSeat(table) {
  localStorage.removeItem(`${PREFIX}seat:${table}`);
}

// The table an invite code was already exchanged for here (a second visit resumes it).
export function keepInvite(code, table) {
  localStorage.setItem(`${PREFIX}invite:${code.toUpperCase()}`, table);
}

export function inviteTable(code) {
  return localStorage.getItem(`${PREFIX}invite:${code.toUpperCase()}`);
}
