// The event log in words: per-game phrasing from the renderers, a generic sentence otherwise.
import { humanize, fmt } from './dom.js';

export const COLOURS = ['Red', 'Blue', 'Green', 'Yellow', 'Purple', 'Orange'];

export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return 'Someone';
  const base = ctx.seatNames ? ctx.seatNames[seat] : COLOURS[seat % COLOURS.length];
  return ctx.held && ctx.held.includes(seat) ? `${base} (you)` : base;
}

// The platform's own events (tablero.*), beside every engine's: who left or ran out of time.
const LEFT = { resigned: 'resigns', timeout: 'runs out of time and leaves the game', abandoned: 'has abandoned the game' };

function platformEvent(event, ctx) {
  const who = seatName(ctx, event.seat);
  const then = event.then === 'forfeit' ? 'and forfeits: the seat ranks last'
    : event.then === 'bot' ? 'a bot plays the seat from now on' : '';
  switch (event.type) {
    case 'tablero.turn_timed_out':
      return `${who} ran out of time for this turn${event.then === 'bot' ? ': a bot plays it' : ''}.`;
    case 'tablero.seat_left': {
      const did = LEFT[event.reason] || `leaves the game (${humanize(event.reason || '').toLowerCase()})`;
      return `${who} ${did}${then ? (event.then === 'forfeit' ? ` ${then}` : `; ${then}`) : ''}.`;
    }
    default:
      return null;
  }
}

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

export function describeEvent(event, ctx, renderer) {
  event = forShownSeat(event, ctx);
  const platform = String(event.type || '').startsWith('tablero.') ? platformEvent(event, ctx) : null;
  if (platform) return platform;
  if (renderer && renderer.describeEvent) {
    try {
      const s = renderer.describeEvent(event, ctx);
      if (s) return s;
    } catch (e) {
      console.warn('describeEvent failed', e);
    }
  }
  if (event.type === 'game_started') return typeof event.seats === 'number' ? `The game starts with ${event.seats} players.` : 'The game starts.';
  if (event.type === 'game_ended') return 'The game ends.';
  const who = 'seat' in event ? `${seatName(ctx, event.seat)}: ` : '';
  const rest = Object.entries(event).filter(([k]) => !['type', 'seat', 'private', 'secret'].includes(k));
  let text = `${who}${humanize(event.type).toLowerCase()}`;
  if (rest.length) text += ' — ' + rest.map(([k, v]) => `${humanize(k).toLowerCase()} ${fmt(v)}`).join('; ');
  if (event.private) {
    const mine = Object.values(event.private)[0];
    text += ` (only you see: ${fmt(mine)})`;
  }
  if (text.length > 240) text = `${text.slice(0, 237)}…`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}
