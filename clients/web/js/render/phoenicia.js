// Phoenicia: the development-card display and auction, the VP and production tracks,
// and each player's tableaux (Hunting, Farming, Mining...) with workers and tools.
// Hands: values only for the viewer's own seat; everyone else's cards face down.
import { h } from '../dom.js';
import { seatName, seatArgs, seatsArgs } from '../words.js';
import { catalog, value as named } from '../i18n.js';
import { pick, res } from './common.js';

const L = (key, args) => catalog('phoenicia').t(key, args);
const word = (x) => named(catalog('phoenicia'), x);
const list = (xs) => catalog('phoenicia').list(xs);

function devCard(c, ctx) {
  const el = h('div', { class: 'tile dev' },
    h('h4', {}, word(c.card), h('small', {}, ' · ', L('label.set', { set: `${c.set}${c.ab ? c.ab : ''}` }))),
    h('div', {}, L('label.min_bid', { n: c.min_bid }), c.your_discount ? h('strong', {}, ' ', L('label.your_discount', { n: c.your_discount })) : null),
    h('small', {}, [c.vp ? L('label.card_vp', { n: c.vp }) : null, c.production ? L('label.card_production', { n: c.production }) : null, c.storehouses ? L('label.card_storehouses', { n: c.storehouses }) : null,
      c.untrained ? L('label.card_workers', { n: c.untrained }) : null, c.trained ? L('label.card_trained', { n: c.trained }) : null, c.tile ? L('label.card_tile', { tile: word(c.tile) }) : null,
      c.treasury ? L('label.card_treasury', { n: c.treasury }) : null, (c.improves || []).length ? L('label.card_improves', { what: list(c.improves.map(word)) }) : null].filter(Boolean).join(' · ')));
  return pick(el, 'card', c.card, L('label.auction_pick', { card: word(c.card) }));
}

// A tableau by its kind and level (the view's title is English: "Improved Hunting").
const tableauName = (t) => L('label.tableau_level', { kind: word(t.kind), level: (/^(improved|advanced) /i.exec(t.title || '') || ['', 'basic'])[1].toLowerCase() });

function tableau(t, s, mine) {
  const el = h('div', { class: 'tile tableau' },
    h('h4', {}, tableauName(t)),
    h('div', { class: 'slots' }, (t.slots || []).map((x, i) => h('span', { class: `slot-box ${x === 'w' ? 'w' : x === 't' ? 't' : ''}`, title: L('label.slot', { slot: x === 'w' || x === 't' ? x : 'free' }) },
      x === 'w' ? h('span', { class: `worker c${s}` }) : x === 't' ? h('span', { class: `worker c${s}` }, '') : '', h('small', {}, `+${(t.production || [])[i] ?? ''}`)))),
    h('small', {}, [t.tool_cost !== undefined && t.tool_cost !== null ? L('label.tool_cost', { n: t.tool_cost }) : null, t.vp_per_worker !== undefined && t.vp_per_worker !== null ? L('label.vp_per_worker', { n: t.vp_per_worker }) : null].filter(Boolean).join(' · ')));
  return mine ? pick(el, 'tableau', t.kind, tableauName(t)) : el;
}

function render(ctx) {
  const v = ctx.view;
  const a = v.auction;
  const aw = v.awaiting || {};
  const players = v.players || [];
  const maxTrack = Math.max(30, ...players.map((p) => p.vp || 0), ...players.map((p) => p.production || 0));
  const trackOf = (key, label) => h('div', { class: 'ph-track', 'aria-label': label },
    h('strong', {}, label), h('div', { class: 'track' }, Array.from({ length: maxTrack + 1 }, (_, i) => {
      const here = players.filter((p) => (p[key] || 0) === i);
      return here.length || i % 5 === 0 ? h('div', { class: 'sp' }, String(i), h('div', {}, here.map((p) => h('span', { class: `dot c${p.seat}`, title: seatName(ctx, p.seat) })))) : null;
    })));
  return h('div', { class: 'board-game ph' },
    h('div', { class: 'box' }, h('strong', {}, L('label.round', { round: v.round })), ' · ', L('label.phase', { phase: word(v.phase || ''), has_step: String(!!v.step), step: v.step ? word(v.step) : '' }),
      // whose turn, unless the waiting line names that seat alone: "your turn · your turn to play" said it twice
      ' · ', L('label.overlord_is', { who: seatName(ctx, v.overlord) }), v.active !== null && v.active !== undefined
        && !(aw.decision && (aw.seats || []).length === 1 && aw.seats[0] === v.active) ? [' · ', L('label.turn_of', seatArgs(ctx, v.active))] : '',
      aw.decision ? [' · ', L('label.waiting_for', { ...seatsArgs(ctx, aw.seats || []), decision: aw.decision })] : ''),
    h('section', { class: 'box ph-market', 'aria-label': L('label.development_cards') },
      h('h3', {}, L('label.for_sale')),
      h('div', { class: 'tiles' }, (v.display || []).map((c) => devCard(c, ctx))),
      a ? h('div', { class: 'auction' }, h('strong', {}, L('label.auction', { card: word(a.card) })), ' — ', L('label.auction_state', { bid: a.bid, ...seatArgs(ctx, a.leader), bidders: list((a.bidders || []).map((s) => seatName(ctx, s))) })) : null,
      h('div', { class: 'small-print' }, L('label.decks', { deck: v.deck_size, production: v.production_deck_size, discarded: (v.discard_pile || []).length }))),
    h('section', { class: 'box', 'aria-label': L('label.tracks') }, trackOf('vp', L('label.res', { res: 'vp' })), trackOf('production', L('label.res', { res: 'production' }))),
    h('div', { class: 'players-row' }, players.map((p) => {
      const s = p.seat;
      const own = Array.isArray(p.hand);
      return h('section', { class: `box player c${s}${s === ctx.seat ? ' me' : ''}`, 'aria-label': L('label.tableau_of', seatArgs(ctx, s)), 'data-seat': String(s) },
        h('h3', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)}`, s === v.overlord ? [' 👑 ', L('label.overlord')] : ''),
        h('div', {}, res('★', p.vp, L('label.res', { res: 'vp' })), res('⚙', p.production, L('label.res', { res: 'production' })), res('◉', p.disks, L('label.res', { res: 'disks' })), res('☺', p.untrained, L('label.res', { res: 'untrained' })), res('⚒', p.trained, L('label.res', { res: 'trained' }))),
        h('div', { class: 'hand', 'data-seat': String(s) }, h('span', {}, L('label.hand', { n: p.hand_size }), ' '),
          own ? p.hand.map((x) => h('span', { class: 'card value' }, String(x)))
            : Array.from({ length: p.hand_size || 0 }, () => h('span', { class: 'card back', role: 'img', 'aria-label': L('label.face_down') }))),
        h('div', { class: 'small-print' }, L('label.player_line', { treasury: p.treasury_spaces, storehouses: p.storehouses, training: p.training_cost })),
        h('div', { class: 'tiles' }, (p.tiles || []).map((t) => tableau(t, s, s === ctx.seat))),
        h('div', { class: 'small-print' }, L('label.cards', { cards: list((p.cards || []).map(word)) || L('value.none_f') })));
    })));
}

// What a priced move costs the viewer, from the view (the price the payment step that follows asks):
// the training cost, the tableau's tool cost (employing onto a tool disk is free), the City Center's
// VP price; null when the view does not tell.
const PRICED = new Set(['train', 'employ', 'buy_tool', 'buy_vp', 'move']);
function priceOf(a, ctx) {
  const v = (ctx && ctx.view) || {};
  const me = (v.players || []).find((p) => p && p.seat === (ctx || {}).seat);
  if (!me) return null;
  if (a.type === 'train') return me.training_cost ?? null;
  const tiles = me.tiles || [];
  if (a.type === 'buy_vp') return (tiles.find((t) => t.kind === 'city_center') || {}).vp_price ?? null;
  const kind = a.type === 'move' ? a.to : a.tableau;
  const mine = tiles.filter((t) => t.kind === kind);
  if (!mine.length) return null;
  if (a.type === 'employ' && mine.some((t) => (t.slots || []).includes('t'))) return 0;
  return mine[0].tool_cost ?? null;
}

// A move's source as the mover's village shows it: the tableau by name ("Improved Hunting"), its
// space counted from 1 (two workers of one tableau read alike without it).
function fieldValue(key, value, ctx) {
  if (!Number.isInteger(value)) return null;
  if (key === 'from_slot') return String(value + 1);
  if (key !== 'from_tile') return null;
  const v = (ctx && ctx.view) || {};
  const me = (v.players || []).find((p) => p && p.seat === (ctx || {}).seat);
  const t = me && (me.tiles || [])[value];
  return t ? tableauName(t) : null;
}

// What a priced move will cost (paid at the payment step that follows it), from the catalog.
function actionEffect(a, ctx) {
  const auction = ((ctx && ctx.view) || {}).auction;
  if ((a.type === 'bid' || a.type === 'drop_out') && auction && auction.card) { // which card (on a phone the board is below)
    return L('label.auction_for', { card: word(auction.card) });
  }
  if (a.type === 'pay') { // the change, given back in disks only (seed-P 1a)
    const due = (((ctx && ctx.view) || {}).payment || {}).price;
    const back = (a.cards || []).reduce((x, y) => x + y, 0) + (a.disks || 0) - due;
    return Number.isInteger(due) && back > 0 ? catalog('phoenicia').t('label.change', { n: back }) : null;
  }
  if (!PRICED.has(a.type) || 'cards' in a || 'disks' in a) return null;
  const cat = catalog('phoenicia');
  const price = priceOf(a, ctx);
  if (price === 0) return cat.t('label.free');
  return price !== null && price !== undefined ? cat.t('label.costs', { price }) : null;
}

// The lobby's option texts: catalog keys by option (schema-form.js).
export const OPTION_TEXTS = {
  preset_production: { label: 'label.option.preset_production', hint: 'label.option.preset_production_hint' },
};

export default { render, actionEffect, fieldValue, optionTexts: OPTION_TEXTS };
