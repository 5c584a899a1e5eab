// Pieces the board-game renderers share.
import { h } from '../dom.js';
import { catalog } from '../i18n.js';

// Mark an element as a board target for the action composer: clicking it chooses
// `value` for the action field `field` (when that is legal now).
export function pick(el, field, value, label) {
  el.dataset.pickField = field;
  el.dataset.pickValue = JSON.stringify(value);
  // The label names the piece once it is a button (app.js arm()): a plain element may not carry one.
  if (label) el.dataset.pickLabel = label;
  return el;
}

// A second way the same element answers: e.g. a hex is `cell` 9 and also `cells` [9].
export function pickAlso(el, field, value) {
  el.dataset.pickAlso = `${field}=${JSON.stringify(value)}`;
  return el;
}

export function workers(seats) {
  return (seats || []).map((s) => h('span', { class: `worker c${s}`, title: catalog('tablero').t('web.worker_of', { who: catalog('tablero').t('seat.colour', { n: s }) }) }));
}

export function res(icon, n, label) {
  return h('span', { class: 'res', title: label }, h('span', { 'aria-hidden': 'true' }, icon), h('span', { class: 'visually-hidden' }, catalog('tablero').t('web.res_label', { label })), ' ', String(n));
}

export function deepEqual(a, b) {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
  return v;
}
