// A form generated from an engine's options JSON schema. field(name, schema) -> {el, get(), setSeats?(n)}
// where get() is the value to send, or undefined to leave the option at its default (it throws
// when the fields cannot make a valid value), and setSeats(n) follows the number of seats.
import { h, humanize, fmt } from './dom.js';
import { colour } from './words.js';
import { catalog, pseudoLocale } from './i18n.js';

const T = (key, args) => catalog('tablero').t(key, args);

let uid = 0;
const nextId = (name) => `opt-${String(name).replace(/\W+/g, '-')}-${++uid}`;

// `names`: display names for enum values (the renderer's `optionNames`, e.g. New Bedford's
// "seamens_bethel" → "Seamen's Bethel"); other values are humanized. `texts`: the option's
// label, hint and value names from the engine's catalog (the renderer's `optionTexts`: catalog
// keys by option, {label, hint, values: {value: key}}), with `cat` the engine's catalog.
export function schemaForm(schema, names = {}, texts = {}, cat = null) {
  const props = (schema && schema.properties) || {};
  const fields = Object.entries(props).map(([name, s]) => [name, field(name, worded(name, s, texts, cat), { ...catalogNames(s, cat), ...printed(names, cat), ...valueNames(texts[name], cat) })]);
  const el = h('div', { class: 'options' }, fields.length ? fields.map(([, f]) => f.el) : h('p', { class: 'muted' }, T('web.opt.none')));
  return {
    el,
    setSeats(n) {
      for (const [name, f] of fields) {
        if (f.setSeats) f.setSeats(n);
        // An option marked "x-players" (the counts it applies to) shows for those only, and is
        // not sent at the others (Founders' "Solo section" with one player).
        const counts = props[name]['x-players'];
        if (Array.isArray(counts)) f.el.hidden = !counts.includes(n);
      }
    },
    get() {
      const out = {};
      for (const [name, f] of fields) {
        if (f.el.hidden) continue;
        const v = f.get();
        if (v !== undefined) out[name] = v;
      }
      return out;
    },
  };
}

// An option's title and description in the catalog's words (the schema's are English).
function worded(name, s, texts, cat) {
  const t = texts[name];
  if (!t || !cat) return s;
  return { ...s, ...(perSeat(s) ? { 'x-per-seat': true } : {}), title: t.label ? cat.t(t.label) : s.title, description: t.hint ? cat.t(t.hint) : (t.label ? '' : s.description) };
}

// The enumerated values an engine's catalog names (New Bedford's buildings, Founders' races).
function catalogNames(s, cat, out = {}) {
  if (!cat || !s || typeof s !== 'object') return out;
  for (const v of Array.isArray(s.enum) ? s.enum : []) if (typeof v === 'string' && cat.has(`name.${v}`)) out[v] = cat.t(`name.${v}`);
  for (const x of Object.values(s)) if (x && typeof x === 'object') catalogNames(x, cat, out);
  return out;
}

// The renderer's printed (English) names win in English only: New Bedford's "Seamen's Bethel".
function printed(names, cat) {
  return !cat || (cat.lang === 'en' && !pseudoLocale()) ? names : {};
}

function valueNames(t, cat) {
  return t && t.values && cat ? Object.fromEntries(Object.entries(t.values).map(([v, key]) => [v, cat.t(key)])) : {};
}

// The option's description (the engine's words), and its default in words where the field does
// not show it already (a select says "Default (Thematic)", a checkbox starts as its default).
function hint(s) {
  const bits = [];
  if (s.description) bits.push(s.description);
  const shown = s.enum || s.type === 'boolean';
  if (s.default !== undefined && !shown) bits.push(T('web.opt.default_is', { value: typeof s.default === 'string' ? humanize(s.default) : fmt(s.default) }));
  return bits.length ? h('small', { class: 'hint' }, bits.join(' ')) : null;
}

const valueName = (names, v) => (names && Object.prototype.hasOwnProperty.call(names, v) ? names[v] : humanize(v));

export function field(name, s, names = {}) {
  const id = nextId(name);
  const label = s.title || humanize(name);
  const variants = s.oneOf || s.anyOf;
  if (variants) {
    const subs = variants.map((v, i) => field(`${name}-${i}`, { ...v, title: variantLabel(v) }, names));
    const sel = h('select', { id }, h('option', { value: '' }, T('web.opt.default')), subs.map((_, i) => h('option', { value: String(i) }, variantLabel(variants[i]))));
    const box = h('div', { class: 'variant' });
    sel.addEventListener('change', () => box.replaceChildren(sel.value === '' ? '' : subs[Number(sel.value)].el));
    return {
      el: h('div', { class: 'field' }, h('label', { for: id }, label), sel, hint(s), box),
      get: () => (sel.value === '' ? undefined : subs[Number(sel.value)].get()),
      setSeats: (n) => subs.forEach((f) => f.setSeats && f.setSeats(n)),
    };
  }
  if (perSeat(s)) return seatField(id, label, s, names);
  if (seatIndex(name, s)) return seatChoice(id, label, s);
  const en = s.enum || (s.items === undefined && s.const !== undefined ? [s.const] : null);
  if (en) {
    const sel = h('select', { id, name },
      h('option', { value: '' }, s.default !== undefined ? T('web.opt.default_of', { value: valueName(names, s.default) }) : T('web.opt.default')),
      en.map((v, i) => h('option', { value: String(i) }, valueName(names, v))));
    return { el: h('div', { class: 'field' }, h('label', { for: id }, label), sel, hint(s)), get: () => (sel.value === '' ? undefined : en[Number(sel.value)]) };
  }
  if (s.type === 'boolean') {
    const box = h('input', { type: 'checkbox', id, name, checked: !!s.default });
    return { el: h('div', { class: 'field check' }, box, h('label', { for: id }, label), hint(s)), get: () => (box.checked === !!s.default ? undefined : box.checked) };
  }
  if (s.type === 'integer' || s.type === 'number') {
    const inp = h('input', { type: 'number', id, name, min: s.minimum, max: s.maximum, step: s.type === 'integer' ? 1 : 'any', placeholder: s.default !== undefined ? String(s.default) : T('web.opt.default_placeholder'), inputmode: 'numeric' });
    return {
      el: h('div', { class: 'field' }, h('label', { for: id }, label), inp, hint(s)),
      get: () => (inp.value === '' ? undefined : Number(inp.value)),
    };
  }
  if (s.type === 'array' && s.items && s.items.enum) {
    const boxes = s.items.enum.map((v, i) => {
      const bid = `${id}-${i}`;
      const b = h('input', { type: 'checkbox', id: bid, value: String(i) });
      return [b, h('span', { class: 'pill' }, b, h('label', { for: bid }, valueName(names, v)))];
    });
    return {
      el: h('fieldset', { class: 'field multi' }, h('legend', {}, label), hint(s), boxes.map(([, el]) => el)),
      // Nothing ticked: leave the option at its default (an empty list may not be allowed).
      get: () => {
        const picked = boxes.filter(([b]) => b.checked).map(([b]) => s.items.enum[Number(b.value)]);
        return picked.length ? picked : undefined;
      },
    };
  }
  if (s.type === 'object' && s.properties) {
    const sub = schemaForm(s, names);
    return { el: h('fieldset', { class: 'field' }, h('legend', {}, label), hint(s), sub.el), get: () => sub.get(), setSeats: (n) => sub.setSeats(n) };
  }
  // Strings and anything else: free text (JSON accepted for non-strings).
  const inp = h('input', { type: 'text', id, name, placeholder: s.default !== undefined ? JSON.stringify(s.default) : '' });
  return {
    el: h('div', { class: 'field' }, h('label', { for: id }, label), inp, hint(s)),
    get: () => {
      if (inp.value === '') return undefined;
      if (s.type === 'string') return inp.value;
      try {
        return JSON.parse(inp.value);
      } catch {
        return inp.value;
      }
    },
  };
}

// A list with one entry per seat, in seat order (Founders of Gloomhaven's `races`): marked
// `"x-per-seat": true`, or said so in its title or description ("races by seat").
const PER_SEAT = /\b(by|per|for each|one per) (seat|player)\b/i;

export function perSeat(s) {
  return !!s && s.type === 'array' && !!s.items && Array.isArray(s.items.enum)
    && (s['x-per-seat'] === true || PER_SEAT.test(`${s.title || ''} ${s.description || ''}`));
}

// One select per seat; the empty choice leaves the whole option out (the engine's default,
// e.g. dealt at random), so either every seat chooses or none does.
function seatField(id, label, s, names) {
  const en = s.items.enum;
  const blank = /random|azar/i.test(s.description || '') ? T('web.opt.random') : T('web.opt.default');
  const box = h('div', { class: 'per-seat' });
  let sels = [];
  const sync = () => {
    if (!s.uniqueItems) return;
    for (const sel of sels) {
      const taken = new Set(sels.filter((o) => o !== sel && o.value !== '').map((o) => o.value));
      for (const o of sel.options) o.disabled = o.value !== '' && taken.has(o.value);
    }
  };
  const draw = (n) => {
    const kept = sels.map((x) => x.value);
    const max = s.maxItems ?? n;
    sels = Array.from({ length: Math.min(n, max) }, (_, i) => {
      const sel = h('select', { id: `${id}-seat-${i}`, 'data-seat': String(i) },
        h('option', { value: '' }, blank), en.map((v, j) => h('option', { value: String(j) }, valueName(names, v))));
      sel.value = kept[i] || '';
      sel.addEventListener('change', sync);
      return sel;
    });
    box.replaceChildren(...sels.map((sel, i) => h('div', { class: 'field seat' },
      h('label', { for: sel.id }, h('span', { class: `dot c${i}` }), ' ', T('web.seat_n', { n: i + 1, colour: colour(i) })), sel)));
    sync();
  };
  draw(s.minItems || 1);
  const more = T('web.opt.per_seat', { blank });
  return {
    el: h('fieldset', { class: 'field per-seat-field', 'data-option': label }, h('legend', {}, label),
      hint({ ...s, description: `${s.description ? `${s.description}. ` : ''}${more}` }), box),
    setSeats: draw,
    get: () => {
      const picked = sels.map((sel) => sel.value);
      if (picked.every((v) => v === '')) return undefined;
      if (picked.some((v) => v === '')) throw new Error(T('web.opt.every_seat', { label, blank }));
      if (s.uniqueItems && new Set(picked).size !== picked.length) throw new Error(T('web.opt.different', { label }));
      return picked.map((j) => en[Number(j)]);
    },
  };
}

// An integer that is a seat (New Bedford's `first_player`): the engine counts seats from 0, the
// lobby names them "Seat 1 (Red)"…; marked `"x-seat": true`, or its description starts "Seat".
export function seatIndex(name, s) {
  return !!s && s.type === 'integer' && (s['x-seat'] === true || /^seat\b/i.test(s.description || '') || ['first_player', 'overlord'].includes(name));
}

// One select of the seats there are (it follows the Players count); its empty choice leaves the
// option out.
function seatChoice(id, label, s) {
  const blank = /random|azar/i.test(s.description || '') ? T('web.opt.random') : T('web.opt.default');
  const sel = h('select', { id, name: id });
  const draw = (n) => {
    const kept = sel.value;
    const top = Math.min(n - 1, s.maximum ?? n - 1);
    sel.replaceChildren(h('option', { value: '' }, blank), ...Array.from({ length: Math.max(0, top - (s.minimum ?? 0) + 1) }, (_, j) => {
      const i = j + (s.minimum ?? 0);
      return h('option', { value: String(i) }, T('web.seat_n', { n: i + 1, colour: colour(i) }));
    }));
    sel.value = [...sel.options].some((o) => o.value === kept) ? kept : '';
  };
  draw(1);
  return {
    el: h('div', { class: 'field' }, h('label', { for: id }, label), sel, hint(s)),
    setSeats: draw,
    get: () => (sel.value === '' ? undefined : Number(sel.value)),
  };
}

function variantLabel(v) {
  if (v.title) return v.title;
  if (v.enum) return T('web.opt.preset');
  if (v.type === 'array') return T('web.opt.from_list');
  return humanize(v.type || 'value');
}
