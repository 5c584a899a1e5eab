// "Notify me when it's my turn": Web Push through the service worker (sw.js). The table asks
// for `notifyControl(gameId, held)`; a click subscribes this browser (the server's VAPID key,
// GET /v1/push/key) and registers the subscription for the seats held here and, when signed
// in, for the portal user (POST /v1/push/subscriptions). While a subscribed browser shows a
// game in a visible tab it tells the server (POST /v1/push/live), which then sends nothing
// for those seats.
//
// The key and the registration go over gRPC-Web (the server's HTTP port answers it): a refusal
// comes back in the call's status, not as an HTTP error status the browser logs in red in the
// console. Two refusals are states, not failures (docs/api.md): NOTIFICATIONS_OFF (HTTP 409 over
// REST: Web Push is off on this server; the control is hidden) and DNS_UNAVAILABLE (HTTP 503: the
// push service's host could not be resolved for a moment; registered again after `retryAfter`
// seconds, a few times).
import { api, ApiError, why } from './api.js';
import { Client, createGrpcWebTransport, toTableroError } from './vendor/tablero-client.js';
import { h } from './dom.js';
import { currentUser } from './portal.js';
import { catalog } from './i18n.js';

const T = (key, args) => catalog('tablero').t(key, args);

const FLAG = 'tablero.push.v1';
export const RETRIES = 3; // registrations tried again after DNS_UNAVAILABLE
export const LONGEST = 60; // seconds waited at most before one (whatever retryAfter says)
const push = new Client({
  baseUrl: location.origin, retries: 0, transport: createGrpcWebTransport({ baseUrl: location.origin }),
}).notifications;
const LIVE_EVERY = 15000;
let serverKey; // undefined: not asked yet; null: Web Push is off on this server
let live = null; // {gameId, held, timer}
const controls = new Map(); // gameId -> its control (the table redraws its head on every change)

function bytes(b64u) {
  const s = atob(b64u.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64u.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

function supported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

// A refusal as the page's other calls give it (why() words it).
function refusal(e) {
  const err = toTableroError(e);
  const offline = err.code === 'UNAVAILABLE' && !err.reason;
  return new ApiError(offline ? 0 : 400, err.code, offline ? `the server cannot be reached (${err.message})` : err.message, err.reason);
}

async function key() {
  if (serverKey === undefined) {
    try {
      serverKey = (await push.getPushKey({})).publicKey || null;
    } catch (e) {
      if (toTableroError(e).reason !== 'NOTIFICATIONS_OFF') return null; // asked again next time
      serverKey = null; // Web Push is off on this server: nothing to offer
    }
  }
  return serverKey;
}

// POST /v1/push/subscriptions (RegisterPushSubscription): `request` {subscription, seats}, the
// portal user's `token` if signed in. A push service whose name could not be resolved for a moment
// (DNS_UNAVAILABLE) is tried again after its retryAfter seconds (1..LONGEST), RETRIES times;
// `onWait(seconds)` is told each wait.
export async function register(request, token, onWait = () => {}) {
  for (let tries = 0; ; tries++) {
    try {
      return await push.registerPushSubscription(request, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
    } catch (e) {
      const err = toTableroError(e);
      if (err.reason === 'NOTIFICATIONS_OFF') {
        serverKey = null;
        throw new Error(T('web.notify_no_server'));
      }
      if (err.reason !== 'DNS_UNAVAILABLE' || tries >= RETRIES) throw refusal(e);
      const wait = Math.min(LONGEST, Math.max(1, Math.ceil(Number(err.metadata.retryAfter ?? err.retryAfter) || 5)));
      onWait(wait);
      await new Promise((done) => { setTimeout(done, wait * 1000); });
    }
  }
}

export async function subscribe(gameId, held, onWait) {
  const publicKey = await key();
  if (!publicKey) throw new Error(T('web.notify_no_server'));
  if ((await Notification.requestPermission()) !== 'granted') throw new Error(T('web.notify_blocked'));
  const reg = await navigator.serviceWorker.register('sw.js');
  await navigator.serviceWorker.ready;
  const sub = (await reg.pushManager.getSubscription())
    || await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(publicKey) });
  const me = currentUser();
  // The endpoint and keys are all the server uses (it also accepts toJSON()'s `expirationTime`).
  const { endpoint, keys } = sub.toJSON();
  await register({ subscription: { endpoint, keys }, seats: held.map((s) => ({ gameId, token: s.token })) },
    me && me.token, onWait);
  localStorage.setItem(FLAG, '1');
}

function sendLive(on) {
  if (!live) return;
  for (const s of live.held) {
    api('POST', '/v1/push/live', { body: { gameId: live.gameId, token: s.token, live: on } }).catch(() => {});
  }
}

function watchLive(gameId, held) {
  if (!localStorage.getItem(FLAG) || !held.length) return;
  if (live && live.gameId === gameId) return;
  if (live) { sendLive(false); clearInterval(live.timer); }
  live = { gameId, held, timer: null };
  const tick = () => {
    if (!live || !location.hash.includes(gameId)) {
      if (live) { sendLive(false); clearInterval(live.timer); live = null; }
      return;
    }
    if (document.visibilityState === 'visible') sendLive(true);
  };
  live.timer = setInterval(tick, LIVE_EVERY);
  tick();
}

document.addEventListener('visibilitychange', () => {
  if (live) sendLive(document.visibilityState === 'visible');
});

// The table's control (null when this browser holds no seat of the game or cannot push).
export function notifyControl(gameId, held) {
  if (!held.length || !supported()) return null;
  watchLive(gameId, held);
  if (controls.has(gameId)) return controls.get(gameId);
  const status = h('span', { class: 'muted push-status', 'aria-live': 'polite' });
  const button = h('button', {
    type: 'button', class: 'small', id: 'notify-me',
    onclick: async () => {
      button.disabled = true;
      status.textContent = ` ${T('web.notify_subscribing')}`;
      try {
        await subscribe(gameId, held, (seconds) => { status.textContent = ` ${T('web.notify_retrying', { seconds })}`; });
        status.textContent = ` ${T('web.notify_on')}`;
        watchLive(gameId, held);
      } catch (e) {
        status.textContent = ` ${T('web.notify_failed', { why: why(e) })}`;
        button.disabled = false;
      }
    },
  }, T('web.notify_me'));
  const box = h('div', { class: 'row small-print push' }, button, status);
  key().then((k) => { if (!k) box.hidden = true; });
  controls.set(gameId, box);
  return box;
}
