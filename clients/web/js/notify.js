// "Notify me when it's my turn": Web Push through the service worker (sw.js). The table asks
// for `notifyControl(gameId, held)`; a click subscribes this browser (the server's VAPID key,
// GET /v1/push/key) and registers the subscription for the seats held here and, when signed
// in, for the portal user (POST /v1/push/subscriptions). While a subscribed browser shows a
// game in a visible tab it tells the server (POST /v1/push/live), which then sends nothing
// for those seats.
import { api, why } from './api.js';
import { h } from './dom.js';
import { currentUser } from './portal.js';
import { catalog } from './i18n.js';

const T = (key, args) => catalog('tablero').t(key, args);

const FLAG = 'tablero.push.v1';
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

async function key() {
  if (serverKey === undefined) {
    try {
      serverKey = (await api('GET', '/v1/push/key')).publicKey;
    } catch {
      serverKey = null;
    }
  }
  return serverKey;
}

export async function subscribe(gameId, held) {
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
  await api('POST', '/v1/push/subscriptions', {
    token: me && me.token,
    body: { subscription: { endpoint, keys }, seats: held.map((s) => ({ gameId, token: s.token })) },
  });
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
        await subscribe(gameId, held);
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
