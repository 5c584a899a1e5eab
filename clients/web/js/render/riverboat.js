// Riverboat: the central board (phase tiles, round track, crop tiles, riverboats,
// opportunity spaces, harbor track) and each player's hex mat of fields.
import { h, humanize, fmt } from '../dom.js';
import { seatName } from '../words.js';
import { pick, pickAlso, res } from './common.js';

const CROP = { beet: ['B', '#9c2a4a'], wheat: ['W', '#d9a520'], corn: ['C', '#e6c619'], potato: ['P', '#8a6a3b'], pumpkin: ['K', '#e0761c'] };
const FIELD = { yellow: '#f3e08a', orange: '#f4b77a', green: '#a9d89a', blue: '#a8c9ec', purple: '#cdb0e4' };

function crop(name) {
  const [letter, colour] = CROP[name] || ['?', '#777'];
  return h('span', { class: 'crop', style: { background: colour }, title: name }, letter);
}

function cropTile(kind) {
  if (!kind) return h('span', { class: 'muted' }, '—');
  const crops = String(kind).split('-').slice(1);
  return h('span', { class: 'croptile', title: kind }, crops.map(crop));
}

// `1 coin`, `2 coins`: the engine's keys are plurals (coins, agents).
function benefit(b) {
  return Object.entries(b || {}).map(([k, v]) => (k === 'feature' ? `${v} ` : `${v} ${v === 1 && k.endsWith('s') ? k.slice(0, -1) : k}`)).join(' + ');
}

// Mat cells as people see them: numbered from 1 (the view's and the actions' index + 1), as on
// the mat and in the terminal client. The wire values stay 0-based.
const cellNo = (c) => (Number.isInteger(c) ? String(c + 1) : String(c ?? '?'));
const cellList = (cells) => `cell${(cells || []).length === 1 ? '' : 's'} ${(cells || []).map(cellNo).join(', ')}`;

// A crop tile kind in words: "2-beet-corn" -> "beet and corn".
function tileWords(kind) {
  const crops = String(kind ?? '').split('-').slice(1);
  return crops.length ? crops.join(' and ') : String(kind ?? '');
}

// The searched pile's tiles, counted by kind: [["2-beet-corn", 3], ...] (the view's list is sorted).
function pileCounts(contents) {
  const m = new Map();
  for (const k of contents || []) m.set(k, (m.get(k) || 0) + 1);
  return [...m];
}

const tilesOf = (n) => `${n} tile${n === 1 ? '' : 's'}`;

// What the searcher sees of the pile (view.search.contents: the searcher's view only); others
// see who searches which pile, never its tiles.
function searchBox(ctx, v) {
  const sr = v.search;
  if (!sr) return null;
  const who = seatName(ctx, sr.seat);
  if (!Array.isArray(sr.contents)) return h('div', { class: 'box rb-search' }, `${who} searches the ${sr.pile || 'pile'}.`);
  const what = sr.pile === 'opportunity deck'
    ? pileCounts(sr.contents).map(([k, n]) => `${n} × ${humanize(k)}`)
    : pileCounts(sr.contents).map(([k, n]) => `${n} × ${tileWords(k)}`);
  return h('div', { class: 'box rb-search', 'aria-label': 'The pile you searched' },
    h('strong', {}, `You search the ${sr.pile || 'pile'} (${tilesOf(sr.contents.length)}): `),
    h('ul', {}, what.map((x) => h('li', {}, x))));
}

function pileCount(v, kind) {
  const c = v && v.search && Array.isArray(v.search.contents) ? v.search.contents.filter((k) => k === kind).length : 0;
  return c ? ` (${c} in the pile)` : '';
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
        style: { background: FIELD[colour] || '#eee' }, title: `cell ${i + 1}: ${colour} field${cr ? `, ${cr}` : ''}${feat ? `, ${feat}` : ''}`,
      }, h('small', { class: 'cellno', 'aria-hidden': 'true', style: { fontSize: '0.6em', marginRight: '1px', color: '#000', background: 'rgba(255,255,255,.8)', borderRadius: '2px', padding: '0 1px' } }, String(i + 1)),
      cr ? crop(cr) : null, (p.worker || [])[i] ? h('span', { class: `worker c${s}` }) : null, feat ? h('small', { class: 'feat' }, feat) : null);
      cells.push(mine ? pickAlso(pick(el, 'cell', i, `Cell ${i + 1}, ${colour} field${cr ? `, ${cr}` : ''}`), 'cells', [i]) : el);
    }
    rows.push(h('div', { class: `hexrow${r % 2 === 1 && grid.odd_rows_shifted_right ? ' shifted' : ''}` }, cells));
  }
  return h('div', { class: 'mat' }, rows);
}

function render(ctx) {
  const v = ctx.view;
  const phases = Object.entries(v.phase_tiles || {});
  const supply = Object.entries(v.crop_supply || {});
  const harbor = v.harbor_track || { last_space: 18, slot_spaces: [] };
  const spaces = Array.from({ length: (harbor.last_space || 18) + 1 }, (_, i) => i);
  return h('div', { class: 'board-game rb' },
    h('div', { class: 'box' }, h('strong', {}, `Round ${v.round}`), ` · phase: ${humanize(v.phase || '')}`,
      v.pending && v.pending.kind ? ` · ${seatName(ctx, v.pending.seat)}: ${humanize(v.pending.kind).toLowerCase()}` : '',
      v.crop_card ? ` · crop card: ${fmt(v.crop_card)}` : ''),
    searchBox(ctx, v),
    h('section', { class: 'box rb-board', 'aria-label': 'Central board' },
      h('h3', {}, 'Phase tiles'),
      h('div', { class: 'tiles' }, phases.map(([ph, holder]) => pick(h('div', { class: `tile phase c${holder}` }, h('h4', {}, humanize(ph)), holder === null || holder === undefined ? h('small', {}, 'not taken') : [h('span', { class: `dot c${holder}` }), ` ${seatName(ctx, holder)}`]), 'phase', ph, `Phase ${ph}`))),
      h('h3', {}, 'Crop tiles'),
      h('div', { class: 'rb-supply' }, supply.map(([size, slots]) => h('div', { class: 'row' }, h('strong', {}, `${size}-hex `),
        slots.map((k, i) => pick(h('div', { class: 'tile slot' }, h('small', {}, `tile #${i + 1} `), cropTile(k)), 'slot', i, `Tile #${i + 1}: ${k || 'empty'}`)),
        h('small', {}, ` pile ${(v.pile_sizes || {})[size] ?? '?'}`)))),
      h('h3', {}, 'Riverboats'),
      h('div', { class: 'tiles' }, Object.entries(v.riverboats || {}).filter(([, b]) => b.on_board).map(([id, b]) =>
        pick(h('div', { class: 'tile boat' }, h('h4', {}, `⛴ ${id} · holds ${b.capacity}`), h('div', {}, benefit(b.benefit)), h('small', {}, `${b.pile} left`)), 'boat', id, `Riverboat ${id}`))),
      h('h3', {}, 'Opportunity spaces'),
      h('div', { class: 'tiles' }, (v.opportunity_spaces || []).map((o, i) => pick(h('div', { class: 'tile opp' },
        h('h4', {}, `Space ${i + 1}`), h('div', {}, o.card ? `${humanize(o.card)}: ${o.text || ''}` : 'empty'), h('small', {}, `bonus ${benefit(o.bonus)}`)), 'space', i, `Opportunity space ${i + 1}`))),
      h('h3', {}, 'Harbor track'),
      h('div', { class: 'track' }, spaces.map((i) => h('div', { class: `sp${(harbor.slot_spaces || []).includes(i) ? ' slot' : ''}` }, String(i),
        h('div', {}, (v.players || []).map((p, s) => (p.harbor === i ? h('span', { class: `dot c${s}`, title: seatName(ctx, s) }) : null)))))),
      h('div', { class: 'small-print' }, `Supply: ${fmt(v.supply)} · crop deck ${v.crop_deck_size} · opportunity deck ${v.opportunity_deck_size}`)),
    h('div', { class: 'players-row' }, (v.players || []).map((p, s) => h('section', { class: `box player c${s}${s === ctx.seat ? ' me' : ''}`, 'aria-label': `${seatName(ctx, s)}'s mat` },
      h('h3', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)} `, h('small', {}, `mat ${p.mat}${p.passed ? ' · passed' : ''}`)),
      h('div', {}, res('★', p.vp, 'victory points'), res('¢', p.coins, 'coins'), res('⚑', p.surveyors, 'surveyors'), res('☺', p.workers, 'workers'), res('⚓', p.harbor, 'harbor'), res('♜', p.agents, 'agents in New Orleans')),
      mat(ctx, p, s),
      h('div', { class: 'small-print' }, `Boats: ${(p.boats || []).join(', ') || 'none'} · harvested: ${fmt(p.harvested)} · opportunities: ${(p.opps || []).map((o) => humanize(o.id)).join(', ') || 'none'}`)))));
}

// A value of an action's field in words, for the step-by-step move builder: cells numbered from
// 1 as on the mat ("cell 15"; a list item by item), a supply tile from 1 ("tile #1"), a searched pile's tile by its crops and how
// many the pile holds ("beet and corn (2 in the pile)"), not its id.
function valueName(path, value, ctx) {
  const v = (ctx && ctx.view) || {};
  switch (path.split('.').pop()) {
    case 'cell': return Number.isInteger(value) ? `cell ${cellNo(value)}` : null;
    case 'slot': return Number.isInteger(value) ? `tile #${value + 1}` : null; // as the supply numbers them
    case 'cells': return Number.isInteger(value) ? cellNo(value) : null;
    case 'kind': return typeof value === 'string' && /^\d-/.test(value) ? `${tileWords(value)}${pileCount(v, value)}` : null;
    default: return null;
  }
}

// Cells and tiles of an event or action as the board numbers them: from 1.
function fieldValue(key, value) {
  if ((key === 'cell' || key === 'slot') && Number.isInteger(value)) return String(cellNo(value));
  if (key === 'cells' && Array.isArray(value)) return value.map(cellNo).join(', ');
  return null;
}

// The lobby's option texts: catalog keys by option (schema-form.js).
export const OPTION_TEXTS = {
  coin_draws: { label: 'label.option.coin_draws', values: { choose: 'label.option.coin_draws.choose', blind: 'label.option.coin_draws.blind' } },
};

export default { render, valueName, fieldValue, optionTexts: OPTION_TEXTS };
