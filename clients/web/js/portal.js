// Signing in with a game portal's identity: the portal hands its user a JWT (README, "Behind
// a game portal"), either in the page's address (`#token=<jwt>`, read once and removed from
// the address) or pasted into the lobby's sign-in form. The server checks it; this browser
// keeps it until Sign out or until it expires.
import { api } from './api.js';
import { catalog } from './i18n.js';

const KEY = 'tablero.portal.v1';
const JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/;

function claimsOf(token) {
  try {
    const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const text = atob(part + '='.repeat((4 - (part.length % 4)) % 4));
    return JSON.parse(decodeURIComponent(Array.from(text, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')));
  } catch {
    return null;
  }
}

// The portal token in the address (`#token=…`, also `#/g/<id>?token=…`), removed from the
// address and the history entry so that it is not bookmarked or shared; null if none.
export function takeTokenFromAddress() {
  const m = location.hash.match(/[#?&]token=([^&]*)/);
  if (!m) return null;
  let rest = location.hash.replace(/([#?&])token=[^&]*&?/, '$1').replace(/[?&]$/, '');
  if (rest === '#' || rest === '') rest = '#/';
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest}`);
  return decodeURIComponent(m[1]);
}

// {token, user: {id, name}, exp} or null; an expired sign-in is forgotten (expired: true).
export function currentUser() {
  let me = null;
  try {
    me = JSON.parse(localStorage.getItem(KEY) || 'null');
  } catch {
    me = null;
  }
  if (!me || !me.token) return null;
  if (me.exp && me.exp * 1000 < Date.now()) {
    signOut();
    return { expired: true };
  }
  return me;
}

// Check the token with the server (ListGames with mine=true needs a valid JWT) and keep it.
export async function signIn(raw) {
  const token = String(raw || '').trim().replace(/^Bearer\s+/i, '');
  if (!JWT.test(token)) throw new Error(catalog('tablero').t('web.portal_not_jwt'));
  const claims = claimsOf(token);
  if (!claims || typeof claims.sub !== 'string') throw new Error(catalog('tablero').t('web.portal_no_user'));
  try {
    await api('GET', '/v1/games?mine=true&pageSize=1', { token });
  } catch (e) {
    // Expired: said in the page's language (the server's message is English); any other refusal
    // as the server says it ("unknown key id 'k9'" tells a portal's developer what is wrong).
    if (e.status === 401) throw new Error(e.reason === 'TOKEN_EXPIRED' ? catalog('tablero').t('web.portal_expired') : e.message);
    throw e;
  }
  const me = { token, user: { id: claims.sub, name: claims.name || claims.sub }, exp: claims.exp || null };
  localStorage.setItem(KEY, JSON.stringify(me));
  return me;
}

export function signOut() {
  localStorage.removeItem(KEY);
}

// The seat `me` holds in `game` (its seats carry the portal user ids), or null.
export function seatOf(game, me) {
  if (!me || !me.user || !game) return null;
  const s = (game.seats || []).find((x) => x.userId === me.user.id);
  return s ? s.seat : null;
}
