// New Bedford: the Town board (town spaces and buildings), the Whaling board (the
// whaling track, ranks 1st–3rd, sea tokens), and each player's board.
import { h, humanize } from '../dom.js';
import { seatName, seatArgs, colour, describeEvent } from '../words.js';
import { catalog, amounts as amountsIn, value as named, pseudoLocale, the } from '../i18n.js';
import { pick, workers, res, deepEqual } from './common.js';

const WHALE = { right: '🐋', bowhead: '🐳', sperm: '🦈', empty: '🌊' };
const GOOD = { money: '💰', lumber: '🪵', food: '🥩', brick: '🧱' };

// The printed names of the town spaces and building tiles (engines/new_bedford/data.py), for
// where no view is at hand (the lobby's option "Buildings") and ids a view does not name; the
// view's own names come first. One source for every place the page names a building.
export const NAMES = {
  farm: 'Farm', forest: 'Forest', warehouse: 'Warehouse', general_store: 'General Store', town_hall: 'Town Hall',
  dockyard: 'Dockyard', city_pier: 'City Pier', bank: 'Bank', dry_dock: 'Dry Dock', lighthouse: 'Lighthouse',
  lumber_mill: 'Lumber Mill', schoolhouse: 'Schoolhouse', tavern: 'Tavern', tryworks: 'Tryworks', wharf: 'Wharf',
  counting_house: 'Counting House', mansion: 'Mansion', municipal_office: 'Municipal Office', seamens_bethel: "Seamen's Bethel",
  bakery: 'Bakery', brickyard: 'Brickyard', chandlery: 'Chandlery', cooperage: 'Cooperage', courthouse: 'Courthouse',
  inn: 'Inn', market: 'Market', post_office: 'Post Office', turners_mill: "Turner's Mill",
};

function spaceName(v, id) {
  const s = ((v.reference || {}).spaces || []).find((x) => x.id === id);
  return s ? s.name : (v.building_names || {})[id] || ((v.building_tiles || {})[id] || {}).name || NAMES[id] || humanize(id);
}


const L = (key, args) => catalog('new-bedford').t(key, args);
// A space's or a building's name, in the catalog's words (else the view's).
const nameOf = (v, id) => (catalog('new-bedford').has(`name.${id}`) ? L(`name.${id}`) : spaceName(v, id));
// With its article, where a sentence needs one: "Colocar un trabajador en la Granja".
const theOf = (v, id) => (catalog('new-bedford').has(`the.${id}`) ? the(catalog('new-bedford'), id) : nameOf(v, id));

function whales(obj) {
  const parts = Object.entries(obj || {}).filter(([, n]) => n);
  return parts.length ? parts.map(([k, n]) => `${WHALE[k] || ''} ${L(`amount.${k}`, { n })}`).join(', ') : L('label.no_whales'); // whales and sea tokens: feminine in Spanish (ninguna)
}

// Where a ship is, from its `at`, `row` and `rank` (the view's `where` is English).
function shipWhere(sh) {
  return L('label.ship_where', { at: sh.at, row: sh.row ?? 0, rank: sh.rank ?? 0, has_rank: String(!!sh.rank) });
}

function good(k, n, shown) {
  return res(GOOD[k], shown, L('label.good', { good: k }));
}

function render(ctx) {
  const v = ctx.view;
  const ref = v.reference || {};
  const occ = v.occupancy || {};
  const spaces = ref.spaces || [];
  const town = spaces.filter((s) => s.board === 'town');
  const whaling = spaces.filter((s) => s.board !== 'town');
  const cat = catalog('new-bedford');
  const spaceTile = (s) => pick(h('div', { class: 'tile space' },
    h('h4', {}, nameOf(v, s.id)), h('div', {}, cat.has(`effect.${s.id}`) ? L(`effect.${s.id}`) : s.text),
    h('div', { class: 'occ' }, workers(occ[s.id]))), 'space', s.id, L('label.place_on', { space: theOf(v, s.id) }));
  const tiles = v.building_tiles || {};
  const built = [];
  const forSale = [];
  for (const [id, b] of Object.entries(v.buildings || {})) (b.owner === null || b.owner === undefined ? forSale : built).push([id, b]);
  const buildingTile = ([id, b]) => {
    const t = tiles[id] || { name: spaceName(v, id) };
    const el = h('div', { class: `tile building ${b.owner !== null && b.owner !== undefined ? `owned c${b.owner}` : ''} ${b.used ? 'used' : ''}` },
      h('h4', {}, t.type === 'victory' ? '⭐ ' : '', nameOf(v, id)),
      h('div', {}, cat.has(`effect.${id}`) ? L(`effect.${id}`) : t.text),
      h('small', {}, b.owner !== null && b.owner !== undefined ? L('label.owned_by', { ...seatArgs(ctx, b.owner), used: String(!!b.used) }) : L('label.cost', { cost: amountsIn(cat, t.cost || {}) })),
      h('div', { class: 'occ' }, workers(occ[id])));
    return b.owner !== null && b.owner !== undefined ? pick(el, 'space', id, L('label.use', { building: nameOf(v, id) })) : pick(el, 'build', id, L('label.build', { building: nameOf(v, id) }));
  };
  const track = (v.whaling_track || []).map((row) => h('div', { class: `nb-row ${row.row === 0 ? 'return' : ''}` },
    h('div', { class: 'nb-row-name' }, L('label.track_row', { row: row.row }), row.row ? h('small', {}, ` · ${row.row}🥩`) : null),
    h('div', { class: 'nb-ranks' }, [1, 2, 3].map((rank) => {
      const ship = (row.ships || []).find((s) => s.rank === rank) || (row.row === 0 ? (row.ships || [])[rank - 1] : null);
      return pick(h('div', { class: 'nb-slot' }, ship ? h('span', { class: `ship c${ship.seat}`, title: L('label.ship_of', { who: seatName(ctx, ship.seat), ship: ship.ship }) }, `⛵${ship.ship}`) : h('small', {}, L('label.rank', { rank }))), 'to', row.row, L('label.launch_to', { row: L('label.track_row', { row: row.row }) }));
    }))));
  const caps = new Map((((v.captains || {}).captains) || []).map((c) => [c.player, c]));
  const players = (v.players || []).map((p, s) => {
    const prev = (v.score_preview || [])[s] || {};
    if (caps.has(s)) return captainBox(ctx, v, p, s, caps.get(s), prev);
    return h('div', { class: `box player c${s} ${s === ctx.seat ? 'me' : ''}` },
      h('h3', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)}`, v.first_player === s ? [' ☸ ', L('label.first_player')] : '', prev.total !== undefined ? h('span', { class: 'muted' }, ` · ${L('label.pts_so_far', { n: prev.total })}`) : null),
      h('div', {}, good('money', p.money, L('amount.money', { n: p.money })), good('lumber', p.lumber, p.lumber), good('food', p.food, p.food), good('brick', p.brick, p.brick)),
      h('div', {}, L('label.whales_kept'), ' ', whales(p.returned)),
      h('ul', { class: 'ships' }, (p.ships || []).map((sh) => { const li = h('li', {}, '⛵ ', L('label.ship', { ship: sh.ship, where: shipWhere(sh) }), Object.values(sh.hold || {}).some(Boolean) ? [' — ', L('label.hold', { whales: whales(sh.hold) })] : ''); return s === ctx.seat ? pick(li, 'ship', sh.ship, L('label.ship_n', { ship: sh.ship })) : li; })),
      h('div', {}, L('label.workers_placed'), ' ', (p.workers || []).length ? cat.list(p.workers.map((w) => nameOf(v, w))) : L('value.none'), ' ', L('label.per_round', { n: (v.reference && v.reference.turn && v.reference.turn.workers) || 2 })),
      prev.buildings && prev.buildings.length ? h('div', {}, L('label.buildings'), ' ', cat.list(prev.buildings.map((b) => nameOf(v, b)))) : null);
  });
  const aw = v.awaiting || {};
  return h('div', { class: 'board-game nb' },
    h('div', { class: 'box' }, h('strong', {}, L('label.round', { round: v.round, rounds: (ref.turn && ref.turn.rounds) || 12 })), ' · ', L('label.phase', { phase: named(cat, v.phase || '') }),
      aw.decision ? [' · ', L('label.awaiting', { who: seatName(ctx, aw.seat), decision: named(cat, aw.decision) + (aw.ship ? ` (${L('label.ship_n', { ship: aw.ship })})` : '') })] : '', v.final ? [' · ', L('label.final_round')] : ''),
    tieBreak(ctx, v),
    h('div', { class: 'nb-boards' },
      h('section', { class: 'box town', 'aria-label': L('label.town_board') }, h('h3', {}, '🏘 ', L('label.town')),
        h('div', { class: 'tiles' }, town.map(spaceTile)),
        h('h3', {}, L('label.buildings_in_town')), built.length ? h('div', { class: 'tiles' }, built.map(buildingTile)) : h('p', { class: 'muted' }, L('label.none_built')),
        h('details', { class: 'for-sale', open: true }, h('summary', {}, L('label.for_sale', { n: forSale.length })), h('div', { class: 'tiles' }, forSale.map(buildingTile)))),
      h('section', { class: 'box whaling', 'aria-label': L('label.whaling_board') }, h('h3', {}, '🌊 ', L('label.whaling_board')),
        h('div', { class: 'tiles' }, whaling.map(spaceTile)),
        h('div', { class: 'nb-track' }, track.slice().reverse()),
        h('div', {}, L('label.sea_tokens'), ' ', whales(v.sea_tokens)),
        h('div', {}, L('label.ocean_bag'), ' ', Object.entries(v.bag || {}).map(([k, n]) => `${n}${WHALE[k]}`).join(' ')),
        v.sale ? h('div', { class: 'note' }, saleNote(ctx, v.sale)) : null)),
    h('div', { class: 'players-row' }, players));
}

// When the best final total is shared, the tie-break that decided it (most whale tokens, then most
// money left unscored) with the rows that were level: the final scores fold that row away.
const TIEBREAKS = [['whale_tokens', ''], ['unscored_money', '$']];
export function tieBreakText(ctx, v) {
  const r = v.result || (ctx.game && ctx.game.outcome) || {};
  const rows = [...(r.details || []), ...(r.captains || [])].filter((d) => d && typeof d === 'object');
  if (rows.length < 2) return null;
  const best = Math.max(...rows.map((d) => d.total || 0));
  const tied = rows.filter((d) => (d.total || 0) === best && d.tiebreak && typeof d.tiebreak === 'object');
  if (tied.length < 2) return null;
  const who = (d) => seatName(ctx, d.player ?? d.seat);
  const level = [];
  const cat = catalog('new-bedford');
  const amount = (unit, n) => (unit ? L('amount.money', { n }) : String(n));
  for (const [key, unit] of TIEBREAKS) {
    const values = tied.map((d) => d.tiebreak[key] || 0);
    const listed = tied.map((d, i) => `${who(d)} ${amount(unit, values[i])}`).join(', ');
    const label = L('label.tiebreak', { key });
    if (new Set(values).size > 1) return L('label.tie_broken', { best, label, listed, has_level: String(!!level.length), level: level.join('; ') });
    level.push(L('label.tie_level', { label, value: amount(unit, values[0]) }));
  }
  return cat.t('label.tie_level_too', { best, level: level.join('; ') });
}

function tieBreak(ctx, v) {
  const t = tieBreakText(ctx, v);
  return t ? h('div', { class: 'box note tie-break', role: 'status', 'aria-label': L('label.tie_break') }, h('strong', {}, '⚖ '), t) : null;
}

// A Captain's heading id ("lumber", "launch:4", "combo:5") in the catalog's words.
export function headingText(h) {
  const [kind, row] = String(h || '').split(':');
  return L('label.heading_of', { kind, row: Number(row) || 0 });
}

// An entry of a Captain's Orders, the board's own ({check}, {building}, {change}, {loop}).
function orderEntry(v, captain, e) {
  if ('check' in e) return L('label.order_entry', { kind: e.check, captain });
  if ('building' in e) return L('label.order_entry', { kind: 'building', building: nameOf(v, e.building) });
  if (e.loop === 'reroll') return L('label.order_entry', { kind: 'reroll' });
  const kind = 'change' in e ? 'change' : 'loop';
  return L('label.order_entry', { kind, heading: headingText(e[kind]) });
}

// A whale sale under way (rulebook p.7) in words: who sells what, and who may still buy, in turn
// (the board showed the state's JSON: `Sale: {"turn":0,"seller":1,"queue":[0],...}`).
function saleNote(ctx, sale) {
  const cat = catalog('new-bedford');
  const queue = sale.queue || [];
  const turn = sale.turn || 0;
  const buyers = queue.slice(turn).concat(queue.slice(0, turn)).map((x) => seatName(ctx, x));
  return L('label.sale_pending', { seller: seatName(ctx, sale.seller), whales: amountsIn(cat, sale.whales || {}),
    ship: sale.ship, buyers_n: buyers.length, buyers: cat.list(buyers) });
}

// A Captain (solo mode, El Océano Solitario): its Helm with the token, heading, orders,
// Building Project and limits, and what it owns.
function captainBox(ctx, v, p, s, c, prev) {
  const order = ((v.captains || {}).order || []).map((x) => seatName(ctx, x));
  const cat = catalog('new-bedford');
  const personality = L('label.captain_personality', { name: c.name });
  const own = named(cat, c.name);
  return h('div', { class: `box player captain c${s}`, 'data-player': String(s) },
    h('h3', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)}`, h('small', { class: 'muted' }, ' · ', catalog('tablero').t('web.automa')), prev.total !== undefined ? h('span', { class: 'muted' }, ` · ${L('label.pts_so_far', { n: prev.total })}`) : null),
    personality.replace(/[⟦⟧]/g, '') ? h('p', { class: 'muted small-print' }, personality) : null,
    h('div', {}, good('money', p.money, L('amount.money', { n: p.money })), good('lumber', p.lumber, p.lumber), good('food', p.food, p.food), good('brick', p.brick, p.brick)),
    h('div', { class: 'helm', role: 'list', 'aria-label': L('label.helm_of', seatArgs(ctx, s)) }, (c.helm || []).map((x, i) => h('span', {
      role: 'listitem', class: `helm-step${i === c.helm_position ? ' at' : ''}`, title: i === c.helm_position ? L('label.helm_here') : '',
    }, headingText(x)))),
    h('div', {}, h('strong', {}, L('label.heading'), ' '), headingText(c.heading), c.idle ? [' ', L('label.idle')] : ''),
    h('ol', { class: 'orders' }, (c.order_entries || []).map((st) => h('li', {}, st.entries.map((e) => orderEntry(v, own, e)).join(' → ')))),
    restrictionsBox(own, c),
    h('div', {}, L('label.whales_kept'), ' ', whales(p.returned), ' ', L('label.of_at_most', { n: c.whales, max: (c.limits || {}).whales ?? '—' })),
    h('ul', { class: 'ships' }, (p.ships || []).map((sh) => h('li', {}, '⛵ ', L('label.ship', { ship: sh.ship, where: shipWhere(sh) }), Object.values(sh.hold || {}).some(Boolean) ? [' — ', L('label.hold', { whales: whales(sh.hold) })] : ''))),
    h('div', {}, L('label.captain_buildings', { n: (c.buildings || []).length, max: (c.limits || {}).buildings ?? '—' }), ' ', (c.buildings || []).length ? cat.list(c.buildings.map((b) => nameOf(v, b))) : L('value.none')),
    h('details', {}, h('summary', {}, L('label.building_project')),
      h('div', {}, L('label.project', { row: 'white' }), ' ', cat.list((c.building_project.white || []).map((b) => nameOf(v, b)))),
      h('div', {}, L('label.project', { row: 'black' }), ' ', cat.list((c.building_project.black || []).map((b) => nameOf(v, b)))),
      h('div', {}, L('label.project', { row: 'victory' }), ' ', cat.list((c.victory_order || []).map((b) => nameOf(v, b))))),
    order.length ? h('small', { class: 'muted' }, L('label.turn_order', { order: order.join(' → ') })) : null);
}

// The board's "Restricciones a Preparar y Zarpar" (solo p.13) and what they mean now, from its numbers.
export function restrictionLines(r) {
  const most = r.prepare_max_on_dock || 2;
  const onDock = r.on_dock || 0;
  return [L('label.restriction_prepare', { most }), L('label.restriction_launch'), L('label.restriction_combo'),
    L('label.restriction_now', { can_prepare: String(!!r.can_prepare), full: String(onDock >= most), on_dock: onDock })];
}

function restrictionsBox(who, c) {
  const r = c.restrictions;
  if (!r) return null;
  const lines = restrictionLines(r);
  return h('div', { class: 'restrictions', role: 'group', 'aria-label': L('label.restrictions_of', { who }) },
    h('strong', {}, L('label.restrictions'), ' '),
    h('ul', {}, lines.slice(0, 3).map((t) => h('li', {}, t))),
    h('div', { class: r.can_prepare ? 'muted' : 'note' }, lines[3]));
}

// Values the board words its own way in events and moves: a Captain's heading, Ahab's ship for a
// drawn token ("ship2").
// A building's owner that is a Captain reads `captain`: the fee for his building goes to the supply
// (solo p.12; the catalogs' event.worker_placed). The Captains' final scores (game_ended) are a list.
function fieldValue(key, value, ctx) {
  if ((key === 'heading' || key === 'rolled_heading') && typeof value === 'string') return headingText(value);
  const owner = key === 'owner' && Number.isInteger(value) ? (((ctx || {}).view || {}).players || [])[value] : null;
  if (owner && owner.captain) return 'captain';
  // the Captains' final scores (game_ended's `captains`), beside the player's: "Ahab 12 and Stubb 23"
  if (key === 'captains' && Array.isArray(value) && value.length && value.every((c) => c && typeof c === 'object' && 'total' in c)) {
    const cat = catalog('new-bedford');
    return cat.list(value.map((c) => `${named(cat, c.captain)} ${c.total}`));
  }
  const m = key === 'choice' && typeof value === 'string' ? /^ship(\d+)$/.exec(value) : null;
  return m ? L('label.ship_n', { ship: Number(m[1]) }) : null;
}

// Players beyond the seats are Captains: "Captain Starbuck" rather than a colour.
function seatNames(game) {
  const v = (game && game.view) || {};
  const caps = ((v.captains || {}).captains) || [];
  if (!caps.length) return null;
  const names = (v.players || []).map((_, i) => colour(i, 'new-bedford'));
  const cat = catalog('new-bedford');
  for (const c of caps) names[c.player] = cat.t('label.captain', { name: named(cat, c.name) });
  return names;
}

// Display names for the ids in the final scores (buildings, spaces): "Seamen's Bethel".
function outcomeNames(game) {
  const v = (game && game.view) || {};
  const names = { ...NAMES };
  for (const s of ((v.reference || {}).spaces || [])) if (s.id && s.name) names[s.id] = s.name;
  for (const [id, t] of Object.entries(v.building_tiles || {})) if (t && t.name) names[id] = t.name;
  Object.assign(names, v.building_names || {});
  // (in English the view's printed names stand, "Seamen's Bethel"; else the catalog's)
  const cat = catalog('new-bedford');
  if (cat.lang !== 'en' || pseudoLocale()) for (const id of Object.keys(names)) if (cat.has(`name.${id}`)) names[id] = cat.t(`name.${id}`);
  return names;
}

// A value of an action's field in words, for the step-by-step move builder: spaces and buildings
// by name ("Town Hall", not "town_hall").
function valueName(path, value, ctx) {
  if (typeof value !== 'string') return null;
  const field = path.split('.').pop();
  return field === 'space' || field === 'build' || NAMES[value] ? nameOf((ctx && ctx.view) || {}, value) : null;
}

// What a move does, beside its words: the building a worker goes to (or builds), from the catalog's
// effect.<building>; for a sale composed in steps, what it can pay (the view's pending.sell).
function actionEffect(a, ctx) {
  const cat = catalog('new-bedford');
  const pend = (ctx.view || {}).pending || {};
  const o = (pend.options || []).find((x) => x && deepEqual(x.action, a));
  const eff = (o && o.effect) || {};
  if (o && eff.sale) {
    const s = (pend.sell || {})[eff.space];
    if (!s) return null;
    const prices = s.prices || {};
    const have = s.have || {};
    const extra = s.first_of_kind_extra || {};
    const kinds = eff.sale.filter((k) => k in prices);
    const bonus = s.first_bonus_money || 0;
    const fee = s.fee || 0;
    const most = kinds.filter((k) => have[k]).reduce((t, k) => t + prices[k] * have[k] + (extra[k] || 0), 0) + bonus - fee;
    // the rulebook's words for the space: its prices, the Market's first good of each kind doubled
    return cat.t('label.sale', { prices: cat.list(kinds.map((k) => cat.t('label.sale_price', { good: named(cat, k), price: amountsIn(cat, { money: prices[k] }) }))),
      double: String(kinds.some((k) => extra[k] > 0)), most, bonus, fee, fee_to_supply: s.fee_to_supply ? 'true' : 'false', fee_who: s.fee_to_seat !== null && s.fee_to_seat !== undefined ? seatName(ctx, s.fee_to_seat) : '' });
  }
  if (o && a.type === 'sell_goods' && ('gain' in eff || 'pay' in eff)) return cat.t('label.sale_ends', { money: (o.net || {}).money || 0 });
  if (o && a.type === 'choose_for_captain' && eff.captain_event) return describeEvent(eff.captain_event, ctx, RENDERER);
  const target = a.type === 'place_worker' ? a.build || a.space : null;
  // the 1st-placement bonus only where this worker would take it (not after a Captain took it)
  const first = typeof eff.first_bonus === 'boolean' && !a.build ? { first: String(eff.first_bonus) } : {};
  const parts = target && cat.has(`effect.${target}`) ? [cat.t(`effect.${target}`, first)] : [];
  if (eff.fee && eff.fee.money) {
    parts.push(cat.t('label.fee', { money: eff.fee.money, who: seatName(ctx, eff.fee.to_seat), to_supply: eff.fee.to_supply ? 'true' : 'false' }));
  }
  return parts.length ? parts.join('; ') : null;
}

// The lobby's option texts: catalog keys by option (schema-form.js).
export const OPTION_TEXTS = {
  buildings: { label: 'label.option.buildings', hint: 'label.option.buildings_hint', values: { default: 'label.option.buildings.default', two_player: 'label.option.buildings.two_player', all: 'label.option.buildings.all' } },
  first_player: { label: 'label.option.first_player', hint: 'label.option.first_player_hint' },
  expert: { label: 'label.option.expert', hint: 'label.option.expert_hint' },
  turners_mill: { label: 'label.option.turners_mill', hint: 'label.option.turners_mill_hint' },
};

const RENDERER = { render, seatNames, outcomeNames, valueName, fieldValue, actionEffect, optionNames: NAMES, optionTexts: OPTION_TEXTS };
export default RENDERER;
