// Quick match, the signed-in user's ratings and the leaderboards (issue 33; docs/matchmaking.md,
// docs/ratings.md). Both panels need a portal sign-in; the lobby adds them (app.js).
import { api, holdSeat } from './api.js';
import { h } from './dom.js';

const POLL_MS = 1000;
const fmtRating = (x) => (Number(x) || 0).toFixed(1);
const games = (n, won) => `${n} ${n === 1 ? 'game' : 'games'}, ${won} won`;

// "Quick match": a ticket for the chosen game, followed until a game is found; then the table.
export function quickMatchPanel(me, engines, titleOf) {
  const box = h('section', { class: 'panel', id: 'quick-match', 'aria-labelledby': 'qm-h' }, h('h2', { id: 'qm-h' }, 'Quick match'));
  const pick = h('select', { id: 'qm-engine', 'aria-label': 'Game' }, engines.map((e) => h('option', { value: e.name }, titleOf(e.name))));
  const sizes = h('select', { id: 'qm-players', 'aria-label': 'Players' });
  const fillSizes = () => {
    const e = engines.find((x) => x.name === pick.value) || { minSeats: 2, maxSeats: 2 };
    const lo = Math.max(2, e.minSeats);
    const opts = [];
    for (let n = lo; n <= e.maxSeats; n += 1) opts.push(h('option', { value: String(n) }, `${n} players`));
    opts.push(h('option', { value: 'any' }, 'any size'));
    sizes.replaceChildren(...opts);
  };
  pick.addEventListener('change', fillSizes);
  fillSizes();
  const bots = h('input', { type: 'checkbox', id: 'qm-bots' });
  const go = h('button', { type: 'button', id: 'qm-go' }, 'Find me a game');
  const status = h('p', { id: 'qm-status', role: 'status', 'aria-live': 'polite', class: 'muted' }, 'Players of about your rating are matched first; the longer you wait, the wider the search.');
  const form = h('div', { class: 'row' }, pick, sizes, h('label', { for: 'qm-bots' }, bots, ' bots fill after 30 s'), go);
  box.append(form, status);
  let ticket = null;
  let timer = null;
  const stopPolling = () => { if (timer) clearTimeout(timer); timer = null; };
  const cancel = h('button', { type: 'button', id: 'qm-cancel', class: 'small' }, 'Cancel');
  cancel.addEventListener('click', async () => {
    stopPolling();
    if (ticket) await api('POST', `/v1/matchmaking/tickets/${encodeURIComponent(ticket.id)}:cancel`, { token: me.token, body: {} }).catch(() => null);
    ticket = null;
    go.disabled = false;
    status.replaceChildren('Cancelled.');
  });
  const follow = async () => {
    if (!document.body.contains(box)) { stopPolling(); return; } // the page moved on (the ticket ends by itself)
    try {
      ticket = (await api('GET', `/v1/matchmaking/tickets/${encodeURIComponent(ticket.id)}`, { token: me.token })).ticket;
    } catch (e) {
      status.replaceChildren(`Matchmaking is unavailable: ${e.message}`);
      go.disabled = false;
      return;
    }
    const state = String(ticket.status).replace('MATCH_TICKET_STATUS_', '');
    if (state === 'MATCHED') {
      holdSeat(ticket.gameId, ticket.engine, ticket.seat, ticket.seatToken);
      status.replaceChildren('Found a game: opening it…');
      location.hash = `#/g/${encodeURIComponent(ticket.gameId)}`;
      return;
    }
    if (state !== 'WAITING') {
      status.replaceChildren(state === 'EXPIRED' ? 'Nobody was found in time. Try again, or let bots fill.' : 'Cancelled.');
      go.disabled = false;
      return;
    }
    const waited = Math.round(Date.now() / 1000 - ticket.createTime);
    status.replaceChildren(`Looking for players… ${Math.max(0, waited)} s `, cancel);
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
      status.replaceChildren(`Could not start: ${err.message}`);
      go.disabled = false;
      return;
    }
    status.replaceChildren(`Looking for players… (your rating ${fmtRating(ticket.rating)}) `, cancel);
    timer = setTimeout(follow, POLL_MS);
  });
  return box;
}

// The signed-in user's ratings, and the leaderboard of a game (top, or around the user).
export function ratingsPanel(me, engines, titleOf) {
  const box = h('section', { class: 'panel', id: 'ratings', 'aria-labelledby': 'rt-h' }, h('h2', { id: 'rt-h' }, 'Ratings'));
  const mine = h('div', { id: 'my-ratings' }, h('p', { class: 'muted' }, 'Loading…'));
  const pick = h('select', { id: 'lb-engine', 'aria-label': 'Leaderboard of' }, engines.map((e) => h('option', { value: e.name }, titleOf(e.name))));
  const around = h('input', { type: 'checkbox', id: 'lb-around' });
  const board = h('div', { id: 'leaderboard' });
  box.append(mine, h('h3', {}, 'Leaderboard'), h('div', { class: 'row' }, pick, h('label', { for: 'lb-around' }, around, ' around me')), board);
  const loadBoard = async () => {
    const q = `pageSize=10${around.checked ? `&aroundUserId=${encodeURIComponent(me.user.id)}` : ''}`;
    try {
      const d = await api('GET', `/v1/leaderboards/${encodeURIComponent(pick.value)}?${q}`);
      const rows = d.entries || [];
      board.replaceChildren(rows.length ? h('ol', { class: 'board' }, rows.map((e) => h('li', { value: e.rank, 'data-user': e.userId, class: e.userId === me.user.id ? 'me' : '' },
        h('strong', {}, e.userName || e.userId), ` · ${fmtRating(e.rating)} · ${games(e.gamesPlayed, e.wins)}`))) : h('p', { class: 'muted' }, 'No rated games yet.'));
    } catch (e) {
      board.replaceChildren(h('p', { class: 'muted' }, e.status === 404 ? 'You have no rating in this game yet.' : `Unavailable: ${e.message}`));
    }
  };
  pick.addEventListener('change', loadBoard);
  around.addEventListener('change', loadBoard);
  api('GET', `/v1/players/${encodeURIComponent(me.user.id)}`).then((d) => {
    const p = d.player;
    mine.replaceChildren(h('ul', { class: 'games' }, (p.ratings || []).map((r) => h('li', { 'data-engine': r.engine },
      h('strong', {}, titleOf(r.engine)), ` · rating ${fmtRating(r.rating)} · #${r.rank} · ${games(r.gamesPlayed, r.wins)}`))));
  }).catch((e) => mine.replaceChildren(h('p', { class: 'muted' }, e.status === 404 ? 'No rated games yet: a quick match is rated.' : `Unavailable: ${e.message}`)));
  loadBoard();
  return box;
}
