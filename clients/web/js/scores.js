// The final scores panel of a finished game (app.js draws it under the board).
import { h, humanize, fmt } from './dom.js';
import { leaves } from './compose.js';
import { seatName } from './words.js';
import { catalog } from './i18n.js';

const T = (key, args) => catalog('tablero').t(key, args);
const LONG_GROUP = 8; // lines of one group beyond which it is folded away whole (render/scores.py)

// Final scores, with each seat's breakdown from outcome.details; Captains (New Bedford's
// automa players, outcome.captains) get their own columns. `names`: the renderer's display
// names for ids in the breakdown (New Bedford's "seamens_bethel" is "Seamen's Bethel"), as
// values and as row labels. `notes`: the renderer's lines about the end beyond the scores
// (Founders' Shaping history: the winner's event card), shown under the winner.
export function result(game, ctx, names, notes) {
  const cat = catalog(game.engine);
  // An id of the breakdown: the renderer's name, else the engine's `name.` or its `label.details`.
  const named = (x) => (typeof x !== 'string' ? null : names && Object.prototype.hasOwnProperty.call(names, x) ? names[x]
    : cat.has(`name.${x}`) ? cat.t(`name.${x}`) : null);
  // A row's label: the engine's `label.details` when it words that row itself (a label, capitalised:
  // "Money", "Remolacha"), else the name (a word for sentences: "money"), else the id in words.
  const detailLabel = (x) => {
    if (!cat.has('label.details')) return null;
    const said = cat.t('label.details', { detail: x, text: '\u0000' });
    return said === '\u0000' ? null : said;
  };
  const rowName = (x) => (typeof x === 'string' && !(names && Object.prototype.hasOwnProperty.call(names, x)) ? detailLabel(x) : null)
    ?? named(x) ?? (cat.has('label.details') ? cat.t('label.details', { detail: x, text: humanize(x) }) : humanize(x));
  const o = game.outcome;
  const n = game.players || (o.scores || []).length;
  const winners = o.winners || [];
  const details = Array.isArray(o.details) ? o.details : [];
  const caps = Array.isArray(o.captains) ? o.captains : [];
  const capName = (c) => (ctx.seatNames && ctx.seatNames[c.player]) || catalog(ctx.engine).t('label.captain', { name: humanize(c.captain || c.player) });
  const cols = [
    ...Array.from({ length: n }, (_, s) => ({ key: s, name: seatName(ctx, s), dot: s, score: (o.scores || [])[s], win: winners.includes(s),
      detail: details.find((d) => d && d.seat === s) || details[s] || {} })),
    ...caps.map((c) => ({ key: `c${c.player}`, name: capName(c), dot: c.player, score: c.total, win: (o.captain_winners || []).includes(c.captain), captain: true,
      detail: Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'player' && k !== 'captain')) })),
  ];
  const seats = cols.map((_, i) => i);
  const bySeat = cols.map((c) => c.detail);
  const won = cols.filter((c) => c.win).map((c) => c.name);
  const rows = [];
  const seen = new Set();
  // A line that is every column's score again (Founders' "points" beside "Score") is not shown
  // twice; a "total" stays, under the lines it adds up (the terminal's render/scores.py alike).
  const repeatsScore = (p) => !p.includes('.') && p !== 'total' && cols.every((c) => typeof c.score === 'number' && c.detail[p] === c.score);
  // A line the engine's catalog says is another line again (`label.details_same_as`: Phoenicia's
  // "VP city center" is its "Bought VP") is not shown twice: the lines shown add up to the score
  // (the terminal's render/scores.py alike).
  const sameAs = (p) => (!p.includes('.') && cat.has('label.details_same_as') ? cat.t('label.details_same_as', { detail: p }) : '');
  const repeatsLine = (p) => !!sameAs(p) && bySeat.some((d) => Object.prototype.hasOwnProperty.call(d, sameAs(p)));
  for (const d of bySeat) {
    for (const [p] of leaves(Object.fromEntries(Object.entries(d).filter(([k]) => k !== 'seat')))) {
      if (!seen.has(p) && !repeatsScore(p) && !repeatsLine(p)) {
        seen.add(p);
        rows.push(p);
      }
    }
  }
  const get = (d, p) => p.split('.').reduce((v, k) => (v && typeof v === 'object' ? v[k] : undefined), d);
  // One record of a list ("barco 3b, capacidad 3, alcanzado sí"): its keys named as the rows are
  // (lower-cased as words), its values as cells; zero and empty entries left out, as fmt does (the
  // terminal's render/scores.py words them alike).
  const lower = (t) => (/^.\p{Ll}/u.test(t) ? t[0].toLowerCase() + t.slice(1) : t); // "PV cada uno" stays
  const word = (x) => named(x) ?? (detailLabel(x) !== null ? lower(detailLabel(x)) : x);
  const record = (r) => {
    const empty = (x) => x === 0 || x === null || x === false || (typeof x === 'object' && !Object.keys(x).length);
    const parts = r && typeof r === 'object' && !Array.isArray(r) ? Object.entries(r).filter(([, x]) => !empty(x)) : [];
    if (!parts.length) return fmt(r);
    return parts.map(([k, x]) => `${lower(rowName(k))} ${typeof x === 'string' ? word(x) : cell(x)}`).join(', ');
  };
  // A record the engine words as a sentence (its catalog's `record.<list>`, e.g. Phoenicia's
  // "Fuerte ×1: 2 PV"): its values as sent, and each id's name as `<key>_name`; else as record()
  // words any record.
  // (a boolean as 'true'/'false', for a select; a list as `<key>_name`, the language's list, with
  // `<key>_count`, each item by the catalog's `record.<key>` where it has one: a record by its
  // fields, Riverboat's boats "3a (capacidad 3, …)" not "barcos barco 3a"; an id by {id} and {name},
  // its colours "amarillo" for a field, not the crop card's "amarilla"; as render/scores.py)
  const item = (key, x) => {
    const name = typeof x === 'string' ? word(x) : cell(x);
    return cat.has(key) ? cat.t(key, { id: x, name }) : name;
  };
  const worded = (key) => (r) => {
    if (!(r && typeof r === 'object' && !Array.isArray(r) && cat.has(key))) return record(r);
    const args = { ...r };
    for (const [k, x] of Object.entries(r)) {
      if (typeof x === 'boolean') args[k] = x ? 'true' : 'false';
      else if (typeof x === 'string') args[`${k}_name`] = word(x);
      else if (Array.isArray(x)) {
        args[`${k}_count`] = x.length;
        args[`${k}_name`] = cat.list(x.map((y) => (y && typeof y === 'object' ? worded(`record.${k}`)(y) : item(`record.${k}`, y))));
      }
    }
    return cat.t(key, args);
  };
  const cell = (v, p = '') => {
    if (Array.isArray(v) && v.some((x) => x && typeof x === 'object')) return v.map(worded(`record.${p.split('.').pop()}`)).join('; ');
    if (Array.isArray(v) && v.length) return v.map((x) => named(x) ?? fmt(x)).join(', ');
    return named(v) ?? fmt(v);
  };
  const who = catalog('tablero').list(won);
  // The first dozen plain lines up front; lists of records and the long tail folded away.
  const depth = (p) => p.split('.').length;
  const parent = (p) => p.split('.').slice(0, -1).join('.');
  // A long group is the long tail, folded away whole: Phoenicia's "VP by card › …", a line per
  // development card (15 of them), pushed the lines that add up to the score down the table.
  const long = (p) => depth(p) > 1 && rows.filter((r) => depth(r) > 1 && parent(r) === parent(p)).length > LONG_GROUP;
  const plain = rows.filter((p) => !long(p) && !bySeat.some((d) => Array.isArray(get(d, p)) && get(d, p).some((x) => x && typeof x === 'object')));
  // (the tie-break lines only when the best score is shared, below: Phoenicia's "Tie-break › Money"
  // and four more, the same numbers as its "Money" and "Last overlord", filled a game won outright)
  const main = plain.filter((p) => !/tie/i.test(p)).sort((a, b) => depth(a) - depth(b)).slice(0, 12); // totals before their parts
  // A group shown is shown whole: New Bedford's "Whales › Bowhead", "› Right Whale" up front and
  // "› Sperm Whale" folded away left the whale points not adding up on screen.
  for (const p of plain) {
    if (depth(p) > 1 && !main.includes(p) && main.some((m) => depth(m) > 1 && parent(m) === parent(p))) main.push(p);
  }
  // A shared best score: the tie-break lines that tell the tied seats apart are shown too (the
  // one that decided it must not hide in the folded breakdown).
  const best = Math.max(...cols.map((c) => (typeof c.score === 'number' ? c.score : -Infinity)));
  const tied = cols.map((c, i) => i).filter((i) => cols[i].score === best);
  if (tied.length > 1) {
    for (const p of plain) {
      if (!main.includes(p) && /tie/i.test(p) && new Set(tied.map((i) => JSON.stringify(get(bySeat[i], p) ?? null))).size > 1) main.push(p);
    }
  }
  // In the order they came, a total last (under the lines it adds up: a server may send the
  // outcome's keys in any order, e.g. sorted).
  const isTotal = (p) => (p.split('.').pop() === 'total' ? 1 : 0);
  // (a group's lines together, where its first line came: a Captain's "Victory buildings › Seamen's
  // Bethel" came after the tie-breaks, away from the seat's "› Counting House")
  const at = (p) => (depth(p) > 1 ? rows.findIndex((r) => parent(r) === parent(p)) : rows.indexOf(p));
  main.sort((a, b) => isTotal(a) - isTotal(b) || at(a) - at(b) || rows.indexOf(a) - rows.indexOf(b));
  const more = rows.filter((p) => !main.includes(p));
  const label = (p) => p.split('.').map(rowName).join(' › ');
  // A line of lists (New Bedford's buildings, Phoenicia's cards) in a table of three columns or
  // more: on a phone its cells say how many and the names are listed in full under the table
  // (style.css), where four seat columns broke "Lighthouse" into "Light/hous/e".
  const listed = cols.length >= 3 ? (p) => bySeat.some((d) => Array.isArray(get(d, p)) && get(d, p).length) : () => false;
  const inCell = (v, p) => (listed(p) ? [h('span', { class: 'full' }, cell(v, p)), h('span', { class: 'count' }, Array.isArray(v) && v.length ? fmt(v.length) : cell(v, p))] : cell(v, p));
  const row = (p) => h('tr', { class: listed(p) ? 'list' : null }, h('th', { scope: 'row' }, label(p)), seats.map((s) => h('td', {}, inCell(get(bySeat[s], p), p))));
  // Three or four columns on a phone: each line's name on a row of its own above its cells, so the
  // seats share the whole width (style.css `.stacked`); no word is broken in two.
  const table = (...rows) => h('table', cols.length >= 3 && cols.length <= 4 ? { class: 'scores stacked', style: `--cols: ${cols.length}` } : { class: 'scores' }, ...rows);
  const lists = (ps) => (ps.some(listed) ? h('dl', { class: 'score-lists' }, ps.filter(listed).map((p) => [h('dt', {}, label(p)),
    h('dd', {}, h('ul', {}, seats.map((s) => h('li', {}, h('span', { class: `dot c${cols[s].dot}` }), ` ${cols[s].name}: `, cell(get(bySeat[s], p), p)))))])) : null);
  return h('div', { class: 'panel' },
    h('h2', {}, T('web.final_scores')),
    h('p', { class: 'winner' }, won.length ? `🏆 ${T('web.wins', { who, n: won.length })}`
      : cols.length === 1 ? T('web.did_not_win', { who: cols[0].name, has_reason: String(!!o.reason), reason: o.reason ? rowName(o.reason) : '' }) : T('web.draw')),
    (notes || []).map((x) => h('p', { class: 'outcome-note' }, x)),
    h('div', { class: 'scroll' }, table(
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), cols.map((c) => h('th', { scope: 'col', class: c.captain ? 'captain' : '' }, h('span', { class: `dot c${c.dot}` }), ` ${c.name}`)))),
      h('tbody', {},
        h('tr', { class: 'total' }, h('th', { scope: 'row' }, T('web.score')), cols.map((c) => h('td', { class: [c.win ? 'win' : '', c.captain ? 'captain' : ''].join(' ').trim() }, fmt(c.score)))),
        main.map(row)))),
    lists(main),
    more.length ? h('details', { class: 'more' }, h('summary', {}, T('web.breakdown', { n: more.length })),
      h('div', { class: 'scroll' }, table(h('tbody', {}, more.map(row)))), lists(more)) : null);
}
