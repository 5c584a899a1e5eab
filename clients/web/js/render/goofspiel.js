// Goofspiel: the prize up for bidding, the viewer's hand (the card bid marked until the reveal),
// each player's points, and the prizes so far with every player's bid by name.
// A spectator has no hand and no bid: those rows are left out.
import { h } from '../dom.js';
import { seatName, seatArgs } from '../words.js';
import { catalog } from '../i18n.js';
import { pick } from './common.js';

const L = (key, args) => catalog('goofspiel').t(key, args);
const won = (ctx, winner) => (winner === null || winner === undefined ? L('label.nobody_tie') : seatName(ctx, winner));

function render(ctx) {
  const v = ctx.view;
  const n = (v.points || []).length;
  const seats = Array.from({ length: n }, (_, s) => s);
  const mine = Array.isArray(v.hand);
  const bid = v.my_bid;
  const head = (s) => h('th', { scope: 'col', class: s === ctx.seat ? 'me' : '' }, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)}`);
  return h('div', { class: 'board-game gs' },
    h('div', { class: 'box' }, v.prize !== null && v.prize !== undefined
      ? [h('strong', {}, L('label.prize_up', { prize: v.prize })), ' · ', L('label.prizes_left', { n: v.prizes_left })]
      : h('strong', {}, L('label.all_taken'))),
    mine ? h('div', { class: 'box gs-hand' },
      h('div', { class: 'hand' }, h('span', {}, L('label.your_hand'), ' '), v.hand.length ? v.hand.map((c) => (c === bid
        ? h('span', { class: 'card value bid', title: L('label.bid_title') }, String(c), h('small', {}, L('label.bid_mark')))
        : pick(h('span', { class: 'card value' }, String(c)), 'card', c, L('action.bid', { card: c })))) : L('label.no_cards')),
      h('div', { class: 'gs-my-bid' }, L('label.your_bid'), ' ', bid !== null && bid !== undefined ? L('label.bid_secret', { bid }) : L('label.not_yet'))) : null,
    h('div', { class: 'scroll' }, h('table', { class: 'grid players' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), seats.map(head))),
      h('tbody', {},
        h('tr', {}, h('th', { scope: 'row' }, L('label.prize_points')), seats.map((s) => h('td', {}, String(v.points[s])))),
        h('tr', {}, h('th', { scope: 'row' }, L('label.cards_in_hand')), seats.map((s) => h('td', {}, String((v.hand_sizes || [])[s] ?? '')))),
        v.prize !== null && v.prize !== undefined ? h('tr', {}, h('th', { scope: 'row' }, L('label.this_prize')), seats.map((s) => h('td', {}, (v.has_bid || [])[s] ? L('label.has_bid') : L('label.to_bid')))) : null))),
    (v.history || []).length ? h('section', { class: 'part' }, h('h3', {}, L('label.prizes_so_far')), h('div', { class: 'scroll' }, h('table', { class: 'grid gs-history' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, L('label.prize')), seats.map((s) => h('th', { scope: 'col' }, h('span', { class: `dot c${s}` }), ' ', L('label.bid_of', seatArgs(ctx, s)))), h('th', { scope: 'col' }, L('label.won_by')))),
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

// The lobby's option texts: catalog keys by option (schema-form.js).
export const OPTION_TEXTS = {
  cards: { label: 'label.option.cards' },
};

export default { render, optionTexts: OPTION_TEXTS };
