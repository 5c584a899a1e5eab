// The page's words, from the server's message catalogs (GET /v1/engines/{name}/messages?lang=).
// A catalog is a flat object of ICU MessageFormat strings (engines/core/messages.py lists the
// keys); intl-messageformat (vendored, js/vendor/) formats them with the browser's Intl plural
// rules, numbers and lists. Events and actions are worded from their templates with their fields
// prepared as every client prepares them (the same rules as the terminal's render/i18n.py), so no
// sentence is written in this client.
//
// The language: the header's switch (remembered in localStorage), else navigator.languages, else
// English. `?pseudo` in the address (or localStorage tablero.pseudo = 1) wraps every message in
// ⟦…⟧: text on the page that did not come from a catalog stands out (the browser tests look).
import { IntlMessageFormat } from './vendor/intl-messageformat.js';

export const LANGS = ['en', 'es'];
const STORE = 'tablero.lang';
const HIDDEN = new Set(['type', 'private', 'secret', 'trace', 'rolls', 'engine', 'engine_version', 'options']);

function pseudoOn() {
  try {
    return /[?&]pseudo\b/.test(location.search) || localStorage.getItem('tablero.pseudo') === '1';
  } catch (e) {
    return false;
  }
}

export function chooseLanguage() {
  let saved = null;
  try { saved = localStorage.getItem(STORE); } catch (e) { /* private mode: no memory */ }
  if (LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

let lang = chooseLanguage();
const pseudo = pseudoOn();
const catalogs = new Map(); // `${name}|${lang}` -> {messages, formats}

export const language = () => lang;
export const pseudoLocale = () => pseudo;

export function setLanguage(next) {
  if (!LANGS.includes(next)) return;
  lang = next;
  try { localStorage.setItem(STORE, next); } catch (e) { /* not remembered */ }
  document.documentElement.lang = next;
}

// The catalog of an engine (with the platform's) in the current language; "tablero": the
// platform's alone. Fetched once per page; the HTTP cache revalidates it with its ETag.
export async function loadCatalog(name = 'tablero') {
  const key = `${name}|${lang}`;
  if (catalogs.has(key)) return catalogs.get(key);
  const r = await fetch(`/v1/engines/${encodeURIComponent(name)}/messages?lang=${encodeURIComponent(lang)}`);
  if (!r.ok) throw new Error(`the texts of ${name} could not be loaded (${r.status})`);
  const body = await r.json();
  const cat = new Catalog(body.messages || {}, lang);
  catalogs.set(key, cat);
  return cat;
}

export function catalog(name = 'tablero') {
  return catalogs.get(`${name}|${lang}`) || catalogs.get(`tablero|${lang}`) || new Catalog({}, lang);
}

// The argument names a message uses, with the kind of each (plural/select/other).
function argumentsOf(ast, out = new Map()) {
  for (const el of ast) {
    if (el.value !== undefined && typeof el.value === 'string' && el.type !== 0) {
      // type 1 argument, 2 number, 5 select, 6 plural (intl-messageformat's TYPE enum)
      if (!out.has(el.value) || el.type === 6) out.set(el.value, el.type);
    }
    if (el.options) for (const o of Object.values(el.options)) argumentsOf(o.value, out);
    if (el.children) argumentsOf(el.children, out);
  }
  return out;
}

// A catalog's `label.name_contractions`, `from → to` rules joined by `;`, for the grammar a template
// cannot know: a name that needs an article in running text ("pagando a Capitán Ahab" is "pagando al
// Capitán Ahab" in Spanish); `^from → to` applies at a sentence's start only (as the terminal does).
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function contractions(rules) {
  const anywhere = [];
  const start = [];
  for (const rule of String(rules || '').split(';')) {
    const at = rule.indexOf('→');
    if (at < 0) continue;
    const from = rule.slice(0, at).trim();
    const to = rule.slice(at + 1).trim();
    const atStart = from.startsWith('^');
    const word = atStart ? from.slice(1) : from;
    if (!word) continue;
    const re = new RegExp((atStart ? '^' : '(?<![\\p{L}\\p{N}_])') + escapeRe(word) + '(?![\\p{L}\\p{N}_])', atStart ? 'u' : 'gu');
    (atStart ? start : anywhere).push([re, to]);
  }
  return { anywhere, start };
}

export class Catalog {
  constructor(messages, language) {
    this.messages = messages;
    this.lang = language;
    this.rules = contractions(messages['label.name_contractions']);
    this.compiled = new Map();
    this.lists = new Intl.ListFormat(language, { style: 'long', type: 'conjunction' });
    this.numbers = new Intl.NumberFormat(language);
  }

  has(key) {
    return Object.prototype.hasOwnProperty.call(this.messages, key);
  }

  compile(key) {
    if (!this.compiled.has(key)) {
      const f = new IntlMessageFormat(this.messages[key], this.lang, undefined, { ignoreTag: true });
      this.compiled.set(key, { f, args: argumentsOf(f.getAst()) });
    }
    return this.compiled.get(key);
  }

  // A message with its arguments; an argument the message names but `args` lacks reads as empty
  // (a plural as 0, a select as its `other`).
  t(key, args = {}, fallback) {
    if (!this.has(key)) return fallback !== undefined ? fallback : key;
    const { f, args: names } = this.compile(key);
    const full = { ...args };
    for (const [name, type] of names) {
      if (full[name] === undefined || full[name] === null) full[name] = type === 6 ? 0 : '';
    }
    let out;
    try {
      out = String(f.format(full));
    } catch (e) {
      console.warn('message failed', key, e);
      out = key;
    }
    for (const [re, to] of this.rules.anywhere) out = out.replace(re, to);
    return pseudo ? `⟦${out}⟧` : out;
  }

  // `text` as a sentence: its start's contractions applied, its first letter a capital.
  sentence(text) {
    let out = text;
    for (const [re, to] of this.rules.start) out = out.replace(re, to);
    return out.charAt(0).toUpperCase() + out.slice(1);
  }

  number(n) {
    return typeof n === 'number' ? this.numbers.format(n) : String(n);
  }

  // A list in the language's words (Intl.ListFormat: "a, b and c", "a, b y c"); wrapped like a
  // message in the pseudo-locale, its conjunction being the language's too.
  list(items) {
    const shown = items.filter((x) => x !== '');
    if (!shown.length) return '';
    const out = this.lists.format(shown.map(String));
    return pseudo && shown.length > 1 ? `⟦${out}⟧` : out;
  }
}

// --- arguments: what a template's fields read as ----------------------------------------------
const isNumber = (v) => typeof v === 'number';
const isSeat = (v) => Number.isInteger(v);
const empty = (v) => v === null || v === undefined || v === false || v === '' || (Array.isArray(v) && !v.length)
  || (typeof v === 'object' && !Array.isArray(v) && !Object.values(v).some((x) => !empty(x) && x !== 0));

export function value(cat, v) {
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (isNumber(v)) return v;
  if (v === null || v === undefined) return cat.t('value.none');
  if (typeof v === 'string') return cat.has(`name.${v}`) ? cat.t(`name.${v}`) : v.replace(/_/g, ' ');
  if (Array.isArray(v)) return cat.list(v.map((x) => String(shown(cat, x)))) || cat.t('value.none');
  if (typeof v === 'object') return amounts(cat, v);
  return String(v);
}

// A name with its definite article as the catalog writes it (`the.farm`: "la Granja" / "the Farm"),
// for a sentence that needs one ("Trabajador a la Granja"); else the name alone. A list: each one.
export function the(cat, v) {
  if (Array.isArray(v)) return cat.list(v.map((x) => String(the(cat, x))));
  if (typeof v === 'string' && cat.has(`the.${v}`)) return cat.t(`the.${v}`);
  return shown(cat, v);
}

export function shown(cat, v) {
  if (typeof v === 'boolean') return cat.t(v ? 'value.yes' : 'value.no');
  const out = value(cat, v);
  return isNumber(out) ? cat.number(out) : out;
}

// {food: 2, money: 3} -> "2 food and $3" by the catalog's amount.<key> (else "2 food").
export function amounts(cat, obj) {
  const parts = [];
  for (const [k, n] of Object.entries(obj || {})) {
    if (n === 0 || empty(n)) continue;
    if (isNumber(n)) parts.push(cat.has(`amount.${k}`) ? cat.t(`amount.${k}`, { n }) : `${cat.number(n)} ${value(cat, k)}`);
    else if (cat.has(`amount.${k}`)) parts.push(cat.t(`amount.${k}`, { n: shown(cat, n) })); // a named thing ("barn")
    else parts.push(`${value(cat, k)} ${shown(cat, n)}`);
  }
  return cat.list(parts) || cat.t('value.nothing');
}

// For a list of seats: `you`, 'true' when all are the viewer's, 'some' when the viewer's are among
// others (then `others` names those others: "a ti y a Azul", "you and Blue"), else 'false'.
export function youOf(cat, seats, who) {
  const mine = seats.map((s) => typeof who.you === 'function' && !!who.you(s));
  const others = seats.filter((s, i) => !mine[i]).map((s) => who(s));
  // each of the others with the word the sentence needs, so that a list after "you" reads as one
  // list: "a ti, a Azul y a Rojo" (`others_to`), "tu jugada, la de Azul y la de Rojo" (`others_of`)
  const each = (key) => cat.list(others.map((o) => (cat.has(key) ? cat.t(key, { who: o }) : o)));
  return {
    you: seats.length && mine.every(Boolean) ? 'true' : mine.some(Boolean) ? 'some' : 'false',
    others: cat.list(others), others_to: each('list.each_to'), others_of: each('list.each_of'),
  };
}

function field(cat, args, k, v, who, special) {
  const own = special ? special(k, v) : null;
  args[k] = own !== null && own !== undefined ? own : value(cat, v);
  args[`has_${k}`] = empty(v) ? 'false' : 'true';
  if (typeof v === 'string') args[`${k}_id`] = v;
  if (typeof v === 'string' || (Array.isArray(v) && v.length && v.every((x) => typeof x === 'string'))) {
    // "la Granja": the catalog's article first (a board's own name for the value, e.g. a card as
    // printed, has none), else that name, else the catalog's name
    const named = typeof v === 'string' ? cat.has(`the.${v}`) : v.some((x) => cat.has(`the.${x}`));
    args[`${k}_the`] = !named && own !== null && own !== undefined ? own : the(cat, v);
  }
  // Whether the seat(s) are the viewer's alone (`<field>_you`): "la loseta es tuya", not "es de Rojo (tú)"
  const mine = (s) => typeof who.you === 'function' && !!who.you(s);
  if (isSeat(v)) {
    args[`${k}_who`] = who(v);
    args[`${k}_you`] = mine(v) ? 'true' : 'false';
  }
  if (Array.isArray(v)) {
    args[`${k}_count`] = v.length;
    if (v.length && v.every(isSeat)) {
      args[`${k}_who`] = cat.list(v.map(who));
      Object.assign(args, Object.fromEntries(Object.entries(youOf(cat, v, who)).map(([a, b]) => [`${k}_${a}`, b])));
    }
    if (v.length && v.every((x) => isNumber(x) || typeof x === 'string')) {
      args[`${k}_by_seat`] = cat.list(v.map((x, i) => `${who(i)} ${shown(cat, x)}`));
    }
  }
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    args[`${k}_count`] = Object.values(v).filter((x) => !empty(x) && x !== 0).length;
    // the amounts added up ({right: 1, bowhead: 0} -> 1 whale: "paying its lay")
    args[`${k}_total`] = Object.values(v).filter(isNumber).reduce((a, b) => a + b, 0);
  }
}

// The arguments of an event's or an action's template; `special(field, value)` may name a value
// as the board does (a square "B5"), else null.
export function fieldsArgs(cat, fields, who, special) {
  const args = {};
  let all = fields;
  const priv = fields.private;
  if (priv && typeof priv === 'object' && Object.keys(priv).length === 1) {
    const mine = Object.values(priv)[0];
    all = { ...fields };
    if (mine && typeof mine === 'object' && !Array.isArray(mine)) for (const [k, v] of Object.entries(mine)) all[`private_${k}`] = v;
    else all.private_value = mine;
  }
  for (const [k, v] of Object.entries(all)) {
    if (HIDDEN.has(k)) continue;
    field(cat, args, k, v, who, special);
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [kk, vv] of Object.entries(v)) if (vv === null || typeof vv !== 'object') field(cat, args, `${k}_${kk}`, vv, who, special);
    }
  }
  for (let i = 0; i < 6; i++) args[`p${i}`] = who(i); // seats by number, for a sentence that names them all
  const actor = 'seat' in fields ? fields.seat : fields.player;
  args.who = isSeat(actor) ? who(actor) : '';
  args.has_who = isSeat(actor) ? 'true' : 'false';
  // Whether the actor is the viewer (`who.you(seat)`): "Your ship", not "Red (you)’s ship".
  args.who_you = isSeat(actor) && typeof who.you === 'function' && who.you(actor) ? 'true' : 'false';
  return args;
}

export function describe(cat, event, who, special) {
  const t = String(event.type || '');
  const args = fieldsArgs(cat, event, who, special);
  let text;
  if (cat.has(`event.${t}`)) text = cat.t(`event.${t}`, args);
  else {
    const rest = Object.entries(event).filter(([k]) => !HIDDEN.has(k) && k !== 'seat' && k !== 'player');
    const details = rest.map(([k, v]) => `${value(cat, k)} ${shown(cat, v)}`).join('; ');
    text = cat.t('event.unknown', { ...args, type: t.replace(/_/g, ' '), details, has_details: details ? 'true' : 'false' });
  }
  const template = cat.messages[`event.${t}`] || '';
  const priv = event.private;
  if (priv && typeof priv === 'object' && Object.keys(priv).length && !template.includes('{has_private') && !template.includes('{private')) {
    const mine = Object.values(priv)[0];
    if (!empty(mine)) {
      const what = mine && typeof mine === 'object' && !Array.isArray(mine)
        ? cat.list(Object.entries(mine).map(([k, v]) => `${value(cat, k)} ${shown(cat, v)}`)) : shown(cat, mine);
      text = cat.t('event.private', { text, what });
    }
  }
  return cat.sentence(text);
}

export function actionLabel(cat, action, who, special) {
  const key = `action.${action.type}`;
  return cat.has(key) ? cat.t(key, fieldsArgs(cat, action, who, special)) : null;
}
