// Quick match, the signed-in user's ratings and the leaderboards (issue 33; docs/matchmaking.md,
// docs/ratings.md). Both panels need a portal sign-in; the lobby adds them (app.js).
import { api, holdSeat, why } from './api.js';
import { h } from './dom.js';
import { catalog } from './i18n.js';

const T = (key, args) => catalog('tablero').t(key, args);

const POLL_MS = 1000;
const fmtRating = (x) => (Number(x) || 0).toFixed(1);
const games = (n, won) => T('web.qm.games', { n: Number(n) || 0, won: Number(won) || 0 });

// "Quick match": a ticket for the chosen game, followed until a game is found; then the table.
export function quickMatchPanel(me, engines, titleOf) {
  const box = h('section', { class: 'panel', id: 'quick-match', 'aria-labelledby': 'qm-h' }, h('h2', { id: 'qm-h' }, T('web.qm.title')));
  const pick = h('select', { id: 'qm-engine', 'aria-label': T('web.game') }, engines.map((e) => h('option', { value: e.name }, titleOf(e.name))));
  const sizes = h('select', { id: 'qm-players', 'aria-label': T('web.players_label') });
  const fillSizes = () => {
    const e = engines.find((x) => x.name === pick.value) || { minSeats: 2, maxSeats: 2 };
    const lo = Math.max(2, e.minSeats);
    const opts = [];
    for (let n = lo; n <= e.maxSeats; n += 1) opts.push(h('option', { value: String(n) }, T('web.players', { n })));
    opts.push(h('option', { value: 'any' }, T('web.qm.any_size')));
    sizes.replaceChildren(...opts);
  };
  pick.addEventListener('change', fillSizes);
  fillSizes();
  const bots = h('input', { type: 'checkbox', id: 'qm-bots' });
  const go = h('button', { type: 'button', id: 'qm-go' }, T('web.qm.go'));
  const status = h('p', { id: 'qm-status', role: 'status', 'aria-live': 'polite', class: 'muted' }, T('web.qm.hint'));
  const form = h('div', { class: 'row' }, pick, sizes, h('label', { for: 'qm-bots' }, bots, ' ', T('web.qm.bots', { s: 30 })), go);
  box.append(form, status);
  let ticket = null;
  let timer = null;
  const stopPolling = () => { if (timer) clearTimeout(timer); timer = null; };
  const cancel = h('button', { type: 'button', id: 'qm-cancel', class: 'small' }, T('web.qm.cancel'));
  cancel.addEventListener('click', async () => {
    stopPolling();
    if (ticket) await api('POST', `/v1/matchmaking/tickets/${encodeURIComponent(ticket.id)}:cancel`, { token: me.token, body: {} }).catch(() => null);
    ticket = null;
    go.disabled = false;
    status.replaceChildren(T('web.qm.cancelled'));
  });
  const follow = async () => {
    if (!document.body.contains(box)) { stopPolling(); return; } // the page moved on (the ticket ends by itself)
    try {
      ticket = (await api('GET', `/v1/matchmaking/tickets/${encodeURIComponent(ticket.id)}`, { token: me.token })).ticket;
    } catch (e) {
      status.replaceChildren(T('web.qm.unavailable', { why: why(e) }));
      go.disabled = false;
      return;
    }
    const state = String(ticket.status).replace('MATCH_TICKET_STATUS_', '');
    if (state === 'MATCHED') {
      holdSeat(ticket.gameId, ticket.engine, ticket.seat, ticket.seatToken);
      status.replaceChildren(T('web.qm.found'));
      location.hash = `#/g/${encodeURIComponent(ticket.gameId)}`;
      return;
    }
    if (state !== 'WAITING') {
      status.replaceChildren(state === 'EXPIRED' ? T('web.qm.expired') : T('web.qm.cancelled'));
      go.disabled = false;
      return;
    }
    const waited = Math.round(Date.now() / 1000 - ticket.createTime);
    status.replaceChildren(T('web.qm.looking_for', { s: Math.max(0, waited) }), ' ', cancel);
    timer = setTimeout(follow, POLL_MS);
  };
  go.addEventListener('click', async () => {
    go.disabled = true;
    const e = engines.find((x) => x.name === pick.value);
    const players = sizes.value === 'any' ? [] : [Number(sizes.value)];
    if (!players.length) for (let n = Math.max(2, e.minSeats); n <= e.maxSeats; n += 1) players.push(n);
    try {
      ticket = (await api('POST', '/v1/matchmaking/tickets', { token: me.token, body: { engine: pick.value, players, ...(bots.checked ? { botsAfterSeconds: 30 } : {}) } })).ticket;
    } catch (err) {
      status.replaceChildren(T('web.qm.start_failed', { why: why(err) }));
      go.disabled = false;
      return;
    }
    status.replaceChildren(T('web.qm.looking', { rating: fmtRating(ticket.rating) }), ' ', cancel);
    timer = setTimeout(follow, POLL_MS);
  });
  return box;
}

// The signed-in user's ratings, and the leaderboard of a game (top, or around the user).
export function ratingsPanel(me, engines, titleOf) {
  const box = h('section', { class: 'panel', id: 'ratings', 'aria-labelledby': 'rt-h' }, h('h2', { id: 'rt-h' }, T('web.rt.title')));
  const mine = h('div', { id: 'my-ratings' }, h('p', { class: 'muted' }, T('web.loading')));
  const pick = h('select', { id: 'lb-engine', 'aria-label': T('web.rt.board_of') }, engines.map((e) => h('option', { value: e.name }, titleOf(e.name))));
  const around = h('input', { type: 'checkbox', id: 'lb-around' });
  const board = h('div', { id: 'leaderboard' });
  box.append(mine, h('h3', {}, T('web.rt.board')), h('div', { class: 'row' }, pick, h('label', { for: 'lb-around' }, around, ' ', T('web.rt.around'))), board);
  const loadBoard = async () => {
    const q = `pageSize=10${around.checked ? `&aroundUserId=${encodeURIComponent(me.user.id)}` : ''}`;
    try {
      const d = await api('GET', `/v1/leaderboards/${encodeURIComponent(pick.value)}?${q}`);
      const rows = d.entries || [];
      board.replaceChildren(rows.length ? h('ol', { class: 'board' }, rows.map((e) => h('li', { value: e.rank, 'data-user': e.userId, class: e.userId === me.user.id ? 'me' : '' },
        h('strong', {}, e.userName || e.userId), ` · ${fmtRating(e.rating)} · ${games(e.gamesPlayed, e.wins)}`))) : h('p', { class: 'muted' }, T('web.rt.none')));
    } catch (e) {
      board.replaceChildren(h('p', { class: 'muted' }, e.status === 404 ? T('web.rt.none_here') : T('web.rt.unavailable', { why: why(e) })));
    }
  };
  pick.addEventListener('change', loadBoard);
  around.addEventListener('change', loadBoard);
  api('GET', `/v1/players/${encodeURIComponent(me.user.id)}`).then((d) => {
    const p = d.player;
    mine.replaceChildren(h('ul', { class: 'games' }, (p.ratings || []).map((r) => h('li', { 'data-engine': r.engine },
      h('strong', {}, titleOf(r.engine)), ` · ${T('web.rt.rating', { rating: fmtRating(r.rating) })} · #${r.rank} · ${games(r.gamesPlayed, r.wins)}`))));
  }).catch((e) => mine.replaceChildren(h('p', { class: 'muted' }, e.status === 404 ? T('web.rt.none_yet') : T('web.rt.unavailable', { why: why(e) }))));
  loadBoard();
  return box;
}
