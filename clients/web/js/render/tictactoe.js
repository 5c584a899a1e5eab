// Tic-Tac-Toe: the 3×3 grid; a free cell is clicked to play it.
import { h } from '../dom.js';
import { seatName } from '../words.js';

function render(ctx) {
  const v = ctx.view;
  const marks = v.marks || ['X', 'O'];
  const cells = (v.rows || ['...', '...', '...']).join('').split('');
  return h('div', { class: 'ttt-wrap' },
    h('div', { class: 'ttt', role: 'grid', 'aria-label': 'Board' }, [0, 1, 2].map((r) => h('div', { role: 'row', class: 'ttt-row' },
      [0, 1, 2].map((c) => {
        const i = r * 3 + c;
        const m = cells[i] === '.' ? '' : cells[i];
        return h('div', {
          role: 'gridcell', class: `ttt-cell ${m ? 'mark-' + m : 'empty'}`, 'data-cell': String(i),
          'data-pick-field': 'cell', 'data-pick-value': String(i),
          'aria-label': `Row ${r + 1}, column ${c + 1}: ${m || 'empty'}`,
        }, m);
      })))),
    h('p', { class: 'muted' }, marks.map((m, s) => `${ctx.name(s)} plays ${m}`).join(' · ')));
}

export default { render };
