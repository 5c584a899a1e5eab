// Legal actions as grouped buttons. Large choice sets are composed field by field: the
// user picks the action's kind, then one field's value at a time among the legal
// combinations that remain, until one action is left.
import { h, humanize, fmt } from './dom.js';
import { catalog } from './i18n.js';

const T = (key, args) => catalog('tablero').t(key, args);

const LIST_AT_MOST = 12; // this many actions or fewer: show each as its own button
const ITEMS_AT_MOST = 6; // more actions than this that differ in a list (cards to pay...): build it item by item

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

// A field's and an action type's name: the engine's `label.fields` and `label.types` (selects
// over the declared names), set by the table (setEngine); humanized where no catalog has them.
let engineName = null;
export function setEngine(name) {
  engineName = name;
}

function fieldLabel(path) {
  const cat = catalog(engineName);
  return path.split('.').map((p) => (cat.has('label.fields') ? cat.t('label.fields', { field: p, text: humanize(p).toLowerCase() }) : humanize(p).toLowerCase())).join(' ');
}

export function typeLabel(type) {
  const cat = catalog(engineName);
  return cat.has('label.types') ? cat.t('label.types', { type, text: humanize(type) }) : humanize(type);
}

// An identifier in words ("general_store" -> "general store") unless `name` knows it better.
const word = (x) => {
  const cat = catalog(engineName);
  if (typeof x === 'string' && cat.has(`name.${x}`)) return cat.t(`name.${x}`);
  return typeof x === 'string' && /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(x) ? humanize(x).toLowerCase() : fmt(x);
};

function valueLabel(v, name = () => null) {
  const one = (x) => name(x) ?? word(x);
  if (v === undefined) return T('value.none');
  if (Array.isArray(v)) return v.length ? v.map(one).join(' + ') : T('value.none');
  return one(v);
}

const moves = (n) => T('web.legal_moves', { n });

// Multisets of scalars: [4, 5, 4] ~ [4, 4, 5]
const counts = (list) => {
  const m = new Map();
  for (const x of list) m.set(keyOf(x), (m.get(keyOf(x)) || 0) + 1);
  return m;
};
function contains(list, part) {
  if (!Array.isArray(list)) return false;
  const have = counts(list);
  for (const [k, n] of counts(part)) if ((have.get(k) || 0) < n) return false;
  return true;
}
const sameItems = (list, items) => Array.isArray(list) && list.length === items.length && contains(list, items);

export function describeGeneric(action) {
  const rest = leaves(action).filter(([p]) => p !== 'type');
  const body = rest.map(([p, v]) => `${fieldLabel(p)} ${valueLabel(v)}`).join(', ');
  return typeLabel(action.type) + (body ? ': ' + body : '');
}

export class Composer {
  // describe(action) -> string; submit(action) -> Promise; onChange() re-arms the board;
  // valueName(path, value) -> a field's value in words, or null (New Bedford's "town_hall" is "Town Hall").
  constructor({ describe, submit, onChange, valueName }) {
    this.describe = describe || describeGeneric;
    this.valueName = valueName || (() => null);
    this.submit = submit;
    this.onChange = onChange || (() => {});
    this.actions = [];
    this.chosen = []; // [{path, label, test(action)}, ...]
    this.partial = null; // {path, items}: a list field being filled one item at a time
    this.el = h('section', { class: 'composer', 'aria-label': T('play.your_move') });
    // A double click's second click (event.detail 2) lands on whatever button replaced the
    // first one in the same spot (the next step's, or a move): it is never a choice. Keys
    // (Enter, Space: detail 0) and single clicks go through.
    this.el.addEventListener('click', (ev) => {
      if (ev.detail > 1) {
        ev.stopPropagation();
        ev.preventDefault();
      }
    }, true);
  }

  valueLabel(path, v) {
    return valueLabel(v, (x) => this.valueName(path, x));
  }

  setActions(actions) {
    const same = JSON.stringify(actions) === JSON.stringify(this.actions);
    this.actions = actions || [];
    if (!same) this.reset(false);
    this.render();
  }

  reset(render = true) {
    this.chosen = [];
    this.partial = null;
    if (render) this.render();
  }

  candidates() {
    const part = this.partial;
    return this.actions.filter((a) => this.chosen.every((c) => c.test(a)) && (!part || contains(leaf(a, part.path), part.items)));
  }

  equals(path, key) {
    const v = key === '∅' ? undefined : JSON.parse(key);
    const label = path === 'type' ? typeLabel(v) : `${fieldLabel(path)}: ${this.valueLabel(path, v)}`;
    return { path, label, test: (a) => keyOf(leaf(a, path)) === key, step: { path, key } };
  }

  itemsChosen(path, items, exact) {
    return { path, label: `${fieldLabel(path)}: ${this.valueLabel(path, items)}`, step: { path, items, exact },
      test: exact ? (a) => keyOf(leaf(a, path)) === keyOf(items) : (a) => sameItems(leaf(a, path), items) };
  }

  // The half-built move as data (what was chosen, not its words): a page drawn again in another
  // language restores it with `restore` (its crumbs then read in the new language).
  snapshot() {
    return { actions: JSON.stringify(this.actions), chosen: this.chosen.map((c) => c.step),
      partial: this.partial ? { path: this.partial.path, items: [...this.partial.items] } : null };
  }

  restore(snap) {
    if (!snap || snap.actions !== JSON.stringify(this.actions)) return; // the moves changed: start afresh
    this.chosen = snap.chosen.map((st) => ('key' in st ? this.equals(st.path, st.key) : this.itemsChosen(st.path, st.items, st.exact)));
    this.partial = snap.partial;
    this.render();
  }

  // The field the user is asked about next, with its distinct values, or null.
  asking(cands = this.candidates()) {
    if (!cands.length) return null;
    const order = [];
    for (const a of cands) for (const [p] of leaves(a)) if (!order.includes(p)) order.push(p);
    // The move's kind first, wherever its key sits: a server may send keys sorted (a Connect
    // Struct's are). New Bedford's {"good": …, "type": "buy_goods"} asked "Elige bien" — lumber,
    // food or "none" — before the kind; a Founders Trade follow asked for a resource with "none"
    // for every move that has none (take money, a road…).
    if (order.includes('type')) order.splice(0, order.length, 'type', ...order.filter((p) => p !== 'type'));
    for (const p of order) {
      // (a field a crumb has settled is not asked again: a list chosen as a set whose moves
      // still differ in its order was asked again and again, one "That's all" after another)
      if (this.chosen.some((c) => c.path === p)) continue;
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
    this.chosen.push(this.equals(path, key));
    this.render();
  }

  back() {
    if (this.partial && this.partial.items.length) this.partial.items.pop();
    else if (this.partial) {
      this.partial = null;
      this.chosen.pop();
    } else this.chosen.pop();
    this.render();
  }

  // One more item of the list field being composed (e.g. one more card in a payment).
  addItem(path, value) {
    if (!this.partial || this.partial.path !== path) this.partial = { path, items: [] };
    this.partial.items.push(value);
    this.render();
  }

  finishItems() {
    const { path, items } = this.partial;
    // The items in the order chosen, when a move has them so (the order can tell moves apart:
    // the same cells in another order); else as a set.
    const key = keyOf(items);
    const exact = this.candidates().some((a) => keyOf(leaf(a, path)) === key);
    this.partial = null;
    this.chosen.push(this.itemsChosen(path, items, exact));
    this.render();
  }

  // The list being built item by item (cards to pay with, squares to cover), or null: its path,
  // the items so far, the items that may come next (by key) and how many moves it already makes.
  listStep(cands = this.candidates(), ask = cands.length > ITEMS_AT_MOST ? this.asking(cands) : null) {
    const isList = ask && ask.path !== 'type' && [...ask.values.values()].every(({ value }) => Array.isArray(value) && value.every((x) => x === null || typeof x !== 'object'));
    if (!this.partial && !isList) return null;
    const path = this.partial ? this.partial.path : ask.path;
    const items = this.partial ? this.partial.items : [];
    const next = new Map();
    let complete = 0;
    for (const a of cands) {
      const list = leaf(a, path) || [];
      if (sameItems(list, items)) complete++;
      const rest = counts(list);
      for (const [k, n] of counts(items)) rest.set(k, rest.get(k) - n);
      for (const x of list) if (rest.get(keyOf(x)) > 0) next.set(keyOf(x), x);
    }
    return { path, items, next, complete };
  }

  // A click on the board: keep the actions whose `path` is `key`; play it when only one is left.
  // While a list is built item by item, a piece that is one of its next items (a square the tile
  // may cover: `cells` [85]) adds that item, as its "+ B5" button does.
  pick(path, key) {
    const cands = this.candidates();
    const step = this.listStep(cands);
    const one = key.startsWith('[') ? JSON.parse(key) : null;
    const longer = Array.isArray(one) && cands.some((a) => (leaf(a, path) || []).length > 1 && contains(leaf(a, path), one));
    if (step && step.path === path && longer && one.length === 1 && step.next.has(keyOf(one[0]))) {
      this.addItem(path, one[0]);
      return;
    }
    const matching = cands.filter((a) => keyOf(leaf(a, path)) === key);
    // (a value every remaining move has tells nothing: no crumb that narrows nothing, clicked again and again)
    if (!matching.length || (matching.length > 1 && matching.length === cands.length)) return;
    if (matching.length === 1) {
      this.play(matching[0]);
      return;
    }
    this.chosen.push(this.equals(path, key));
    this.render();
  }

  // Board elements (data-pick-field / data-pick-value) that a click may choose now.
  // A value that every remaining move has (when more than one remains) is not one to pick: it
  // chooses nothing.
  pickable() {
    const cands = this.candidates();
    const moves = new Map(); // key -> how many candidates have it
    for (const a of cands) {
      for (const k of new Set(leaves(a).map(([p, v]) => `${p}=${keyOf(v)}`))) moves.set(k, (moves.get(k) || 0) + 1);
    }
    const keys = new Set();
    for (const [k, n] of moves) if (cands.length === 1 || n < cands.length) keys.add(k);
    const step = this.listStep(cands);
    if (step) for (const x of step.next.values()) keys.add(`${step.path}=${keyOf([x])}`);
    return keys;
  }

  async play(action) {
    this.busy = true;
    this.render();
    try {
      await this.submit(action);
      this.reset(false);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  // What a field step is about when every remaining move is of one kind: the kind and the fields
  // they share ("Vender bienes · bien: comida" over New Bedford's bare counts 0-12), else null.
  context(cands, path) {
    if (path === 'type' || new Set(cands.map((a) => a.type)).size !== 1) return null;
    const same = leaves(cands[0]).filter(([p]) => p !== 'type' && p !== path && !this.chosen.some((c) => c.path === p)
      && cands.every((a) => keyOf(leaf(a, p)) === keyOf(leaf(cands[0], p))));
    return h('div', { class: 'muted context', style: { flexBasis: '100%' } },
      [typeLabel(cands[0].type), ...same.map(([p, v]) => `${fieldLabel(p)}: ${this.valueLabel(p, v)}`)].join(' · '));
  }

  render() {
    const el = this.el;
    el.replaceChildren();
    if (!this.actions.length) {
      this.onChange();
      return;
    }
    const cands = this.candidates();
    el.append(h('h3', { class: 'visually-hidden' }, T('play.your_move')));
    if (this.chosen.length || this.partial) {
      el.append(h('div', { class: 'crumbs' },
        h('span', {}, T('web.chosen'), ' '),
        this.chosen.map((c) => h('span', { class: 'crumb' }, c.label)),
        this.partial ? h('span', { class: 'crumb' }, `${fieldLabel(this.partial.path)}: ${this.valueLabel(this.partial.path, this.partial.items)}…`) : null,
        h('button', { type: 'button', class: 'small', onclick: () => this.back(), disabled: this.busy }, '← ', T('web.back')),
        h('button', { type: 'button', class: 'small', onclick: () => this.reset(), disabled: this.busy }, T('web.start_over')),
      ));
    }
    const ask = cands.length > ITEMS_AT_MOST ? this.asking(cands) : null;
    const step = this.listStep(cands, ask);
    if (step) {
      // A list (cards to pay with, cells to cover...): one item at a time, among legal combinations.
      const { path, items, next, complete } = step;
      const label = T('web.choose_items', { field: fieldLabel(path) });
      el.append(h('div', { class: 'group step', role: 'group', 'aria-label': label },
        h('h4', {}, label, h('span', { class: 'muted' }, ` (${moves(cands.length)})`)),
        h('div', { class: 'muted', style: { flexBasis: '100%' } }, T('web.so_far', { what: items.length ? this.valueLabel(path, items) : T('value.nothing') })),
        [...next.values()].sort((x, y) => (x > y ? 1 : x < y ? -1 : 0)).map((x) => h('button', {
          type: 'button', class: 'choice', 'data-field': path, 'data-item': keyOf(x), disabled: this.busy,
          onclick: () => this.addItem(path, x),
        }, `+ ${this.valueLabel(path, x)}`)),
        complete ? h('button', { type: 'button', class: 'choice primary', 'data-field': path, 'data-done': 'true', disabled: this.busy, onclick: () => this.finishItems() },
          items.length ? T('web.thats_all', { what: this.valueLabel(path, items) }) : T('web.none')) : null));
    } else if (cands.length <= LIST_AT_MOST || !ask) {
      // (ask may be a scalar field here: a short list reads better than one more step)
      // Each remaining action as a button, grouped by kind.
      const groups = new Map();
      for (const a of cands) {
        if (!groups.has(a.type)) groups.set(a.type, []);
        groups.get(a.type).push(a);
      }
      for (const [type, list] of groups) {
        el.append(h('div', { class: 'group', role: 'group', 'aria-label': typeLabel(type) },
          // (no heading over a lone button that says it already: "Tomar dinero" twice)
          (groups.size > 1 || !this.chosen.length) && !(list.length === 1 && this.describe(list[0]).startsWith(typeLabel(type))) ? h('h4', {}, typeLabel(type)) : null,
          list.map((a) => h('button', {
            type: 'button', class: 'act', 'data-action': JSON.stringify(a), disabled: this.busy,
            onclick: () => this.play(a),
          }, this.describe(a)))));
      }
    } else {
      const label = ask.path === 'type' ? T('web.what_do_you_do') : T('web.choose_field', { field: fieldLabel(ask.path) });
      el.append(h('div', { class: 'group step', role: 'group', 'aria-label': label },
        h('h4', {}, label, h('span', { class: 'muted' }, ` (${moves(cands.length)})`)),
        this.context(cands, ask.path),
        // (each choice's count of legal moves apart from its value: "0" and "12 moves", not "0 12")
        [...ask.values].map(([k, { value, count }]) => h('button', {
          type: 'button', class: 'choice', 'data-field': ask.path, 'data-value': k, disabled: this.busy, title: moves(count),
          onclick: () => this.choose(ask.path, k),
        }, ask.path === 'type' ? typeLabel(value) : this.valueLabel(ask.path, value), ' ', h('span', { class: 'count' }, T('web.moves', { n: count }))))));
    }
    this.onChange();
  }
}
