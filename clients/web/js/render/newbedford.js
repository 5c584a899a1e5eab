// New Bedford: the Town board (town spaces and buildings), the Whaling board (the
// whaling track, ranks 1st–3rd, sea tokens), and each player's board.
import { h, humanize, amounts } from '../dom.js';
import { seatName, COLOURS } from '../words.js';
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

const list = (xs) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}` : xs.join(''));

function whales(obj) {
  const parts = Object.entries(obj || {}).filter(([, n]) => n);
  return parts.length ? parts.map(([k, n]) => `${n}${WHALE[k] || ''} ${k}`).join(', ') : 'none';
}

function render(ctx) {
  const v = ctx.view;
  const ref = v.reference || {};
  const occ = v.occupancy || {};
  const spaces = ref.spaces || [];
  const town = spaces.filter((s) => s.board === 'town');
  const whaling = spaces.filter((s) => s.board !== 'town');
  const spaceTile = (s) => pick(h('div', { class: 'tile space' },
    h('h4', {}, s.name), h('div', {}, s.text), s.first_bonus_text ? h('small', {}, `1st: ${s.first_bonus_text}`) : null,
    h('div', { class: 'occ' }, workers(occ[s.id]))), 'space', s.id, `Place a worker on ${s.name}`);
  const tiles = v.building_tiles || {};
  const built = [];
  const forSale = [];
  for (const [id, b] of Object.entries(v.buildings || {})) (b.owner === null || b.owner === undefined ? forSale : built).push([id, b]);
  const buildingTile = ([id, b]) => {
    const t = tiles[id] || { name: spaceName(v, id) };
    const el = h('div', { class: `tile building ${b.owner !== null && b.owner !== undefined ? `owned c${b.owner}` : ''} ${b.used ? 'used' : ''}` },
      h('h4', {}, t.type === 'victory' ? '⭐ ' : '', t.name),
      h('div', {}, t.text),
      h('small', {}, b.owner !== null && b.owner !== undefined ? `${seatName(ctx, b.owner)}'s${b.used ? ' · used this round' : ''}` : `cost ${amounts(t.cost)}`),
      h('div', { class: 'occ' }, workers(occ[id])));
    return b.owner !== null && b.owner !== undefined ? pick(el, 'space', id, `Use ${t.name}`) : pick(el, 'build', id, `Build ${t.name}`);
  };
  const track = (v.whaling_track || []).map((row) => h('div', { class: `nb-row ${row.row === 0 ? 'return' : ''}` },
    h('div', { class: 'nb-row-name' }, row.name, row.row ? h('small', {}, ` · ${row.row}🥩`) : null),
    h('div', { class: 'nb-ranks' }, [1, 2, 3].map((rank) => {
      const ship = (row.ships || []).find((s) => s.rank === rank) || (row.row === 0 ? (row.ships || [])[rank - 1] : null);
      return pick(h('div', { class: 'nb-slot' }, ship ? h('span', { class: `ship c${ship.seat}`, title: `${seatName(ctx, ship.seat)}, ship ${ship.ship}` }, `⛵${ship.ship}`) : h('small', {}, `${rank}${['st', 'nd', 'rd'][rank - 1]}`)), 'to', row.row, `Launch to ${row.name}`);
    }))));
  const caps = new Map((((v.captains || {}).captains) || []).map((c) => [c.player, c]));
  const players = (v.players || []).map((p, s) => {
    const prev = (v.score_preview || [])[s] || {};
    if (caps.has(s)) return captainBox(ctx, v, p, s, caps.get(s), prev);
    return h('div', { class: `box player c${s} ${s === ctx.seat ? 'me' : ''}` },
      h('h3', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)}`, v.first_player === s ? ' ☸ first player' : '', prev.total !== undefined ? h('span', { class: 'muted' }, ` · ${prev.total} pts so far`) : null),
      h('div', {}, res(GOOD.money, `$${p.money}`, 'money'), res(GOOD.lumber, p.lumber, 'lumber'), res(GOOD.food, p.food, 'food'), res(GOOD.brick, p.brick, 'brick')),
      h('div', {}, 'Whales kept: ', whales(p.returned)),
      h('ul', { class: 'ships' }, (p.ships || []).map((sh) => { const li = h('li', {}, `⛵ Ship ${sh.ship}: ${sh.where}`, Object.values(sh.hold || {}).some(Boolean) ? ` — hold ${whales(sh.hold)}` : ''); return s === ctx.seat ? pick(li, 'ship', sh.ship, `Ship ${sh.ship}`) : li; })),
      h('div', {}, 'Workers placed: ', (p.workers || []).length ? p.workers.map((w) => spaceName(v, w)).join(', ') : 'none', ` (${(v.reference && v.reference.turn && v.reference.turn.workers) || 2} per round)`),
      prev.buildings && prev.buildings.length ? h('div', {}, 'Buildings: ', prev.buildings.map((b) => spaceName(v, b)).join(', ')) : null);
  });
  const aw = v.awaiting || {};
  return h('div', { class: 'board-game nb' },
    h('div', { class: 'box' }, h('strong', {}, `Round ${v.round} of ${(ref.turn && ref.turn.rounds) || 12}`), ` · ${humanize(v.phase || '')}`,
      aw.decision ? ` · ${seatName(ctx, aw.seat)} to ${humanize(aw.decision).toLowerCase()}` : '', v.final ? ' · final round' : ''),
    h('div', { class: 'nb-boards' },
      h('section', { class: 'box town', 'aria-label': 'Town board' }, h('h3', {}, '🏘 Town'),
        h('div', { class: 'tiles' }, town.map(spaceTile)),
        h('h3', {}, 'Buildings in town'), built.length ? h('div', { class: 'tiles' }, built.map(buildingTile)) : h('p', { class: 'muted' }, 'None built yet.'),
        h('details', { class: 'for-sale', open: true }, h('summary', {}, `Building tiles for sale (${forSale.length})`), h('div', { class: 'tiles' }, forSale.map(buildingTile)))),
      h('section', { class: 'box whaling', 'aria-label': 'Whaling board' }, h('h3', {}, '🌊 Whaling board'),
        h('div', { class: 'tiles' }, whaling.map(spaceTile)),
        h('div', { class: 'nb-track' }, track.slice().reverse()),
        h('div', {}, 'Sea tokens drawn: ', whales(v.sea_tokens)),
        h('div', {}, 'Ocean bag: ', Object.entries(v.bag || {}).map(([k, n]) => `${n}${WHALE[k]}`).join(' ')),
        v.sale ? h('div', { class: 'note' }, 'Sale: ', JSON.stringify(v.sale)) : null)),
    h('div', { class: 'players-row' }, players));
}

// A Captain (solo mode, El Océano Solitario): its Helm with the token, heading, orders,
// Building Project and limits, and what it owns.
function captainBox(ctx, v, p, s, c, prev) {
  const order = ((v.captains || {}).order || []).map((x) => seatName(ctx, x));
  return h('div', { class: `box player captain c${s}`, 'data-player': String(s) },
    h('h3', {}, h('span', { class: `dot c${s}` }), ` ${seatName(ctx, s)}`, h('small', { class: 'muted' }, ' · automa'), prev.total !== undefined ? h('span', { class: 'muted' }, ` · ${prev.total} pts so far`) : null),
    c.personality ? h('p', { class: 'muted small-print' }, c.personality) : null,
    h('div', {}, res(GOOD.money, `$${p.money}`, 'money'), res(GOOD.lumber, p.lumber, 'lumber'), res(GOOD.food, p.food, 'food'), res(GOOD.brick, p.brick, 'brick')),
    h('div', { class: 'helm', role: 'list', 'aria-label': `${c.title}'s Helm` }, (c.helm || []).map((x, i) => h('span', {
      role: 'listitem', class: `helm-step${i === c.helm_position ? ' at' : ''}`, title: i === c.helm_position ? 'the Helm token is here' : '',
    }, humanize(x)))),
    h('div', {}, h('strong', {}, 'Heading: '), c.heading_text || humanize(c.heading || ''), c.idle ? ' (idle)' : ''),
    h('ol', { class: 'orders' }, (c.orders || []).map((st) => h('li', {}, st.entries.join(' → ')))),
    h('div', {}, 'Whales kept: ', whales(p.returned), ` (${c.whales} of at most ${(c.limits || {}).whales ?? '—'})`),
    h('ul', { class: 'ships' }, (p.ships || []).map((sh) => h('li', {}, `⛵ Ship ${sh.ship}: ${sh.where}`, Object.values(sh.hold || {}).some(Boolean) ? ` — hold ${whales(sh.hold)}` : ''))),
    h('div', {}, `Buildings (${(c.buildings || []).length} of at most ${(c.limits || {}).buildings ?? '—'}): `, (c.buildings || []).length ? c.buildings.map((b) => spaceName(v, b)).join(', ') : 'none'),
    h('details', {}, h('summary', {}, 'Building Project'),
      h('div', {}, 'White: ', (c.building_project.white || []).map((b) => spaceName(v, b)).join(', ')),
      h('div', {}, 'Black: ', (c.building_project.black || []).map((b) => spaceName(v, b)).join(', ')),
      h('div', {}, 'Victory: ', (c.victory_order || []).map((b) => spaceName(v, b)).join(', '))),
    order.length ? h('small', { class: 'muted' }, `Turn order: ${order.join(' → ')}`) : null);
}

// Players beyond the seats are Captains: "Captain Starbuck" rather than a colour.
function seatNames(game) {
  const v = (game && game.view) || {};
  const caps = ((v.captains || {}).captains) || [];
  if (!caps.length) return null;
  const names = (v.players || []).map((_, i) => COLOURS[i % COLOURS.length]);
  for (const c of caps) names[c.player] = `Captain ${c.title || humanize(c.name)}`;
  return names;
}

// Display names for the ids in the final scores (buildings, spaces): "Seamen's Bethel".
function outcomeNames(game) {
  const v = (game && game.view) || {};
  const names = { ...NAMES };
  for (const s of ((v.reference || {}).spaces || [])) if (s.id && s.name) names[s.id] = s.name;
  for (const [id, t] of Object.entries(v.building_tiles || {})) if (t && t.name) names[id] = t.name;
  Object.assign(names, v.building_names || {});
  return names;
}

function describeAction(a, ctx) {
  const opts = ((ctx.view || {}).pending || {}).options || [];
  const o = opts.find((x) => deepEqual(x.action, a));
  // (the view's words name a fee's payee by player index, "pay $1 to seat 1": name them as the page does)
  if (o && o.text) return o.text.replace(/\bto seat (\d+)/g, (_, n) => `to ${seatName(ctx, Number(n))}`);
  const v = ctx.view || {};
  if (a.type === 'choose_starting_goods') return `Start with ${amounts({ lumber: a.lumber, food: a.food, brick: a.brick, money: a.money })}`;
  if (a.type === 'buy_goods') return `Buy 2 ${a.good} for $3`;
  if (a.type === 'buy_whale') return `Buy a ${a.kind} whale`;
  if (a.type === 'pick_whale') return `Take a ${a.kind} whale ${WHALE[a.kind] || ''}`;
  if (a.type === 'place_worker') {
    let t = spaceName(v, a.space);
    if (a.build) t += `: build ${spaceName(v, a.build)}`;
    if (a.ship) t += `: ship ${a.ship}`;
    if (a.to !== undefined) t += ` to space ${a.to}`;
    if (a.sell) t += `: sell ${amounts(a.sell)}`;
    return t;
  }
  if (a.type === 'return_ship') return `Pay lay for ${whales(a.pay)}; sell ${whales(a.sell)}`;
  return null;
}

function describeEvent(e, ctx) {
  const v = ctx.view || {};
  const who = seatName(ctx, e.seat);
  switch (e.type) {
    case 'game_started': {
      const caps = (e.captains || []).map((c) => `Captain ${humanize(c.name)}`);
      const blds = (e.buildings || []).map((b) => spaceName(v, b));
      return `The game starts; ${seatName(ctx, e.first_player)} has the Ship's Wheel and plays first${caps.length ? `, against ${list(caps)}` : ''}.${blds.length ? ` Buildings in play: ${blds.join(', ')}.` : ''}`;
    }
    case 'sale_opened': return `${who} goes to sell at the ${spaceName(v, e.space)}: ${list((e.kinds || []).map((k) => k))} may be sold.`;
    case 'goods_offered': return `${who} sells ${e.count} ${e.good}.`;
    case 'inn_workers_picked_up': return `${who} picks up their workers${(e.spaces || []).length ? ` from ${list(e.spaces.map((s) => spaceName(v, s)))}` : ''} (Inn), to place them again.`;
    case 'captain_whales_trimmed': return `${seatName(ctx, e.player)} keeps only the best whales (${whales(e.kept)}); ${whales(e.sold)} leave the game.`;
    case 'starting_goods_chosen': return `${who} starts with ${amounts(e.goods)}.`;
    case 'worker_placed': {
      let t = `${who} sends a worker to ${spaceName(v, e.space)}${e.first ? ' (first: bonus)' : ''}`;
      if (e.build) t += ` and builds ${spaceName(v, e.build)}`;
      if (e.launch || e.to !== undefined) t += ` and launches a ship${e.to !== undefined ? ` to space ${e.to}` : ''}`;
      if (e.prepare) t += ` and prepares ship ${e.prepare}`;
      if (e.pay && Object.keys(e.pay).length) t += `, paying ${amounts(e.pay)}`;
      if (e.gain && Object.keys(e.gain).length) t += `, taking ${amounts(e.gain)}`;
      return t + '.';
    }
    case 'goods_bought': return `${who} buys ${e.amount} ${e.good} for $${e.price}.`;
    case 'ships_moved': return `Every ship at sea sails one space toward home${(e.returning || []).length ? `; ${e.returning.length} return` : ''}.`;
    case 'whales_drawn': return `Whales are drawn from the bag: ${whales(e.drawn)}.`;
    case 'whale_picked': return `${who}'s ship ${e.ship} takes a ${e.kind} whale ${WHALE[e.kind] || ''}.`;
    case 'pick_passed': return `${who}'s ship ${e.ship} takes no whale.`;
    case 'ship_returned': return `${who}'s ship ${e.ship} comes home: lays paid $${e.lay_paid || 0}${e.sale_money ? `, sold for $${e.sale_money}` : ''}.`;
    case 'whale_bought': return `${who} buys a ${e.kind || ''} whale.`;
    case 'buy_passed': return `${who} buys nothing.`;
    case 'sale_closed': return 'The whale sale closes.';
    case 'round_ended': return `Round ${e.round} ends.`;
    case 'game_ended': return `The game ends. Scores: ${(e.scores || []).join(', ')}${(e.captains || []).length ? `; Captains: ${e.captains.map((c) => `${seatName(ctx, c.player)} ${c.total}`).join(', ')}` : ''}.`;
    case 'captain_heading': return `${seatName(ctx, e.player)} heads for ${humanize(e.heading || '').toLowerCase()}${e.roll ? ` (rolled ${e.roll})` : ''}.`;
    case 'captain_worker_placed': {
      let t = `${seatName(ctx, e.player)} sends a worker to ${spaceName(v, e.space)}${e.first ? ' (first: bonus)' : ''}`;
      if (e.build) t += ` and builds ${spaceName(v, e.build)}`;
      if (e.pay && Object.keys(e.pay).length) t += `, paying ${amounts(e.pay)}`;
      if (e.gain && Object.keys(e.gain).length) t += `, taking ${amounts(e.gain)}`;
      return t + '.';
    }
    case 'captain_worker_skipped': return `${seatName(ctx, e.player)} places no worker (${e.reason}).`;
    case 'captain_token_drawn': return `${seatName(ctx, e.player)} draws a token${e.kind ? `: ${e.kind}` : ''}.`;
    case 'captain_choice_offered': return `${seatName(ctx, e.chooser)} chooses for ${seatName(ctx, e.player)}.`;
    default: return null;
  }
}

// A value of an action's field in words, for the step-by-step move builder: spaces and buildings
// by name ("Town Hall", not "town_hall").
function valueName(path, value, ctx) {
  if (typeof value !== 'string') return null;
  const field = path.split('.').pop();
  return field === 'space' || field === 'build' || NAMES[value] ? spaceName((ctx && ctx.view) || {}, value) : null;
}

export default { render, describeAction, describeEvent, seatNames, outcomeNames, valueName, optionNames: NAMES };
