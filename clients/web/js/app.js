// Tablero in the browser: the lobby (#/), joining by link (#/join/<id>) and the game table (#/g/<id>).
import { api, ApiError, unwrapGame, statusOf, kindOf, requestId, seatsHeld, holdSeat, gamesHeld, forgetGame, why } from './api.js';
import { h, humanize, fmt, title } from './dom.js';
import { schemaForm } from './schema-form.js';
import { Composer, describeGeneric, setEngine } from './compose.js';
import { Watch } from './sse.js';
import { describeEvent, seatName, seatsArgs, colour } from './words.js';
import { LANGS, language, setLanguage, loadCatalog, catalog } from './i18n.js';
import { rendererFor } from './render/index.js';
import { shownLines } from './render/common.js';
import { result } from './scores.js';
import { takeTokenFromAddress, currentUser, signIn, signOut, seatOf } from './portal.js';
import { quickMatchPanel, ratingsPanel } from './quickmatch.js';
import { notifyControl } from './notify.js';

const T = (key, args, fallback) => catalog('tablero').t(key, args, fallback);
const main = document.getElementById('main');
const banner = document.getElementById('banner');
let current = null; // the open Table, stopped when the route changes
let carried = null; // a half-built move across a language switch (Composer.snapshot), for the Table drawn again
// Each route() call's number. A call that a newer one overtook while it waited (a link clicked
// while the lobby or a table was still loading) draws nothing and starts nothing: else the
// slower one drew over the newer page, and a table nobody showed kept its watch open.
let routeSeq = 0;
let enginesCache = null;

export function notify(text, kind = 'error') {
  banner.replaceChildren(text ? h('div', { class: `note ${kind}` }, h('span', {}, text), h('button', { type: 'button', class: 'small', 'aria-label': T('web.dismiss'), onclick: () => notify('') }, '✕')) : '');
}

async function engines() {
  if (!enginesCache) enginesCache = (await api('GET', '/v1/engines')).engines || [];
  return enginesCache;
}

// Two actions are the same move: the same fields with the same values, whatever their order.
function canonical(v) {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}
const sameAction = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

function engineTitle(name) {
  const cat = catalog(name);
  if (cat.has('title') && cat.messages['title'] !== catalog('tablero').messages['title']) return cat.t('title');
  const e = (enginesCache || []).find((x) => x.name === name);
  return e ? e.title || humanize(name) : humanize(name);
}

// The header's language switch (remembered by the browser); the page is drawn again in it.
const langSwitch = h('div', { class: 'lang' });
document.querySelector('header.top').append(langSwitch);
function drawLanguageSwitch() {
  const sel = h('select', { id: 'lang', onchange: async (ev) => {
    // a half-built move stays half-built: the table drawn again in the new language takes it back
    carried = current instanceof Table ? { id: current.id, seat: current.active, move: current.composer.snapshot() } : null;
    // the table left stops now: a reload of its own while the texts come would draw over the page
    // and take the half-built move meant for the table drawn again
    if (current) current.stop();
    setLanguage(ev.target.value);
    await loadTexts();
    drawLanguageSwitch();
    route();
  } }, LANGS.map((l) => h('option', { value: l, selected: l === language(), lang: l }, T('web.language_name', { lang: l }))));
  langSwitch.replaceChildren(h('label', { for: 'lang' }, T('web.language'), ' '), sel);
  const nav = document.querySelector('header.top nav a');
  if (nav) nav.textContent = T('web.lobby');
  // index.html's own words (written there for a page whose texts have not come yet)
  document.querySelector('header.top nav').setAttribute('aria-label', T('web.nav'));
  document.querySelector('a.skip').textContent = T('web.skip');
  document.querySelector('a.brand').textContent = T('web.brand');
  drawWho();
}

// The platform's texts and every engine's (engine names in the lobby, then its table's words).
async function loadTexts() {
  document.documentElement.lang = language();
  await loadCatalog('tablero');
  const list = await engines().catch(() => []);
  await Promise.all(list.map((e) => loadCatalog(e.name).catch(() => null)));
}

function link(path) {
  return `${location.origin}${location.pathname}#${path}`;
}

// --- portal sign-in ----------------------------------------------------------------------
const who = h('div', { class: 'who', id: 'who' });
document.querySelector('header.top').append(who);
let me = null; // the signed-in portal user: {token, user: {id, name}}
let signInFailed = false; // keep the sign-in form open to try again
let keepNote = false; // the next route keeps the banner (what signing in or out said)

function drawWho() {
  who.replaceChildren(me
    ? h('span', {}, T('web.signed_in_as'), ' ', h('strong', { id: 'who-name' }, me.user.name), ' ',
      h('button', { type: 'button', class: 'small', id: 'sign-out', onclick: () => {
        signOut();
        me = null;
        drawWho();
        notify(T('web.signed_out'), 'info');
        keepNote = true;
        route();
      } }, T('web.sign_out')))
    : h('a', { href: '#/', id: 'sign-in-link', onclick: () => setTimeout(openSignIn, 80) }, T('web.sign_in')));
}

function openSignIn() {
  const d = document.querySelector('details.portal');
  if (!d) return;
  d.open = true;
  document.getElementById('portal-token').focus();
}

async function startSignIn(token) {
  try {
    me = await signIn(token);
    notify(T('web.signed_in', { name: me.user.name }), 'info');
    signInFailed = false;
  } catch (e) {
    me = null;
    signInFailed = true;
    notify(T('web.sign_in_failed', { why: why(e) }));
  }
  drawWho();
  keepNote = true;
}

// --- routing ----------------------------------------------------------------------------
async function route() {
  const seq = ++routeSeq;
  const stale = () => seq !== routeSeq;
  if (current) current.stop();
  current = null;
  if (!keepNote) notify('');
  keepNote = false;
  const fromAddress = takeTokenFromAddress(); // a portal's sign-in link: #token=<jwt>
  if (fromAddress) await startSignIn(fromAddress);
  if (stale()) return;
  keepNote = false;
  // (a malformed escape such as %E0%A4%A stays as it is: decodeURIComponent would throw)
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  try {
    if (parts[0] === 'g' && parts[1]) {
      await engines().catch(() => []);
      if (stale()) return;
      current = new Table(parts[1]);
      await current.start();
    } else if (parts[0] === 'join' && parts[1]) await joinPage(parts[1], stale);
    else {
      await lobby(stale);
      if (stale()) return;
      // An address this page does not know (#/foo, #/g/ without a game): say so, not just the lobby.
      if (parts.length) notify(T('web.bad_link', { link: location.hash }));
    }
  } catch (e) {
    if (stale()) return;
    // A game link whose game this server does not have (a 404: no such game, or an id such as
    // ".." that makes no game path at all): say so, not the API's "no route /v1/".
    if (e.status === 404 && (parts[0] === 'g' || parts[0] === 'join')) {
      main.replaceChildren(h('section', { class: 'panel', id: 'not-found' }, h('h1', {}, T('web.not_found')),
        h('p', {}, T('web.not_found_why', { game: parts[1] })),
        h('p', {}, h('a', { href: '#/' }, T('web.back_to_lobby')))));
      document.title = T('web.page_title', { page: T('web.not_found_title') });
    } else main.replaceChildren(h('section', { class: 'panel' }, h('h1', {}, T('web.went_wrong')), h('p', {}, why(e)), h('p', {}, h('a', { href: '#/' }, T('web.back_to_lobby')))));
  }
  if (!stale() && document.activeElement === document.body) main.focus({ preventScroll: true });
}

window.addEventListener('hashchange', route);

// --- lobby -----------------------------------------------------------------------------
async function lobby(stale) {
  document.title = T('web.page_title', { page: T('web.lobby_title') });
  const list = await engines();
  if (stale()) return;
  const newGame = h('section', { class: 'panel', 'aria-labelledby': 'new-h' }, h('h2', { id: 'new-h' }, T('web.new_game')));
  const picker = h('div', { class: 'engines', role: 'radiogroup', 'aria-label': T('web.game') });
  const formBox = h('div', {});
  list.forEach((e, i) => {
    const id = `eng-${e.name}`;
    const radio = h('input', { type: 'radio', name: 'engine', id, value: e.name, checked: i === 0 });
    radio.addEventListener('change', () => formBox.replaceChildren(createForm(e)));
    picker.append(h('label', { class: 'engine', for: id }, radio, h('strong', {}, engineTitle(e.name)), h('small', {}, (e.minSeats === e.maxSeats ? T('web.players', { n: e.minSeats }) : T('web.players_range', { lo: e.minSeats, hi: e.maxSeats })))));
  });
  newGame.append(picker, formBox);
  if (list.length) formBox.append(createForm(list[0]));

  const open = h('section', { class: 'panel', 'aria-labelledby': 'open-h' }, h('h2', { id: 'open-h' }, T('web.open_games')));
  const openBody = h('div', {}, h('p', { class: 'muted' }, T('web.loading')));
  open.append(openBody, joinByLink());
  const mine = me ? signedInGames() : myGames();
  // Signed in, the user's games come first (on a phone they are what one opens the page for).
  // Signed in: quick match and ratings too (quickmatch.js).
  const rated = me ? [quickMatchPanel(me, list, engineTitle), ratingsPanel(me, list, engineTitle)] : [];
  main.replaceChildren(h('h1', { class: 'visually-hidden' }, T('web.lobby')), h('div', { class: 'lobby' }, ...(me ? [mine, rated[0], newGame, open, rated[1]] : [newGame, open, mine])));
  loadOpenGames(openBody);
}

// Engines with automa Captains (New Bedford's solo mode): the `captains` option, offered apart
// from the seats (Captains are players but never seats: they sit after the seats, whatever
// one ticks, and act by the solo rules), with the resulting table spelled out.
function captainNames(e) {
  const c = (((e.optionsSchema || {}).properties || {}).captains || {});
  return (c.items && c.items.enum) || [];
}

// "Captain Ahab", in the engine's words.
function captainName(engine, c) {
  const cat = catalog(engine);
  return cat.t('label.captain', { name: cat.has(`name.${c}`) ? cat.t(`name.${c}`) : title(c) });
}

function createForm(e) {
  const captains = captainNames(e);
  const capSchema = captains.length ? e.optionsSchema.properties.captains : {};
  const players = h('select', { id: 'players', name: 'players' });
  for (let n = e.minSeats; n <= e.maxSeats; n++) players.append(h('option', { value: String(n) }, String(n)));
  const seatsBox = h('div', { class: 'seats' });
  const seatSel = [];
  const capBoxes = captains.map((c) => h('input', { type: 'checkbox', id: `captain-${c}`, value: c }));
  const tableLine = h('p', { class: 'small-print', id: 'table-order', 'aria-live': 'polite' });
  const kindName = { me: T('web.kind.me'), human: me ? T('web.kind.someone') : T('web.kind.me'), open: T('web.kind.friend'), bot: T('web.kind.bot'), 'bot:medium': T('web.kind.bot_medium'), 'bot:hard': T('web.kind.bot_hard') };
  const drawSeats = () => {
    const n = Number(players.value);
    const kept = seatSel.map((s) => s.value);
    seatSel.length = 0;
    seatsBox.replaceChildren(...Array.from({ length: n }, (_, i) => {
      const id = `seat-${i}`;
      const sel = h('select', { id, name: id },
        me ? h('option', { value: 'me' }, T('web.seat_kind.me', { name: me.user.name })) : null,
        h('option', { value: 'human' }, me ? T('web.seat_kind.someone') : T('web.seat_kind.browser')),
        h('option', { value: 'open' }, T('web.seat_kind.friend')),
        h('option', { value: 'bot' }, T('web.seat_kind.bot_easy')),
        h('option', { value: 'bot:medium' }, T('web.seat_kind.bot_medium')),
        h('option', { value: 'bot:hard' }, T('web.seat_kind.bot_hard')));
      sel.value = kept[i] || (i === 0 ? (me ? 'me' : 'human') : 'bot');
      sel.addEventListener('change', seatsChanged);
      seatSel.push(sel);
      return h('div', { class: 'field seat' }, h('label', { for: id }, h('span', { class: `dot c${i}` }), ' ', T('web.seat_n', { n: i + 1, colour: colour(i) })), sel);
    }));
    seatsChanged();
  };
  // Options with one entry per seat (render as one choice per seat) follow the seats.
  let opts = null;
  function seatsChanged() {
    if (opts) opts.setSeats(seatSel.length);
    if (!captains.length) return;
    // At most maxSeats players in all (people and bots, then Captains), at most maxItems Captains.
    // More seats than leave room for the Captains ticked: the last ticked leave the table (and
    // the line below says so); seat counts with no room for those still ticked are disabled.
    const room = Math.min(capSchema.maxItems ?? captains.length, e.maxSeats - seatSel.length);
    const over = capBoxes.filter((b) => b.checked).slice(Math.max(room, 0));
    for (const b of over) b.checked = false;
    const chosen = capBoxes.filter((b) => b.checked).length;
    for (const b of capBoxes) b.disabled = !b.checked && chosen >= room;
    for (const o of players.options) o.disabled = Number(o.value) > e.maxSeats - chosen;
    const caps = capBoxes.filter((b) => b.checked).map((b) => b.value);
    const who = [...seatSel.map((sel, i) => `${colour(i)}: ${kindName[sel.value] || sel.value}`),
      ...caps.map((c, j) => `${colour(seatSel.length + j)}: ${captainName(e.name, c)}`)];
    const left = over.length ? T('web.captains_left', { captains: catalog('tablero').list(over.map((b) => captainName(e.name, b.value))), seats: seatSel.length, max: e.maxSeats }) : '';
    tableLine.textContent = T('web.at_the_table', { who: who.join(' · '), has_starbuck: String(!caps.length && seatSel.length === 1), starbuck: `${colour(1)}: ${captainName(e.name, 'starbuck')}`, left });
  }
  players.addEventListener('change', drawSeats);
  for (const b of capBoxes) b.addEventListener('change', seatsChanged);
  drawSeats();
  // Captains are chosen apart above, not again among the options.
  const schema = e.optionsSchema || {};
  opts = schemaForm(captains.length ? { ...schema, properties: Object.fromEntries(Object.entries(schema.properties || {}).filter(([k]) => k !== 'captains')) } : schema,
    rendererFor(e.name).optionNames || {}, rendererFor(e.name).optionTexts || {}, catalog(e.name));
  seatsChanged();
  const go = h('button', { type: 'submit', class: 'primary' }, T('web.start', { game: engineTitle(e.name) }));
  const form = h('form', { class: 'create', 'aria-label': T('web.new_game_of', { game: engineTitle(e.name) }) },
    h('div', { class: 'field' }, h('label', { for: 'players' }, captains.length ? T('web.seats_people_bots') : T('web.players_label')), players),
    h('fieldset', {}, h('legend', {}, T('web.who_sits')), seatsBox),
    captains.length ? h('fieldset', { class: 'captains' }, h('legend', {}, T('web.captains')),
      h('div', { class: 'row' }, captains.map((c, i) => h('span', { class: 'pill' }, capBoxes[i], h('label', { for: `captain-${c}` }, captainName(e.name, c))))),
      h('small', { class: 'hint' }, T('web.captains_hint', { starbuck: captainName(e.name, 'starbuck') })),
      tableLine) : null,
    h('details', { class: 'opts', open: Object.keys((e.optionsSchema || {}).properties || {}).length > 0 }, h('summary', {}, T('web.options')), opts.el),
    go);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    go.disabled = true;
    try {
      const seats = seatSel.map((s) => s.value);
      const options = opts.get();
      const caps = capBoxes.filter((b) => b.checked).map((b) => b.value);
      if (caps.length) options.captains = caps;
      const out = await api('POST', '/v1/games', { token: me ? me.token : undefined, body: { engine: e.name, players: seats.length, seats, options } });
      const game = unwrapGame(out);
      for (const s of out.seats || []) holdSeat(game.id, e.name, s.seat, s.token);
      if (!(out.seats || []).length) holdSeat(game.id, e.name, -1, '');
      location.hash = `#/g/${encodeURIComponent(game.id)}`;
    } catch (err) {
      notify(T('web.create_failed', { why: err.message }));
    } finally {
      go.disabled = false;
    }
  });
  return form;
}

// Open games: running games with a seat left for a friend (ListGames openSeats=true), to join;
// the other running games, which nobody can join, apart under "Watch".
async function loadOpenGames(box) {
  const list = (open) => api('GET', `/v1/games?pageSize=50&status=GAME_STATUS_RUNNING&openSeats=${open}`).then((out) => (out.games || []).map(unwrapGame));
  let joinable, full;
  try {
    [joinable, full] = await Promise.all([list(true), list(false)]);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 405)) {
      box.replaceChildren(h('p', { class: 'muted', id: 'no-lobby' }, T('web.no_lobby')));
    } else box.replaceChildren(h('p', { class: 'muted' }, T('web.games_unavailable', { why: why(e) })));
    return;
  }
  // A seat taken between the two answers, or a server that ignores openSeats: trust the seats.
  const all = [...joinable, ...full.filter((g) => !joinable.some((x) => x.id === g.id))];
  const free = (g) => (g.seats || []).filter((s) => kindOf(s) === 'open' && !s.claimed).length;
  const players = (g) => T('web.players', { n: g.players });
  const toJoin = all.filter((g) => free(g) > 0);
  const toWatch = all.filter((g) => free(g) === 0);
  box.replaceChildren(...[
    toJoin.length ? h('ul', { class: 'games', id: 'open-games' }, toJoin.map((g) => h('li', { 'data-game': g.id },
      h('strong', {}, engineTitle(g.engine)), ` · ${players(g)} · ${T('web.open_seats', { n: free(g) })} `,
      h('a', { class: 'button small', href: `#/join/${encodeURIComponent(g.id)}` }, T('web.join')), ' ',
      h('a', { class: 'button small', href: `#/g/${encodeURIComponent(g.id)}` }, T('web.watch')))))
      : h('p', { class: 'muted', id: 'no-open-games' }, T('web.no_open_games')),
    toWatch.length ? h('div', { class: 'watch-games' },
      h('h3', { id: 'watch-h' }, T('web.watch_games', { n: toWatch.length })),
      h('ul', { class: 'games', id: 'watch-games', 'aria-labelledby': 'watch-h' }, toWatch.map((g) => h('li', { 'data-game': g.id },
        h('a', { href: `#/g/${encodeURIComponent(g.id)}` }, engineTitle(g.engine)), h('span', { class: 'muted' }, ` · ${players(g)} · ${T('web.move_n', { n: g.version })}`))))) : null,
  ].filter(Boolean)); // (replaceChildren writes a null as the text "null")
}

function joinByLink() {
  const inp = h('input', { type: 'text', id: 'join-link', placeholder: T('web.join_placeholder'), autocomplete: 'off', 'aria-describedby': 'join-link-error' });
  // What is wrong with the link, said beside the field (the banner may be out of sight).
  const why = h('p', { class: 'field-error', id: 'join-link-error', 'aria-live': 'polite' });
  const form = h('form', { class: 'row', 'aria-label': T('web.join_by_link') }, h('label', { for: 'join-link' }, T('web.join_or_watch'), ' '), inp, h('button', { type: 'submit' }, T('web.go')), why);
  inp.addEventListener('input', () => { why.textContent = ''; });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const v = inp.value.trim();
    const m = v.match(/#\/(join|g)\/([^/?#\s]+)/);
    if (m) location.hash = `#/${m[1]}/${m[2]}`;
    else if (/^[\w-]+$/.test(v)) location.hash = `#/join/${v}`;
    else {
      why.textContent = !v ? T('web.join_empty')
        : /#\/(join|g)\/?$/.test(v) ? T('web.join_no_game')
          : /^https?:|#/.test(v) ? T('web.join_not_link')
            : T('web.join_neither');
      inp.focus();
    }
  });
  return form;
}

function signInForm() {
  const inp = h('input', { type: 'password', id: 'portal-token', autocomplete: 'off', spellcheck: 'false', placeholder: T('web.portal_token_placeholder') });
  const go = h('button', { type: 'submit' }, T('web.sign_in'));
  const form = h('form', { class: 'row sign-in', 'aria-label': T('web.sign_in_token') },
    h('label', { for: 'portal-token' }, T('web.portal_token'), ' '), inp, go);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    go.disabled = true;
    await startSignIn(inp.value);
    go.disabled = false;
    if (me) route();
  });
  return h('details', { class: 'portal', open: signInFailed }, h('summary', {}, T('web.sign_in_portal')),
    h('p', { class: 'muted' }, T('web.portal_hint')),
    form);
}

// Signed in: the user's games from the server (ListGames mine=true), by state.
function signedInGames() {
  const box = h('div', {}, h('p', { class: 'muted' }, T('web.loading')));
  loadSignedInGames(box);
  return h('section', { class: 'panel', 'aria-labelledby': 'mine-h' }, h('h2', { id: 'mine-h' }, T('web.my_games_of', { name: me.user.name })), box);
}

async function loadSignedInGames(box) {
  const user = me;
  let games;
  try {
    games = ((await api('GET', '/v1/games?mine=true&pageSize=100', { token: user.token })).games || []).map(unwrapGame);
  } catch (e) {
    if (e.status === 401) {
      signOut();
      me = null;
      drawWho();
      notify(T('web.signed_out_why', { why: why(e) }));
      box.replaceChildren(signInForm());
    } else box.replaceChildren(h('p', { class: 'muted' }, T('web.my_games_unavailable', { why: why(e) })));
    return;
  }
  // Whose turn: each running game as the user sees it (the JWT is the user's seat credential).
  const running = games.filter((g) => statusOf(g) !== 'finished');
  const full = await Promise.all(running.slice(0, 40).map((g) => api('GET', `/v1/games/${encodeURIComponent(g.id)}`, { token: user.token }).then(unwrapGame).catch(() => null)));
  const turnOf = new Map(full.filter(Boolean).map((g) => [g.id, (g.toAct || []).includes(seatOf(g, user))]));
  const groups = [
    ['your-turn', T('web.group.your_turn'), running.filter((g) => turnOf.get(g.id))],
    ['waiting', T('web.group.waiting'), running.filter((g) => !turnOf.get(g.id))],
    ['finished', T('web.group.finished'), games.filter((g) => statusOf(g) === 'finished')],
  ];
  const others = (g) => (g.seats || []).filter((s) => s.userId !== user.user.id).map((s) => s.userName || (kindOf(s) === 'bot' ? T('web.kind.bot') : kindOf(s) === 'open' && !s.claimed ? T('web.kind.open_seat') : T('web.kind.player')));
  box.replaceChildren(...(games.length ? groups.filter(([, , list]) => list.length).map(([key, label, list]) => h('div', { class: 'mine-group', 'data-group': key },
    h('h3', {}, `${label} (${list.length})`),
    h('ul', { class: 'games' }, list.map((g) => h('li', { 'data-game': g.id },
      h('a', { href: `#/g/${encodeURIComponent(g.id)}` }, `${engineTitle(g.engine)} · ${T('web.with', { who: catalog('tablero').list(others(g)) || T('web.nobody') })}`),
      h('span', { class: 'muted' }, ` · ${T('web.move_n', { n: g.version })}${g.createTime ? ` · ${new Date(Number(g.createTime) * 1000 || g.createTime).toLocaleDateString()}` : ''}`)))))) : [h('p', { id: 'mine-none' }, T('web.no_games_yet'))]),
  ...[heldGames(T('web.played_anonymously'), new Set(games.map((g) => g.id)))].filter(Boolean));
}

function heldGames(heading, except) {
  const held = gamesHeld().filter((g) => !except.has(g.id));
  if (!held.length) return null;
  return h('div', {}, h('h3', {}, heading), heldList(held));
}

function myGames() {
  const held = gamesHeld();
  return h('section', { class: 'panel', 'aria-labelledby': 'mine-h' }, h('h2', { id: 'mine-h' }, T('web.my_games')),
    h('p', { class: 'muted' }, T('web.my_games_hint')),
    signInForm(),
    held.length ? heldList(held) : h('p', {}, T('web.none_yet')));
}

// The games this browser holds seats in. A seat's token is kept only here: forgetting a running
// game gives its seat up for good (nobody can take it back, and the game waits for it forever),
// so only a finished game, or one the server no longer has, can be forgotten.
function heldList(held) {
  return h('ul', { class: 'games held' }, held.slice(0, 30).map((g) => {
    const state = h('span', { class: 'muted held-state' }, ' · …');
    const li = h('li', { 'data-game': g.id },
      h('a', { href: `#/g/${encodeURIComponent(g.id)}` }, `${engineTitle(g.engine)} · ${g.id}`),
      h('span', { class: 'muted' }, ` · ${new Date(g.at).toLocaleString()}`), state);
    const forget = (why) => {
      state.textContent = ` · ${why} `;
      state.after(h('button', { type: 'button', class: 'small', 'aria-label': T('web.forget_game', { game: g.id }), onclick: () => { forgetGame(g.id); li.remove(); } }, T('web.forget')));
    };
    if (!(g.seats || []).some((x) => x.token)) {
      forget(T('web.held.watched')); // nothing to lose
      return li;
    }
    api('GET', `/v1/games/${encodeURIComponent(g.id)}`).then(unwrapGame).then((game) => {
      if (statusOf(game) === 'finished') forget(T('web.held.finished'));
      else {
        state.textContent = ` · ${T('web.held.in_progress')}`;
        state.title = T('web.held.kept');
      }
    }, (e) => {
      if (e.status === 404) forget(T('web.held.gone'));
      else state.textContent = '';
    });
    return li;
  }));
}

// --- join by link ----------------------------------------------------------------------
async function joinPage(gameId, stale) {
  document.title = T('web.page_title', { page: T('web.join_title') });
  if (seatsHeld(gameId).some((s) => s.token)) {
    location.replace(`#/g/${encodeURIComponent(gameId)}`);
    return;
  }
  const game = unwrapGame(await api('GET', `/v1/games/${encodeURIComponent(gameId)}`));
  await engines().catch(() => []);
  if (stale()) return;
  const free = (game.seats || []).filter((s) => kindOf(s) === 'open' && !s.claimed);
  if (statusOf(game) === 'finished') {
    // A finished game has no seat to take: say so, and offer its final scores.
    main.replaceChildren(h('section', { class: 'panel', id: 'join-over' },
      h('h1', {}, T('web.join_over', { game: engineTitle(game.engine) })),
      h('p', {}, T('web.join_over_why', { n: game.players })),
      h('div', { class: 'row' }, h('a', { class: 'button primary', id: 'view-scores', href: `#/g/${encodeURIComponent(gameId)}` }, T('web.view_scores')),
        h('a', { class: 'button', href: '#/' }, T('web.back_to_lobby')))));
    return;
  }
  const go = h('button', { type: 'button', class: 'primary', id: 'join-button', disabled: !free.length || statusOf(game) === 'finished' }, T('web.take_seat'));
  go.addEventListener('click', async () => {
    go.disabled = true;
    try {
      const out = await api('POST', `/v1/games/${encodeURIComponent(gameId)}/join`, { token: me ? me.token : undefined, body: {} });
      holdSeat(gameId, game.engine, out.seat, out.token);
      location.hash = `#/g/${encodeURIComponent(gameId)}`;
    } catch (e) {
      notify(T('web.join_failed', { why: why(e) }));
      go.disabled = false;
    }
  });
  main.replaceChildren(h('section', { class: 'panel' },
    h('h1', {}, T('web.join_game_of', { game: engineTitle(game.engine) })),
    h('p', {}, T('web.join_seats', { n: game.players, free: free.length })),
    h('div', { class: 'row' }, go, h('a', { class: 'button', href: `#/g/${encodeURIComponent(gameId)}` }, T('web.just_watch')))));
}

// --- the game table ----------------------------------------------------------------------
class Table {
  constructor(gameId) {
    this.id = gameId;
    this.path = `/v1/games/${encodeURIComponent(gameId)}`;
    this.held = seatsHeld(gameId).filter((s) => s.token);
    this.active = this.held.length ? this.held[0].seat : null;
    this.events = [];
    this.version = 0;
    this.stopped = false;
    this.composer = new Composer({
      describe: (a) => this.describeAction(a),
      valueName: (path, v) => (this.renderer && this.renderer.valueName ? this.renderer.valueName(path, v, this.ctx()) : null),
      submit: (a) => this.submit(a),
      onChange: () => this.arm(),
    });
    this.el = {
      head: h('div', { class: 'table-head' }),
      board: h('div', { class: 'board', 'aria-label': T('web.the_game') }),
      turn: h('div', { class: 'turn', 'aria-live': 'polite' }),
      result: h('section', { class: 'result', 'aria-label': T('web.final_scores') }),
      // The log is a live region: a screen reader announces each move as it is added.
      log: h('ol', { class: 'log', reversed: true, 'aria-live': 'polite', 'aria-relevant': 'additions', 'aria-labelledby': 'log-h' }),
      live: h('span', { class: 'live', 'aria-live': 'polite' }, T('web.live.connecting')),
    };
    this.el.board.addEventListener('click', (ev) => this.onPick(ev));
    this.el.board.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') this.onPick(ev);
    });
  }

  token(seat = this.active) {
    const s = this.held.find((x) => x.seat === seat);
    return s ? s.token : undefined;
  }

  ctx() {
    return {
      ...this.ctxBase(),
      game: this.game, view: this.game.view || {}, seat: this.active,
      held: this.held.map((s) => s.seat), engine: this.game.engine,
      name: (s) => seatName(this.ctxBase(), s),
    };
  }

  ctxBase() {
    return { view: this.game && this.game.view, seat: this.active, held: this.held.map((s) => s.seat), engine: this.game && this.game.engine,
      seatNames: this.renderer && this.renderer.seatNames ? this.renderer.seatNames(this.game) : null };
  }

  async start() {
    try {
      this.game = unwrapGame(await api('GET', this.path, { token: this.token() }));
    } catch (e) {
      // A seat token kept here that the server refuses (its secret changed, a damaged token):
      // watch the game and say why, rather than a dead page. The token stays in the browser.
      if (!this.held.length || (e.status !== 401 && e.status !== 403)) throw e;
      notify(T('web.seat_refused', { why: why(e) }));
      this.held = [];
      this.active = null;
      this.game = unwrapGame(await api('GET', this.path));
    }
    // (a table the route left while it loaded draws nothing and opens no watch)
    if (this.stopped) return;
    const mySeat = seatOf(this.game, me);
    if (mySeat !== null && !this.held.some((s) => s.seat === mySeat)) {
      // The signed-in user's seat, on a device that has no token for it: JoinGame with the
      // portal JWT gives the seat's token again.
      try {
        const out = await api('POST', `${this.path}/join`, { token: me.token, body: {} });
        holdSeat(this.id, this.game.engine, out.seat, out.token);
        this.held = seatsHeld(this.id).filter((s) => s.token);
        this.active = out.seat;
        this.game = unwrapGame(await api('GET', this.path, { token: this.token() }));
      } catch (e) {
        if (e.status !== 401) throw e;
        signOut(); // an expired or revoked sign-in: watch, and say why
        me = null;
        drawWho();
        notify(T('web.signed_out_seat', { why: why(e) }));
      }
    }
    this.renderer = rendererFor(this.game.engine);
    await loadCatalog(this.game.engine).catch((e) => notify(e.message));
    if (this.stopped) return;
    setEngine(this.game.engine);
    document.title = T('web.page_title', { page: engineTitle(this.game.engine) });
    main.replaceChildren(h('section', { class: 'table', 'aria-label': T('web.game_table') },
      this.el.head,
      h('div', { class: 'layout' },
        h('div', { class: 'board-col' }, this.el.result, this.el.board),
        h('aside', { class: 'side' },
          h('section', { class: 'panel move', 'aria-label': T('web.turn_panel') }, this.el.turn, this.composer.el),
          h('section', { class: 'panel', 'aria-labelledby': 'log-h' }, h('h2', { id: 'log-h' }, T('web.log')), this.el.log)))));
    await this.loadLog();
    await this.refresh();
    if (this.stopped) return;
    this.watch = new Watch(this.id, {
      token: this.token(this.held.length ? this.held[0].seat : null),
      afterVersion: this.version,
      // The listed log's last hash: a log the server no longer holds (a Redis rollback
      // between the listing and the watch) starts the watch with a reset, not a silent gap.
      afterHash: (this.events.length && this.events[this.events.length - 1].version === this.version
        && this.events[this.events.length - 1].hash) || undefined,
      onEvent: (item) => {
        this.addEvents([item]);
        this.schedule();
      },
      onReset: (version) => {
        this.dropEventsAfter(version);
        this.schedule();
      },
      onEnd: () => {
        this.el.live.textContent = T('web.live.over');
        this.el.live.className = 'live over';
        this.schedule();
      },
      onState: (state, msg) => {
        this.watchState = state;
        this.el.live.textContent = state === 'live' ? T('web.live.live') : state === 'error' ? T('web.live.stopped', { why: msg }) : T('web.live.reconnecting');
        this.el.live.className = `live ${state}`;
        if (state === 'live') this.schedule(); // catch up after a reconnect
      },
    });
    // The browser's own word on the connection: offline, the page says so (a stream open across
    // the outage can look live while nothing comes); back online, it reconnects and catches up.
    this.onOffline = () => {
      this.el.live.textContent = T('web.live.offline');
      this.el.live.className = 'live offline';
    };
    this.onOnline = () => this.watch.kick();
    window.addEventListener('offline', this.onOffline);
    window.addEventListener('online', this.onOnline);
    if (navigator.onLine === false) this.onOffline();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.seatPoll);
    clearTimeout(this.timer);
    if (this.watch) this.watch.stop();
    if (this.onOnline) window.removeEventListener('online', this.onOnline);
    if (this.onOffline) window.removeEventListener('offline', this.onOffline);
  }

  async loadLog() {
    // What follows the events the page has (after a gap, only the missing ones).
    let after = this.version;
    let token = '';
    const all = [];
    for (;;) {
      const q = `?pageSize=1000${token ? `&pageToken=${encodeURIComponent(token)}` : `&afterVersion=${after}`}`;
      let out;
      try {
        out = await api('GET', `${this.path}/events${q}`, { token: this.token(this.held.length ? this.held[0].seat : null) });
      } catch (e) {
        // A long game whose early events a snapshot replaced (the server trims on snapshot):
        // the log starts at the first event still kept, and says so.
        const kept = !token && e.code === 'FAILED_PRECONDITION' && /afterVersion=(\d+)/.exec(e.message);
        if (!kept || Number(kept[1]) <= after) throw e;
        after = Number(kept[1]);
        this.noteTrimmed(after + 1);
        continue;
      }
      all.push(...(out.events || []));
      token = out.nextPageToken || '';
      if (!token) break;
    }
    this.addEvents(all);
  }

  noteTrimmed(first) {
    if (!this.el.trimmed) {
      this.el.trimmed = h('p', { class: 'log-trimmed' });
      this.el.log.before(this.el.trimmed);
    }
    this.el.trimmed.textContent = T('web.log_trimmed', { n: first });
  }

  addEvents(items) {
    const ctx = this.ctxBase();
    const fresh = items.filter((it) => it.version > this.version);
    // ctx.log and ctx.at: the events so far and this one's place, for a sentence that needs
    // what was true then (Founders' proposals at a vote), not the view now.
    ctx.log = this.events;
    for (const it of fresh) {
      this.version = it.version;
      this.events.push(it);
      ctx.at = this.events.length - 1;
      this.el.log.prepend(this.logLine(it, ctx));
    }
    // (Not `this.logSeat = this.active`: the lines before these may be worded for another seat —
    // the hot seat passed on, or a seat's secrets came, and draw() has not worded them again yet.)
  }

  logLine(it, ctx) {
    return h('li', { value: String(it.version), 'data-type': it.event.type }, describeEvent(it.event, ctx, this.renderer));
  }

  // The log tells only the shown seat's secrets: a hot seat that passes to another seat (or
  // "Playing as") words it again for that seat.
  redrawLog() {
    const ctx = { ...this.ctxBase(), log: this.events };
    this.el.log.replaceChildren(...this.events.map((it, i) => this.logLine(it, { ...ctx, at: i })).reverse());
    this.logSeat = this.active;
  }

  // The server lost the events after `version` (a Redis rollback): they leave the log.
  dropEventsAfter(version) {
    this.events = this.events.filter((e) => e.version <= version);
    for (const li of [...this.el.log.children]) if (Number(li.value) > version) li.remove();
    this.version = Math.min(this.version, version);
    this.secretsAt = Math.min(this.secretsAt || 0, version);
    notify(T('web.moves_lost'));
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 40);
  }

  async refresh() {
    if (this.stopped) return;
    if (this.refreshing) {
      // The reload under way loads once more before it ends: a caller (a move just made) waits for
      // it, so the move builder never comes back with the moves of the position before the move.
      this.again = true;
      return this.reloaded;
    }
    this.refreshing = true;
    let done;
    this.reloaded = new Promise((resolve) => { done = resolve; });
    try {
      do {
        this.again = false;
        await this.load();
      } while (this.again && !this.stopped);
      if (this.offline) notify(''); // the server is back: the note about it goes
      this.offline = false;
    } catch (e) {
      // (a move just not sent keeps its own note: it says what to do)
      if (!(this.offline && e.code === 'UNAVAILABLE')) notify(T('web.load_failed', { why: why(e) }));
      if (e.code === 'UNAVAILABLE') this.offline = true;
    } finally {
      this.refreshing = false;
      done();
    }
  }

  async load() {
    let game = unwrapGame(await api('GET', this.path, { token: this.token() }));
    const toAct = game.toAct || [];
    const mine = this.held.map((s) => s.seat);
    // Hot seat: act for whichever of my seats is to move, unless the player chose the seat
    // shown ("Playing as"): that choice holds until a move is made.
    if (this.active !== null && !toAct.includes(this.active) && this.chosen !== this.active) {
      const next = mine.find((s) => toAct.includes(s));
      if (next !== undefined) {
        this.active = next;
        game = unwrapGame(await api('GET', this.path, { token: this.token() }));
      }
    }
    let actions = [];
    if (statusOf(game) !== 'finished' && this.active !== null && (game.toAct || []).includes(this.active)) {
      const out = await api('GET', `${this.path}/legal-actions`, { token: this.token() });
      if (typeof out.version === 'number' && out.version !== game.version) this.again = true;
      actions = out.actions || [];
    }
    this.game = game;
    // Events the stream has not brought: it brings them itself when live, else read the log.
    if (game.version > this.version && this.watchState !== 'live') await this.loadLog();
    if (this.held.length > 1) await this.loadSecrets();
    if (this.stopped) return; // left meanwhile (another page, another language)
    this.draw(actions);
  }

  // A hot seat: the log and the stream are read with the first seat's token, so they hold that
  // seat's secrets only. The other seats' own secrets (a bid, a vote, a pile searched) come from
  // the log read with each one's token, merged into `private` by seat; the log still tells each
  // seat shown its own only (words.js).
  async loadSecrets() {
    const upTo = this.version;
    const from = Math.min(this.secretsAt || 0, upTo);
    if (upTo <= from) return;
    const at = new Map(this.events.map((e) => [e.version, e]));
    let changed = false;
    for (const s of this.held.slice(1)) {
      let after = from;
      let page = '';
      for (;;) {
        const q = `?pageSize=1000${page ? `&pageToken=${encodeURIComponent(page)}` : `&afterVersion=${after}`}`;
        let out;
        try {
          out = await api('GET', `${this.path}/events${q}`, { token: s.token });
        } catch (e) {
          const kept = !page && e.code === 'FAILED_PRECONDITION' && /afterVersion=(\d+)/.exec(e.message);
          if (!kept || Number(kept[1]) <= after) throw e;
          after = Number(kept[1]); // a trimmed log: from its first kept event
          continue;
        }
        for (const it of out.events || []) {
          const secret = it.event && it.event.private ? it.event.private[String(s.seat)] : undefined;
          const have = at.get(it.version);
          if (secret === undefined || !have || it.version > upTo) continue;
          have.event = { ...have.event, private: { ...(have.event.private || {}), [String(s.seat)]: secret } };
          changed = true;
        }
        page = out.nextPageToken || '';
        if (!page) break;
      }
    }
    this.secretsAt = upTo;
    if (changed) this.logSeat = undefined; // draw() words the log again
  }

  async submit(action) {
    this.chosen = null; // after a move, the hot seat follows the turn again
    try {
      const g = unwrapGame(await this.actOnLatest(action));
      if (g && g.view) this.game = g;
      notify('');
    } catch (e) {
      if (e.code === 'UNAVAILABLE') {
        // Nothing reached the server: the move is still to make, from the same position.
        this.offline = true;
        notify(T('web.move_not_sent', { why: why(e) }));
        return;
      }
      if (e.code === 'ABORTED') notify(T('web.move_stale'), 'info');
      else notify(T('web.move_refused', { why: why(e) }));
    }
    await this.refresh();
  }

  // `action`, chosen on the game at this.game.version. When other seats acted meanwhile (a bot's or
  // a friend's secret bid, worker or vote of a simultaneous choice) and it is still legal, it is
  // played on the game as it is now, as the terminal client does: what the others chose does not
  // change what the player chose. Otherwise the refusal stands (the game moved on).
  async actOnLatest(action, tries = 3) {
    const id = requestId(); // one move: a refused request's id is not kept, so it is sent again
    let expectedVersion = this.game.version;
    for (let n = 1; ; n++) {
      try {
        return await api('POST', `${this.path}/actions`, { token: this.token(), body: { action, requestId: id, expectedVersion } });
      } catch (e) {
        if (e.reason !== 'STALE_VERSION' || n >= tries) throw e;
        const legal = await api('GET', `${this.path}/legal-actions`, { token: this.token() });
        if (typeof legal.version !== 'number' || !(legal.actions || []).some((a) => sameAction(a, action))) throw e;
        expectedVersion = legal.version;
      }
    }
  }

  // An action in words: its catalog template, then what it does (the renderer's actionEffect).
  describeAction(a) {
    return this.renderer.describeAction(a, this.ctx());
  }

  draw(actions) {
    const g = this.game;
    if (this.logSeat !== this.active) this.redrawLog();
    const ctx = this.ctx();
    const finished = statusOf(g) === 'finished';
    const toAct = g.toAct || [];
    // Header: title, seats, links.
    const openSeats = (g.seats || []).filter((s) => kindOf(s) === 'open' && !s.claimed);
    this.el.head.replaceChildren(...[
      h('h1', {}, engineTitle(g.engine), h('span', { class: 'muted' }, ` · ${T('web.move_n', { n: g.version })}`)),
      h('ul', { class: 'seat-list', 'aria-label': T('web.players_label') }, (g.seats || []).map((s) => h('li', {
        class: `seat-chip c${s.seat}${toAct.includes(s.seat) ? ' to-act' : ''}${s.seat === this.active ? ' me' : ''}`,
      }, h('span', { class: `dot c${s.seat}` }), ` ${seatName(this.ctxBase(), s.seat)} `,
      h('small', {}, T('web.seat_kind', { kind: kindOf(s) === 'open' ? (s.claimed ? 'friend' : 'open') : kindOf(s), level: s.botLevel || 'easy' })),
      toAct.includes(s.seat) ? h('span', { class: 'badge' }, ' ', T('web.to_play')) : null)),
      // Players who are not seats (New Bedford's Captains) sit at the table too.
      ((this.ctxBase().seatNames) || []).slice((g.seats || []).length).map((name, i) => h('li', { class: `seat-chip automa c${(g.seats || []).length + i}` },
        h('span', { class: `dot c${(g.seats || []).length + i}` }), ` ${name} `, h('small', {}, T('web.automa'))))),
      this.held.length > 1 ? h('div', { class: 'row' }, T('web.playing_as'), ' ', this.held.map((s) => h('button', {
        type: 'button', class: `small${s.seat === this.active ? ' primary' : ''}`, 'aria-pressed': String(s.seat === this.active),
        onclick: () => { this.active = s.seat; this.chosen = s.seat; this.refresh(); },
      }, seatName({}, s.seat)))) : null,
      openSeats.length && !finished ? h('div', { class: 'invite' },
        h('label', { for: 'invite-link' }, T('web.invite', { n: openSeats.length }), ' '),
        h('input', { id: 'invite-link', readonly: true, value: link(`/join/${g.id}`), onfocus: (ev) => ev.target.select() }),
        h('button', { type: 'button', class: 'small', onclick: () => copy(link(`/join/${g.id}`)) }, T('web.copy_link'))) : null,
      h('div', { class: 'row small-print' }, this.el.live, ' · ', h('a', { href: link(`/g/${g.id}`), id: 'watch-link' }, T('web.spectator_link')), ' · ', h('a', { href: '#/' }, T('web.lobby_link'))),
      deadlines(g, this.ctxBase()),
      finished ? null : notifyControl(g.id, this.held),
    ].filter(Boolean));
    // Board.
    let board;
    try {
      board = this.renderer.render(ctx);
    } catch (e) {
      console.error(e);
      board = h('p', {}, T('web.draw_failed', { why: e.message }));
    }
    this.el.board.replaceChildren(board);
    // Turn.
    const me = this.active;
    let turnText;
    const waiting = () => T('web.waiting', seatsArgs(this.ctxBase(), toAct, catalog('tablero')));
    if (finished) turnText = T('web.over');
    else if (me === null) turnText = waiting();
    else if (toAct.includes(me)) turnText = T('web.turn', { who: seatName({ engine: g.engine }, me) });
    else turnText = waiting();
    const yourTurn = !finished && me !== null && toAct.includes(me);
    this.el.turn.replaceChildren(h('h2', { class: yourTurn ? 'your-turn' : '', id: 'turn-h' }, turnText));
    if (me === null && !finished) this.el.turn.append(h('p', { class: 'muted' }, T('web.watching')));
    this.el.result.replaceChildren(finished && g.outcome ? result(g, this.ctxBase(), this.renderer.outcomeNames ? this.renderer.outcomeNames(g) : null,
      this.renderer.outcomeNotes ? this.renderer.outcomeNotes(g, this.ctxBase()) : null) : '');
    this.el.result.hidden = !finished;
    this.composer.setActions(actions);
    if (carried && carried.id === this.id && carried.seat === me) this.composer.restore(carried.move);
    carried = null;
    // Joining a seat appends no event, so the stream cannot tell: look again while seats are open.
    clearTimeout(this.seatPoll);
    if (openSeats.length && !finished && !this.stopped) this.seatPoll = setTimeout(() => this.refresh(), 2500);
  }

  arm() {
    const keys = this.composer.pickable();
    const active = this.composer.actions.length > 0 && !this.composer.busy;
    for (const el of this.el.board.querySelectorAll('[data-pick-field]')) {
      const mine = [`${el.dataset.pickField}=${el.dataset.pickValue}`, el.dataset.pickAlso].filter(Boolean);
      const hit = active ? mine.find((k) => keys.has(k)) : undefined;
      const on = hit !== undefined;
      el.dataset.pickHit = hit || '';
      el.classList.toggle('pickable', on);
      // A grid's cells stay cells (a row holds gridcells only); other pieces become buttons.
      const cell = el.getAttribute('role') === 'gridcell';
      if (on) {
        el.setAttribute('tabindex', '0');
        if (!cell) el.setAttribute('role', 'button');
        // A button's name starts with what it shows (a card's name), then what choosing it does;
        // its lines apart ("cultivation, not taken — Phase cultivation", was "cultivationnot taken")
        const shown = shownLines(el).join(', ');
        const label = el.dataset.pickLabel;
        if (label && !cell) el.setAttribute('aria-label', shown && !label.includes(shown) ? `${shown} — ${label}` : label);
      } else {
        el.removeAttribute('tabindex');
        if (el.getAttribute('role') === 'button') {
          el.removeAttribute('role');
          el.removeAttribute('aria-label');
        }
      }
    }
  }

  onPick(ev) {
    if (ev.type === 'click' && ev.detail > 1) return; // a double click's second click is no second choice
    const el = ev.target.closest('.pickable');
    if (!el) return;
    ev.preventDefault();
    const hit = el.dataset.pickHit || `${el.dataset.pickField}=${el.dataset.pickValue}`;
    const at = hit.indexOf('=');
    this.composer.pick(hit.slice(0, at), hit.slice(at + 1));
  }
}

function copy(text) {
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(() => notify(T('web.copied'), 'info'), () => notify(text, 'info'));
  else notify(T('web.copy_this', { link: text }), 'info');
}

function deadlines(game, ctx) {
  const d = game.deadlines || game.deadline;
  if (!d || (Array.isArray(d) && !d.length)) return null;
  const list = Array.isArray(d) ? d : [d];
  return h('div', { class: 'deadlines' }, '⏱ ', list.map((x) => {
    if (x && typeof x === 'object') {
      const at = x.deadline || x.at || x.expiresAt || x.time;
      const when = at ? new Date(typeof at === 'number' && at < 1e12 ? at * 1000 : at) : null;
      const who = 'seat' in x ? seatName(ctx, x.seat) : T('web.deadline_turn');
      return h('span', { class: 'deadline' }, `${who}: ${when && !isNaN(when) ? T('web.deadline_by', { time: when.toLocaleTimeString(language()) }) : fmt(x)} `);
    }
    return h('span', { class: 'deadline' }, `${fmt(x)} `);
  }));
}

me = currentUser();
if (me && me.expired) {
  me = null;
  notify(T('web.sign_in_expired'));
}
drawWho();
// The switch is drawn once the platform's texts are here (never its keys), then again with all.
loadCatalog('tablero').catch(() => null).then(drawLanguageSwitch);
loadTexts().catch((e) => notify(e.message)).then(() => {
  drawLanguageSwitch();
  route();
});
