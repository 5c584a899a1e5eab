// Legal actions as grouped buttons. Large choice sets are composed field by field: the
// user picks the action's kind, then one field's value at a time among the legal
// combinations that remain, until one action is left.
import { h, humanize, fmt } from './dom.js';

const LIST_AT_MOST = 12; // this many actions or fewer: show each as its own button

// Leaves of an action: [["type","place_worker"], ["sell.food", 2], ["cards", [4,4]]]
export function leaves(action, prefix = '') {
  const out = [];
  for (const [k, v] of Object.entries(action)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) out.push(...leaves(v, path));
    else out.push([path, v]);
  }
  return out;
}

export const keyOf = (v) => (v === undefined ? '∅' : JSON.stringify(v));

function leaf(action, path) {
  let v = action;
  for (const p of path.split('.')) {
    if (v === null || typeof v !== 'object' || !(p in v)) return undefined;
    v = v[p];
  }
  return v;
}

function fieldLabel(path) {
  return path.split('.').map((p) => humanize(p).toLowerCase()).join(' ');
}

function valueLabel(v) {
  if (v === undefined) return 'none';
  if (Array.isArray(v)) return v.length ? v.map(fmt).join(' + ') : 'none';
  return fmt(v);
}

export function describeGeneric(action) {
  const rest = leaves(action).filter(([p]) => p !== 'type');
  const body = rest.map(([p, v]) => `${fieldLabel(p)} ${valueLabel(v)}`).join(', ');
  return humanize(action.type) + (body ? ': ' + body : '');
}

export class Composer {
  // describe(action) -> string; submit(action) -> Promise; onChange() re-arms the board.
  constructor({ describe, submit, onChange }) {
    this.describe = describe || describeGeneric;
    this.submit = submit;
    this.onChange = onChange || (() => {});
    this.actions = [];
    this.chosen = []; // [[path, valueKey], ...]
    this.el = h('section', { class: 'composer', 'aria-label': 'Your move' });
  }

  setActions(actions) {
    const same = JSON.stringify(actions) === JSON.stringify(this.actions);
    this.actions = actions || [];
    if (!same) this.chosen = [];
    this.render();
  }

  candidates() {
    return this.actions.filter((a) => this.chosen.every(([p, k]) => keyOf(leaf(a, p)) === k));
  }

  // The field the user is asked about next, with its distinct values, or null.
  asking(cands = this.candidates()) {
    if (!cands.length) return null;
    const order = [];
    for (const a of cands) for (const [p] of leaves(a)) if (!order.includes(p)) order.push(p);
    for (const p of order) {
      const vals = new Map();
      for (const a of cands) {
        const k = keyOf(leaf(a, p));
        if (!vals.has(k)) vals.set(k, { value: leaf(a, p), count: 0 });
        vals.get(k).count++;
      }
      if (vals.size > 1) return { path: p, values: vals };
    }
    return null;
  }

  choose(path, key) {
    this.chosen.push([path, key]);
    const c = this.candidates();
    this.render();
    return c;
  }

  back() {
    this.chosen.pop();
    this.render();
  }

  // A click on the board: keep the actions whose `path` is `key`; play it when only one is left.
  pick(path, key) {
    const matching = this.candidates().filter((a) => keyOf(leaf(a, path)) === key);
    if (!matching.length) return;
    if (matching.length === 1) {
      this.play(matching[0]);
      return;
    }
    this.chosen.push([path, key]);
    this.render();
  }

  // Board elements (data-pick-field / data-pick-value) that a click may choose now.
  pickable() {
    const cands = this.candidates();
    const keys = new Set();
    for (const a of cands) for (const [p, v] of leaves(a)) keys.add(`${p}=${keyOf(v)}`);
    return keys;
  }

  async play(action) {
    this.busy = true;
    this.render();
    try {
      await this.submit(action);
      this.chosen = [];
    } finally {
      this.busy = false;
      this.render();
    }
  }

  render() {
    const el = this.el;
    el.replaceChildren();
    if (!this.actions.length) {
      this.onChange();
      return;
    }
    const cands = this.candidates();
    el.append(h('h3', { class: 'visually-hidden' }, 'Your move'));
    if (this.chosen.length) {
      el.append(h('div', { class: 'crumbs' },
        h('span', {}, 'Chosen: '),
        this.chosen.map(([p, k]) => h('span', { class: 'crumb' }, p === 'type' ? humanize(JSON.parse(k)) : `${fieldLabel(p)}: ${valueLabel(k === '∅' ? undefined : JSON.parse(k))}`)),
        h('button', { type: 'button', class: 'small', onclick: () => this.back(), disabled: this.busy }, '← Back'),
        h('button', { type: 'button', class: 'small', onclick: () => { this.chosen = []; this.render(); }, disabled: this.busy }, 'Start over'),
      ));
    }
    if (cands.length <= LIST_AT_MOST) {
      // Each remaining action as a button, grouped by kind.
      const groups = new Map();
      for (const a of cands) {
        if (!groups.has(a.type)) groups.set(a.type, []);
        groups.get(a.type).push(a);
      }
      for (const [type, list] of groups) {
        el.append(h('div', { class: 'group', role: 'group', 'aria-label': humanize(type) },
          groups.size > 1 || !this.chosen.length ? h('h4', {}, humanize(type)) : null,
          list.map((a) => h('button', {
            type: 'button', class: 'act', 'data-action': JSON.stringify(a), disabled: this.busy,
            onclick: () => this.play(a),
          }, this.describe(a)))));
      }
    } else {
      const ask = this.asking(cands);
      const label = ask.path === 'type' ? 'What do you do?' : `Choose ${fieldLabel(ask.path)}`;
      el.append(h('div', { class: 'group step', role: 'group', 'aria-label': label },
        h('h4', {}, label, h('span', { class: 'muted' }, ` (${cands.length} legal moves)`)),
        [...ask.values].map(([k, { value, count }]) => h('button', {
          type: 'button', class: 'choice', 'data-field': ask.path, 'data-value': k, disabled: this.busy,
          onclick: () => this.choose(ask.path, k),
        }, ask.path === 'type' ? humanize(value) : valueLabel(value), h('span', { class: 'count' }, ` ${count}`)))));
    }
    this.onChange();
  }
}
