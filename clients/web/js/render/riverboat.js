// Riverboat: the central board (phase tiles, round track, crop tiles, riverboats,
// opportunity spaces, harbor track) and each player's hex mat of fields.
import { h } from '../dom.js';
import { seatName, seatArgs } from '../words.js';
import { catalog, value as named, amounts } from '../i18n.js';
import { pick, pickAlso, res } from './common.js';

const CROP = { beet: ['B', '#9c2a4a'], wheat: ['W', '#d9a520'], corn: ['C', '#e6c619'], potato: ['P', '#8a6a3b'], pumpkin: ['K', '#e0761c'] };
const FIELD = { yellow: '#f3e08a', orange: '#f4b77a', green: '#a9d89a', blue: '#a8c9ec', purple: '#cdb0e4' };

const L = (key, args) => catalog('riverboat').t(key, args);
const word = (x) => named(catalog('riverboat'), x);

function crop(name) {
  const [letter, colour] = CROP[name] || ['?', '#777'];
  return h('span', { class: 'crop', style: { background: colour }, title: word(name) }, L('label.crop_letter', { crop: name }));
}

function cropTile(kind) {
  if (!kind) return h('span', { class: 'muted' }, '—');
  const crops = String(kind).split('-').slice(1);
  return h('span', { class: 'croptile', title: word(kind) }, crops.map(crop));
}

// The phase tiles in the order the phases resolve each round, as the rulebook numbers them
// (1 Cultivation, 2 Planting, 3 Harvest & Shipping, 4 Opportunity, 5 Scoring), whatever order the
// view's object arrives in.
const PHASE_ORDER = ['cultivation', 'planting', 'harvest', 'opportunity', 'scoring'];
const inPhaseOrder = (tiles) => Object.entries(tiles || {}).sort(([a], [b]) => PHASE_ORDER.indexOf(a) - PHASE_ORDER.indexOf(b));

// The view reaches the page through a protobuf Struct, whose keys come in no set order: the
// riverboats are shown by type as the rulebook lists them (1, 2a, 2b, 3a, 3b, 4 … 7), the
// harvested crops in the crops' order.
const boatsInOrder = (boats) => Object.entries(boats || {}).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
const inCropOrder = (counts) => Object.fromEntries(Object.keys(CROP).filter((k) => k in (counts || {})).map((k) => [k, counts[k]])
  .concat(Object.entries(counts || {}).filter(([k]) => !(k in CROP))));

// The decision a seat owes, in words: "send up to 2 agents to New Orleans", "choose a tile from
// the size-2 pile", "estate feature (barn / well / surveyor)".
function pendingWords(p) {
  const options = (p.options || []).map(word);
  return L('label.pending_kind', { kind: p.kind, name: word(p.kind), max: p.max ?? 0, size: p.size ?? '', options: options.join(' / '), has_options: String(options.length > 0) });
}

// An opportunity card by its printed-style name (label.card_name: "Harbor Master", not the id's
// generic word "harbor"); null for anything else (a crop card's colour is a `card` too).
function cardName(id) {
  if (typeof id !== 'string') return null;
  const said = L('label.card_name', { card: id.replace(/-/g, '_'), text: '\u0000' });
  return said === '\u0000' ? null : said;
}

// `1 coin`, `2 coins`: the engine's keys are plurals (coins, agents).
function benefit(b) {
  const cat = catalog('riverboat');
  return Object.entries(b || {}).map(([k, v]) => (k === 'feature' ? word(v) : cat.has(`amount.${k}`) ? L(`amount.${k}`, { n: v }) : `${v} ${word(k)}`)).join(' + ');
}

// Mat cells as people see them: numbered from 1 (the view's and the actions' index + 1), as on
// the mat and in the terminal client. The wire values stay 0-based.
const cellNo = (c) => (Number.isInteger(c) ? String(c + 1) : String(c ?? '?'));

// A crop tile kind in words: "2-beet-corn" -> "beet and corn".
function tileWords(kind) {
  return word(String(kind ?? ''));
}

// The searched pile's tiles, counted by kind: [["2-beet-corn", 3], ...] (the view's list is sorted).
function pileCounts(contents) {
  const m = new Map();
  for (const k of contents || []) m.set(k, (m.get(k) || 0) + 1);
  return [...m];
}


// What the searcher sees of the pile (view.search.contents: the searcher's view only); others
// see who searches which pile, never its tiles.
function searchBox(ctx, v) {
  const sr = v.search;
  if (!sr) return null;
  const who = seatName(ctx, sr.seat);
  const pile = L('label.pile_name', { pile: sr.pile === 'opportunity deck' ? 'deck' : 'pile', size: String(sr.pile || '').replace(/\D/g, '') });
  if (!Array.isArray(sr.contents)) return h('div', { class: 'box rb-search' }, L('label.searches', { who, pile }));
  const what = pileCounts(sr.contents).map(([k, n]) => `${n} × ${cardName(k) ?? word(k)}`);
  return h('div', { class: 'box rb-search', 'aria-label': L('label.searched_pile') },
    h('strong', {}, L('label.you_search', { pile, n: sr.contents.length }), ' '),
    h('ul', {}, what.map((x) => h('li', {}, x))));
}

function pileCount(v, kind) {
  const c = v && v.search && Array.isArray(v.search.contents) ? v.search.contents.filter((k) => k === kind).length : 0;
  return c ? ` ${L('label.in_the_pile', { n: c })}` : '';
}

function mat(ctx, p, s) {
  const v = ctx.view;
  const grid = v.mat_grid || { rows: 5, cols: 7, odd_rows_shifted_right: true };
  const mine = s === ctx.seat;
  const rows = [];
  for (let r = 0; r < grid.rows; r++) {
    const cells = [];
    for (let c = 0; c < grid.cols; c++) {
      const i = r * grid.cols + c;
      const colour = (p.field_colours || [])[i];
      const cr = (p.crop || [])[i];
      const feat = (p.feature || [])[i];
      const el = h('div', {
        class: `hex${(p.worker || [])[i] ? ' has-worker' : ''}${(p.scored || [])[i] ? ' scored' : ''}`,
        style: { background: FIELD[colour] || '#eee' }, title: L('label.cell', { n: i + 1, colour: word(colour || ''), colour_id: colour || '', crop: cr ? word(cr) : '', has_crop: String(!!cr), feature: feat ? word(feat) : '', has_feature: String(!!feat) }),
      }, h('small', { class: 'cellno', 'aria-hidden': 'true', style: { fontSize: '0.6em', marginRight: '1px', color: '#000', background: 'rgba(255,255,255,.8)', borderRadius: '2px', padding: '0 1px' } }, String(i + 1)),
      cr ? crop(cr) : null, (p.worker || [])[i] ? h('span', { class: `worker c${s}` }) : null, feat ? h('small', { class: 'feat' }, word(feat)) : null);
      cells.push(mine ? pickAlso(pick(el, 'cell', i, L('label.cell_pick', { n: i + 1, colour: word(colour || ''), colour_id: colour || '', crop: cr ? word(cr) : '', has_crop: String(!!cr) })), 'cells', [i]) : el);
    }
    rows.push(h('div', { class: `hexrow${r % 2 === 1 && grid.odd_rows_shifted_right ? ' shifted' : ''}` }, cells));
  }
  return h('div', { class: 'mat' }, rows);
}

function render(ctx) {
  const v = ctx.view;
  const phases = inPhaseOrder(v.phase_tiles);
  const supply = Object.entries(v.crop_supply || {});
  const harbor = v.harbor_track || { last_space: 18, slot_spaces: [] };
  const spaces = Array.from({ length: (harbor.last_space || 18) + 1 }, (_, i) => i);
  return h('div', { class: 'board-game rb' },
    h('div', { class: 'box' }, h('strong', {}, L('label.round', { round: v.round })), ' · ', L('label.phase', { phase: word(v.phase || '') }),
      v.pending && v.pending.kind ? ` · ${seatName(ctx, v.pending.seat)}: ${pendingWords(v.pending)}` : '',
      v.crop_card ? [' · ', L('label.crop_card', { card: word(v.crop_card) })] : ''),
    searchBox(ctx, v),
    h('section', { class: 'box rb-board', 'aria-label': L('label.central_board') },
      h('h3', {}, L('label.phase_tiles')),
      h('div', { class: 'tiles' }, phases.map(([ph, holder]) => pick(h('div', { class: `tile phase c${holder}` }, h('h4', {}, word(ph)), holder === null || holder === undefined ? h('small', {}, L('label.not_taken')) : [h('span', { class: `dot c${holder}` }), ` ${seatName(ctx, holder)}`]), 'phase', ph, L('label.phase_pick', { phase: word(ph) })))),
      h('h3', {}, L('label.crop_tiles')),
      h('div', { class: 'rb-supply' }, supply.map(([size, slots]) => h('div', { class: 'row' }, h('strong', {}, L('label.hex_size', { size }), ' '),
        slots.map((k, i) => pick(h('div', { class: 'tile slot' }, h('small', {}, L('label.tile_n', { n: i + 1 }), ' '), cropTile(k)), 'slot', i, L('label.tile_pick', { n: i + 1, kind: k ? word(k) : L('label.empty') }))),
        // the tiles left in that size's pile ("montón 35" read as a pile's number)
        Number.isInteger((v.pile_sizes || {})[size]) ? h('small', {}, ' ', L('label.pile_size', { n: v.pile_sizes[size] })) : null))),
      h('h3', {}, L('label.riverboats')),
      h('div', { class: 'tiles' }, boatsInOrder(v.riverboats).filter(([, b]) => b.on_board).map(([id, b]) =>
        pick(h('div', { class: 'tile boat' }, h('h4', {}, '⛴ ', L('label.boat', { id, capacity: b.capacity })), h('div', {}, benefit(b.benefit)), h('small', {}, L('label.left', { n: b.pile }))), 'boat', id, L('label.boat_pick', { id })))),
      h('h3', {}, L('label.opportunity_spaces')),
      h('div', { class: 'tiles' }, (v.opportunity_spaces || []).map((o, i) => pick(h('div', { class: 'tile opp' },
        h('h4', {}, L('label.space_n', { n: i + 1 })), h('div', {}, o.card ? `${cardName(o.card) ?? word(o.card)}: ${catalog('riverboat').has(`effect.${o.card}`) ? L(`effect.${o.card}`) : o.text || ''}` : L('label.empty')), h('small', {}, L('label.bonus', { bonus: benefit(o.bonus) }))), 'space', i, L('label.opportunity_pick', { n: i + 1 })))),
      h('h3', {}, L('label.harbor_track')),
      h('div', { class: 'track' }, spaces.map((i) => h('div', { class: `sp${(harbor.slot_spaces || []).includes(i) ? ' slot' : ''}` }, String(i),
        h('div', {}, (v.players || []).map((p, s) => (p.harbor === i ? h('span', { class: `dot c${s}`, title: seatName(ctx, s) }) : null)))))),
      h('div', { class: 'small-print' }, L('label.supply', { supply: amounts(catalog('riverboat'), v.supply || {}), crops: v.crop_deck_size, opportunities: v.opportunity_deck_size }))),
    h('div', { class: 'players-row' }, (v.players || []).map((p, s) => h('section', { class: `box player c${s}${s === ctx.seat ? ' me' : ''}`, 'aria-label': L('label.mat_of', seatArgs(ctx, s)) },
      h('h3', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)} `, h('small', {}, L('label.mat', { mat: p.mat, passed: String(!!p.passed) }))),
      h('div', {}, res('★', p.vp, L('label.res', { res: 'vp' })), res('¢', p.coins, L('label.res', { res: 'coins' })), res('⚑', p.surveyors, L('label.res', { res: 'surveyors' })), res('☺', p.workers, L('label.res', { res: 'workers' })), res('⚓', p.harbor, L('label.res', { res: 'harbor' })), res('♜', p.agents, L('label.res', { res: 'agents' }))),
      mat(ctx, p, s),
      h('div', { class: 'small-print' }, L('label.player_line', { boats: (p.boats || []).join(', ') || L('value.none'), harvested: amounts(catalog('riverboat'), inCropOrder(p.harvested)), opportunities: catalog('riverboat').list((p.opps || []).map((o) => cardName(o.id) ?? word(o.id))) || L('value.none_f') }))))));
}

// A value of an action's field in words, for the step-by-step move builder: cells numbered from
// 1 as on the mat ("cell 15"; a list item by item), a supply tile from 1 ("tile #1"), a searched pile's tile by its crops and how
// many the pile holds ("beet and corn (2 in the pile)"), not its id.
function valueName(path, value, ctx) {
  const v = (ctx && ctx.view) || {};
  switch (path.split('.').pop()) {
    case 'cell': return Number.isInteger(value) ? L('label.cell_n', { n: cellNo(value) }) : null;
    case 'slot': return Number.isInteger(value) ? L('label.tile_n', { n: value + 1 }) : null; // as the supply numbers them
    case 'cells': return Number.isInteger(value) ? cellNo(value) : null;
    case 'space': return Number.isInteger(value) ? L('label.space_n', { n: value + 1 }) : null; // as the board numbers them
    case 'card': return cardName(value);
    case 'kind': return typeof value === 'string' && /^\d-/.test(value) ? `${tileWords(value)}${pileCount(v, value)}` : null;
    default: return null;
  }
}

// Cells, tiles and card spaces of an event or action as the board numbers them: from 1; an
// opportunity card by its name.
function fieldValue(key, value) {
  if ((key === 'cell' || key === 'slot' || key === 'space') && Number.isInteger(value)) return String(cellNo(value));
  if (/(^|_)card$/.test(key) && cardName(value)) return cardName(value);
  if (/(^|_)cards$/.test(key) && Array.isArray(value) && value.length && value.every(cardName)) return catalog('riverboat').list(value.map(cardName));
  if (key === 'cells' && Array.isArray(value)) return value.map(cellNo).join(', ');
  return null;
}

// What an action takes, beside its words: the crops of the face-up tile a `plant` lays (three
// 2-hex tiles may fit the same cells) or of the tile drawn blind; the card and the bonus of the
// opportunity space a `take_opportunity` takes ("Space 1 — Corn crops (bonus: surveyor)").
function actionEffect(a, ctx) {
  const v = (ctx && ctx.view) || {};
  if (a.type === 'plant') {
    const kind = ((v.crop_supply || {})[String(a.size)] || [])[a.slot];
    return kind ? tileWords(kind) : null;
  }
  if (a.type === 'plant_drawn') return v.held_tile && v.held_tile.kind ? tileWords(v.held_tile.kind) : null;
  if (a.type === 'take_opportunity') {
    const o = (v.opportunity_spaces || [])[a.space];
    if (!o || !o.card) return null;
    return L('label.card_on_space', { card: cardName(o.card) ?? word(o.card), bonus: benefit(o.bonus) });
  }
  return null;
}

// The lobby's option texts: catalog keys by option (schema-form.js).
export const OPTION_TEXTS = {
  coin_draws: { label: 'label.option.coin_draws', values: { choose: 'label.option.coin_draws.choose', blind: 'label.option.coin_draws.blind' } },
};

export default { render, valueName, fieldValue, actionEffect, optionTexts: OPTION_TEXTS };
