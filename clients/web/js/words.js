// The event log in words: per-game phrasing from the renderers, a generic sentence otherwise.
import { humanize, fmt } from './dom.js';

export const COLOURS = ['Red', 'Blue', 'Green', 'Yellow', 'Purple', 'Orange'];

export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return 'Someone';
  const base = ctx.seatNames ? ctx.seatNames[seat] : COLOURS[seat % COLOURS.length];
  return ctx.held && ctx.held.includes(seat) ? `${base} (you)` : base;
}

export function describeEvent(event, ctx, renderer) {
  if (renderer && renderer.describeEvent) {
    try {
      const s = renderer.describeEvent(event, ctx);
      if (s) return s;
    } catch (e) {
      console.warn('describeEvent failed', e);
    }
  }
  if (event.type === 'game_started') return `The game starts with ${event.seats} players.`;
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
