// Phoenicia: the development-card display and auction, the VP and production tracks,
// and each player's tableaux (Hunting, Farming, Mining...) with workers and tools.
// Hands: values only for the viewer's own seat; everyone else's cards face down.
import { h, humanize } from '../dom.js';
import { seatName } from '../words.js';
import { catalog } from '../i18n.js';
import { pick, res } from './common.js';

function devCard(c, ctx) {
  const el = h('div', { class: 'tile dev' },
    h('h4', {}, c.card, h('small', {}, ` · set ${c.set}${c.ab ? c.ab : ''}`)),
    h('div', {}, `min bid ${c.min_bid}`, c.your_discount ? h('strong', {}, ` (you: −${c.your_discount})`) : null),
    h('small', {}, [c.vp ? `${c.vp} VP` : null, c.production ? `+${c.production} production` : null, c.storehouses ? `+${c.storehouses} storehouse` : null,
      c.untrained ? `+${c.untrained} worker${c.untrained > 1 ? 's' : ''}` : null, c.trained ? `+${c.trained} trained` : null, c.tile ? `tile: ${humanize(c.tile)}` : null,
      c.treasury ? `treasury ${c.treasury}` : null, (c.improves || []).length ? `improves ${c.improves.join(', ')}` : null].filter(Boolean).join(' · ')));
  return pick(el, 'card', c.card, `Auction ${c.card}`);
}

function tableau(t, s, mine) {
  const el = h('div', { class: 'tile tableau' },
    h('h4', {}, t.title),
    h('div', { class: 'slots' }, (t.slots || []).map((x, i) => h('span', { class: `slot-box ${x === 'w' ? 'w' : x === 't' ? 't' : ''}`, title: x === 'w' ? 'worker' : x === 't' ? 'worker with tool' : 'free' },
      x === 'w' ? h('span', { class: `worker c${s}` }) : x === 't' ? h('span', { class: `worker c${s}` }, '') : '', h('small', {}, `+${(t.production || [])[i] ?? ''}`)))),
    h('small', {}, [t.tool_cost !== undefined && t.tool_cost !== null ? `tool $${t.tool_cost}` : null, t.vp_per_worker !== undefined && t.vp_per_worker !== null ? `${t.vp_per_worker} VP per worker` : null].filter(Boolean).join(' · ')));
  return mine ? pick(el, 'tableau', t.kind, `${t.title}`) : el;
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
    h('div', { class: 'box' }, h('strong', {}, `Round ${v.round}`), ` · ${humanize(v.phase || '')}${v.step ? ` (${humanize(v.step).toLowerCase()})` : ''}`,
      ` · overlord ${seatName(ctx, v.overlord)}`, v.active !== null && v.active !== undefined ? ` · ${seatName(ctx, v.active)}'s turn` : '',
      aw.decision ? ` · waiting for ${(aw.seats || []).map((s) => seatName(ctx, s)).join(', ')} to ${aw.decision === 'turn' ? 'play' : humanize(aw.decision).toLowerCase()}` : ''),
    h('section', { class: 'box ph-market', 'aria-label': 'Development cards' },
      h('h3', {}, 'Development cards for sale'),
      h('div', { class: 'tiles' }, (v.display || []).map((c) => devCard(c, ctx))),
      a ? h('div', { class: 'auction' }, h('strong', {}, `Auction: ${a.card}`), ` — bid ${a.bid} by ${seatName(ctx, a.leader)}; still bidding: ${(a.bidders || []).map((s) => seatName(ctx, s)).join(', ')}`) : null,
      h('div', { class: 'small-print' }, `Deck: ${v.deck_size} cards · production deck ${v.production_deck_size} · discarded production cards: ${(v.discard_pile || []).length}`)),
    h('section', { class: 'box', 'aria-label': 'Tracks' }, trackOf('vp', 'Victory points'), trackOf('production', 'Production')),
    h('div', { class: 'players-row' }, players.map((p) => {
      const s = p.seat;
      const own = Array.isArray(p.hand);
      return h('section', { class: `box player c${s}${s === ctx.seat ? ' me' : ''}`, 'aria-label': `${seatName(ctx, s)}'s tableau`, 'data-seat': String(s) },
        h('h3', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)}`, s === v.overlord ? ' 👑 overlord' : ''),
        h('div', {}, res('★', p.vp, 'victory points'), res('⚙', p.production, 'production'), res('◉', p.disks, 'money disks'), res('☺', p.untrained, 'untrained workers'), res('⚒', p.trained, 'trained workers')),
        h('div', { class: 'hand', 'data-seat': String(s) }, h('span', {}, `Hand (${p.hand_size}): `),
          own ? p.hand.map((x) => h('span', { class: 'card value' }, String(x)))
            : Array.from({ length: p.hand_size || 0 }, () => h('span', { class: 'card back', role: 'img', 'aria-label': 'face-down card' }))),
        h('div', { class: 'small-print' }, `Treasury ${p.treasury_spaces} · storehouses ${p.storehouses} · training costs ${p.training_cost}`),
        h('div', { class: 'tiles' }, (p.tiles || []).map((t) => tableau(t, s, s === ctx.seat))),
        h('div', { class: 'small-print' }, `Cards: ${(p.cards || []).join(', ') || 'none'}`));
    })));
}

const pay = (a) => {
  const parts = [];
  if ((a.cards || []).length) parts.push(`cards ${a.cards.join(' + ')}`);
  if (a.disks) parts.push(`${a.disks} disk${a.disks > 1 ? 's' : ''}`);
  return parts.length ? `paying ${parts.join(' and ')}` : 'for free';
};

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

// How a move is paid: the cards and disks it hands over, or (a move chosen without them) its price,
// paid at the payment step that follows; "for free" only for what costs nothing.
function cost(a, ctx) {
  if ('cards' in a || 'disks' in a || !PRICED.has(a.type)) return pay(a);
  const price = priceOf(a, ctx);
  if (price === 0) return 'for free';
  return price !== null && price !== undefined ? `costs ${price}, paid at the next step` : 'paid at the next step';
}

// Change is given in disks: "cards 10 + 10 + 9 = 29, 2 back in disks".
const change = (e) => (e.change ? `; ${e.change} back in disk${e.change > 1 ? 's' : ''}` : '');

// What a payment is for: "buy a tool for Farming".
function purpose(a) {
  switch ((a || {}).type) {
    case 'train': return 'train a worker';
    case 'employ': return `employ a worker in ${humanize(a.tableau)}`;
    case 'buy_tool': return `buy a tool for ${humanize(a.tableau)}`;
    case 'buy_vp': return 'buy a victory point';
    case 'move': return `move a worker to ${humanize(a.to)}`;
    case 'open_auction': case 'bid': return `pay for ${a.card || 'the card'}`;
    default: return a && a.type ? humanize(a.type).toLowerCase() : 'pay';
  }
}

// What a priced move will cost (paid at the payment step that follows it), from the catalog.
function actionEffect(a, ctx) {
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

export default { render, actionEffect, optionTexts: OPTION_TEXTS };
