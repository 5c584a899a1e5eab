// The event log in words: every sentence is the engine's catalog template (i18n.js); this module
// names seats and hands the renderers' value names (a square "B5", a cell numbered from 1) over.
import { catalog, describe, youOf } from './i18n.js';

// A seat's colour name (the platform's seat.colour message).
export function colour(i, engine) {
  return catalog(engine).t('seat.colour', { n: i });
}

export function seatName(ctx, seat) {
  const cat = catalog(ctx.engine);
  if (seat === null || seat === undefined) return cat.t('seat.someone');
  const base = ctx.seatNames && ctx.seatNames[seat] ? ctx.seatNames[seat] : colour(seat, ctx.engine);
  return isYou(ctx, seat) ? cat.t('seat.you', { name: base }) : base;
}

// A label's arguments for a seat: its name, and whether it is the viewer's ("Your mat", not
// "Red (you)'s mat": the templates' `who_you`, as for an event's acting seat).
export function seatArgs(ctx, seat) {
  return { who: seatName(ctx, seat), who_you: isYou(ctx, seat) ? 'true' : 'false' };
}

// The same for a list of seats: `who` names them all; `who_you` is 'true' when all are the viewer's,
// 'some' when the viewer's are among others (`who_others` names those: "tu jugada y la de Azul";
// `who_count`: how many).
// Hot seat (several seats held here): "your move" names no one among the players at the screen, so
// the seats are named, without the "(you)" every held seat has: "Waiting for Blue." (outside review).
export function seatsArgs(ctx, seats, cat = catalog(ctx.engine)) {
  const several = (ctx.held || []).length > 1;
  const who = several
    ? Object.assign((s) => seatName({ ...ctx, held: [] }, s), { you: () => false })
    : Object.assign((s) => seatName(ctx, s), { you: (s) => isYou(ctx, s) });
  const mine = youOf(cat, seats, who); // who_you, who_others, who_others_to, who_others_of
  const args = Object.fromEntries(Object.entries(mine).map(([a, b]) => [`who_${a}`, b]));
  return { who: cat.list(seats.map(who)), ...args, who_count: seats.length };
}

const isYou = (ctx, seat) => seat !== null && seat !== undefined && !!ctx.held && ctx.held.includes(seat);

// An event's secrets (`private`, by seat) for the seat shown only: in a hot seat the log was read
// with one seat's token, and the next player handed the device must not see the last one's bid.
// The seat shown is ctx.seat (null: a spectator), else the one seat held.
function forShownSeat(event, ctx) {
  if (!event.private) return event;
  const shown = ctx.seat !== undefined ? ctx.seat : (ctx.held || []).length === 1 ? ctx.held[0] : null;
  const { private: secrets, ...rest } = event;
  const mine = shown !== null && shown !== undefined ? secrets[String(shown)] : undefined;
  return mine === undefined ? rest : { ...rest, private: { [String(shown)]: mine } };
}

// `renderer.fieldValue(field, value, ctx)`: a value as that board names it, else null.
export function special(ctx, renderer) {
  if (!renderer || !renderer.fieldValue) return undefined;
  return (k, v) => {
    try {
      return renderer.fieldValue(k, v, ctx);
    } catch (e) {
      return null;
    }
  };
}

export function describeEvent(event, ctx, renderer) {
  event = forShownSeat(event, ctx);
  const who = Object.assign((s) => seatName(ctx, s), { you: (s) => isYou(ctx, s) });
  const text = describe(catalog(ctx.engine), event, who, special(ctx, renderer));
  return text.length > 240 ? `${text.slice(0, 237)}…` : text;
}
