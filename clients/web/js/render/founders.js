// Founders of Gloomhaven: the city map square by square (terrain colours, buildings with
// their owners, roads, bridges/gates, numbered squares), buildings listed by section,
// the adviser offer, proposals, prestige buildings, the vote and each player's mat.
// Hands: only the viewer's own; secret votes only as "voted" (the view never has them).
import { h, humanize, title } from '../dom.js';
import { seatName, seatArgs } from '../words.js';
import { catalog, value as named, amounts, pseudoLocale } from '../i18n.js';
import { pick, pickAlso, res } from './common.js';

const TERRAIN = { red: '#e9a89b', white: '#f4f1e8', green: '#a9d39a', grey: '#b8b8b8', river: '#8fbde6', wall: '#6d5f52' };
const KIND = { stall: '▪', t2: '◆', t3: '⬟', house: '⌂', bridge: '═', prestige: '★' };
const FG = 'founders-of-gloomhaven';
const L = (key, args) => catalog(FG).t(key, args);
const word = (x) => named(catalog(FG), x);

// A building kind in words: "tier 2 building", a bridge on a wall is a gate.
function kindName(t, colour) {
  return L('label.kind', { kind: t.kind === 'bridge' && colour === 'wall' ? 'gate' : t.kind });
}

function ownerName(ctx, t) {
  if (t.owner !== null && t.owner !== undefined) return seatName(ctx, t.owner);
  return L('label.owner', { neutral: String(!!(t.neutral || t.kind === 'stall')) });
}

// A city section by its place on the map (the view's section names are English).
function sectionName(v, idx) {
  return L('label.section', { side: ((v || {}).map || {}).side || 'thematic', n: idx });
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
  const bg = TERRAIN[colour] || '#eee';
  const occ = (v.occupancy || [])[i];
  const num = (m.numbered || {})[String(i)];
  const secIdx = (m.sections || [])[i];
  const t = occ >= 0 ? (v.tiles || [])[occ] : null;
  const args = {
    square: squareName(v, i), terrain: colour || '?', has_section: String(secIdx !== null && secIdx !== undefined),
    section: secIdx !== null && secIdx !== undefined ? sectionName(v, secIdx) : '', what: 'none', kind: '', resource: '', has_resource: 'false', owner: '', has_owner: 'false', number: num ?? '',
  };
  let body = null;
  let cls = `fg-sq t-${colour}`;
  if (occ === -2) {
    cls += ' road';
    args.what = 'road';
    body = h('span', { class: 'fg-road', 'aria-hidden': 'true' });
  } else if (t) {
    const owned = t.owner !== null && t.owner !== undefined;
    cls += ` bld k-${t.kind}${owned ? ` c${t.owner} owned` : ' neutral'}`;
    // a prestige building by its name ("prestige (Foundry)"): it belongs to nobody (p. 20)
    const what = t.kind === 'prestige' && t.card ? cardName(v, t.card) : t.resource ? word(t.resource) : '';
    Object.assign(args, { what: 'building', kind: kindName(t, colour), resource: what, has_resource: String(!!what), owner: ownerName(ctx, t), has_owner: String(t.kind !== 'prestige') });
    body = h('span', { class: 'fg-bld' }, KIND[t.kind] || '?');
  } else if (num !== undefined) {
    body = h('small', { class: 'fg-num' }, String(num));
    args.what = 'number';
  }
  const title = L('label.square_title', args);
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
    Object.entries(TERRAIN).map(([k, bg]) => h('span', {}, h('span', { class: 'fg-swatch', style: { background: bg } }), ' ', L('label.terrain', { terrain: k }), ' ')),
    Object.entries(KIND).map(([k, icon]) => h('span', {}, ` ${icon} `, L('label.legend', { kind: k }), ' ')),
    h('span', {}, ' ┄ ', L('label.legend', { kind: 'road' })));
}

function bySection(ctx, v) {
  const groups = {};
  const m = v.map || {};
  (v.tiles || []).forEach((t) => {
    const idx = (m.sections || [])[(t.cells || [])[0]];
    const key = idx !== null && idx !== undefined ? sectionName(v, idx) : t.section ? word(t.section) : L('label.outside_sections');
    (groups[key] = groups[key] || []).push(t);
  });
  return h('div', { class: 'tiles fg-sections' }, Object.entries(groups).map(([sec, ts]) => h('div', { class: 'tile fg-section' },
    h('h4', {}, sec),
    h('ul', {}, ts.map((t) => pick(h('li', {},
      t.owner !== null && t.owner !== undefined ? h('span', { class: `dot c${t.owner}` }) : h('span', { class: 'dot neutral-dot' }),
      ` ${KIND[t.kind] || ''} ${kindName(t, (v.map.colours || [])[t.cells[0]])}${t.resource ? ` · ${word(t.resource)}` : ''}${t.card ? ` · ${cardName(v, t.card)}` : ''} · ${ownerName(ctx, t)}`,
      (t.claims || []).length ? h('small', {}, ' ', L('label.claims', { who: catalog(FG).list(t.claims.map((c) => seatName(ctx, c))) })) : null), 'tile', t.id, L('label.tile_n', { id: t.id + 1 })))))));
}

// The vote: who called it, and each seat's vote (another seat's stays secret until the reveal).
function voteBox(ctx, v) {
  const vt = v.vote;
  if (!vt) return h('div', { class: 'fg-vote' }, h('strong', {}, L('label.vote'), ' '), L('label.no_vote'));
  return h('div', { class: 'fg-vote' }, h('strong', {}, L('label.vote'), ' '), L('label.vote_called', { ...seatArgs(ctx, vt.caller), stage: L('label.vote_stage', { stage: vt.stage || '' }) }),
    h('ul', {}, (vt.voted || []).map((did, s) => h('li', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)}: `,
      // n: the vote's strength as the totals count it (1 + fleeting + 2 × lasting, p. 15)
      vt.votes && vt.votes[s] ? L('label.vote_counted', { proposal: proposalNow(v, vt.votes[s].proposal), n: 1 + vt.votes[s].fleeting + 2 * vt.votes[s].lasting, fleeting: vt.votes[s].fleeting, lasting: vt.votes[s].lasting })
        : s === ctx.seat && vt.my_vote ? L('label.my_vote', { proposal: proposalNow(v, vt.my_vote.proposal), fleeting: vt.my_vote.fleeting ?? 0, lasting: vt.my_vote.lasting ?? 0 })
          : L('label.vote_state', { voted: String(!!did) })))),
    (vt.tied || []).length > 1 ? h('small', {}, L('label.tied', { what: catalog(FG).list(vt.tied.map((x) => proposalNow(v, x))) }), ' ') : null,
    vt.decider !== null && vt.decider !== undefined ? h('small', {}, L('label.decider', seatArgs(ctx, vt.decider)), ' ') : null);
}

// The achievements variant: the card drawn from each deck, what it asks and gives (the catalog's
// words for our edition's cards, edition.json "achievements"), and who scored it.
const DECKS = ['immediate', 'mid', 'end'];
function achievementsBox(ctx, v) {
  const drawn = v.achievements;
  if (!drawn || typeof drawn !== 'object' || !Object.keys(drawn).length) return null;
  const scored = v.achievements_scored || {};
  return h('div', { class: 'fg-achievements' }, h('strong', {}, L('view.achievements'), ' '),
    // (in the decks' order, immediate, mid-game, end: the view's object may come in another)
    h('ul', {}, Object.entries(drawn).sort(([a], [b]) => DECKS.indexOf(a) - DECKS.indexOf(b)).map(([deck, id]) => h('li', { 'data-achievement': id },
      L('label.achievement', { deck: L('label.term_achievement_deck', { deck }), name: L('label.achievement_name', { id }), id,
        scored: String(Object.prototype.hasOwnProperty.call(scored, id)), who: catalog(FG).list((scored[id] || []).map((s) => seatName(ctx, s))) || L('web.nobody') })))));
}

// The solo game (p. 18): the cycle of 7, what each proposal costs, and the neutral claim tokens
// the next vote makes the player pay for (or lose).
function soloBox(v) {
  const solo = v.solo;
  if (!solo || typeof solo !== 'object') return null;
  const claims = (v.prestige || []).filter((pb) => pb.neutral_claim && !pb.complete).length;
  const costs = catalog(FG).list((solo.costs || []).map((cost, i) => L('label.solo_cost', { n: i + 1, cost })));
  return h('div', { class: 'fg-solo' }, L('label.solo', { cycle: solo.cycle ?? '?', costs, claims }));
}

function player(ctx, v, p) {
  const s = p.seat;
  const mine = s === ctx.seat;
  const turn = (v.to_act || []).includes(s);
  const list = (xs) => catalog(FG).list(xs) || L('value.none');
  return h('section', { class: `box player c${s}${mine ? ' me' : ''}`, 'aria-label': L('label.mat_of', seatArgs(ctx, s)) },
    h('h3', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)} `, h('small', {}, L('label.player_state', { race: raceName(p.race), to_act: String(turn), active: String(v.active === s) }))),
    h('div', {}, res('★', p.points, L('label.res', { res: 'points' })), res('¢', p.money, L('label.res', { res: 'money' })), res('✦', p.fleeting, L('label.res', { res: 'fleeting' })), res('✧', p.lasting, L('label.res', { res: 'lasting' })),
      res('☺', `${p.workers}`, L('label.res', { res: 'workers' })), res('⌂', p.houses, L('label.res', { res: 'houses' })), res('═', p.bridges, L('label.res', { res: 'bridges' })), res('┄', p.roads, L('label.res', { res: 'roads' })), res('↑', p.income, L('label.res', { res: 'income' }))),
    h('div', { class: 'small-print' }, L('label.resources', { what: list((p.resources || []).map(word)) })),
    h('div', { class: 'small-print' }, L('label.race_action', { what: amounts(catalog(FG), p.race_action || {}), placed: list((p.workers_placed || []).map((x) => (x === 'race' ? L('label.your_race_action') : cardName(v, x)))) })),
    h('div', { class: 'small-print' }, L('label.advisers', { what: Array.isArray(p.advisers) ? list(p.advisers.map((a) => cardName(v, a))) : String(p.advisers ?? 0) })),
    played(v, p),
    mine && p.hand ? h('div', { class: 'fg-hand' }, h('strong', {}, L('label.your_hand'), ' '), p.hand.map((c) => pick(h('span', { class: 'tile fg-card', title: catalog(FG).has(`effect.${c}`) ? L(`effect.${c}`) : null }, cardName(v, c)), 'card', c, L('label.card_pick', { card: cardName(v, c) }))))
      : h('div', { class: 'small-print' }, L('label.hand', { n: p.hand_size })),
    h('div', { class: 'small-print' }, L('label.score', { what: Object.entries(p.score || {}).map(([k, x]) => `${L('label.details', { detail: k, text: k })} ${x}`).join(' · ') })));
}

// Played cards, face up and face down apart, each card its own chip: "Face up: Build, Recruit ·
// Face down: Mason" (another player's face-down cards are hidden: "1 hidden card").
function played(v, p) {
  const cards = p.played || [];
  const up = cards.filter((c) => c.face_up);
  const down = cards.filter((c) => !c.face_up);
  const chip = (c) => h('span', { class: `fg-played ${c.face_up ? 'face-up' : 'face-down'}`, 'data-face': c.face_up ? 'up' : 'down', title: L('label.played_face', { up: String(!!c.face_up) }) },
    c.face_up ? cardName(v, c.card) : `🂠 ${c.card ? cardName(v, c.card) : L('label.hidden_cards', { n: 1 })}`);
  const hidden = down.filter((c) => !c.card).length;
  const known = down.filter((c) => c.card);
  return h('div', { class: 'small-print fg-played-cards' }, L('label.played'),
    cards.length ? '' : [': ', L('value.none_f')], // "Jugadas: ninguna" (feminine, as the cards)
    up.length ? h('span', { class: 'fg-played-group', 'data-face': 'up' }, ' · ', L('label.face_up'), ' ', up.map(chip)) : null,
    down.length ? h('span', { class: 'fg-played-group', 'data-face': 'down' }, ' · ', L('label.face_down'), ' ', known.map(chip),
      hidden ? h('span', { class: 'fg-played face-down', 'data-face': 'down', title: L('label.played_face', { up: 'false' }) }, `🂠 ${L('label.hidden_cards', { n: hidden })}`) : null) : null);
}

// The prestige buildings' printed names (engines/founders_of_gloomhaven/edition.json, "prestige"
// → "name"; a test keeps the two the same). The view names only the cards in sight now: a
// building of an earlier vote, read again from the log after a reload, is named from here.
export const PRINTED = { salt_barrel: "Salt Barrel", west_gate: "West Gate", north_gate: "North Gate", ghost_fortress: "Ghost Fortress", golden_lion: "The Golden Lion", temple_great_oak: "Temple of the Great Oak", grand_theater: "Grand Theater", luxury_shop: "Luxury Shop", tanners_hall: "Tanners' Hall", scholars_library: "Scholars' Library", foundry: "Foundry", market_square: "Market Square", armory: "Armory", guild_house: "Guild House", council_chamber: "Council Chamber", harbor_warehouse: "Harbor Warehouse", healers_hospice: "Healers' Hospice", stonemason_lodge: "Stonemason Lodge", tavern: "Tavern", watchtower: "Watchtower", weavers_hall: "Weavers' Hall" };

// A card's name as printed, capitals and apostrophes kept ("Weavers' Hall"), the same everywhere and
// after a reload: the view's card facts, else the prestige list, else the printed names; an adviser
// not in sight by its id in title case, as the view names advisers.
export function cardName(v, id) {
  const cat = catalog(FG);
  if ((cat.lang !== 'en' || pseudoLocale()) && cat.has(`name.${id}`)) {
    const name = cat.t(`name.${id}`); // a card's name starts with a capital, as printed (the
    return name.charAt(0).toUpperCase() + name.slice(1); // catalog's "comercio" is also the category)
  }
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
  const cat = catalog(FG);
  if (c.kind === 'prestige') {
    const act = amounts(cat, c.action || {});
    return L('label.prestige_text', { needs: (c.requires || []).map(word).join(' + '), points: c.points, shape: c.shape || '', colour: c.colour ? L('label.terrain', { terrain: c.colour }) : '', has_action: String(!!Object.keys(c.action || {}).length), action: act });
  }
  // "+1 carretera", "+1 de influencia temporal": the catalog's amount.<resource> (else its label.res).
  const bonus = Object.entries(c.bonus || {}).map(([k, n]) => `+${cat.has(`amount.${k}`) ? cat.t(`amount.${k}`, { n }) : `${n} ${L('label.res', { res: k })}`}`).join(', ');
  return L('label.adviser_text', { category: word(c.category), resource: word(c.resource), value: c.value, discount: c.discount || 0, has_bonus: String(!!bonus), bonus });
}

// The proposals on the table when the log's event `ctx.at` happened, replayed as the engine
// does (events.py): game_started deals them; a draw while the winner is being placed replaces
// the unplaceable one; any other draw replaces them all, except alone (solo), where the drawn
// cards join the two left (so "proposal 1" after a solo draw is no longer the card just drawn).
// The view's when the log is not at hand.
function proposalsThen(ctx) {
  const log = ctx.log || [];
  if (!ctx.log) return (ctx.view || {}).proposals || null;
  const solo = !!(ctx.view || {}).solo;
  let props = null;
  let winner = null;
  let placing = false;
  for (let i = 0; i <= Math.min(ctx.at ?? log.length - 1, log.length - 1); i++) {
    const e = log[i].event || {};
    if (e.type === 'game_started') props = Array.isArray(e.proposals) ? e.proposals.slice() : null;
    else if ((e.type === 'votes_revealed' && Number.isInteger(e.winner)) || e.type === 'proposal_chosen') {
      winner = e.type === 'proposal_chosen' ? e.proposal : e.winner;
      placing = true;
    } else if (e.type === 'prestige_placed') placing = false;
    else if (e.type === 'proposals_drawn' && Array.isArray(e.cards)) {
      if (placing && props && Number.isInteger(winner)) {
        if (e.cards.length) props[winner] = e.cards[0];
        else placing = false;
      } else if (solo && props) props = props.filter((_, k) => k !== winner).concat(e.cards);
      else props = e.cards.slice();
    }
  }
  return props;
}

// The prestige buildings placed when the log's event `ctx.at` happened, in the order placed (the
// engine's prestige list: a delivery names its building by its place there). A stream brings a
// placement and its deliveries together, before the view holds the new building.
function prestigeThen(ctx) {
  const log = (ctx && ctx.log) || [];
  const last = Math.min(ctx && Number.isInteger(ctx.at) ? ctx.at : log.length - 1, log.length - 1);
  const cards = [];
  // Counted from the game's start only: a log that starts later (trimmed) leaves it to the view.
  if (!log.length || (log[0].event || {}).type !== 'game_started') return cards;
  for (let i = 0; i <= last; i++) {
    const e = log[i].event || {};
    if (e.type === 'prestige_placed' && typeof e.card === 'string') cards.push(e.card);
  }
  return cards;
}

// "proposal 2 (Salt Barrel)": numbered from 1 with its name, as the terminal client says it.
function proposalName(ctx, i) {
  const names = proposalsThen(ctx);
  if (!names || !names[i]) return L('label.proposal', { n: i + 1, has_name: 'false', name: '' });
  return L('label.proposal', { n: i + 1, has_name: 'true', name: cardName(ctx.view, names[i]) });
}

// The same for an action, from the view's proposals.
const proposalNow = (v, i) => proposalName({ view: v }, i);

// A tile by its number with what it is, whose and where ("7 (stall · clay · Blue, C7)"): the page
// shows no tile numbers, so "Buy access to tile 7" alone said nothing a player could find. Numbered
// from 1 as a person counts (the API's id 0 is tile 1; it said "tile 0"); one the view does not
// hold: its number alone.
function tileNamed(ctx, id) {
  const v = (ctx && ctx.view) || {};
  const t = (v.tiles || []).find((x) => x.id === id);
  if (!t || !(t.cells || []).length) return String(id + 1);
  return L('label.tile_named', { id: id + 1, kind: kindName(t, ((v.map || {}).colours || [])[t.cells[0]]), has_resource: String(!!t.resource),
    resource: t.resource ? word(t.resource) : '', owner: ownerName(ctx, t), square: squareName(v, t.cells[0]) });
}

// Where a prestige building stands on the map ("squares E1, F1, E2, F2"), from its tile.
function prestigeSquares(v, pb) {
  const t = (v.tiles || []).find((x) => x.id === pb.tile);
  return t && (t.cells || []).length ? h('small', { class: 'fg-where' }, sq(v, t.cells)) : null;
}

// Who delivered a required resource: a seat, -1 for a neutral token, nothing yet.
function deliveredBy(ctx, who) {
  if (who === null || who === undefined) return '';
  return ` ✓${who < 0 ? L('label.owner', { neutral: 'true' }) : seatName(ctx, who)}`;
}

function render(ctx) {
  const v = ctx.view;
  const cur = v.current;
  const costs = v.offer_costs || [];
  return h('div', { class: 'board-game fg' },
    h('div', { class: 'box' }, h('strong', {}, L('label.phase', { phase: v.phase || '', text: humanize(v.phase || '') })),
      cur ? [' · ', L('label.current', { ...seatArgs(ctx, cur.seat), role: cur.role || '', has_category: String(!!cur.category), category: cur.category === 'any' ? L('label.follow_any') : cur.category ? word(cur.category) : '' })] : '',
      ' · ', L('label.to_act', { who: catalog(FG).list((v.to_act || []).map((s) => seatName(ctx, s))) || L('web.nobody') }),
      v.active !== null && v.active !== undefined ? [' · ', L('label.active', { who: seatName(ctx, v.active) })] : ''),
    h('section', { class: 'box fg-board', 'aria-label': L('label.city_map') },
      h('h3', {}, L('label.map_title', { side: v.map.side || '' })), legend(), cityMap(ctx, v),
      (v.tiles || []).length ? [h('h3', {}, L('label.by_section')), bySection(ctx, v)] : null),
    h('section', { class: 'box fg-council', 'aria-label': L('label.council') },
      h('h3', {}, L('label.adviser_offer')),
      h('div', { class: 'tiles' }, (v.offer || []).map((a, i) => a === null || a === undefined ? h('div', { class: 'tile fg-adviser muted' }, h('h4', {}, L('label.empty_slot'))) : pick(h('div', { class: 'tile fg-adviser' }, h('h4', {}, cardName(v, a)), h('small', {}, L('label.cost', { n: costs[i] ?? '?' })), cardText(v, a) ? h('div', { class: 'small-print' }, cardText(v, a)) : null), 'slot', i, L('label.adviser_pick', { name: cardName(v, a) }))),
        h('small', {}, ' ', L('label.deck', { n: v.adviser_deck_size ?? '?' }))),
      h('h3', {}, L('label.proposals')),
      h('div', { class: 'tiles' }, (v.proposals || []).map((p, i) => pick(h('div', { class: 'tile fg-proposal' }, h('h4', {}, `${i + 1}. ${cardName(v, p)}`), cardText(v, p) ? h('div', { class: 'small-print' }, cardText(v, p)) : null), 'proposal', i, L('label.proposal', { n: i + 1, has_name: 'true', name: cardName(v, p) }))),
        h('small', {}, ' ', L('label.deck', { n: v.proposal_deck_size ?? '?' }))),
      h('h3', {}, L('label.prestige_buildings')),
      h('div', { class: 'tiles' }, (v.prestige || []).length ? v.prestige.map((pb) => h('div', { class: `tile fg-prestige${pb.complete ? ' used' : ''}` },
        h('h4', {}, `★ ${cardName(v, pb.card)}`), prestigeSquares(v, pb), h('div', {}, L('label.needs', { what: (pb.requires || []).map((r, i) => `${word(r)}${deliveredBy(ctx, (pb.delivered || [])[i])}`).join(', ') })),
        pb.neutral_claim && !pb.complete ? h('div', { class: 'fg-claim' }, L('label.neutral_claim')) : null,
        h('small', {}, L('label.prestige_state', { points: pb.points, complete: String(!!pb.complete), has_worker: String(pb.worker !== null && pb.worker !== undefined), worker: pb.worker !== null && pb.worker !== undefined ? seatName(ctx, pb.worker) : '', worker_you: seatArgs(ctx, pb.worker).who_you })))) : h('span', { class: 'muted' }, L('label.none_yet'))),
      h('div', { class: 'fg-completions' }, h('strong', {}, L('label.completions'), ' '), String(v.completions ?? 0)),
      voteBox(ctx, v), achievementsBox(ctx, v), soloBox(v),
      h('div', { class: 'small-print' }, L('label.council_line', { neutral: catalog(FG).list((v.neutral || []).map(word)) || L('value.none'), roads: v.roads_left, supply: amounts(catalog(FG), v.supply || {}) }))),
    h('div', { class: 'players-row' }, (v.players || []).map((p) => player(ctx, v, p))));
}

const raceName = (r) => word(String(r ?? ''));
const sq = (v, cells) => L('label.squares', { n: (cells || []).length, squares: (cells || []).map((c) => squareName(v, c)).join(', ') });
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

function outcomeNotes(game, ctx) {
  const out = (game && game.outcome) || {};
  // The safety end (RULES.md): round after round with nothing to vote on and nobody delivering.
  const stalled = out.reason === 'stalled'
    ? [L('label.stalled')]
    : [];
  const hist = out.shaping_history;
  if (!hist || typeof hist !== 'object') return stalled;
  const v = ((game && game.view) || {});
  const bs = Array.isArray(hist.buildings) ? hist.buildings : [];
  // The section by its id (section_id: left, middle, right), else by the English name the engine wrote.
  const places = ['left', 'middle', 'right'];
  const names = ((v.map || {}).section_names) || [];
  const section = (b) => (places.includes(b.section_id) ? sectionName(v, places.indexOf(b.section_id))
    : names.includes(b.section) ? sectionName(v, names.indexOf(b.section)) : b.section);
  const where = (b) => [b.section ? section(b) : null, hist.delivered_to ? L('label.delivery_tokens', { n: b.deliveries || 0 }) : null].filter(Boolean).join(', ');
  const listed = bs.map((b) => `${b.card ? cardName(v, b.card) : b.name}${where(b) ? ` (${where(b)})` : ''}`).join('; ');
  const who = seatName(ctx, hist.seat);
  return [
    ...stalled,
    `📜 ${L('label.history_card', { who, race: raceName(hist.race), card: hist.card })}`,
    L('label.history_blanks', { who }),
    listed ? L('label.history_buildings', { who, delivered: String(!!hist.delivered_to), listed }) : null,
  ].filter(Boolean);
}

// An offer slot as said ("2", "slot 2") and the adviser lying there ("2 (Envoy)").
function offerSlot(v, i, said) {
  const card = (v.offer || [])[i];
  return typeof card === 'string' ? `${said} (${cardName(v, card)})` : said;
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
    case 'slot': return Number.isInteger(value) ? offerSlot(v, value, L('label.slot', { n: value + 1 })) : null;
    case 'tile': return Number.isInteger(value) ? tileNamed(ctx, value) : null;
    case 'card': case 'target': case 'building': return typeof value === 'string' ? (value === 'race' ? L('label.your_race_action') : cardName(v, value)) : null;
    default: return null;
  }
}

// A field of an event or an action as the map and the board name it: squares "B5", proposals
// numbered from 1 with their names, cards as printed, slots from 1 (the catalog's templates say the rest).
function fieldValue(key, value, ctx) {
  const v = (ctx && ctx.view) || {};
  if (key === 'cell' && Number.isInteger(value)) return squareName(v, value);
  if (key === 'cells' && Array.isArray(value)) return value.map((c) => squareName(v, c)).join(', ');
  // (private_proposal: the shown seat's own secret vote, numbered from 1 as the buttons said it)
  if ((key === 'proposal' || key === 'winner' || key === 'private_proposal') && Number.isInteger(value)) return proposalName(ctx, value).replace(/^(⟦?)\D+?(?=\d)/, '$1'); // "1 (Tavern)": the template says "proposal"
  if (key === 'totals' && Array.isArray(value)) { // a vote's influence by proposal, named as they were then
    // a vote has three totals, also when fewer proposals were left on the table (the deck ran
    // low): only the proposals there were are named ("2 0 influence" was none of them)
    const names = proposalsThen(ctx) || [];
    const cat = catalog('founders-of-gloomhaven');
    const totals = names.length ? value.slice(0, names.length) : value;
    return cat.list(totals.map((n, i) => cat.t('label.votes', { name: names[i] ? cardName(v, names[i]) : String(i + 1), n })));
  }
  // private_card: the card one played face down, seen by its owner ("(Income)", as in the hand)
  if (['card', 'target', 'building', 'adviser', 'private_card'].includes(key) && typeof value === 'string') return cardName(v, value);
  if (key === 'tile' && Number.isInteger(value)) return tileNamed(ctx, value);
  // a delivery's building: its place in the prestige buildings, in the order they were placed
  // (the log's prestige_placed events up to this one; the view, which may not hold it yet, else)
  if (key === 'building' && Number.isInteger(value)) {
    const card = prestigeThen(ctx)[value] || ((v.prestige || [])[value] || {}).card;
    if (card) return cardName(v, card);
  }
  // a slot of the adviser offer with the adviser in it now ("Recruit the adviser in slot 2 (Envoy)")
  if (key === 'slot' && Number.isInteger(value)) return offerSlot(v, value, String(value + 1));
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

// What playing a card face up does (the catalog's effect.<card>), beside the move (face down it
// gives a basic action instead).
function actionEffect(a) {
  const cat = catalog(FG);
  return a.type === 'play_card' && a.face_up && typeof a.card === 'string' && cat.has(`effect.${a.card}`) ? cat.t(`effect.${a.card}`) : null;
}

export default { render, valueName, fieldValue, outcomeNames, outcomeNotes, actionEffect, optionTexts: OPTION_TEXTS };
