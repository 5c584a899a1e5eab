// The public REST API, and the seat tokens this browser holds.
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, 'UNAVAILABLE', `the server cannot be reached (${e.message})`);
  }
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = null;
  }
  if (!r.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(r.status, err.code || `HTTP_${r.status}`, err.message || r.statusText || 'request failed');
  }
  return data;
}

// GetGame / SubmitAction answer {"game": Game} (older servers: the bare Game).
export function unwrapGame(d) {
  return d && d.game && typeof d.game === 'object' && 'id' in d.game ? d.game : d;
}

// "GAME_STATUS_FINISHED" | "FINISHED" -> "finished"; "SEAT_KIND_BOT" | "bot" -> "bot".
export const statusOf = (g) => String((g && g.status) || '').replace(/^GAME_STATUS_/, '').toLowerCase();
export const kindOf = (s) => String((s && s.kind) || s || '').replace(/^SEAT_KIND_/, '').toLowerCase();

export function requestId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `r-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

// --- seat tokens kept in this browser (localStorage) ------------------------------
const KEY = 'tablero.games.v1';

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || '{}') || {};
  } catch {
    return {};
  }
}

export function seatsHeld(gameId) {
  const g = load()[gameId];
  return g ? g.seats.slice().sort((a, b) => a.seat - b.seat) : [];
}

export function holdSeat(gameId, engine, seat, token) {
  const all = load();
  const g = all[gameId] || { engine, seats: [], at: Date.now() };
  g.seats = g.seats.filter((s) => s.seat !== seat).concat([{ seat, token }]);
  g.at = Date.now();
  all[gameId] = g;
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function forgetGame(gameId) {
  const all = load();
  delete all[gameId];
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function gamesHeld() {
  return Object.entries(load())
    .map(([id, g]) => ({ id, ...g }))
    .sort((a, b) => b.at - a.at);
}
