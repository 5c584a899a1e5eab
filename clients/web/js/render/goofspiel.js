// Goofspiel: the prize up for bidding, the viewer's hand (the card bid marked until the reveal),
// each player's points, and the prizes so far with every player's bid by name.
// A spectator has no hand and no bid: those rows are left out.
import { h } from '../dom.js';
import { seatName } from '../words.js';
import { pick } from './common.js';

const won = (ctx, winner) => (winner === null || winner === undefined ? 'nobody (a tie)' : seatName(ctx, winner));

function render(ctx) {
  const v = ctx.view;
  const n = (v.points || []).length;
  const seats = Array.from({ length: n }, (_, s) => s);
  const mine = Array.isArray(v.hand);
  const bid = v.my_bid;
  const head = (s) => h('th', { scope: 'col', class: s === ctx.seat ? 'me' : '' }, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)}`);
  return h('div', { class: 'board-game gs' },
    h('div', { class: 'box' }, v.prize !== null && v.prize !== undefined
      ? [h('strong', {}, `Prize up for bidding: ${v.prize}`), ` · ${v.prizes_left} more ${v.prizes_left === 1 ? 'prize' : 'prizes'} to come`]
      : h('strong', {}, 'Every prize is taken.')),
    mine ? h('div', { class: 'box gs-hand' },
      h('div', { class: 'hand' }, h('span', {}, 'Your hand: '), v.hand.length ? v.hand.map((c) => (c === bid
        ? h('span', { class: 'card value bid', title: 'your bid: it leaves your hand at the reveal' }, String(c), h('small', {}, 'bid'))
        : pick(h('span', { class: 'card value' }, String(c)), 'card', c, `Bid ${c}`))) : 'no cards left'),
      h('div', { class: 'gs-my-bid' }, 'Your bid: ', bid !== null && bid !== undefined ? `${bid} (secret until everyone has bid)` : 'not yet')) : null,
    h('div', { class: 'scroll' }, h('table', { class: 'grid players' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), seats.map(head))),
      h('tbody', {},
        h('tr', {}, h('th', { scope: 'row' }, 'Prize points'), seats.map((s) => h('td', {}, String(v.points[s])))),
        h('tr', {}, h('th', { scope: 'row' }, 'Cards in hand'), seats.map((s) => h('td', {}, String((v.hand_sizes || [])[s] ?? '')))),
        v.prize !== null && v.prize !== undefined ? h('tr', {}, h('th', { scope: 'row' }, 'This prize'), seats.map((s) => h('td', {}, (v.has_bid || [])[s] ? 'has bid' : 'to bid'))) : null))),
    (v.history || []).length ? h('section', { class: 'part' }, h('h3', {}, 'Prizes so far'), h('div', { class: 'scroll' }, h('table', { class: 'grid gs-history' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Prize'), seats.map((s) => h('th', { scope: 'col' }, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)}'s bid`)), h('th', { scope: 'col' }, 'Won by'))),
      h('tbody', {}, v.history.map((x) => h('tr', {}, h('td', {}, String(x.prize)), seats.map((s) => h('td', {}, String((x.bids || [])[s] ?? ''))), h('td', {}, won(ctx, x.winner)))))))) : null);
}

// The prize of the reveal at ctx.at: the view's history has each prize in order of the reveals.
function prizeOf(ctx) {
  const log = ctx.log || [];
  const k = log.slice(0, ctx.at ?? log.length).filter((it) => (it.event || {}).type === 'bids_revealed').length;
  const v = ctx.view || {};
  const x = (v.history || [])[k];
  if (x) return x.prize;
  // (a reveal the view has not caught up with yet: its prize is the one the view still shows)
  return k === (v.history || []).length && v.prize !== undefined ? v.prize : null;
}

export default { render };
