// Renderers by engine name; any other engine gets the generic one. Each renderer draws its board;
// its events and actions are worded by the engine's catalog (describeEvent/describeAction here,
// for every renderer alike: the renderer only names values its board's way, fieldValue).
import generic from './generic.js';
import ticTacToe from './tictactoe.js';
import newBedford from './newbedford.js';
import riverboat from './riverboat.js';
import phoenicia from './phoenicia.js';
import founders from './founders.js';
import goofspiel from './goofspiel.js';
import { describeEvent, seatName, special } from '../words.js';
import { catalog, actionLabel } from '../i18n.js';
import { describeGeneric } from '../compose.js';

const BY_ENGINE = {
  'tic-tac-toe': ticTacToe,
  'new-bedford': newBedford,
  riverboat,
  phoenicia,
  'founders-of-gloomhaven': founders,
  goofspiel,
};

function worded(engine, r) {
  const withEngine = (ctx) => ({ ...(ctx || {}), engine, seatNames: (ctx || {}).seatNames || (r.seatNames && ctx && ctx.game ? r.seatNames(ctx.game) : null) });
  return {
    ...r,
    describeEvent: (e, ctx) => describeEvent(e, withEngine(ctx), r),
    describeAction: (a, ctx) => {
      const c = withEngine(ctx);
      const label = actionLabel(catalog(engine), a, (s) => seatName(c, s), special(c, r)) || describeGeneric(a);
      const effect = r.actionEffect ? r.actionEffect(a, c) : null;
      return effect ? `${label} — ${effect}` : label;
    },
  };
}

// Each renderer module's own export gets the catalog's words too (one object, wherever imported).
for (const [engine, r] of Object.entries(BY_ENGINE)) {
  const w = worded(engine, r);
  r.describeEvent = w.describeEvent;
  r.describeAction = w.describeAction;
}

const cache = new Map();
export function rendererFor(engine) {
  if (BY_ENGINE[engine]) return BY_ENGINE[engine];
  if (!cache.has(engine)) cache.set(engine, worded(engine, generic));
  return cache.get(engine);
}
