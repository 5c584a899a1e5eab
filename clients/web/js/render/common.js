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

// What a board piece shows, line by line ("cultivation", "not taken"), for its accessible name: its
// text at the boundaries of its block elements (h4, div, p...) apart. textContent ran them together
// ("cultivationnot taken"), and so does axe-core's visible text (its label-content-name-mismatch rule
// joins the text nodes with nothing between them): so a boundary with no white space around it gets
// a space in the page itself (invisible between blocks) and the visible text reads "cultivation not
// taken", which the name "cultivation, not taken — …" contains word for word.
const PHRASING = new Set(['A', 'ABBR', 'B', 'BDI', 'BDO', 'BR', 'BUTTON', 'CITE', 'CODE', 'DATA', 'DFN', 'EM', 'I', 'IMG', 'KBD',
  'LABEL', 'MARK', 'Q', 'S', 'SAMP', 'SMALL', 'SPAN', 'STRONG', 'SUB', 'SUP', 'TIME', 'U', 'VAR', 'WBR', 'svg']);
const spaceAt = (n, end) => !n || (n.nodeType === 3 && /\s/.test(end ? n.data.slice(-1) : n.data.charAt(0)));
export function shownLines(el) {
  const lines = [''];
  const walk = (node) => {
    for (const c of Array.from(node.childNodes)) {
      if (c.nodeType === 3) lines[lines.length - 1] += c.data;
      else if (c.nodeType === 1 && PHRASING.has(c.tagName)) walk(c);
      else if (c.nodeType === 1) {
        if (c.previousSibling && !spaceAt(c.previousSibling, true)) c.before(' ');
        if (c.nextSibling && !spaceAt(c.nextSibling, false)) c.after(' ');
        lines.push('');
        walk(c);
        lines.push('');
      }
    }
  };
  walk(el);
  return lines.map((x) => x.trim().replace(/\s+/g, ' ')).filter(Boolean);
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
