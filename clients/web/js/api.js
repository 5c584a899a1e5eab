// The public API through @tablero/client (its browser bundle: js/vendor/tablero-client.js,
// `python scripts/build_ts_sdk.py --web`), over Connect; and the seat tokens this browser holds.
// `api(method, path)` takes the REST route of an RPC (the page's vocabulary) and answers what
// REST answers (the protobuf JSON mapping: the same names, enums and shapes).
import { Client, PlayerService, fromJson, pb, toJson, toTableroError } from './vendor/tablero-client.js';
import { catalog, language } from './i18n.js';

export const client = new Client({ baseUrl: location.origin, useBinaryFormat: false, retries: 0 });

export class ApiError extends Error {
  constructor(status, code, message, reason) {
    super(message);
    this.status = status;
    this.code = code;
    this.reason = reason;
  }
}

// Why a request failed, in the page's words: the server cannot be reached, or a refusal's
// reason as the catalog words it (web.reason.<REASON>). The server's own message is English: it
// is shown as it is only on an English page (it says more, e.g. which cell is taken), or for an
// error that is no refusal of the server's (a page's own failure).
export function why(e) {
  if (!(e instanceof ApiError)) return e.message;
  if (e.status === 0) return catalog('tablero').t('web.unreachable');
  if (language() === 'en') return e.message;
  if (e.reason && catalog('tablero').has(`web.reason.${e.reason}`)) return catalog('tablero').t(`web.reason.${e.reason}`);
  return catalog('tablero').t('web.reason.other', { code: e.code || '' });
}

const HTTP = {
  INVALID_ARGUMENT: 400, UNAUTHENTICATED: 401, PERMISSION_DENIED: 403, NOT_FOUND: 404, DEADLINE_EXCEEDED: 408,
  FAILED_PRECONDITION: 409, ABORTED: 409, RESOURCE_EXHAUSTED: 429, UNIMPLEMENTED: 501, INTERNAL: 500,
  UNAVAILABLE: 503,
};

// GameService's REST routes -> [RPC, request fields from the path, the answer's field REST
// returns alone, the service (GameService unless named)]; any other route is called over REST
// (`rest` below). A route whose path names a portal user id goes over Connect too: a browser
// drops a path segment "." or ".." (even spelt %2E) before it sends the request, so the user
// ids "." and ".." could not be asked for by their REST path.
const SERVICES = { games: pb.GameService, players: PlayerService };
const ROUTES = [
  ['GET', /^\/v1\/engines$/, 'listEngines', []],
  ['GET', /^\/v1\/engines\/([^/]+)$/, 'getEngine', ['name']],
  ['POST', /^\/v1\/games$/, 'createGame', []],
  ['GET', /^\/v1\/games$/, 'listGames', []],
  ['POST', /^\/v1\/games\/([^/]+)\/join$/, 'joinGame', ['gameId']],
  ['GET', /^\/v1\/games\/([^/]+)$/, 'getGame', ['gameId'], 'game'],
  ['GET', /^\/v1\/games\/([^/]+)\/legal-actions$/, 'listLegalActions', ['gameId']],
  ['POST', /^\/v1\/games\/([^/]+)\/actions$/, 'submitAction', ['gameId'], 'game'],
  ['POST', /^\/v1\/games\/([^/]+)\/resign$/, 'resign', ['gameId'], 'game'],
  ['GET', /^\/v1\/games\/([^/]+)\/events$/, 'listEvents', ['gameId']],
  ['GET', /^\/v1\/players\/([^/]+)$/, 'getPlayer', ['userId'], undefined, 'players'],
];

const jsonOptions = { alwaysEmitImplicit: true };

function queryFields(search) {
  const out = {};
  for (const [k, v] of new URLSearchParams(search)) out[k] = v === 'true' ? true : v === 'false' ? false : v;
  return out;
}

export async function api(method, path, { token, body } = {}) {
  const [route, search = ''] = path.split('?');
  for (const [verb, re, rpc, params, only, service = 'games'] of ROUTES) {
    const m = verb === method && re.exec(route);
    if (!m) continue;
    const fields = { ...queryFields(search), ...(body || {}) };
    params.forEach((name, i) => { fields[name] = decodeURIComponent(m[i + 1]); });
    const call = client[service][rpc];
    const rpcMethod = SERVICES[service].method[rpc];
    let request;
    try {
      request = fromJson(rpcMethod.input, fields, { ignoreUnknownFields: false });
    } catch (e) {
      throw new ApiError(400, 'INVALID_ARGUMENT', `bad request for ${rpc}: ${e.message}`);
    }
    let answer;
    try {
      answer = await call(request, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
    } catch (e) {
      const err = toTableroError(e);
      const offline = err.code === 'UNAVAILABLE' && !(err.cause && err.cause.isWireError);
      throw new ApiError(offline ? 0 : HTTP[err.code] || 500, err.code,
        offline ? `the server cannot be reached (${err.message})` : err.message, err.reason);
    }
    if (only) return toJson(rpcMethod.output.field[only].message, answer[only], jsonOptions);
    return toJson(rpcMethod.output, answer, jsonOptions);
  }
  return rest(method, path, { token, body });
}

// Routes of other services (the portal's, matchmaking, ...) that this table does not list go
// to their REST route as they are.
async function rest(method, path, { token, body } = {}) {
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
    throw new ApiError(r.status, err.code || `HTTP_${r.status}`, err.message || r.statusText || 'request failed',
      err.reason);
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
