// Any engine's view as readable tables: its plain values, per-seat values side by side,
// and the rest as nested lists. Works for engines this page knows nothing about.
import { h, humanize, fmt } from '../dom.js';

const isScalar = (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

export function tree(v, depth = 0) {
  if (isScalar(v)) return h('span', {}, fmt(v));
  if (Array.isArray(v)) {
    if (v.every(isScalar)) return h('span', {}, v.length ? v.map(fmt).join(', ') : 'none');
    if (v.every((x) => x && typeof x === 'object' && !Array.isArray(x)) && depth < 3) return objTable(v, depth);
    return h('ol', { start: 0 }, v.map((x) => h('li', {}, tree(x, depth + 1))));
  }
  if (depth > 4) return h('span', {}, fmt(v));
  return h('dl', { class: 'kv' }, Object.entries(v).map(([k, x]) => [h('dt', {}, humanize(k)), h('dd', {}, tree(x, depth + 1))]));
}

function objTable(list, depth) {
  const cols = [];
  for (const o of list) for (const k of Object.keys(o)) if (!cols.includes(k)) cols.push(k);
  return h('div', { class: 'scroll' }, h('table', { class: 'grid' },
    h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, humanize(c))))),
    h('tbody', {}, list.map((o) => h('tr', {}, cols.map((c) => h('td', {}, tree(o[c], depth + 1))))))));
}

export function render(ctx) {
  const { view, game } = ctx;
  const n = game.players || 0;
  const scalars = [];
  const perSeat = [];
  const rest = [];
  for (const [k, v] of Object.entries(view || {})) {
    if (k === 'type') continue;
    if (isScalar(v)) scalars.push([k, v]);
    else if (Array.isArray(v) && v.length === n && n > 1 && v.every(isScalar)) perSeat.push([k, v]);
    else rest.push([k, v]);
  }
  const players = rest.find(([k, v]) => k === 'players' && Array.isArray(v) && v.length === n && v.every((x) => x && typeof x === 'object'));
  const seats = Array.from({ length: n }, (_, i) => i);
  const rowsFromPlayers = [];
  if (players) {
    for (const p of players[1]) for (const k of Object.keys(p)) if (!rowsFromPlayers.includes(k) && k !== 'seat') rowsFromPlayers.push(k);
  }
  return h('div', { class: 'generic' },
    scalars.length ? h('dl', { class: 'kv facts' }, scalars.map(([k, v]) => [h('dt', {}, humanize(k)), h('dd', {}, fmt(v))])) : null,
    perSeat.length || players ? h('div', { class: 'scroll' }, h('table', { class: 'grid players' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), seats.map((s) => h('th', { scope: 'col', class: s === ctx.seat ? 'me' : '' }, h('span', { class: `dot c${s}` }), ` ${ctx.name(s)}`)))),
      h('tbody', {},
        perSeat.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, humanize(k)), v.map((x) => h('td', {}, fmt(x))))),
        rowsFromPlayers.map((k) => h('tr', {}, h('th', { scope: 'row' }, humanize(k)), players[1].map((p) => h('td', {}, tree(p[k], 2)))))))) : null,
    rest.filter((r) => r !== players).map(([k, v]) => h('section', { class: 'part' }, h('h3', {}, humanize(k)), tree(v))));
}

export default { render };
