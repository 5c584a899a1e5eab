import { catalog } from './i18n.js';

const T = (key, args) => catalog('tablero').t(key, args);

// Tiny DOM helpers: h('div', {class: 'x', onclick: f}, 'text', child, [more]).
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  add(el, children);
  return el;
}

function add(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) add(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// "buy_whale" -> "Buy whale", "city_pier" -> "City pier"
export function humanize(s) {
  const t = String(s).replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

export function title(s) {
  return String(s).replace(/[_-]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

// A compact human rendering of any JSON value.
export function fmt(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? T('value.yes') : T('value.no');
  if (Array.isArray(v)) return v.length ? v.map(fmt).join(', ') : T('value.none');
  if (typeof v === 'object') {
    const parts = Object.entries(v).filter(([, x]) => x !== 0 && x !== null && x !== false && !(Array.isArray(x) && !x.length));
    return parts.length ? parts.map(([k, x]) => `${humanize(k).toLowerCase()} ${fmt(x)}`).join(', ') : T('value.nothing');
  }
  return String(v);
}

// Resources like {food: 2, lumber: 1} as "2 food, 1 lumber".
export function amounts(obj, icons = {}) {
  const parts = Object.entries(obj || {}).filter(([, n]) => n);
  if (!parts.length) return T('value.nothing');
  return parts.map(([k, n]) => (k === 'money' ? `$${n}` : `${n} ${icons[k] ? icons[k] + ' ' : ''}${humanize(k).toLowerCase()}`)).join(', ');
}
