// Founders of Gloomhaven: the city map square by square (terrain colours, buildings with
// their owners, roads, bridges/gates, numbered squares), buildings listed by section,
// the adviser offer, proposals, prestige buildings, the vote and each player's mat.
// Hands: only the viewer's own; secret votes only as "voted" (the view never has them).
import { h, humanize, fmt, title } from '../dom.js';
import { seatName } from '../words.js';
import { catalog } from '../i18n.js';
import { pick, pickAlso, res } from './common.js';

const TERRAIN = { red: ['#e9a89b', 'red'], white: ['#f4f1e8', 'white'], green: ['#a9d39a', 'green'], grey: ['#b8b8b8', 'grey'], river: ['#8fbde6', 'river'], wall: ['#6d5f52', 'wall'] };
const KIND = { stall: '▪', t2: '◆', t3: '⬟', house: '⌂', bridge: '═', prestige: '★' };

function kindName(t, colour) {
  if (t.kind === 'bridge') return colour === 'wall' ? 'gate' : 'bridge';
  if (t.kind === 't2' || t.kind === 't3') return `tier ${t.kind[1]} building`;
  return t.kind;
}

function ownerName(ctx, t) {
  if (t.owner !== null && t.owner !== undefined) return seatName(ctx, t.owner);
  return t.neutral || t.kind === 'stall' ? 'neutral' : 'unowned';
}

// A square as the map labels it, and as the terminal client names it (clients/python/…/
// founders_of_gloomhaven.py): its column's letter and its row's number, "B5" (cell 85 of a map 21
// squares wide); the bare number when the view has no map.
const column = (c) => (c < 26 ? String.fromCharCode(65 + c) : column(Math.floor(c / 26) - 1) + String.fromCharCode(65 + (c % 26)));

export function squareName(v, cell) {
  const w = Number(((v || {}).map || {}).width) || 0;
  if (!Number.isInteger(cell) || cell < 0 || w <= 0) return String(cell);
  return `${column(cell % w)}${Math.floor(cell / w) + 1}`;
}

function square(ctx, v, i) {
  const m = v.map;
  const colour = (m.colours || [])[i];
  const [bg, tname] = TERRAIN[colour] || ['#eee', colour || '?'];
  const occ = (v.occupancy || [])[i];
  const num = (m.numbered || {})[String(i)];
  const secIdx = (m.sections || [])[i];
  const sec = secIdx !== null && secIdx !== undefined ? (m.section_names || [])[secIdx] || `section ${secIdx}` : null;
  const t = occ >= 0 ? (v.tiles || [])[occ] : null;
  let title = `square ${squareName(v, i)}: ${tname}${sec ? `, ${sec}` : ''}`;
  let body = null;
  let cls = `fg-sq t-${colour}`;
  if (occ === -2) {
    cls += ' road';
    title += ', road';
    body = h('span', { class: 'fg-road', 'aria-hidden': 'true' });
  } else if (t) {
    const owned = t.owner !== null && t.owner !== undefined;
    cls += ` bld k-${t.kind}${owned ? ` c${t.owner} owned` : ' neutral'}`;
    title += `, ${kindName(t, colour)}${t.resource ? ` (${t.resource})` : ''} of ${ownerName(ctx, t)}`;
    body = h('span', { class: 'fg-bld' }, KIND[t.kind] || '?');
  } else if (num !== undefined) {
    body = h('small', { class: 'fg-num' }, String(num));
    title += `, numbered ${num}`;
  }
  const el = h('div', { class: cls, style: { background: bg }, title }, body);
  return pickAlso(pick(el, 'cell', i, title), 'cells', [i]);
}

// The squares row by row, under a row of column letters and after each row's number.
function cityMap(ctx, v) {
  const m = v.map || {};
  const w = m.width || 0;
  const cells = [h('span', { class: 'fg-label', 'aria-hidden': 'true' }), ...Array.from({ length: w }, (_, c) => h('span', { class: 'fg-label', 'aria-hidden': 'true' }, column(c)))];
  for (let i = 0; i < w * (m.height || 0); i++) {
    if (i % w === 0) cells.push(h('span', { class: 'fg-label', 'aria-hidden': 'true' }, String(i / w + 1)));
    cells.push(square(ctx, v, i));
  }
  return h('div', { class: 'fg-map', 'data-width': String(w), style: { gridTemplateColumns: `repeat(${w + 1}, var(--sq))` } }, cells);
}

function legend() {
  return h('div', { class: 'fg-legend small-print' },
    Object.entries(TERRAIN).map(([k, [bg, name]]) => h('span', {}, h('span', { class: 'fg-swatch', style: { background: bg } }), ` ${name} `)),
    Object.entries(KIND).map(([k, icon]) => h('span', {}, ` ${icon} ${k === 'bridge' ? 'bridge/gate' : k === 't2' ? 'tier 2' : k === 't3' ? 'tier 3' : k} `)),
    h('span', {}, ' ┄ road'));
}

function bySection(ctx, v) {
  const groups = {};
  const m = v.map || {};
  (v.tiles || []).forEach((t) => {
    const idx = (m.sections || [])[(t.cells || [])[0]];
    const named = idx !== null && idx !== undefined ? (m.section_names || [])[idx] : null;
    const key = named ? `${named} (${t.section || idx})` : t.section ? humanize(t.section) : 'outside the sections';
    (groups[key] = groups[key] || []).push(t);
  });
  return h('div', { class: 'tiles fg-sections' }, Object.entries(groups).map(([sec, ts]) => h('div', { class: 'tile fg-section' },
    h('h4', {}, sec),
    h('ul', {}, ts.map((t) => pick(h('li', {},
      t.owner !== null && t.owner !== undefined ? h('span', { class: `dot c${t.owner}` }) : h('span', { class: 'dot neutral-dot' }),
      ` ${KIND[t.kind] || ''} ${humanize(kindName(t, (v.map.colours || [])[t.cells[0]]))}${t.resource ? ` · ${t.resource}` : ''}${t.card ? ` · ${cardName(v, t.card)}` : ''} · ${ownerName(ctx, t)}`,
      (t.claims || []).length ? h('small', {}, ` claims: ${t.claims.map((c) => seatName(ctx, c)).join(', ')}`) : null), 'tile', t.id, `Tile ${t.id}`))))));
}

function voteBox(ctx, v) {
  const vt = v.vote;
  if (!vt) return h('div', { class: 'fg-vote' }, h('strong', {}, 'Vote: '), 'none called');
  return h('div', { class: 'fg-vote' }, h('strong', {}, 'Vote: '), `called by ${seatName(ctx, vt.caller)} · ${humanize(vt.stage || '')}`,
    h('ul', {}, (vt.voted || []).map((did, s) => h('li', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)}: `,
      vt.votes && vt.votes[s] ? `${proposalNow(v, vt.votes[s].proposal)} with ${vt.votes[s].fleeting + vt.votes[s].lasting} influence`
        : s === ctx.seat && vt.my_vote ? `you voted for ${proposalNow(v, vt.my_vote.proposal)} (secret)`
          : did ? 'voted (secret)' : 'not voted yet'))),
    (vt.tied || []).length ? h('small', {}, `tied: ${vt.tied.map((x) => proposalNow(v, x)).join(', ')} `) : null,
    vt.decider !== null && vt.decider !== undefined ? h('small', {}, `decider ${seatName(ctx, vt.decider)} `) : null);
}

function player(ctx, v, p) {
  const s = p.seat;
  const mine = s === ctx.seat;
  const turn = (v.to_act || []).includes(s);
  return h('section', { class: `box player c${s}${mine ? ' me' : ''}`, 'aria-label': `${seatName(ctx, s)}'s mat` },
    h('h3', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)} `, h('small', {}, `${raceName(p.race)}${turn ? ' · to act' : ''}${v.active === s ? ' · active' : ''}`)),
    h('div', {}, res('★', p.points, 'points'), res('¢', p.money, 'money'), res('✦', p.fleeting, 'fleeting influence'), res('✧', p.lasting, 'lasting influence'),
      res('☺', `${p.workers}`, 'workers'), res('⌂', p.houses, 'houses'), res('═', p.bridges, 'bridges/gates'), res('┄', p.roads, 'roads'), res('↑', p.income, 'income')),
    h('div', { class: 'small-print' }, `Resources: ${(p.resources || []).join(', ') || 'none'}`),
    h('div', { class: 'small-print' }, `Race action: ${fmt(p.race_action)} · workers placed: ${(p.workers_placed || []).join(', ') || 'none'}`),
    h('div', { class: 'small-print' }, `Advisers recruited: ${Array.isArray(p.advisers) ? p.advisers.map(humanize).join(', ') || 'none' : p.advisers ?? 0}`),
    played(p),
    mine && p.hand ? h('div', { class: 'fg-hand' }, h('strong', {}, 'Your hand: '), p.hand.map((c) => pick(h('span', { class: 'tile fg-card' }, humanize(c)), 'card', c, `Card ${c}`)))
      : h('div', { class: 'small-print' }, `Hand: ${p.hand_size} card${p.hand_size === 1 ? '' : 's'}`),
    h('div', { class: 'small-print' }, `Score: ${Object.entries(p.score || {}).map(([k, x]) => `${k} ${x}`).join(' · ')}`));
}

// Played cards, face up and face down apart, each card its own chip: "Face up: Build, Recruit ·
// Face down: Mason" (another player's face-down cards are hidden: "1 hidden card").
function played(p) {
  const cards = p.played || [];
  const up = cards.filter((c) => c.face_up);
  const down = cards.filter((c) => !c.face_up);
  const chip = (c) => h('span', { class: `fg-played ${c.face_up ? 'face-up' : 'face-down'}`, 'data-face': c.face_up ? 'up' : 'down', title: c.face_up ? 'played face up' : 'played face down' },
    c.face_up ? humanize(c.card) : `🂠 ${c.card ? humanize(c.card) : 'hidden card'}`);
  const hidden = down.filter((c) => !c.card).length;
  const known = down.filter((c) => c.card);
  return h('div', { class: 'small-print fg-played-cards' }, 'Played',
    cards.length ? '' : ': none',
    up.length ? h('span', { class: 'fg-played-group', 'data-face': 'up' }, ' · face up: ', up.map(chip)) : null,
    down.length ? h('span', { class: 'fg-played-group', 'data-face': 'down' }, ' · face down: ', known.map(chip),
      hidden ? h('span', { class: 'fg-played face-down', 'data-face': 'down', title: 'played face down' }, `🂠 ${hidden} hidden card${hidden === 1 ? '' : 's'}`) : null) : null);
}

// The prestige buildings' printed names (engines/founders_of_gloomhaven/edition.json, "prestige"
// → "name"; a test keeps the two the same). The view names only the cards in sight now: a
// building of an earlier vote, read again from the log after a reload, is named from here.
export const PRINTED = { salt_barrel: "Salt Barrel", west_gate: "West Gate", north_gate: "North Gate", ghost_fortress: "Ghost Fortress", golden_lion: "The Golden Lion", temple_great_oak: "Temple of the Great Oak", grand_theater: "Grand Theater", luxury_shop: "Luxury Shop", tanners_hall: "Tanners' Hall", scholars_library: "Scholars' Library", foundry: "Foundry", market_square: "Market Square", armory: "Armory", guild_house: "Guild House", council_chamber: "Council Chamber", harbor_warehouse: "Harbor Warehouse", healers_hospice: "Healers' Hospice", stonemason_lodge: "Stonemason Lodge", tavern: "Tavern", watchtower: "Watchtower", weavers_hall: "Weavers' Hall" };

// A card's name as printed, capitals and apostrophes kept ("Weavers' Hall"), the same everywhere and
// after a reload: the view's card facts, else the prestige list, else the printed names; an adviser
// not in sight by its id in title case, as the view names advisers.
export function cardName(v, id) {
  const printed = v && v.cards && v.cards[id];
  if (printed && printed.name) return printed.name;
  const pb = ((v && v.prestige) || []).find((x) => x.card === id);
  if (pb && pb.name) return pb.name;
  return Object.prototype.hasOwnProperty.call(PRINTED, id) ? PRINTED[id] : title(String(id ?? ''));
}

// What a card says (view.cards): a proposal's requirements and points, an adviser's terms.
function cardText(v, id) {
  const c = v && v.cards && v.cards[id];
  if (!c) return '';
  if (c.kind === 'prestige') {
    const act = Object.entries(c.action || {}).map(([k, n]) => `${n} ${k}`).join(', ');
    return `needs ${(c.requires || []).join(' + ')} · ${c.points} pts · ${c.shape || ''} ${c.colour || ''}${act ? ` · worker: ${act}` : ''}`;
  }
  const bonus = Object.entries(c.bonus || {}).map(([k, n]) => `+${n} ${k}`).join(', ');
  return `${c.category} · needs ${c.resource} · value ${c.value}${c.discount ? ` · discount ${c.discount}` : ''}${bonus ? ` · ${bonus}` : ''}`;
}

// The proposals on the table when the log's event `ctx.at` happened: from the last
// game_started or proposals_drawn before it; the view's when the log is not at hand.
function proposalsThen(ctx) {
  const log = ctx.log || [];
  for (let i = Math.min(ctx.at ?? log.length - 1, log.length - 1); i >= 0; i--) {
    const e = log[i].event || {};
    if (e.type === 'proposals_drawn' && Array.isArray(e.cards)) return e.cards;
    if (e.type === 'game_started') return Array.isArray(e.proposals) ? e.proposals : null;
  }
  return ctx.log ? null : ((ctx.view || {}).proposals || null);
}

// "proposal 2 (Salt Barrel)": numbered from 1 with its name, as the terminal client says it.
function proposalName(ctx, i) {
  const names = proposalsThen(ctx);
  if (!names || !names[i]) return `proposal ${i + 1}`;
  return `proposal ${i + 1} (${cardName(ctx.view, names[i])})`;
}

// The same for an action, from the view's proposals.
const proposalNow = (v, i) => proposalName({ view: v }, i);

// Who delivered a required resource: a seat, -1 for a neutral token, nothing yet.
function deliveredBy(ctx, who) {
  if (who === null || who === undefined) return '';
  return who < 0 ? ' ✓neutral' : ` ✓${seatName(ctx, who)}`;
}

function render(ctx) {
  const v = ctx.view;
  const cur = v.current;
  const costs = v.offer_costs || [];
  return h('div', { class: 'board-game fg' },
    h('div', { class: 'box' }, h('strong', {}, humanize(v.phase || '')),
      cur ? ` · ${seatName(ctx, cur.seat)} ${cur.role ? humanize(cur.role).toLowerCase() + 's' : 'acts'}${cur.category ? ` (${cur.category})` : ''}` : '',
      ` · to act: ${(v.to_act || []).map((s) => seatName(ctx, s)).join(', ') || 'nobody'}`,
      v.active !== null && v.active !== undefined ? ` · active player ${seatName(ctx, v.active)}` : ''),
    h('section', { class: 'box fg-board', 'aria-label': 'City map' },
      h('h3', {}, `Gloomhaven (${humanize(v.map.side || '')})`), legend(), cityMap(ctx, v),
      h('h3', {}, 'Buildings by section'), bySection(ctx, v)),
    h('section', { class: 'box fg-council', 'aria-label': 'Offer, proposals and vote' },
      h('h3', {}, 'Adviser offer'),
      h('div', { class: 'tiles' }, (v.offer || []).map((a, i) => a === null || a === undefined ? h('div', { class: 'tile fg-adviser muted' }, h('h4', {}, 'empty slot')) : pick(h('div', { class: 'tile fg-adviser' }, h('h4', {}, cardName(v, a)), h('small', {}, `cost ${costs[i] ?? '?'}`), cardText(v, a) ? h('div', { class: 'small-print' }, cardText(v, a)) : null), 'slot', i, `Adviser ${a}`)),
        h('small', {}, ` deck ${v.adviser_deck_size ?? '?'}`)),
      h('h3', {}, 'Proposals'),
      h('div', { class: 'tiles' }, (v.proposals || []).map((p, i) => pick(h('div', { class: 'tile fg-proposal' }, h('h4', {}, `${i + 1}. ${cardName(v, p)}`), cardText(v, p) ? h('div', { class: 'small-print' }, cardText(v, p)) : null), 'proposal', i, `Proposal ${i + 1}`)),
        h('small', {}, ` deck ${v.proposal_deck_size ?? '?'}`)),
      h('h3', {}, 'Prestige buildings'),
      h('div', { class: 'tiles' }, (v.prestige || []).length ? v.prestige.map((pb) => h('div', { class: `tile fg-prestige${pb.complete ? ' used' : ''}` },
        h('h4', {}, `★ ${pb.name}`), h('div', {}, `needs ${(pb.requires || []).map((r, i) => `${r}${deliveredBy(ctx, (pb.delivered || [])[i])}`).join(', ')}`),
        h('small', {}, `${pb.points} pts${pb.complete ? ' · complete' : ''}${pb.worker !== null && pb.worker !== undefined ? ` · worker ${seatName(ctx, pb.worker)}` : ''}`))) : h('span', { class: 'muted' }, 'none yet')),
      h('div', { class: 'fg-completions' }, h('strong', {}, 'Completion tokens: '), String(v.completions ?? 0)),
      voteBox(ctx, v),
      h('div', { class: 'small-print' }, `Neutral: ${(v.neutral || []).join(', ') || 'none'} · roads left ${v.roads_left} · supply: ${fmt(v.supply)}`)),
    h('div', { class: 'players-row' }, (v.players || []).map((p) => player(ctx, v, p))));
}

const raceName = (r) => humanize(String(r ?? ''));
const sq = (v, cells) => ((cells || []).length === 1 ? `square ${squareName(v, cells[0])}` : `squares ${(cells || []).map((c) => squareName(v, c)).join(', ')}`);
const at = (v, word, cell) => (cell === undefined || cell === null ? '' : `${word} ${sq(v, [cell])}`);
const name = (x) => humanize(String(x ?? '')).toLowerCase();

// Display names for ids in the final scores: races as the lobby names them ("Quatryl").
function outcomeNames(game) {
  const names = {};
  for (const p of (((game && game.view) || {}).players || [])) if (p && p.race) names[p.race] = raceName(p.race);
  for (const d of ((game && game.outcome) || {}).details || []) if (d && d.race) names[d.race] = raceName(d.race);
  return names;
}

// Shaping history (outcome.shaping_history, engine v8): the winner's race event card, and what its
// three blanks need — the buildings the winner delivered to, each with its city section. The blanks
// are filled in on the printed card, not in the game.
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

function outcomeNotes(game, ctx) {
  const out = (game && game.outcome) || {};
  // The safety end (RULES.md): round after round with nothing to vote on and nobody delivering.
  const stalled = out.reason === 'stalled'
    ? ['The game ended stalled: vote after vote had no proposal left and nobody delivered a resource, so it was scored as it stood (the rulebook\'s own end, the sixth completed building, could no longer come).']
    : [];
  const hist = out.shaping_history;
  if (!hist || typeof hist !== 'object') return stalled;
  const v = ((game && game.view) || {});
  const bs = Array.isArray(hist.buildings) ? hist.buildings : [];
  const where = (b) => [b.section, hist.delivered_to ? plural(b.deliveries || 0, 'delivery token') : null].filter(Boolean).join(', ');
  const listed = bs.map((b) => `${b.name || cardName(v, b.card)}${where(b) ? ` (${where(b)})` : ''}`).join('; ');
  const who = seatName(ctx, hist.seat);
  return [
    ...stalled,
    `📜 Shaping history: ${who} receives the ${raceName(hist.race)} event card, “${hist.card}”.`,
    `${who} writes on it: 1. their favourite building that contributed to the victory; 2. the city section it was built in; 3. the name of the city's governing body founded after the victory. The card then goes into Gloomhaven's event deck; the other 8 cards are never used.`,
    listed ? `${hist.delivered_to ? `Buildings ${who} delivered to` : 'No building holds a delivery of theirs; the city\'s buildings'}: ${listed}.` : null,
  ].filter(Boolean);
}

// A value of an action's field in words, for the step-by-step move builder: squares as the map
// labels them ("square B5"; a list of squares item by item, "B5 + B6"), proposals and slots
// numbered from 1, cards by name.
function valueName(path, value, ctx) {
  const v = (ctx && ctx.view) || {};
  switch (path.split('.').pop()) {
    case 'cell': return Number.isInteger(value) ? sq(v, [value]) : null;
    case 'cells': return Number.isInteger(value) ? squareName(v, value) : null;
    case 'proposal': return Number.isInteger(value) ? proposalNow(v, value) : null;
    case 'slot': return Number.isInteger(value) ? `slot ${value + 1}` : null;
    case 'card': case 'target': case 'building': return typeof value === 'string' ? (value === 'race' ? 'your race action' : cardName(v, value)) : null;
    default: return null;
  }
}

// A field of an event or an action as the map and the board name it: squares "B5", proposals
// numbered from 1 with their names, cards as printed, slots from 1 (the catalog's templates say the rest).
function fieldValue(key, value, ctx) {
  const v = (ctx && ctx.view) || {};
  if (key === 'cell' && Number.isInteger(value)) return squareName(v, value);
  if (key === 'cells' && Array.isArray(value)) return value.map((c) => squareName(v, c)).join(', ');
  if ((key === 'proposal' || key === 'winner') && Number.isInteger(value)) return proposalName(ctx, value).replace(/^proposal /, '');
  if (key === 'totals' && Array.isArray(value)) { // a vote's influence by proposal, named as they were then
    const names = proposalsThen(ctx) || [];
    const cat = catalog('founders-of-gloomhaven');
    return cat.list(value.map((n, i) => cat.t('label.votes', { name: names[i] ? cardName(v, names[i]) : String(i + 1), n })));
  }
  if (['card', 'target', 'building', 'adviser'].includes(key) && typeof value === 'string') return cardName(v, value);
  if (key === 'slot' && Number.isInteger(value)) return String(value + 1);
  return null;
}

// The lobby's option texts: catalog keys by option (schema-form.js).
export const OPTION_TEXTS = {
  map: { label: 'label.option.map', hint: 'label.option.map_hint', values: { symmetric: 'label.option.map.symmetric', thematic: 'label.option.map.thematic' } },
  achievements: { label: 'label.option.achievements', hint: 'label.option.achievements_hint' },
  no_workers: { label: 'label.option.no_workers', hint: 'label.option.no_workers_hint' },
  shaping_history: { label: 'label.option.shaping_history', hint: 'label.option.shaping_history_hint' },
  races: { label: 'label.option.races', hint: 'label.option.races_hint' },
  setup: { label: 'label.option.setup', hint: 'label.option.setup_hint', values: { draft: 'label.option.setup.draft', dealt: 'label.option.setup.dealt' } },
  solo_section: { label: 'label.option.solo_section', hint: 'label.option.solo_section_hint', values: { left: 'label.option.solo_section.left', middle: 'label.option.solo_section.middle', right: 'label.option.solo_section.right' } },
};

export default { render, valueName, fieldValue, outcomeNames, outcomeNotes, optionTexts: OPTION_TEXTS };
